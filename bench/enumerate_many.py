"""Measure `devices --json` and the TUI on a generated sysroot of 5,000 block devices.

Prints wall times, and the ratio against `lsblk --sysroot` reading the same tree in the same run.
Usage: .venv/bin/python bench/enumerate_many.py [--devices 5000] [--repeat 5]
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


def build(root: Path, total: int) -> Path:
    """Loops, disks with one partition each, and one dm (LVM) per partition: `total` devices."""
    builder = SysrootBuilder(root, hostname="bench")
    groups = total // 5
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


def timed(argv: list[str], repeat: int) -> float:
    """Median wall time of a command, in seconds."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


async def tui_first_tree(root: Path) -> float:
    """Seconds from app start until the stack screen drew its first rows (the TRIM facts still load after).

    The moment is taken from the tree's own message when its rows are in, so the measurement does not
    poll the UI thread (polling competes with the worker thread reading the host)."""
    from diskdoctor.app.tui.app import DiskDoctorApp
    from diskdoctor.probes.root import Root
    from diskdoctor.widgets import StackTree

    first_rows: list[float] = []

    def note(message: object) -> None:
        tree = getattr(message, "_sender", None)
        if isinstance(message, StackTree.ColumnsChanged) and isinstance(tree, StackTree) \
                and tree.root.children and not first_rows:
            first_rows.append(time.perf_counter())

    start = time.perf_counter()
    app = DiskDoctorApp(Root(str(root), live=False))
    async with app.run_test(size=(150, 40), message_hook=note) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        everything = time.perf_counter() - start
        shown = len(app.screen.query_one(StackTree).root.children)
    elapsed = first_rows[0] - start if first_rows else everything
    print(f"TUI: {shown} top-level rows, first rows drawn after {elapsed:.2f} s (lazy expansion); "
          f"TRIM facts for every screen read after {everything:.2f} s")
    return elapsed


def _read_host_times(root: Path, repeat: int) -> list[float]:
    from diskdoctor.probes.host import read_host
    from diskdoctor.probes.root import Root

    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        read_host(Root(str(root), live=False))
        samples.append(time.perf_counter() - start)
    return samples


def main() -> None:
    """Build, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--devices", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="diskdoctor-bench-"))
    try:
        start = time.perf_counter()
        root = build(scratch / "root", args.devices)
        count = len(list((root / "sys/class/block").iterdir()))
        print(f"generated {count} block devices in {time.perf_counter() - start:.1f} s")
        ours = timed([sys.executable, "-m", "diskdoctor.app", "devices", "--json",
                      "--sysroot", str(root)], args.repeat)
        print(f"diskdoctor devices --json: {ours:.3f} s (median of {args.repeat}, whole process)")
        if shutil.which("lsblk"):
            theirs = timed(["lsblk", "--sysroot", str(root), "-J", "-b", "-o",
                            "NAME,KNAME,MAJ:MIN,TYPE,SIZE,ROTA,SCHED,RO,RM,DISC-GRAN,DISC-MAX"],
                           args.repeat)
            print(f"lsblk --sysroot -J (same tree):  {theirs:.3f} s; ratio {ours / theirs:.2f}x")
        asyncio.run(tui_first_tree(root))
        in_process = statistics.median(_read_host_times(root, args.repeat))
        print(f"read_host alone, in this process: {in_process:.2f} s (median of {args.repeat})")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
