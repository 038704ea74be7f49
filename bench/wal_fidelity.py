"""Compare the WAL engine with fio on the same directory: median ratios of p50, p99 and ops/s.

Alternates our engine and the equivalent fio job (`--output-format=json`) ROUNDS times, optionally also
running our engine under the TUI (headless, via Pilot) while it draws the live chart, and prints each run
and the median ratios ours/fio (1.00 = identical; the target is within 10%). With --tmpfs it also prints
our ops/s as a fraction of fio's on tmpfs, where fdatasync costs almost nothing: the engine's own overhead.

Usage (root, on a real filesystem; --make-loop builds a 1 GiB ext4 loop image under /var/tmp):
  .venv/bin/python bench/wal_fidelity.py --make-loop --rounds 5 --tui --tmpfs
  .venv/bin/python bench/wal_fidelity.py --dir /var/lib/etcd --rounds 5
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from diskdoctor.probes.engine.protocol import Failed, Finished
from diskdoctor.probes.engine.runner import EngineRun
from diskdoctor.probes.engine.runtime import EngineConfig
from diskdoctor.probes.engine.workloads.wal import WalResult
from diskdoctor.probes.fio_run import run_fio
from diskdoctor.probes.wal_params import WalParams, parse_size
from diskdoctor.probes.wal_target import describe_target
from loop_image import loop_ext4

LOOP_IMAGE_MIB = 1024


@dataclass
class Figures:
    """One run's p50 and p99 sync latency (ms) and ops/s."""

    p50: float
    p99: float
    ops: float
    ui_ms_per_interval: float | None = None
    """UI-process CPU time per drawn interval (TUI runs only): what the redraws cost."""


def ours(params: WalParams, directory: str) -> Figures:
    """Our engine child, exactly as `diskdoctor bench wal` runs it."""
    target = describe_target(directory, params.size)
    final = EngineRun(EngineConfig("wal", target.directory, params, list(target.layers))).wait()
    return _figures(final.result if isinstance(final, Finished) else final)


def _figures(result: WalResult | Failed | None) -> Figures:
    if not isinstance(result, WalResult):
        raise SystemExit(f"engine run failed: {getattr(result, 'message', result)}")
    return Figures((result.sync.percentile(50) or 0) / 1e6, (result.sync.percentile(99) or 0) / 1e6,
                   result.ops_per_s or 0.0)


def fio(params: WalParams, directory: str) -> Figures:
    """The equivalent fio job in a scratch dir of the same directory."""
    stats = run_fio(params, directory)
    return Figures(stats.percentiles_ns[50.0] / 1e6, stats.percentiles_ns[99.0] / 1e6, stats.ops_per_s)


def ours_under_tui(params: WalParams, directory: str) -> Figures:
    """Our engine started from the Benchmark screen of the real app (headless) while it draws live."""
    from diskdoctor.app.tui.app import DiskDoctorApp
    from diskdoctor.probes.root import live_root

    cpu: list[float] = []

    async def drive() -> WalResult | None:
        app = DiskDoctorApp(live_root())
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.press("3")
            await app.workers.wait_for_complete()
            screen = app.screen
            started = time.process_time()
            screen.start_run(params, directory)  # type: ignore[attr-defined]
            await app.workers.wait_for_complete()  # no polling: the app only works when data arrives
            await pilot.pause()
            cpu.append(time.process_time() - started)
            return screen.result  # type: ignore[attr-defined]

    result = asyncio.run(drive())
    figures = _figures(result)
    if isinstance(result, WalResult) and result.duration_s:
        figures.ui_ms_per_interval = cpu[0] * 1e3 / max(result.duration_s / EngineConfig.interval_s, 1)
    return figures


def compare(params: WalParams, directory: str, rounds: int, tui: bool) -> None:
    """Alternate the runs, print each, then the median ratios."""
    kinds = [("ours", ours), ("fio", fio)] + ([("ours+tui", ours_under_tui)] if tui else [])
    runs: dict[str, list[Figures]] = {name: [] for name, _ in kinds}
    for index in range(rounds):
        order = kinds if index % 2 == 0 else kinds[::-1]
        for name, run in order:
            figures = run(params, directory)
            runs[name].append(figures)
            ui_cpu = figures.ui_ms_per_interval
            ui = f"  UI CPU {ui_cpu:.0f} ms/interval" if ui_cpu else ""
            print(f"round {index + 1} {name:<9} p50 {figures.p50:8.4f} ms  p99 {figures.p99:8.4f} ms  "
                  f"{figures.ops:9,.0f} ops/s{ui}", flush=True)
    for name in [n for n, _ in kinds if n != "fio"]:
        pairs = list(zip(runs[name], runs["fio"], strict=True))
        medians = {key: statistics.median(getattr(a, key) / getattr(b, key) for a, b in pairs)
                   for key in ("p50", "p99", "ops")}
        print(f"median ratio {name}/fio: " + "  ".join(f"{k} {v:.2f}" for k, v in medians.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--dir", help="directory on the filesystem to test")
    where.add_argument("--make-loop", action="store_true", help="use a fresh ext4 loop image under /var/tmp")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--size", default="22m")
    parser.add_argument("--bs", default="2300")
    parser.add_argument("--tui", action="store_true", help="also run our engine from the headless TUI")
    parser.add_argument("--tmpfs", action="store_true", help="also measure the overhead on tmpfs (/dev/shm)")
    args = parser.parse_args()
    params = WalParams(profile="etcd", bs=parse_size(args.bs), size=parse_size(args.size))
    print(f"# fio: {subprocess.run(['fio', '--version'], capture_output=True, text=True).stdout.strip()}, "
          f"bs {params.bs}, size {params.size}, {args.rounds} rounds, CPUs {os.cpu_count()}", flush=True)
    place = (loop_ext4(LOOP_IMAGE_MIB, prefix="wal-fidelity-") if args.make_loop
             else contextlib.nullcontext(args.dir))
    with place as directory:
        compare(params, directory, args.rounds, args.tui)
    if args.tmpfs:
        shm = tempfile.mkdtemp(prefix="wal-fidelity-", dir="/dev/shm")
        try:
            print("# tmpfs /dev/shm (fdatasync is nearly free: the ops/s ratio is the engine's overhead)")
            compare(params, shm, args.rounds, args.tui)
        finally:
            subprocess.run(["rm", "-rf", shm], check=False)


if __name__ == "__main__":
    sys.exit(main())
