"""What the tools' checks under mpirun share: failures collected rather than stopping at the
first, and an MPI program run with the job's launcher and flags."""
import subprocess
import sys

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def run_mpi(mpiexec, flags, np, program, *args):
    command = [mpiexec, "-np", str(np), *flags, program, *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=240)


def finish(passed):
    """Exits 1 listing the failures, else prints `passed`."""
    if failures:
        print("FAIL:\n  " + "\n  ".join(failures))
        sys.exit(1)
    print(passed)
