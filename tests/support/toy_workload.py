"""A toy workload for the kinds-table test: one engine module (parameters, result, loop) of the shape a
real one under probes/engine/workloads/ has, that times nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from diskdoctor.probes.latency_histogram import LatencyHistogram
from diskdoctor.probes.wal_params import ParamError


@dataclass(frozen=True)
class ToyParams:
    """How many pretend calls per second."""

    rate: int = 100

    def to_json(self) -> dict[str, object]:
        return {"rate": self.rate}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ToyParams:
        return cls(int(data["rate"]))

    @property
    def scratch_bytes(self) -> int:
        return 0

    def validate(self) -> None:
        if self.rate <= 0:
            raise ParamError("rate must be more than 0")


@dataclass
class ToyResult:
    """The pretend calls' latencies."""

    calls: LatencyHistogram

    def to_json(self) -> dict[str, object]:
        return {"calls": self.calls.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ToyResult:
        return cls(LatencyHistogram.from_json(data["calls"]))


def run(params: ToyParams, _ctx: object) -> ToyResult:
    """The loop: `rate` calls of 1 ms each, without touching the disk."""
    calls = LatencyHistogram()
    for _ in range(params.rate):
        calls.record(1_000_000)
    return ToyResult(calls)
