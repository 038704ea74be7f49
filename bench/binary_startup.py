"""Measure the single binary: its size, and its start-up against the venv install in the same run.

Each command runs as a whole process from the binary and from the venv's `diskdoctor`, the two in
alternating pairs (a busy machine slows both halves of a pair alike); the figures are medians and the
ratio is the median of the per-pair ratios. `--smoke` starts the TUI, reads the capture, draws the stack
tree and exits; `devices --json` is the CLI's quickest real command. With --breakdown it also times a
bare `python -c pass` from the venv, so the binary's own cost (unpacking, then its interpreter's start)
shows beside the interpreter's floor.
Usage: .venv/bin/python bench/binary_startup.py [--repeat 7] [--sysroot DIR] [--binary dist/diskdoctor]
       [--breakdown]
(build the binary first: bash packaging/build-binary.sh)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SYSROOT = REPO / "tests" / "fixtures" / "etcd-raid0-lvm-luks"


def wall(argv: list[str]) -> float:
    """Wall time of one run of `argv`; a failure ends the measurement with its message."""
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"binary_startup: {' '.join(argv)} failed: {done.stderr.strip()}")
    return seconds


def paired(first: list[str], second: list[str], repeat: int) -> tuple[list[float], list[float], float]:
    """Both commands' times in alternating pairs after one warm-up pair, and the median per-pair ratio
    first / second."""
    ours, theirs = [], []
    for index in range(repeat + 1):
        if index % 2:
            mine, base = wall(first), wall(second)
        else:
            base, mine = wall(second), wall(first)
        if index:
            ours.append(mine)
            theirs.append(base)
    return ours, theirs, statistics.median(a / b for a, b in zip(ours, theirs, strict=True))


def describe(samples: list[float]) -> str:
    """Median and range of a list of seconds, in ms."""
    return (f"median {statistics.median(samples) * 1000:6.0f} ms "
            f"(range {min(samples) * 1000:.0f}–{max(samples) * 1000:.0f})")


def main() -> None:
    """Print size and start-up figures for the binary and the venv."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--binary", default=str(REPO / "dist" / "diskdoctor"))
    parser.add_argument("--sysroot", default=str(DEFAULT_SYSROOT),
                        help="capture to read ('' reads this host)")
    parser.add_argument("--breakdown", action="store_true", help="also time a bare python -c pass")
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"binary_startup: no {args.binary} (build it: bash packaging/build-binary.sh)")
    venv = [str(Path(sys.executable).parent / "diskdoctor")]
    root = ["--sysroot", args.sysroot] if args.sysroot else []
    size = os.path.getsize(args.binary)
    print(f"binary size: {size / 2**20:.1f} MiB ({size:,} bytes); {args.repeat} pairs each, "
          f"sysroot: {args.sysroot or 'this host'}")
    for name, words in (("--smoke", ["--smoke"]), ("devices --json", ["devices", "--json"])):
        binary, installed, ratio = paired([args.binary, *words, *root], [*venv, *words, *root], args.repeat)
        print(f"{name:<15} binary {describe(binary)}; venv {describe(installed)}; binary / venv x{ratio:.2f}",
              flush=True)
    if args.breakdown:
        bare, _, _ = paired([sys.executable, "-c", "pass"], [*venv, "--version"], args.repeat)
        print(f"bare python -c pass (the venv's interpreter floor): {describe(bare)}")


if __name__ == "__main__":
    main()
