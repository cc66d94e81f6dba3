#!/usr/bin/env python3
"""topocoll-tune under mpirun: a tiny sweep writes a well-formed decision table into a copy of a
calibration (every size covered by exactly one entry, each tuned one by an algorithm measured
there, native outside the tuned sizes), a second run for another operation keeps the first one's entries, topocoll-bench's auto
then reports the tabled choice at every tuned size (also when a hand edit names native), and
bad uses fail clearly. No timing is asserted: the winners are whatever the machine measured.

Usage: tune_check.py MPIEXEC TUNE BENCH CALIBRATION WORK-DIR [MPIEXEC-FLAGS...]
"""
import json
import os
import re
import shutil
import sys

from check_support import check, finish, run_mpi

mpiexec, tune, bench, calibration, work = sys.argv[1:6]
mpiexec_flags = sys.argv[6:]
NP = 4
SIZES = [64, 1024]


def run(program, *args, np=NP):
    return run_mpi(mpiexec, mpiexec_flags, np, program, *args)


def read(path):
    with open(path) as f:
        return json.load(f)


def entries_for(table, operation):
    return [d for d in table if d["operation"] == operation]


os.makedirs(work, exist_ok=True)
original = os.path.join(work, "original.calibration.json")
tuned = os.path.join(work, "tuned.calibration.json")
shutil.copyfile(calibration, original)
before = open(original).read()

sizes = ",".join(str(s) for s in SIZES)
result = run(tune, "--op", "alltoall", "--sizes", sizes, "--repeat", "2", "-i", "3", "-x", "1",
             "--calibration", original, "--output", tuned)
if result.returncode != 0:
    sys.exit(f"FAIL: topocoll-tune exited {result.returncode}: {result.stdout}\n{result.stderr}")
check(open(original).read() == before, "--output given, yet the calibration it read changed")
check("wrote " in result.stdout and tuned in result.stdout, f"no 'wrote ... {tuned}' line: {result.stdout}")

doc = read(tuned)
check(doc["format"] == "topocoll-calibration 1", "format")
check(doc["levels"] == json.loads(before)["levels"], "the calibration's measurements were not kept")
table = doc.get("decisions", [])
alltoall = entries_for(table, "alltoall")
check(len(alltoall) >= 1, f"no alltoall entries: {table}")
shape = alltoall[0]["shape"] if alltoall else ""
check(re.fullmatch(r"\S+:[0-9x+]+( \S+:[0-9x+]+)*", shape) is not None, f"shape {shape!r}")
for entry in alltoall:
    check(entry["ranks"] == NP and entry["shape"] == shape, f"entry for another communicator: {entry}")
    check(entry["from_bytes"] <= entry["to_bytes"], f"empty range: {entry}")
    for point in entry.get("measured", []):
        check(entry["from_bytes"] <= point["bytes"] <= entry["to_bytes"], f"evidence outside its range: {entry}")
        check(point["us"] > 0 and point["native_us"] > 0, f"times: {entry}")
        if entry["algorithm"] == "native":
            check(point["us"] == point["native_us"], f"native's own time differs: {entry}")
# The entries cover every size from 0 to the largest the file reads, one after another; below
# the first and above the last tuned size native answers.
ordered = sorted(alltoall, key=lambda e: e["from_bytes"])
check(ordered and ordered[0]["from_bytes"] == 0 and ordered[0]["algorithm"] == "native"
      and ordered[-1]["to_bytes"] == 2 ** 53 and ordered[-1]["algorithm"] == "native", f"ends: {ordered}")
for before_entry, after_entry in zip(ordered, ordered[1:]):
    check(after_entry["from_bytes"] == before_entry["to_bytes"] + 1, f"a gap or an overlap: {ordered}")
for size in SIZES:
    covering = [e for e in alltoall if e["from_bytes"] <= size <= e["to_bytes"]]
    check(len(covering) == 1, f"{size} bytes covered by {len(covering)} entries: {alltoall}")
    # The winner's row of the printed table names it.
    row = next((line for line in result.stdout.splitlines() if line.split()[:1] == [str(size)]), "")
    if covering:
        check(re.search(r"  " + re.escape(covering[0]["algorithm"]) + r" \(", row) is not None,
              f"row for {size} does not name {covering[0]['algorithm']}: '{row}'")

# Another operation into the same file: the alltoall entries stay.
again = run(tune, "--op", "gather", "--sizes", "64", "--repeat", "2", "-i", "3", "-x", "1", "--calibration", tuned)
check(again.returncode == 0, f"second run exited {again.returncode}: {again.stderr}")
merged = read(tuned)["decisions"]
check(entries_for(merged, "alltoall") == alltoall, "the gather run changed the alltoall entries")
# One size tuned: native everywhere (one entry) where native won at 64 B, else the winner at 64 B
# alone with native on both sides (which of the two is the machine's timing, not the test's).
gather = sorted(entries_for(merged, "gather"), key=lambda e: e["from_bytes"])
check(gather and gather[0]["from_bytes"] == 0 and gather[-1]["to_bytes"] == 2 ** 53
      and all(b["from_bytes"] == a["to_bytes"] + 1 for a, b in zip(gather, gather[1:])), f"gather entries: {gather}")
