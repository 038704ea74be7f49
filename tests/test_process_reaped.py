"""A parent's /proc/PID/io gains a reaped child's whole counts when the child exits (the kernel adds them in
wait()): a shell running `dd` in a loop read `bash 1,880` MB/s in the tick each dd ended, its dd's lifetime
counted a second time (newuser24 #3: `bash 328` beside a disk writing 303 MB/s). The sampler takes what
the children were already seen to move off the parent's gain."""

from __future__ import annotations

import time

import pytest
from diskdoctor.probes import process_io
from diskdoctor.probes.process_io import ProcessIoSampler


class FakeProcess:
    """A process's name and parent, as psutil gives them."""

    def __init__(self, name: str, ppid: int) -> None:
        self._name, self._ppid = name, ppid

    def name(self) -> str:
        return self._name

    def ppid(self) -> int:
        return self._ppid

    def cmdline(self) -> list[str]:
        return [self._name]

    def exe(self) -> str:
        return ""


SHELL, DD, OTHER = FakeProcess("bash", 1), FakeProcess("dd", 100), FakeProcess("fio", 1)
MB = 1_000_000


def _readings(monkeypatch: pytest.MonkeyPatch, readings: list[dict[int, tuple[int, FakeProcess]]],
              created: dict[int, float] | None = None) -> None:
    """read_process_bytes returns these (pid -> written bytes, process), one a call; every process started
    long ago but those `created` gives (pid -> create time)."""
    calls = iter(readings)
    created = created or {}

    def read(exclude: object = None) -> tuple[dict, int]:  # type: ignore[type-arg]
        return {(pid, created.get(pid, 1.0)): (0, written, process)
                for pid, (written, process) in next(calls).items()}, 0
    monkeypatch.setattr(process_io, "read_process_bytes", read)


def _written(rates: process_io.ProcessRates) -> dict[str, float]:
    return {p.name: p.write_bytes_s / MB for p in rates.top}


def test_a_reaped_childs_lifetime_is_not_the_parents_io(monkeypatch: pytest.MonkeyPatch) -> None:
    _readings(monkeypatch, [
        {100: (5 * MB, SHELL), 101: (300 * MB, DD), 102: (0, OTHER)},
        {100: (5 * MB, SHELL), 101: (600 * MB, DD), 102: (50 * MB, OTHER)},  # dd writes 300 MB
        {100: (5 * MB + 700 * MB, SHELL), 102: (100 * MB, OTHER)},  # dd wrote 100 more, exited: reaped
    ])
    sampler = ProcessIoSampler()
    assert _written(sampler.sample(1.0)) == {"dd": 300.0, "fio": 50.0}
    assert _written(sampler.sample(1.0)) == {"bash": 100.0, "fio": 50.0}  # only what dd's last tick did


def test_a_zombie_reaped_a_tick_later(monkeypatch: pytest.MonkeyPatch) -> None:
    _readings(monkeypatch, [
        {100: (0, SHELL), 101: (300 * MB, DD)},
        {100: (0, SHELL)},  # dd exited, not yet reaped (a zombie's counters are not read)
        {100: (300 * MB, SHELL)},  # reaped now
        {100: (310 * MB, SHELL)},  # the shell's own 10 MB
    ])
    sampler = ProcessIoSampler()
    assert _written(sampler.sample(1.0)) == {}
    assert _written(sampler.sample(1.0)) == {}
    assert _written(sampler.sample(1.0)) == {"bash": 10.0}


def test_a_process_started_during_a_tick_counts_from_its_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """newuser24 (who16's own pass at 120x40): `page cache: 389 MB dirty, up 388 MB/s` with no process
    listed: a dd started in the tick was skipped, its first second in no row."""
    _readings(monkeypatch, [{100: (0, SHELL)}, {100: (0, SHELL), 101: (388 * MB, DD), 7: (9 * MB, OTHER)}],
              created={101: time.time() + 3600})  # dd: after the first reading; 7 was there, unread
    sampler = ProcessIoSampler()
    assert _written(sampler.sample(1.0)) == {"dd": 388.0}
