"""What the tools' checks under mpirun share: failures collected rather than stopping at the
first, and an MPI program run with the job's launcher and flags."""
import subprocess
import sys

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def shutdown_race(result):
    """Open MPI 4.1's runtime sometimes reports a rank that finished cleanly as "process rank N
    with PID 0 ... exiting improperly" (a race in its shutdown, open-mpi/ompi#7833, more
    frequent on a loaded machine): such a run says nothing of the program."""
    return result.returncode != 0 and "with PID 0 on" in result.stderr and "exiting improperly" in result.stderr


def run_mpi(mpiexec, flags, np, program, *args):
    command = [mpiexec, "-np", str(np), *flags, program, *args]
    for attempt in range(3):  # runs that met the shutdown race run again, at most twice
        result = subprocess.run(command, capture_output=True, text=True, timeout=240)
        if not shutdown_race(result):
            break
        print(f"Open MPI's shutdown race (PID 0, attempt {attempt + 1}): running again", file=sys.stderr)
    return result


def finish(passed):
    """Exits 1 listing the failures, else prints `passed`."""
    if failures:
        print("FAIL:\n  " + "\n  ".join(failures))
        sys.exit(1)
    print(passed)
