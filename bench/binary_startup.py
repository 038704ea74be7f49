"""Measure the single binary: its size, and start-up to the first screen against the venv install.

Start-up is the wall time of `diskdoctor --smoke` (start, read the host, draw the stack tree, exit),
median of several runs, for dist/diskdoctor and for the venv's `diskdoctor` in the same run.
Usage: .venv/bin/python bench/binary_startup.py [--repeat 7] [--sysroot DIR] [--binary dist/diskdoctor]
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


def smoke_times(command: list[str], sysroot: str | None, repeat: int) -> list[float]:
    """Wall times of `COMMAND --smoke [--sysroot DIR]`, one warm-up run discarded."""
    argv = [*command, "--smoke", *(["--sysroot", sysroot] if sysroot else [])]
    samples = []
    for _ in range(repeat + 1):
        start = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL)
        samples.append(time.perf_counter() - start)
        if done.returncode != 0:
            sys.exit(f"binary_startup: {' '.join(argv)} failed: {done.stderr.strip()}")
    return samples[1:]


def describe(samples: list[float]) -> str:
    """Median and range of a list of seconds."""
    return f"median {statistics.median(samples):.2f} s (range {min(samples):.2f}–{max(samples):.2f})"


def main() -> None:
    """Print size and start-up figures for the binary and the venv."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--binary", default=str(REPO / "dist" / "diskdoctor"))
    parser.add_argument("--sysroot", default=str(DEFAULT_SYSROOT),
                        help="capture to read ('' reads this host)")
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"binary_startup: no {args.binary} (build it: bash packaging/build-binary.sh)")
    venv_command = [sys.executable, "-m", "diskdoctor.app"]
    sysroot = args.sysroot or None
    binary_samples = smoke_times([args.binary], sysroot, args.repeat)
    venv_samples = smoke_times(venv_command, sysroot, args.repeat)
    size = os.path.getsize(args.binary)
    ratio = statistics.median(binary_samples) / statistics.median(venv_samples)
    print(f"binary size:             {size / 2**20:.1f} MiB ({size:,} bytes)")
    print(f"binary --smoke:          {describe(binary_samples)}")
    print(f"venv --smoke (same run): {describe(venv_samples)}")
    print(f"binary / venv:           {ratio:.1f}×  ({args.repeat} runs each, "
          f"sysroot: {sysroot or 'this host'})")


if __name__ == "__main__":
    main()
