"""Wait for the block devices to go quiet between measured phases, so one side never pays for the other's
aftermath (writeback of its dirty pages, or the discards an online-`discard` mount sends when the files it
deleted are freed: on this VM's root disk a deleted 128 MiB WAL made the next phase's p99 ×10-25)."""

from __future__ import annotations

import os
import time

SKIP_PREFIXES = ("ram", "zram")
"""Devices whose activity is memory, not a disk the phases share."""


def _activity() -> tuple[int, int]:
    """(requests completed of every kind, requests in flight) summed over the real block devices."""
    done = in_flight = 0
    with open("/proc/diskstats", encoding="ascii") as handle:
        for line in handle:
            fields = line.split()
            if len(fields) < 14 or fields[2].startswith(SKIP_PREFIXES):
                continue
            numbers = [int(value) for value in fields[3:]]
            # reads, writes, then discards and flushes where the kernel counts them (4.18 and 5.5 on)
            done += sum(numbers[index] for index in (0, 4, 11, 15) if index < len(numbers))
            in_flight += numbers[8]
    return done, in_flight


def settle(quiet_s: float = 1.0, limit_s: float = 30.0, allowed: int = 2) -> float:
    """`sync`, then wait until no request is in flight and at most `allowed` completed (a logger's
    odd write) over `quiet_s`, or `limit_s` passed; return the seconds waited."""
    start = time.monotonic()
    os.sync()
    window_start, (base, _) = time.monotonic(), _activity()
    while time.monotonic() - start < limit_s:
        time.sleep(0.1)
        done, in_flight = _activity()
        if in_flight or done - base > allowed:
            window_start, base = time.monotonic(), done
        elif time.monotonic() - window_start >= quiet_s:
            break
    return time.monotonic() - start
