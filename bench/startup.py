"""Measure each command's start-up against lsblk in the same run.

Each figure is the median wall time of the whole process (start, do the job on a fixture sysroot,
exit), one warm-up run discarded. lsblk reading the same fixture is the baseline the user compares with.
Usage: .venv/bin/python bench/startup.py [--repeat 9] [--sysroot DIR] [--command PATH]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SYSROOT = REPO / "tests" / "fixtures" / "etcd-raid0-lvm-luks"


def median_time(argv: list[str], repeat: int) -> float:
    """Median wall time of `argv` over `repeat` runs (after one warm-up run)."""
    samples = []
    for _ in range(repeat + 1):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                       check=False)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples[1:])


def main() -> None:
    """Time every command, then print a table with the ratio to lsblk."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--sysroot", default=str(DEFAULT_SYSROOT))
    parser.add_argument("--command", default=str(Path(sys.executable).parent / "diskdoctor"))
    args = parser.parse_args()
    tool, root = [args.command], ["--sysroot", args.sysroot]
    commands = {
        "diskdoctor --version": [*tool, "--version"],
        "diskdoctor --help": [*tool, "--help"],
        "diskdoctor devices --json": [*tool, "devices", "--json", *root],
        "diskdoctor devices": [*tool, "devices", *root],
        "diskdoctor trim --json": [*tool, "trim", "--json", *root],
        "diskdoctor bench wal --help": [*tool, "bench", "wal", "--help"],
        "diskdoctor --smoke (TUI to first screen)": [*tool, "--smoke", *root],
    }
    baseline = None
    if shutil.which("lsblk"):
        baseline = median_time(["lsblk", "--sysroot", args.sysroot, "-J", "-b"], args.repeat)
        print(f"{'lsblk --sysroot -J (same fixture)':<42} {baseline * 1000:7.0f} ms")
    for name, argv in commands.items():
        seconds = median_time(argv, args.repeat)
        ratio = f"  {seconds / baseline:5.1f}x lsblk" if baseline else ""
        print(f"{name:<42} {seconds * 1000:7.0f} ms{ratio}")


if __name__ == "__main__":
    main()
