"""Measure each command's start-up against a bare `python -c pass` and lsblk, in the same run.

Each figure is the wall time of the whole process (start, do the job, exit). Every command runs paired
with its baselines (the order alternating), so a busy machine slows both halves of a pair alike; the
ratio quoted is the median of the per-pair ratios. Without --sysroot it reads this host (the issue's
targets are for a live host of about ten devices). lsblk reads the same root.
Usage: .venv/bin/python bench/startup.py [--repeat 15] [--sysroot DIR] [--command PATH] [--only 'trim --json']
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def wall(argv: list[str]) -> float:
    """Wall time of one run of `argv`, output discarded."""
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                   check=False)
    return time.perf_counter() - start


def paired(argv: list[str], baseline: list[str], repeat: int) -> tuple[float, float, float]:
    """(median seconds of `argv`, median seconds of `baseline`, median of the per-pair ratios), after one
    warm-up pair."""
    ours, theirs, ratios = [], [], []
    for index in range(repeat + 1):
        if index % 2:
            mine, base = wall(argv), wall(baseline)
        else:
            base, mine = wall(baseline), wall(argv)
        if index:
            ours.append(mine)
            theirs.append(base)
            ratios.append(mine / base)
    return statistics.median(ours), statistics.median(theirs), statistics.median(ratios)


def main() -> None:
    """Time every command, then print a table with the ratios to bare Python and to lsblk."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--sysroot", default=None, help="a capture folder (default: this host)")
    parser.add_argument("--command", default=str(Path(sys.executable).parent / "diskdoctor"))
    parser.add_argument("--only", action="append", default=[],
                        help="time only the commands whose name contains this (repeatable)")
    args = parser.parse_args()
    tool = [args.command]
    root = ["--sysroot", args.sysroot] if args.sysroot else []
    bare = [str(Path(args.command).parent / "python"), "-c", "pass"]
    if not Path(bare[0]).exists():
        bare = [sys.executable, "-c", "pass"]
    commands = {
        "diskdoctor --version": ([*tool, "--version"], None),
        "diskdoctor --help": ([*tool, "--help"], None),
        "diskdoctor devices --json": ([*tool, "devices", "--json", *root],
                                      ["lsblk", *root, "-J", "-O", "-b"]),
        "diskdoctor devices": ([*tool, "devices", *root], ["lsblk", *root]),
        "diskdoctor trim --json": ([*tool, "trim", "--json", *root], ["lsblk", *root, "-D"]),
        "diskdoctor bench wal --help": ([*tool, "bench", "wal", "--help"], None),
        "diskdoctor --smoke (TUI to first screen)": ([*tool, "--smoke", *root], None),
    }
    print(f"{'command':<42} {'ms':>6} {'bare ms':>8} {'x bare':>7} {'lsblk ms':>9} {'x lsblk':>8}")
    for name, (argv, lsblk) in commands.items():
        if args.only and not any(part in name for part in args.only):
            continue
        seconds, base, ratio = paired(argv, bare, args.repeat)
        line = f"{name:<42} {seconds * 1000:6.0f} {base * 1000:8.1f} {ratio:7.2f}"
        if lsblk and shutil.which("lsblk"):
            _, other, versus = paired(argv, lsblk, args.repeat)
            line += f" {other * 1000:9.1f} {versus:8.1f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
