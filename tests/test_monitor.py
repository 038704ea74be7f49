"""The live I/O monitor's model and CLI: rates from captured diskstats samples (a 32-bit counter wrap, a
reset, a vanished device), the layout by filesystem, late ticks, and `diskdoctor monitor` end to end."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES
from diskdoctor.probes.io_monitor import RESCAN_EVERY_S, IoMonitor, TickSchedule, monitor_layout
from diskdoctor.probes.root import Root
from support.cli_runner import assert_one_line_error, run_cli


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _line(line: str, **changes: int) -> str:
    """A diskstats line with some fields replaced (by kernel field position 1..17 after the name)."""
    parts = line.split()
    for position, value in changes.items():
        parts[2 + int(position.removeprefix("f"))] = str(value)
    return " ".join(parts)


@pytest.fixture
def capture(tmp_path: Path) -> Path:
    """A copy of the lab-ssd capture (real md/LVM/dm-crypt counters) whose diskstats a test rewrites."""
    root = tmp_path / "lab-ssd"
    shutil.copytree(FIXTURES / "lab-ssd", root, symlinks=True)
    return root


def _diskstats(root: Path) -> dict[str, str]:
    text = (root / "proc/diskstats").read_text()
    return {line.split()[2]: line for line in text.splitlines() if line.split()}


def _write(root: Path, lines: dict[str, str]) -> None:
    (root / "proc/diskstats").write_text("\n".join(lines.values()) + "\n")


def _monitor(root: Path, clock: FakeClock) -> IoMonitor:
    return IoMonitor(Root(str(root), live=False), clock=clock, processes=False, rates=True)


def _layer(sample, kname: str):  # type: ignore[no-untyped-def]
    return next(layer for layer in sample.layers() if layer.row.kname == kname)


def test_rates_per_layer_and_the_saturated_layer_is_named(capture: Path) -> None:
    clock, lines = FakeClock(), _diskstats(capture)
    monitor = _monitor(capture, clock)
    first = monitor.poll()
    assert first.seconds is None and _layer(first, "sda").delta is None
    sda = lines["sda"]
    lines["sda"] = _line(sda, f5=int(sda.split()[7]) + 400, f7=int(sda.split()[9]) + 8192,
                         f8=int(sda.split()[10]) + 800, f10=int(sda.split()[12]) + 1900,
                         f16=int(sda.split()[18]) + 10, f17=int(sda.split()[19]) + 30)
    _write(capture, lines)
    clock.now += 2.0
    sample = monitor.poll()
    delta = _layer(sample, "sda").delta
    assert sample.seconds == 2.0
    assert delta.rate(delta.writes) == 200 and delta.write_bytes == 8192 * 512 and delta.write_await_ms == 2.0
    assert delta.flushes == 10 and delta.flush_await_ms == 3.0 and delta.util == 0.95
    groups_with_sda = [g for g in sample.groups if any(layer.row.kname == "sda" for layer in g.layers)]
    assert groups_with_sda and all(g.saturated and g.saturated.row.kname == "sda" for g in groups_with_sda)
    assert sample.busiest().row.kname == "sda"
    line = json.loads(json.dumps(sample.to_json()))
    layer = next(x for g in line["groups"] for x in g["layers"] if x["kname"] == "sda")
    assert layer["w_s"] == 200 and layer["saturated"] is True and layer["f_await_ms"] == 3.0


def test_a_device_that_goes_idle_shows_zeros_and_is_no_longer_saturated(capture: Path) -> None:
    from diskdoctor.app.text.monitor import rate_cells
    from diskdoctor.probes.diskstats import disk_delta, parse_diskstats

    clock, lines = FakeClock(), _diskstats(capture)
    monitor = _monitor(capture, clock)
    monitor.poll()
    sda = lines["sda"].split()
    lines["sda"] = _line(lines["sda"], f5=int(sda[7]) + 400, f7=int(sda[9]) + 8192, f10=int(sda[12]) + 1900)
    _write(capture, lines)
    clock.now += 2.0
    busy = monitor.poll()
    assert _layer(busy, "sda").saturated and rate_cells(_layer(busy, "sda").delta)["w_s"] == "200"
    clock.now += 1.5
    idle = monitor.poll()  # the same counters: nothing happened
    layer = _layer(idle, "sda")
    assert not layer.saturated and idle.busiest() is not None and not any(g.saturated for g in idle.groups)
    cells = rate_cells(layer.delta)
    assert (cells["util"], cells["r_s"], cells["w_s"], cells["wmb_s"], cells["w_await"]) == \
        ("0%", "0.0", "0.0", "0.0", "-")
    figures = layer.to_json()
    assert figures["w_s"] == 0 and figures["util"] == 0 and figures["saturated"] is False
    counters = parse_diskstats((capture / "proc/diskstats").read_text())
    for every in idle.layers():  # each idle delta is the one every field compared gives
        assert every.delta == disk_delta(counters[every.row.kname], parse_diskstats(
            (capture / "proc/diskstats").read_text())[every.row.kname], 1.5)


def test_a_wrapped_32_bit_counter_and_a_reset_never_give_negative_rates(capture: Path) -> None:
    clock, lines = FakeClock(), _diskstats(capture)
    lines["sdb"] = _line(lines["sdb"], f10=(1 << 32) - 500)  # io_ticks just below the 32-bit wrap
    _write(capture, lines)
    monitor = _monitor(capture, clock)
    monitor.poll()
    lines["sdb"] = _line(lines["sdb"], f10=300)  # wrapped: 800 ms busy
    lines["sda"] = _line(lines["sda"], f1=5, f3=40, f5=7, f7=56, f10=20)  # reset: re-added device
    _write(capture, lines)
    clock.now += 1.0
    sample = monitor.poll()
    assert _layer(sample, "sdb").delta.io_ticks_ms == 800
    sda = _layer(sample, "sda").delta
    assert (sda.reads, sda.writes, sda.read_bytes, sda.io_ticks_ms) == (5, 7, 40 * 512, 20)
    for layer in sample.layers():
        figures = layer.to_json()
        assert all(value >= 0 for key, value in figures.items()
                   if isinstance(value, (int, float)) and not isinstance(value, bool) and key != "depth")


def test_a_vanished_device_is_named_and_the_rest_keep_their_rates(capture: Path) -> None:
    clock, lines = FakeClock(), _diskstats(capture)
    monitor = _monitor(capture, clock)
    monitor.poll()
    del lines["sdb3"]
    for stat in (capture / "sys/class/block/sdb3/stat", capture / "sys/block/sdb3/stat"):
        if stat.exists():
            stat.resolve().unlink()
    lines["sda"] = _line(lines["sda"], f1=int(lines["sda"].split()[3]) + 50)
    _write(capture, lines)
    clock.now += 1.0
    sample = monitor.poll()
    assert sample.vanished == ("sdb3",)
    assert _layer(sample, "sda").delta.reads == 50
    assert all(layer.delta is None for g in sample.groups for layer in g.layers if layer.row.kname == "sdb3")


def test_each_filesystem_reads_top_to_bottom() -> None:
    from conftest import fixture_host

    groups = monitor_layout(fixture_host("etcd-raid0-lvm-luks"))
    etcd = next(g for g in groups if g.key == "/var/lib/etcd")
    assert [(row.name, row.depth) for row in etcd.rows] == [
        ("luks-etcd", 0), ("vg0-etcd", 1), ("md0", 2), ("nvme0n1p1", 3), ("nvme1n1p1", 3),
        ("nvme0n1", 4), ("nvme1n1", 4)]
    assert etcd.title == "/var/lib/etcd (xfs)"


def test_late_ticks_are_skipped_not_queued() -> None:
    clock = FakeClock()
    schedule = TickSchedule(1.0, clock)
    clock.now += 1.0
    assert schedule.wait_s() == 0 and schedule.advance() == 0  # the tick due at 101 polled at once
    assert schedule.wait_s() == 1.0
    clock.now += 1.0
    clock.now += 3.5  # the poll due at 102 hung for three and a half intervals: 103, 104, 105 passed
    assert schedule.advance() == 3
    assert 0 < schedule.wait_s() <= 1.0


def test_monitor_on_a_capture_prints_its_one_reading_and_says_rates_need_the_live_host() -> None:
    result = run_cli("--sysroot", str(FIXTURES / "etcd-raid0-lvm-luks"), "monitor")
    assert result.code == 0, result.err
    assert "live rates need the live host" in result.out
    lines = result.out.splitlines()
    start = lines.index("/var/lib/etcd (xfs)")
    assert [line.split()[0] for line in lines[start + 1:start + 4]] == ["luks-etcd", "vg0-etcd", "md0"]
    one = run_cli("--sysroot", str(FIXTURES / "lab-ssd"), "monitor", "--json-lines")
    assert one.code == 0 and len(one.out.splitlines()) == 1
    document = json.loads(one.out)
    assert document["live"] is False and document["interval_s"] is None
    assert document["processes_note"] == "per-process I/O needs the live host"


def test_monitor_live_json_lines_gives_rates_each_tick() -> None:
    result = run_cli("monitor", "--json-lines", "--interval", "0.2", "--count", "2")
    assert result.code == 0, result.err
    ticks = [json.loads(line) for line in result.out.splitlines()]
    assert len(ticks) == 2 and all(t["live"] and t["interval_s"] > 0 for t in ticks)
    assert all(t["cpu"] is not None and {"iowait", "steal"} <= set(t["cpu"]) for t in ticks)
    layers = [layer for t in ticks for g in t["groups"] for layer in g["layers"]]
    assert layers and all(layer["util"] is not None and layer["util"] >= 0 for layer in layers)


@pytest.mark.parametrize("args, needle", [
    (["--interval", "0"], "--interval must be"), (["--interval", "nan"], "--interval must be"),
    (["--count", "0"], "--count must be"), (["--interval", "soon"], "invalid float value")])
def test_bad_monitor_options_are_one_line(args: list[str], needle: str) -> None:
    assert_one_line_error(run_cli("monitor", *args), needle)


WRITER = """
import os, sys, time
path = sys.argv[1]
with open(path, "wb") as out:
    end = time.monotonic() + 20
    while time.monotonic() < end:
        out.write(b"x" * (1 << 20))
        out.flush()
        os.fsync(out.fileno())
        out.seek(0)
        time.sleep(0.02)
