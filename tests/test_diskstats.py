"""The one diskstats model: every field across kernel formats, read through a Root, deltas and rates."""

from __future__ import annotations

from pathlib import Path

from diskdoctor.probes.diskstats import DiskDelta, DiskSampler, disk_delta, parse_diskstats, read_counters
from diskdoctor.probes.root import Root, live_root

LINE_20 = "   8       0 sda 100 5 8000 50 200 10 16000 400 2 900 1200 7 1 2048 30 40 60 0 0 0"
LINE_14 = "   7       0 loop0 3 0 24 1 4 0 32 2 0 5 3"


def test_every_field_is_parsed_and_older_kernels_leave_the_new_ones_unknown() -> None:
    found = parse_diskstats(f"{LINE_20}\n{LINE_14}\ngarbage line\n")
    sda, loop = found["sda"], found["loop0"]
    assert (sda.reads, sda.sectors_read, sda.writes, sda.sectors_written) == (100, 8000, 200, 16000)
    assert (sda.in_flight, sda.io_ticks_ms, sda.discards, sda.sectors_discarded) == (2, 900, 7, 2048)
    assert (sda.flushes, sda.flush_ms) == (40, 60)
    assert loop.writes == 4 and loop.discards is None and loop.flushes is None


def test_deltas_and_rates_come_from_one_place() -> None:
    before = parse_diskstats(LINE_20)["sda"]
    later = "   8       0 sda 150 5 9000 60 300 10 20000 500 1 1400 1500 9 1 3072 40 50 80 0 0 0"
    after = parse_diskstats(later)["sda"]
    delta = disk_delta(before, after, 0.5)
    assert (delta.reads, delta.writes, delta.read_bytes, delta.write_bytes) == (50, 100, 512_000, 2_048_000)
    assert delta.write_await_ms == 1.0 and delta.flush_await_ms == 2.0 and delta.util == 1.0
    assert delta.discards == 2 and delta.discard_bytes == 1024 * 512 and delta.rate(delta.writes) == 200
    assert DiskDelta.from_json(delta.to_json()) == delta
    wrapped = disk_delta(after, before, 0.5)  # counters that went backwards count from zero
    assert wrapped.writes == before.writes


def test_read_through_a_capture_root_with_the_sys_block_fallback(tmp_path: Path) -> None:
    (tmp_path / "proc").mkdir()
    (tmp_path / "proc" / "diskstats").write_text(LINE_14 + "\n")
    (tmp_path / "sys" / "block" / "sdz").mkdir(parents=True)
    (tmp_path / "sys" / "block" / "sdz" / "stat").write_text(LINE_20.split("sda")[1] + "\n")
    found = read_counters(Root(str(tmp_path), live=False), ["loop0", "sdz", "missing"])
    assert set(found) == {"loop0", "sdz"} and found["sdz"].flushes == 40


def test_sampler_on_the_live_host_returns_one_delta_per_known_device() -> None:
    every = read_counters(live_root())
    name = next(iter(every))
    sampler = DiskSampler(live_root(), [name, "no-such-device"])
    assert [d.kname for d in sampler.interval()] == [name] and sampler.total()[0].kname == name
