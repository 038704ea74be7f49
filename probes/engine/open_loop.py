"""The open-loop writer: writes fall due on a schedule (steady or Poisson) whatever the disk does, and each
write's latency runs from the moment it was due, so a stall counts against every write it delays.

Steady arrivals are evenly spaced (etcd's hardware guide: 50 and 500 "sequential IOPS"); Poisson
arrivals are many independent clients, with exponential gaps of the same mean. Either way, writes that
fell due while a sync was in flight go out together as one batch (one write, one sync), as etcd's raft
loop hands every pending entry to one WAL save: a disk that keeps up never batches, a slow sync is paid
once by all the writes it delayed, and each of them is timed from when it was due. A rate the disk cannot
keep up with shows as a growing backlog and an achieved rate under the asked one, never as a quietly
slower schedule.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

NS = 1_000_000_000


def due_times(rate: float, arrival: str, seed: int = 1) -> Iterator[int]:
    """Nanosecond offsets from the level's start at which writes fall due: every 1/rate s (steady), or
    with exponential gaps of mean 1/rate s (Poisson: many independent clients)."""
    if arrival == "poisson":
        draw = random.Random(seed).expovariate
        t = 0.0
        while True:
            t += draw(rate)
            yield int(t * NS)
    else:
        index = 0
        while True:
            yield int(index * NS / rate)
            index += 1


@dataclass
class LevelTally:
    """What one open-loop level did: writes, batches (one sync each), the longest queue, how far behind."""

    writes: int = 0
    batches: int = 0
    max_backlog: int = 0
    """The most writes that were due at once when a batch went out (1 = never behind)."""
    last_done_ns: int = 0
    """When the last write became durable, from the level's start."""
    end_backlog: int = 0
    """Writes still due when the schedule ended (the writer drains them before the level stops)."""


Flush = Callable[[int, int], int]
"""flush(count, issue_ns) -> clock when the batch of `count` writes was durable (write + sync done)."""
Record = Callable[[int, int, list[int]], None]
"""record(durable_ns, issue_ns, due_ns_of_each_write_in_the_batch)."""


def run_level(schedule: Iterator[int], until_ns: int, clock: Callable[[], int],
              sleep: Callable[[float], None], flush: Flush, record: Record, *, max_batch: int,
              on_tick: Callable[[int], None] | None = None, tick_ns: int = 0) -> LevelTally:
    """Issue every write due within `until_ns` from now, those due at once as one batch (at most
    `max_batch`), and hand each batch to `record`; sleep while nothing is due.

    `on_tick(now)` runs about every `tick_ns` (between batches, or while idle) to stream an interval."""
    tally = LevelTally()
    start = clock()
    deadline = start + until_ns
    pending: list[int] = []
    upcoming = start + next(schedule)
    next_tick = start + tick_ns if on_tick is not None else 1 << 62
    ended = False
    while True:
        now = clock()
        while upcoming < deadline and upcoming <= now:
            pending.append(upcoming)
            upcoming = start + next(schedule)
        if now >= deadline and not ended:
            ended, tally.end_backlog = True, len(pending)
        if now >= next_tick and on_tick is not None:
            on_tick(now)
            next_tick = now + tick_ns
        if not pending:
            if upcoming >= deadline:
                break
            wait = min(upcoming, next_tick) - now
            if wait > 0:
                sleep(wait / NS)
            continue
        batch, pending = pending[:max_batch], pending[max_batch:]
        tally.max_backlog = max(tally.max_backlog, len(batch) + len(pending))
        issue = clock()
        done = flush(len(batch), issue)
        record(done, issue, batch)
        tally.writes += len(batch)
        tally.batches += 1
        tally.last_done_ns = done - start
    return tally
