"""Measure the TUI's input latency per key with Textual's Pilot, per screen, optionally on a loaded host.

For every key it prints three figures:
- key to paint: from the key event's sending until the last frame the app rendered for it (the
  compositor's update handed to the driver); what a user waits for. 0 when nothing was repainted.
- UI-thread CPU: the event loop thread's own CPU time while the key was handled and painted.
- Pilot round trip: `pilot.press(key)` then `pilot.pause()`. Pilot waits for the process to be idle
  three times per key (each wait is at least one 20 ms sleep with under 1 ms of CPU in it), so this
  has a floor of its own: the "unbound" row (a key nothing handles) measures it in the same run, and
  the round trip minus that floor is printed beside it.
Usage: .venv/bin/python bench/tui_keys.py [--sysroot DIR] [--presses 30] [--load N] [--stack-keys]
(--load N starts N busy-looping child processes for the run and stops them after, to stand for a busy
host; run under `flock -x /work/wt/measure.lock` when others measure on the same machine).
The target is under 50 ms from key to paint on a busy 2-core host.
With --idle S it then leaves the app alone on the Stack screen and on the Monitor screen for S seconds
each and prints the CPU the whole process used there (every thread, % of one core; the target is under
1% on the Monitor screen with ~10 live devices: run it with --sysroot '' for the live host).
Frames are rendered as for a terminal but the headless driver writes nothing, so a real terminal's
output is not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SYSROOT = REPO / "tests" / "fixtures" / "lab-ssd"
SCREENS = (("1", "unbound", ("f12",)), ("1", "Stack", ("down", "up")), ("2", "TRIM", ("down", "up")),
           ("4", "Advice", ("down", "up")), ("6", "Monitor", ("down", "up")),
           ("5", "Runs", ("down", "up")))
STACK_KEYS = (("1", "Stack j/k", ("j", "k")), ("1", "Stack G/g", ("G", "g")),
              ("1", "Stack /typed", ("s", "d", "a", "backspace", "backspace", "backspace")),
              ("1", "switch 2/1", ("2", "1")))
"""With --stack-keys: the Stack screen's other keys (last/first row, each key typed in its `/` filter,
which is opened before and cleared after) and switching between two screens already visited."""
OPEN_BEFORE = {"Stack /typed": "slash"}
CLOSE_AFTER = {"Stack /typed": "escape"}
TARGET_MS = 50.0


@dataclass
class Samples:
    """Per-key figures of one screen, in seconds."""

    paint: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    round_trip: list[float] = field(default_factory=list)


def _spin() -> None:
    """A child that keeps one CPU busy (the load of a busy host)."""
    while True:
        pass


async def _idle(app: object, pilot: object, key: str, seconds: float) -> float:
    """Percent of one core the process used over `seconds` on the screen `key` opens, left alone."""
    await pilot.press(key)  # type: ignore[attr-defined]
    await asyncio.sleep(3)  # the first readings and the screen's first draw are not idle
    start, cpu = time.perf_counter(), time.process_time()
    await asyncio.sleep(seconds)
    return (time.process_time() - cpu) / (time.perf_counter() - start) * 100


async def _measure(root_dir: str | None, presses: int, idle: float,
                   stack_keys: bool = False) -> tuple[dict[str, Samples], list[float], dict[str, float]]:
    from diskdoctor.app.tui.app import DiskDoctorApp
    from diskdoctor.probes.root import Root, live_root

    app = DiskDoctorApp(Root(root_dir) if root_dir else live_root())
    painted: list[float] = []
    display = app._display

    def timed_display(screen: object, renderable: object) -> None:
        if renderable is not None:
            painted.append(time.perf_counter())
        display(screen, renderable)  # type: ignore[arg-type]

    app._display = timed_display  # type: ignore[method-assign]
    results: dict[str, Samples] = {}
    switches: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause(0.5)
        for number, name, keys in SCREENS + (STACK_KEYS if stack_keys else ()):
            start = time.perf_counter()
            await pilot.press(number)
            await pilot.pause()
            if name in dict.fromkeys(screen for _, screen, _ in SCREENS):
                switches.append(time.perf_counter() - start)
            if name in OPEN_BEFORE:
                await pilot.press(OPEN_BEFORE[name])
            await pilot.pause(0.5)
            await app.workers.wait_for_complete()
            samples = results.setdefault(name, Samples())
            for index in range(presses):
                key = keys[index % len(keys)]
                painted.clear()
                start, cpu = time.perf_counter(), time.thread_time()
                await pilot.press(key)
                await pilot.pause()
                samples.cpu.append(time.thread_time() - cpu)
                samples.round_trip.append(time.perf_counter() - start)
                samples.paint.append(painted[-1] - start if painted else 0.0)
            if name in CLOSE_AFTER:
                await pilot.press(CLOSE_AFTER[name])
                await pilot.pause()
        idle_cpu = {}
        for key, name in (("1", "Stack"), ("6", "Monitor")) if idle else ():
            idle_cpu[name] = await _idle(app, pilot, key, idle)
    return results, switches, idle_cpu


def _ms(values: list[float], quantile: float = 0.5) -> float:
    ordered = sorted(values)
    if quantile == 0.5:
        return statistics.median(ordered) * 1000
    return ordered[min(len(ordered) - 1, int(len(ordered) * quantile))] * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sysroot", default=str(DEFAULT_SYSROOT), help="a capture ('' for the live host)")
    parser.add_argument("--presses", type=int, default=30)
    parser.add_argument("--load", type=int, default=0, help="busy-looping children during the run")
    parser.add_argument("--idle", type=float, default=0, metavar="S",
                        help="then measure the idle CPU of the Stack and Monitor screens over S seconds each")
    parser.add_argument("--stack-keys", action="store_true",
                        help="also Stack's j/k, G/g, keys typed in its / filter, and switching 2/1")
    args = parser.parse_args()
    spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(args.load)]
    for spinner in spinners:
        spinner.start()
    try:
        results, switches, idle_cpu = asyncio.run(
            _measure(args.sysroot or None, args.presses, args.idle, args.stack_keys))
    finally:
        for spinner in spinners:
            spinner.terminate()
            spinner.join()
    floor = results["unbound"]
    floor_trip, floor_cpu = _ms(floor.round_trip), _ms(floor.cpu)
    print(f"load: {args.load} busy processes; {args.presses} keys per screen; medians (p90) in ms")
    print(f"{'keys on':<12} {'key to paint':>11} {'UI-thread CPU':>15} {'Pilot round trip':>18} "
          f"{'minus floor':>12}")
    for name, samples in results.items():
        print(f"{name:<12} {_ms(samples.paint):>6.1f} ({_ms(samples.paint, 0.9):>5.1f}) "
              f"{_ms(samples.cpu):>7.1f} ({_ms(samples.cpu, 0.9):>5.1f}) "
              f"{_ms(samples.round_trip):>9.1f} ({_ms(samples.round_trip, 0.9):>5.1f}) "
              f"{_ms(samples.round_trip) - floor_trip:>12.1f}")
    worst = max(_ms(s.paint) for name, s in results.items() if name != "unbound")
    print(f"harness floor (unbound key): round trip {floor_trip:.1f} ms, UI-thread CPU {floor_cpu:.1f} ms; "
          f"worst screen's key to paint {worst:.1f} ms = {worst / TARGET_MS:.2f}x the {TARGET_MS:.0f} ms "
          f"target")
    switch = statistics.median(switches) * 1000
    print(f"screen switch (Pilot round trip, first visit): median {switch:.0f} ms")
    for name, percent in idle_cpu.items():
        print(f"idle on the {name} screen for {args.idle:.0f} s: {percent:.2f}% of one core (whole process)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