"""


def test_the_process_doing_the_writes_is_named_with_its_bytes_per_second(tmp_path: Path) -> None:
    import subprocess
    import sys
    import time

    from diskdoctor.probes.process_io import ProcessIoSampler

    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path / "written")])
    try:
        sampler = ProcessIoSampler()
        time.sleep(1.0)
        rates = sampler.sample(1.0)
        mine = [rate for rate in rates.top if rate.pid == writer.pid]
        assert mine, [(r.pid, r.name) for r in rates.top]
        assert mine[0].write_bytes_s > 5 * (1 << 20) and mine[0].name.startswith("python")
        assert rates.top[0].write_bytes_s >= mine[0].write_bytes_s or rates.top.index(mine[0]) < 3
    finally:
        writer.kill()
        writer.wait()


@pytest.mark.live
def test_a_loop_device_attached_while_the_monitor_runs_appears(tmp_path: Path) -> None:
    import subprocess
    import time

    from conftest import live_prerequisites
    from diskdoctor.probes.hotplug import watch_block_devices
    from diskdoctor.probes.root import live_root

    why = live_prerequisites()
    if why:
        pytest.skip(why)
    clock, events = FakeClock(), []
    root = live_root()
    monitor = IoMonitor(root, clock=clock, processes=False)
    without_udev = IoMonitor(root, clock=clock, processes=False)

    def changed(action: str, kname: str) -> None:
        events.append((action, kname))
        monitor.request_rescan()

    watcher, how = watch_block_devices(root, changed)
    assert watcher is not None, how
    image = tmp_path / "hotplug.img"
    image.write_bytes(b"")
    subprocess.run(["truncate", "-s", "16M", str(image)], check=True)
    device = ""
    try:
        before = monitor.poll()
        without_udev.poll()
        device = subprocess.run(["losetup", "-f", "--show", str(image)], capture_output=True, text=True,
                                check=True).stdout.strip()
        kname = device.rsplit("/", 1)[-1]
        assert kname not in {layer.row.kname for layer in before.layers()}
        deadline = time.monotonic() + 10
        while not any(k == kname for _, k in events) and time.monotonic() < deadline:
            time.sleep(0.05)
        clock.now += 1.0  # far less than RESCAN_EVERY_S: only the hotplug event makes it re-read
        after = monitor.poll()
        assert kname in {layer.row.kname for layer in after.layers()}, (events, how)
        clock.now += RESCAN_EVERY_S  # no events: the periodic sysfs re-read finds it too
        assert kname in {layer.row.kname for layer in without_udev.poll().layers()}
    finally:
        watcher.stop()
        if device:
            subprocess.run(["losetup", "-d", device], check=False)
