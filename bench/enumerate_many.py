"""Measure `devices --json`, the TUI and the Monitor on generated sysroots of many block devices.

For each size it prints the whole-process wall time of `devices --json --sysroot` (paired with a bare
`python -c pass` from the same venv, the order alternating; medians), the time per device (the growth
must stay linear), the TUI's first paint, the UI-thread CPU of a cursor move on the Stack screen, and a
Monitor tick's mean; lsblk --sysroot on the same tree is timed when --lsblk is given (it is quadratic:
minutes at 5,000 devices).
The TUI's first paint is also taken from a fresh process (launch to the Stack screen's first rows, as a user
waits for it), paired with the floor of any Textual app: a fresh process that imports Textual and paints
a screen of a header, one line and a footer (the order alternating; medians), and the ratio is printed.
With --monitor-only it times only the Monitor tick (mean of 10 after the first), --repeat times, and
prints each mean and their median with the CPU of those ticks, then the UI-thread CPU the Monitor screen
spends drawing each of 5 ticks (with rates, as on the live host).
With --moves-only it prints only the Stack screen's cursor-move UI-thread CPU (median of 20 moves,
beside an unbound key's: Pilot's own share).
With --paint-only --before PYTHON it also times another checkout's first rows (its venv's python running this
script's child, so both sides are measured alike), the three sides rotating every round.
Usage: .venv/bin/python bench/enumerate_many.py [--devices 10,100,1000,5000] [--repeat 5] [--lsblk]
       [--cli-only] [--monitor-only] [--moves-only] [--paint-only [--before PYTHON]] [--keep DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import os
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
SCREEN_TICKS = 5


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


async def tui_figures(root: Path) -> tuple[float, float, float]:
    """(seconds from importing the app until the Stack screen drew its first rows, median UI-thread CPU
    seconds of one cursor move, the same of a key nothing handles: Pilot's own share). The first moment
    is taken from the tree's own message, without polling the UI thread; a move's CPU is the event loop
    thread's own, until its details are drawn (they are read in a worker thread)."""
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
        unbound = []
        for key, samples in (("down", moves), ("f12", unbound)) * CURSOR_MOVES:
            before = time.thread_time()  # the key, its paint and the details drawn (read in a worker)
            await pilot.press(key)
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            samples.append(time.thread_time() - before)
    return (first_rows[0] - start if first_rows else everything), statistics.median(moves), \
        statistics.median(unbound)


def monitor_tick(root: Path) -> float:
    """Mean seconds of a Monitor poll after the first (which reads the stack)."""
    return monitor_ticks(root)[0]


def monitor_ticks(root: Path) -> tuple[float, float]:
    """Mean wall and CPU seconds of a Monitor poll after the first (which reads the stack)."""
    from diskdoctor.probes.io_monitor import IoMonitor
    from diskdoctor.probes.root import Root

    monitor = IoMonitor(Root(str(root), live=False), processes=False, rates=True)
    monitor.poll()
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(MONITOR_TICKS):
        monitor.poll()
    return (time.perf_counter() - start) / MONITOR_TICKS, (time.process_time() - cpu) / MONITOR_TICKS


async def screen_ticks(root: Path) -> list[float]:
    """UI-thread CPU seconds the Monitor screen spends drawing each tick (its MonitorTick handler), with
    rates as on the live host (the capture's counters do not move: every device idle), after the first
    reading and the first rates."""
    import functools

    from diskdoctor.app.tui import monitor_screen
    from diskdoctor.app.tui.app import DiskDoctorApp
    from diskdoctor.probes.root import Root

    spent: list[float] = []
    handler = monitor_screen.MonitorScreen.on_monitor_tick

    def timed(screen: object, message: object) -> None:
        start = time.thread_time()
        handler(screen, message)  # type: ignore[arg-type]
        spent.append(time.thread_time() - start)

    monitor_screen.MonitorScreen.on_monitor_tick = timed  # type: ignore[method-assign]
    monitor_screen.IoMonitor = functools.partial(monitor_screen.IoMonitor, rates=True)  # type: ignore[misc]
    app = DiskDoctorApp(Root(str(root), live=False))
    async with app.run_test(size=(150, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("6")
        await app.workers.wait_for_complete()
        await pilot.pause()
        for _ in range(SCREEN_TICKS + 1):
            app.screen.tick()  # type: ignore[attr-defined]
            await app.workers.wait_for_complete()
            await pilot.pause()
    return spent[2:]


def monitor_only(root: Path, count: int, repeat: int) -> None:
    """The Monitor tick alone, `repeat` times: each mean of 10 ticks, then the medians; then the screen's
    own share of a tick (drawing it)."""
    walls, cpus = [], []
    for _ in range(repeat):
        mean, cpu = monitor_ticks(root)
        walls.append(mean)
        cpus.append(cpu)
    print(f"{count:>6} devices: Monitor tick, mean of {MONITOR_TICKS} ticks, {repeat} times: "
          + ", ".join(f"{mean * 1000:.1f}" for mean in walls)
          + f" ms; median {statistics.median(walls) * 1000:.1f} ms "
          f"(CPU {statistics.median(cpus) * 1000:.1f} ms)", flush=True)
    drawn = asyncio.run(screen_ticks(root))
    print(f"{count:>6} devices: Monitor screen drawing a tick, UI-thread CPU: "
          + ", ".join(f"{spent * 1000:.1f}" for spent in drawn)
          + f" ms; median {statistics.median(drawn) * 1000:.1f} ms", flush=True)


def _child_first_paint(root: str) -> None:
    """In a fresh process: print the perf_counter moment of the first frame with the Stack screen's rows,
    the app made as `diskdoctor` makes it (its host read started before Textual is imported)."""
    from diskdoctor.probes.root import Root

    try:
        from diskdoctor.app.tui.launch import new_app
    except ImportError:  # a checkout from before new_app: the App alone
        from diskdoctor.app.tui.app import DiskDoctorApp as new_app
    app = new_app(Root(root, live=False))
    from diskdoctor.widgets import StackTree

    display = app._display
    done: list[float] = []

    def timed_display(screen: object, renderable: object) -> None:
        display(screen, renderable)  # type: ignore[arg-type]
        trees = list(app.screen.query(StackTree)) if renderable is not None and not done else []
        if trees and trees[0].root.children:
            done.append(time.perf_counter())
            print(done[0], flush=True)
            os._exit(0)  # measured: no need to wait out the pause below or Textual's teardown

    app._display = timed_display  # type: ignore[method-assign]

    async def run() -> None:
        async with app.run_test(size=(150, 40)) as pilot:
            await pilot.pause(60)

    asyncio.run(run())


def _child_floor_paint() -> None:
    """In a fresh process: print the perf_counter moment a minimal Textual app painted its first frame."""
    from textual.app import App, ComposeResult
    from textual.widgets import Footer, Header, Static

    class Floor(App[None]):
        def compose(self) -> ComposeResult:
            yield Header()
            yield Static("one line")
            yield Footer()

        def _display(self, screen: object, renderable: object) -> None:  # type: ignore[override]
            super()._display(screen, renderable)  # type: ignore[arg-type]
            if renderable is not None:
                print(time.perf_counter(), flush=True)
                os._exit(0)

    async def run() -> None:
        async with Floor().run_test(size=(150, 40)) as pilot:
            await pilot.pause(30)

    asyncio.run(run())


def fresh_paint(argv: list[str]) -> float:
    """Seconds from launching `argv` until the moment it prints (its first paint)."""
    start = time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]) - start


def first_paints(root: Path, repeat: int, before: str | None = None) -> tuple[float, float, float | None]:
    """Medians of (the TUI's first rows, a minimal Textual app's first paint, the first rows of the checkout
    whose venv's python is `before`), fresh processes, the order rotating every round."""
    script = str(Path(__file__).resolve())
    ours = [sys.executable, script, "--child-paint", str(root)]
    floor = [sys.executable, script, "--child-floor"]
    theirs = [before, script, "--child-paint", str(root)] if before else None
    sides = [argv for argv in (ours, floor, theirs) if argv is not None]
    times: dict[int, list[float]] = {id(argv): [] for argv in sides}
    for index in range(repeat):
        for argv in sides[index % len(sides):] + sides[:index % len(sides)]:
            times[id(argv)].append(fresh_paint(argv))
    print("    each run (ours; floor" + ("; before" if theirs else "") + "): " + "; ".join(
        " ".join(f"{took:.2f}" for took in times[id(argv)]) for argv in sides), flush=True)
    return statistics.median(times[id(ours)]), statistics.median(times[id(floor)]), \
        statistics.median(times[id(theirs)]) if theirs else None


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
    paint, move, unbound = asyncio.run(tui_figures(root))
    fresh, floor, _ = first_paints(root, repeat)
    print(f"{count:>6} devices: TUI first rows {fresh:5.2f} s from launch (a minimal Textual app: "
          f"{floor:5.2f} s, x{fresh / floor:.2f}; {paint:5.2f} s in this process); cursor move "
          f"{move * 1000:5.1f} ms UI-thread CPU (an unbound key: {unbound * 1000:4.1f} ms); Monitor tick "
          f"{monitor_tick(root) * 1000:6.1f} ms mean", flush=True)


def main() -> None:
    """Build each size, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", default="10,100,1000,5000", help="comma-separated sizes")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--lsblk", action="store_true", help="also time lsblk --sysroot (slow at 5,000)")
    parser.add_argument("--cli-only", action="store_true", help="only `devices --json` (no TUI, no Monitor)")
    parser.add_argument("--monitor-only", action="store_true", help="only the Monitor tick, --repeat times")
    parser.add_argument("--moves-only", action="store_true", help="only the Stack screen's cursor move")
    parser.add_argument("--paint-only", action="store_true",
                        help="only the TUI's first paint (fresh process), paired with a minimal Textual app")
    parser.add_argument("--before", metavar="PYTHON",
                        help="with --paint-only: also time the first rows of the checkout whose venv python "
                        "this is (e.g. main's), in the same rotation")
    parser.add_argument("--keep", metavar="DIR", help="build the trees here and keep them (reused if there)")
    parser.add_argument("--child-paint", metavar="ROOT", help=argparse.SUPPRESS)
    parser.add_argument("--child-floor", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_paint:
        _child_first_paint(args.child_paint)
        return
    if args.child_floor:
        _child_floor_paint()
        return
    scratch = Path(args.keep or tempfile.mkdtemp(prefix="diskdoctor-bench-"))
    try:
        for count in (int(size) for size in args.devices.split(",")):
            root = scratch / f"root{count}"
            if not (root / "sys").is_dir():
                build(root, count)
            real = len(list((root / "sys/class/block").iterdir()))
            if args.monitor_only:
                monitor_only(root, real, args.repeat)
                continue
            if args.moves_only:
                _, move, unbound = asyncio.run(tui_figures(root))
                print(f"{real:>6} devices: cursor move {move * 1000:5.1f} ms UI-thread CPU (an unbound key: "
                      f"{unbound * 1000:4.1f} ms)", flush=True)
                continue
            if args.paint_only:
                fresh, floor, before = first_paints(root, args.repeat, args.before)
                versus = f"; {args.before}: {before:5.2f} s" if before is not None else ""
                print(f"{real:>6} devices: TUI first rows {fresh:5.2f} s from launch (a minimal Textual app: "
                      f"{floor:5.2f} s, x{fresh / floor:.2f}{versus})", flush=True)
                continue
            measure(root, real, args.repeat, args.lsblk, args.cli_only)
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
