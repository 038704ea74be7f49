"""Measure `devices --json`, the TUI and the Monitor on generated sysroots of many block devices.

For each size it prints the whole-process wall time of `devices --json --sysroot` (paired with a bare
`python -c pass` from the same venv, the order alternating; medians), the time per device (the growth
must stay linear), the TUI's first paint, the UI-thread CPU of a cursor move on the Stack screen, and a
Monitor tick's mean; lsblk --sysroot on the same tree is timed when --lsblk is given (it is quadratic:
minutes at 5,000 devices).
Usage: .venv/bin/python bench/enumerate_many.py [--devices 10,100,1000,5000] [--repeat 5] [--lsblk]
       [--cli-only]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from support.sysfs_builder import SysrootBuilder  # noqa: E402

GIB = 1 << 30
CURSOR_MOVES = 20
MONITOR_TICKS = 10


def build(root: Path, total: int) -> Path:
    """Loops, disks with one partition each, and one dm (LVM) per partition: `total` devices."""
    builder = SysrootBuilder(root, hostname="bench")
    groups = max(total // 5, 1)
    for index in range(2 * groups):
        builder.loop(f"loop{index}", f"7:{index}", GIB, f"/images/{index}.img")
    for index in range(groups):
        disk = f"sd{index}"
        builder.sata(disk, f"8:{index * 16}", 100 * GIB, port=index + 1, model="bench disk")
        part = builder.partition(disk, 1, f"8:{index * 16 + 1}", 2048, 99 * GIB)
        builder.dm(f"dm-{index}", f"253:{index}", 99 * GIB, name=f"vg{index}-lv",
                   uuid=f"LVM-{index:032d}{index:032d}", lowers=[part])
        if index % 10 == 0:
            builder.mount(f"253:{index}", f"/srv/{index}", "xfs", f"/dev/mapper/vg{index}-lv")
    return builder.finish()


def wall(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def paired(argv: list[str], baseline: list[str], repeat: int) -> tuple[float, float, float]:
    """Medians of `argv` and `baseline` run in alternating pairs, and the median of the per-pair ratios."""
    ours, theirs = [], []
    for index in range(repeat):
        if index % 2:
            ours.append(wall(argv))
            theirs.append(wall(baseline))
        else:
            theirs.append(wall(baseline))
            ours.append(wall(argv))
    return statistics.median(ours), statistics.median(theirs), \
        statistics.median(mine / base for mine, base in zip(ours, theirs, strict=True))


async def tui_figures(root: Path) -> tuple[float, float]:
    """(seconds from importing the app until the Stack screen drew its first rows, median UI-thread CPU
    seconds of one cursor move). The first moment is taken from the tree's own message, without polling
    the UI thread; a move's CPU is the event loop thread's own (the details are read in a worker thread)."""
    start = time.perf_counter()  # the app's own imports count (its screens' modules load lazily)
    from diskdoctor.app.tui.app import DiskDoctorApp
    from diskdoctor.probes.root import Root
    from diskdoctor.widgets import StackTree

    first_rows: list[float] = []

    def note(message: object) -> None:
        tree = getattr(message, "_sender", None)
        if isinstance(message, StackTree.ColumnsChanged) and isinstance(tree, StackTree) \
                and tree.root.children and not first_rows:
            first_rows.append(time.perf_counter())

    app = DiskDoctorApp(Root(str(root), live=False))
    moves = []
    async with app.run_test(size=(150, 40), message_hook=note) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        everything = time.perf_counter() - start
        for _ in range(CURSOR_MOVES):
            before = time.thread_time()
            await pilot.press("down")
            await pilot.pause()
            moves.append(time.thread_time() - before)
            await app.workers.wait_for_complete()
    return (first_rows[0] - start if first_rows else everything), statistics.median(moves)


def monitor_tick(root: Path) -> float:
    """Mean seconds of a Monitor poll after the first (which reads the stack)."""
    from diskdoctor.probes.io_monitor import IoMonitor
    from diskdoctor.probes.root import Root

    monitor = IoMonitor(Root(str(root), live=False), processes=False, rates=True)
    monitor.poll()
    start = time.perf_counter()
    for _ in range(MONITOR_TICKS):
        monitor.poll()
    return (time.perf_counter() - start) / MONITOR_TICKS


def measure(root: Path, count: int, repeat: int, lsblk: bool, cli_only: bool = False) -> None:
    bare = [sys.executable, "-c", "pass"]
    command = [sys.executable, "-m", "diskdoctor.app", "devices", "--json", "--sysroot", str(root)]
    ours, base, ratio = paired(command, bare, repeat)
    extra = (ours - base) / count * 1000
    line = (f"{count:>6} devices: devices --json {ours:6.3f} s (bare python {base * 1000:.0f} ms, "
            f"x{ratio:.1f}; {extra:.3f} ms per device)")
    if lsblk and shutil.which("lsblk"):
        _, theirs, versus = paired(command, ["lsblk", "--sysroot", str(root), "-J", "-O", "-b"], repeat)
        line += f"; lsblk -J -O {theirs:6.3f} s (diskdoctor x{versus:.2f} lsblk)"
    print(line, flush=True)
    if cli_only:
        return
    paint, move = asyncio.run(tui_figures(root))
    print(f"{count:>6} devices: TUI first rows {paint:5.2f} s; cursor move {move * 1000:5.1f} ms UI-thread "
          f"CPU; Monitor tick {monitor_tick(root) * 1000:6.1f} ms mean", flush=True)


def main() -> None:
    """Build each size, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", default="10,100,1000,5000", help="comma-separated sizes")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--lsblk", action="store_true", help="also time lsblk --sysroot (slow at 5,000)")
    parser.add_argument("--cli-only", action="store_true", help="only `devices --json` (no TUI, no Monitor)")
    parser.add_argument("--keep", metavar="DIR", help="build the trees here and keep them (reused if there)")
    args = parser.parse_args()
    scratch = Path(args.keep or tempfile.mkdtemp(prefix="diskdoctor-bench-"))
    try:
        for count in (int(size) for size in args.devices.split(",")):
            root = scratch / f"root{count}"
            if not (root / "sys").is_dir():
                build(root, count)
            real = len(list((root / "sys/class/block").iterdir()))
            measure(root, real, args.repeat, args.lsblk, args.cli_only)
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
