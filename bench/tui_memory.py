"""Does the TUI's memory level off across benchmark runs? Runs N short WAL runs on a tmpfs from the
Benchmark screen (Textual's Pilot, the real engine child) and prints the UI process's RSS after each,
plus the biggest Python allocation growth (tracemalloc) between the second run and the last."""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import subprocess
import sys
import tempfile
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.root import live_root
from test_bench_screen import fill_form, open_bench, text_of, until


def rss_mib() -> float:
    """Resident set size of this process."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def measure(directory: str, runs: int, seconds: str) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await open_bench(app, pilot)
        fill_form(screen, directory, seconds)
        snapshot = None
        for run in range(runs):
            screen.result = None
            await pilot.click("#bench-start") if run == 0 else await pilot.press("a")
            await until(pilot, lambda: screen.result is not None, timeout=60)
            await pilot.pause(0.2)
            gc.collect()
            if run == 1:
                snapshot = tracemalloc.take_snapshot()
            print(f"run {run + 1:>3}: RSS {rss_mib():6.1f} MiB · {text_of(app, '#bench-verdict')[:40]}",
                  flush=True)
        if snapshot is not None:
            top = tracemalloc.take_snapshot().compare_to(snapshot, "lineno")[:8]
            print("largest growth since run 2:")
            for stat in top:
                print(f"  {stat}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seconds", default="2")
    args = parser.parse_args()
    tracemalloc.start(10)
    with tempfile.TemporaryDirectory(prefix="dd-mem-") as folder:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256m", "tmpfs", folder], check=True)
        try:
            asyncio.run(measure(folder, args.runs, args.seconds))
        finally:
            subprocess.run(["umount", folder], check=False)
    os.sys.stdout.flush()


if __name__ == "__main__":
    main()
