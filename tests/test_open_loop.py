"""The open-loop writer on a fake clock: writes fall due on schedule whatever the disk does, so a stall
counts against every write it delays (no coordinated omission), and a rate the disk cannot reach shows."""

from __future__ import annotations

import statistics
from itertools import islice

from diskdoctor.app.core.bench.wal import level_lines
from diskdoctor.probes.engine.open_loop import NS, due_times, run_level
from diskdoctor.probes.engine.workloads.wal import WalLevel
from diskdoctor.probes.latency_histogram import LatencyHistogram

MS = 1_000_000


class FakeDisk:
    """A clock that only moves when the writer sleeps or a flush takes time; flush `stall_at` takes
    `stall_ns`, every other one `flush_ns`."""

    def __init__(self, flush_ns: int = 100_000, stall_at: int = -1, stall_ns: int = 0) -> None:
        self.now, self.flush_ns, self.stall_at, self.stall_ns = 0, flush_ns, stall_at, stall_ns
        self.flushes: list[int] = []

    def clock(self) -> int:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += max(1, int(seconds * NS))

    def flush(self, count: int, _issue: int) -> int:
        self.now += self.stall_ns if len(self.flushes) == self.stall_at else self.flush_ns
        self.flushes.append(count)
        return self.now


def run(disk: FakeDisk, rate: float, until_ms: int, max_batch: int, arrival: str = "steady"):
    latencies: list[int] = []

    def record(done: int, _issue: int, batch: list[int]) -> None:
        latencies.extend(done - due for due in batch)

    tally = run_level(due_times(rate, arrival), until_ms * MS, disk.clock, disk.sleep, disk.flush, record,
                      max_batch=max_batch)
    return tally, latencies


def test_a_stall_counts_against_every_write_it_delays() -> None:
    # 1,000 writes/s for 100 ms; the 10th sync stalls 50 ms: the ~50 writes due meanwhile all wait
    tally, latencies = run(FakeDisk(stall_at=9, stall_ns=50 * MS), 1000, 100, max_batch=1)
    assert tally.writes == len(latencies) == 100  # every scheduled write is made and timed
    delayed = [lat for lat in latencies if lat > 1 * MS]
    assert len(delayed) >= 49  # a closed loop would have counted one slow write
    assert max(latencies) >= 50 * MS and sorted(latencies)[98] > 10 * MS  # the p99 sees the stall
    assert tally.max_backlog >= 49 and tally.batches == 100  # one client: one sync per write


def test_without_a_stall_writes_wait_only_for_their_own_sync() -> None:
    tally, latencies = run(FakeDisk(), 1000, 100, max_batch=1)
    assert tally.writes == 100 and tally.max_backlog == 1
    assert set(latencies) == {100_000}  # due, issued at once, durable after the 0.1 ms sync


def test_many_clients_batch_what_fell_due_during_a_stall_into_one_sync() -> None:
    tally, latencies = run(FakeDisk(stall_at=9, stall_ns=50 * MS), 1000, 100, max_batch=1000)
    assert tally.writes == len(latencies) == 100
    assert tally.batches < 60 and tally.max_backlog >= 49
    assert len([lat for lat in latencies if lat > 1 * MS]) >= 49


def test_a_rate_the_disk_cannot_reach_is_reported_not_hidden() -> None:
    # each sync takes 2 ms, the schedule asks for one every 1 ms
    tally, latencies = run(FakeDisk(flush_ns=2 * MS), 1000, 100, max_batch=1)
    assert tally.writes == 100 and tally.last_done_ns >= 199 * MS
    assert tally.end_backlog >= 40 and tally.max_backlog >= 40
    histogram = LatencyHistogram()
    histogram.record_many(latencies)
    level = WalLevel(1000.0, "steady", tally.writes, tally.batches, tally.last_done_ns / NS, histogram,
                     histogram, histogram, histogram, max_backlog=tally.max_backlog,
                     end_backlog=tally.end_backlog, scheduled_s=0.1)
    assert not level.reached and level.achieved_per_s is not None and level.achieved_per_s < 600
    document = level.to_json()
    assert document["asked_per_s"] == 1000.0 and document["reached"] is False
    [load, note] = level_lines({"levels": [document]}, 10.0)
    assert load.startswith("load      1,000 writes/s, steady: from due ")
    assert load.endswith("; p99 at or over 10 ms")
    assert note.startswith("note      asked 1,000 writes/s, achieved ") and "could not keep up" in note


def test_poisson_arrivals_keep_the_mean_rate_and_are_repeatable() -> None:
    first = list(islice(due_times(500, "poisson", seed=7), 5000))
    gaps = [b - a for a, b in zip([0, *first[:-1]], first, strict=True)]
    assert abs(statistics.mean(gaps) / (NS / 500) - 1) < 0.05
    assert statistics.stdev(gaps) > statistics.mean(gaps) * 0.8  # exponential, not evenly spaced
    assert first == list(islice(due_times(500, "poisson", seed=7), 5000))
    assert list(islice(due_times(500, "steady"), 3)) == [0, 2 * MS, 4 * MS]


def test_a_level_the_writer_fell_behind_in_on_a_whole_cpu_blames_the_cpu_not_the_disk() -> None:
    """A rate past what the engine can issue on this host is said to measure the CPU, not the disk."""
    from diskdoctor.app.core.bench.wal import level_lines
    from diskdoctor.probes.engine.workloads.wal import WalLevel
    from diskdoctor.probes.latency_histogram import LatencyHistogram

    def level(cpu_s: float | None) -> WalLevel:
        return WalLevel(50_000.0, "steady", 60_000, 60_000, 2.0, LatencyHistogram(), LatencyHistogram(),
                        LatencyHistogram(), LatencyHistogram(), scheduled_s=1.0, cpu_s=cpu_s)

    busy, idle, old = level(1.9), level(0.3), level(None)
    assert busy.cpu_bound and not idle.cpu_bound and not old.cpu_bound
    for one, expected in ((busy, "this host's CPU, not the disk"), (idle, "the disk could not keep up")):
        document = {"levels": [{**one.to_json(), "verdict": None}]}
        notes = [line for line in level_lines(document, 10.0) if line.startswith("note")]
        assert len(notes) == 1 and expected in notes[0] and "50,000 writes/s" in notes[0]
