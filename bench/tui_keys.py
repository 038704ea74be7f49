"""Measure the TUI's input latency per key with Textual's Pilot: time from a key press until the app is
idle again (the key handled and the screen redrawn), per screen, optionally on a loaded host.

Usage: .venv/bin/python bench/tui_keys.py [--sysroot DIR] [--presses 30] [--load N]
(--load N starts N busy-looping child processes for the run and stops them after, to stand for a busy
host; run under `flock /work/wt/measure.lock` when others measure on the same machine).
Prints the median and p90 milliseconds per key and screen; the target is under 50 ms per key. The
"unbound" row (a key nothing handles) is the harness's own cost: Pilot's wait for the app to be idle.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SYSROOT = REPO / "tests" / "fixtures" / "lab-ssd"
SCREENS = (("1", "unbound", ("f12",)), ("1", "Stack", ("down", "up")), ("2", "TRIM", ("down", "up")),
           ("4", "Advice", ("down", "up")), ("6", "Monitor", ("down", "up")),
           ("5", "Runs", ("down", "up")))


def _spin() -> None:
    """A child that keeps one CPU busy (the load of a busy host)."""
    while True:
        pass


async def _measure(root_dir: str | None, presses: int) -> dict[str, list[float]]:
    from diskdoctor.app.tui.app import DiskDoctorApp
    from diskdoctor.probes.root import Root, live_root

    app = DiskDoctorApp(Root(root_dir) if root_dir else live_root())
    times: dict[str, list[float]] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause(0.5)
        for number, name, keys in SCREENS:
            start = time.perf_counter()
            await pilot.press(number)
            await pilot.pause()
            times.setdefault("switch", []).append(time.perf_counter() - start)
            await pilot.pause(0.5)
            for index in range(presses):
                key = keys[index % len(keys)]
                start = time.perf_counter()
                await pilot.press(key)
                await pilot.pause()
                times.setdefault(name, []).append(time.perf_counter() - start)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sysroot", default=str(DEFAULT_SYSROOT), help="a capture ('' for the live host)")
    parser.add_argument("--presses", type=int, default=30)
    parser.add_argument("--load", type=int, default=0, help="busy-looping children during the run")
    args = parser.parse_args()
    spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(args.load)]
    for spinner in spinners:
        spinner.start()
    try:
        times = asyncio.run(_measure(args.sysroot or None, args.presses))
    finally:
        for spinner in spinners:
            spinner.terminate()
            spinner.join()
    print(f"{'keys on':<10} {'median ms':>10} {'p90 ms':>8} {'n':>4}   (load: {args.load} busy processes)")
    for name, samples in times.items():
        ordered = sorted(samples)
        p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
        print(f"{name:<10} {statistics.median(samples) * 1000:>10.1f} {p90 * 1000:>8.1f} {len(samples):>4}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