at_64 = [e for e in gather if e["from_bytes"] <= 64 <= e["to_bytes"]]
check(len(gather) == 1 and gather[0]["algorithm"] == "native"
      or len(gather) == 3 and at_64 == [gather[1]] and gather[1]["from_bytes"] == gather[1]["to_bytes"] == 64
      and gather[0]["algorithm"] == gather[2]["algorithm"] == "native", f"gather entries: {gather}")


def auto_says(path):
    """What topocoll-bench's auto reports at each tuned size, by size."""
    out = run(bench, "--format", "csv", "--algorithms", "auto", "--calibration", path, "-m", f"{SIZES[0]}:{SIZES[-1]}",
              "-i", "2", "-x", "0")
    check(out.returncode == 0, f"bench exited {out.returncode}: {out.stderr}")
    rows = [line.split(",") for line in out.stdout.splitlines()[1:]]
    check(all(row[-1] == "yes" for row in rows), f"auto's answers not valid: {out.stdout}")
    said = {int(k): v for k, v in re.findall(r"auto at (\d+) bytes per block runs (.*)", out.stderr)}
    check(sorted(said) == [64, 128, 256, 512, 1024], f"auto's lines at the swept sizes: {said}")
    return said


said = auto_says(tuned)
for size in SIZES:
    entry = next(e for e in alltoall if e["from_bytes"] <= size <= e["to_bytes"])
    table = f"the tuning table (alltoall, {NP} ranks, {shape}, {entry['from_bytes']}-{entry['to_bytes']} bytes per block)"
    if entry["algorithm"] == "auto":  # auto's model was measured the fastest: the table hands it the size
        check(re.fullmatch(r"\S+, chosen by the cost model, as " + re.escape(table) + " says", said.get(size, "")),
              f"auto at {size}: '{said.get(size)}', expected the model's choice as {table} says")
    else:
        expected = f"{entry['algorithm']}, chosen by {table}"
        check(said.get(size) == expected, f"auto at {size}: '{said.get(size)}', expected '{expected}'")

# Sizes in between that the bench sweeps (128, 256, 512) are covered too; none outside: the model.
check(all("the tuning table (" in v for v in said.values()),
      f"auto's lines: {said}")


def every_entry_naming(algorithm):
    """A copy of the tuned calibration whose entries all name `algorithm` (a hand edit)."""
    edited = read(tuned)
    for entry in edited["decisions"]:
        entry["algorithm"] = algorithm
    path = os.path.join(work, f"{algorithm}.calibration.json")
    with open(path, "w") as f:
        json.dump(edited, f)
    return path


# A hand edit naming native: auto runs the MPI library's own through the table.
for size, text in auto_says(every_entry_naming("native")).items():
    check(text.startswith("native, chosen by the tuning table"), f"auto at {size} with a native table: '{text}'")
# One naming auto: the table hands the size to the cost model, and says so.
for size, text in auto_says(every_entry_naming("auto")).items():
    check(re.fullmatch(r"\S+, chosen by the cost model, as the tuning table \(.*\) says", text) is not None,
          f"auto at {size} with an auto table: '{text}'")

# Below the tuned sizes: native, by the table's entry from 0 (nothing measured there says
# anything is faster).
below = run(bench, "--format", "csv", "--algorithms", "auto", "--calibration", tuned, "-m", "8", "-i", "2", "-x", "0")
check(re.search(r"auto at 8 bytes per block runs native, chosen by the tuning table \(alltoall, 4 ranks, \S+, 0-",
                below.stderr) is not None, f"below the tuned sizes: {below.stderr}")

# Bad uses: clear errors, no file written.
bad = run(tune, "--sizes", "0,64", "--calibration", original, "--output", os.path.join(work, "bad.json"), np=1)
check(bad.returncode != 0 and "'0' is not a block size in bytes" in bad.stderr, f"--sizes 0: {bad.stderr}")
check(not os.path.exists(os.path.join(work, "bad.json")), "a bad command wrote a file")
missing = run(tune, "--calibration", os.path.join(work, "none.json"), "--sizes", "64", np=1)
check(missing.returncode != 0 and "cannot be read" in missing.stderr, f"missing calibration: {missing.stderr}")
unknown = run(tune, "--op", "allreduce", "--calibration", original, np=1)
check(unknown.returncode != 0 and "unknown operation 'allreduce'" in unknown.stderr, f"--op allreduce: {unknown.stderr}")

finish(f"ok: {len(alltoall)} alltoall entries for {shape}, auto follows them")
