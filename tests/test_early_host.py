"""The TUI's host read starts before Textual and serves the first snapshot: rows in the first frame when it
is in, "Reading the host…" and no rows until it is, its failure said in one line, a refresh reads again."""

from __future__ import annotations

import gc
import sys
import threading

import diskdoctor.app.tui.early_host as early_module
import diskdoctor.probes.host as host_module
import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.launch import new_app
from diskdoctor.widgets import StackTree
from textual.widgets import Static

SIZE = (150, 40)
ROOT = "etcd-raid0-lvm-luks"


def names(app: DiskDoctorApp) -> list[str]:
    tree = app.screen.query_one(StackTree)
    nodes = (tree.get_node_at_line(line) for line in range(tree.last_line + 1))
    return [node.data.name for node in nodes if node is not None and node.data is not None]


def status(app: DiskDoctorApp) -> str:
    return str(app.screen.query_one("#status", Static).render())


def counting_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every read of the host (the early one and the worker's), by the thread that made it."""
    reads: list[str] = []
    real = host_module.read_host

    def counted(root, **kw):  # type: ignore[no-untyped-def]
        reads.append(threading.current_thread().name)
        return real(root, **kw)

    monkeypatch.setattr(host_module, "read_host", counted)
    return reads


async def test_a_host_read_before_textual_is_in_the_first_frame_and_read_once(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    reads = counting_reads(monkeypatch)
    switch = sys.getswitchinterval()
    app = new_app(fixture_root(ROOT))
    assert app._early is not None and app._early.take(timeout=30) is not None  # as on a small host
    assert not gc.isenabled()  # the collector is paused from the read's start to the first frame
    assert sys.getswitchinterval() == switch  # shortened only while the read ran
    first_frame: list[list[str]] = []
    collecting: list[bool] = []
    display = app._display

    def noted(screen, renderable) -> None:  # type: ignore[no-untyped-def]
        display(screen, renderable)
        if renderable is not None and not first_frame:
            first_frame.append(names(app))
            collecting.append(gc.isenabled())

    app._display = noted  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert first_frame[0][:5] == ["nvme0n1", "nvme0n1p1", "md0", "vg0-etcd", "luks-etcd"]
        assert collecting == [False]  # no collector pass over Textual's start before the first frame
        assert gc.isenabled() and gc.get_freeze_count() > 0  # on again after it, the start frozen
        assert reads == ["diskdoctor read the host"]  # the worker took the early read's host: no second read
        assert app.snapshot is not None and app.snapshot.trim_ready  # the TRIM verdicts came after
        await pilot.press("down", "down", "down", "down")
        await pilot.pause()
        assert "BLOCKED at luks-etcd" in status(app)
        await pilot.press("r")  # a refresh reads the host again, not the early read's copy
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert len(reads) == 2
        assert names(app)[:5] == ["nvme0n1", "nvme0n1p1", "md0", "vg0-etcd", "luks-etcd"]


async def test_rows_wait_for_an_early_read_still_running_and_nothing_is_shown_meanwhile(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    release = threading.Event()
    real = host_module.read_host

    def slow(root, **kw):  # type: ignore[no-untyped-def]
        release.wait(30)
        return real(root, **kw)

    monkeypatch.setattr(host_module, "read_host", slow)
    app = new_app(fixture_root(ROOT))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert names(app) == []  # no row, so no value that is not read yet
        assert "Reading the host" in status(app)
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert names(app)[:5] == ["nvme0n1", "nvme0n1p1", "md0", "vg0-etcd", "luks-etcd"]
        assert app.snapshot is not None and app.snapshot.trim_ready
    assert gc.isenabled()


async def test_a_big_host_is_read_once_textual_is_up(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """More block devices than EARLY_MAX_ENTRIES: no early read (two busy threads would share one GIL);
    the App's worker reads the host once, the rows and verdicts arrive as before."""
    reads = counting_reads(monkeypatch)
    monkeypatch.setattr(early_module, "EARLY_MAX_ENTRIES", 3)  # the fixture has 8 devices
    app = new_app(fixture_root(ROOT))
    assert app._early is None
    assert gc.isenabled()  # not paused here: the worker's first read pauses it over the read itself
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert len(reads) == 1 and reads[0] != "diskdoctor read the host"  # by the worker, once
        assert names(app)[:5] == ["nvme0n1", "nvme0n1p1", "md0", "vg0-etcd", "luks-etcd"]
        assert app.snapshot is not None and app.snapshot.trim_ready
    assert gc.isenabled()


async def test_a_failed_early_read_is_said_in_one_line(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    def broken(root, **kw):  # type: ignore[no-untyped-def]
        raise RuntimeError("sysfs went away")

    monkeypatch.setattr(host_module, "read_host", broken)
    app = new_app(fixture_root(ROOT))
    with pytest.raises(RuntimeError):  # finished (failed) before the Stack screen is made
        app._early.take(timeout=30)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "could not read the host: sysfs went away" in status(app)
        assert names(app) == []
    assert gc.isenabled()


async def test_a_big_split_host_is_read_early_by_children_only(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """More block devices than EARLY_MAX_ENTRIES and a read split across processes: the read starts before
    Textual, every part in a child (this process's thread only gathers them), and serves the first
    snapshot."""
    from diskdoctor.probes import blockdev, split_read

    reads = counting_reads(monkeypatch)
    monkeypatch.setattr(early_module, "EARLY_MAX_ENTRIES", 3)  # the fixture has 8 devices, 4 in sys/block
    monkeypatch.setattr(early_module, "SPLIT_FROM_DEVICES", 2)
    monkeypatch.setattr(blockdev, "SPLIT_FROM_DEVICES", 2)
    monkeypatch.setattr(split_read, "usable_cpus", lambda: 2)
    here: list[bool] = []
    real_split = split_read.read_split

    def noted(*args, **kwargs):  # type: ignore[no-untyped-def]
        here.append(kwargs.get("here", True))
        return real_split(*args, **kwargs)

    monkeypatch.setattr(split_read, "read_split", noted)
    app = new_app(fixture_root(ROOT))
    assert app._early is not None and app._early.take(timeout=30) is not None
    assert here == [False]
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert reads == ["diskdoctor read the host"]  # the early read, once
        assert names(app)[:5] == ["nvme0n1", "nvme0n1p1", "md0", "vg0-etcd", "luks-etcd"]
        assert app.snapshot is not None and app.snapshot.trim_ready
    assert gc.isenabled()


def test_a_big_host_read_serially_is_not_read_early(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Many entries but one usable CPU (or too few disks to split): no early read, as before."""
    from diskdoctor.probes import split_read

    monkeypatch.setattr(early_module, "EARLY_MAX_ENTRIES", 3)
    monkeypatch.setattr(early_module, "SPLIT_FROM_DEVICES", 2)
    monkeypatch.setattr(split_read, "usable_cpus", lambda: 1)
    assert early_module.start_early_read(fixture_root(ROOT)) is None
    monkeypatch.setattr(split_read, "usable_cpus", lambda: 2)
    monkeypatch.setattr(early_module, "SPLIT_FROM_DEVICES", 400)
    assert early_module.start_early_read(fixture_root(ROOT)) is None
