"""One finished benchmark as shown, printed and saved: what ran where, its typed result, the threshold, fio's
side; `to_json` is the `bench KIND --json` document and `from_json` rebuilds the same typed record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from diskdoctor.probes.latency_histogram import LatencyHistogram
from diskdoctor.probes.wal_params import ParamError
from diskdoctor.probes.wal_target import Target

from .caveats import Caveats, caveats_of, with_caveats
from .kinds import KINDS, kind_for, kind_of
from .outcome import Sections, repeats_of, sections_from_json
from .wal import threshold_source


def judged_only(sections: dict[str, list[LatencyHistogram]]) -> dict[str, list[LatencyHistogram]]:
    """The sections a verdict or a comparison can use, so a run file stays small: the durable call's
    (write()'s only where there is no sync: randwrite without one), and the closed loop's only in a phase
    that ran no rate (its capacity figure is never judged)."""
    kept = {key: parts for key, parts in sections.items()
            if "/sync" in key or key.replace("/write", "/sync") not in sections}
    rated = {key.split("/", 1)[0] for key in kept if "@" in key}
    return {key: parts for key, parts in kept.items() if "@" in key or key.split("/", 1)[0] not in rated}


@dataclass
class BenchRecord:
    """A finished run of `workload` with `params` on `target`; `threshold` is in ms (MB/s for compaction),
    None when the run is not judged."""

    workload: str
    params: Any
    target: Target
    result: Any
    threshold: float | None = None
    threshold_source: str | None = None
    fio: Any = None
    """FioSyncStats (wal, randwrite), FioThroughput (compaction), or a pair of FioSyncStats (interference)."""
    sections: Sections | None = None
    """The run cut into consecutive parts per judged figure, one list per repeat: what intervals and `runs
    compare` test (None: a run saved before they were kept, which shows no interval)."""
    repeats: int = 1
    """How many runs of the same parameters this record merges (`--repeat`)."""

    def verdict(self) -> Any:
        """The pass/fail judgement (None without a threshold); it has `passed`, `line()` and `to_json()`."""
        return kind_of(self.workload).verdict(self)

    def to_json(self) -> dict[str, object]:
        """The documented JSON result (docs/schemas/bench-KIND.schema.json), with its `caveats`."""
        return with_caveats(kind_of(self.workload).document(self))

    def caveats(self) -> Caveats:
        """What the verdict cannot see in its figures: contention, durability, the WAL model."""
        return caveats_of(kind_of(self.workload).document(self))

    def summary_lines(self) -> list[str]:
        """The human summary printed on stdout: its first (verdict) line with the caveats' tags, their lines
        right under it."""
        lines = kind_of(self.workload).summary(self)
        caveats = self.caveats()
        judged = ("PASS", "FAIL", "INCONCLUSIVE")
        head = [line + caveats.suffix() if line.startswith(judged) else line for line in lines[:1]]
        return head + caveats.lines() + lines[1:]

    def detail_lines(self) -> list[str]:
        """The summary without its PASS/FAIL line, where the CLI puts the run's findings (judged kinds),
        starting with the caveats; the kinds no rule judges keep their whole summary."""
        details = kind_of(self.workload).details
        return self.caveats().lines() + details(self) if details is not None else self.summary_lines()

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BenchRecord:
        """Rebuild a record from its `to_json` document (a saved run)."""
        name = str(data.get("workload") or "wal")
        kind = kind_for(name)
        if kind is None:
            raise ParamError(f"unknown workload {name!r} (choose from {', '.join(KINDS)})")
        verdict = data.get("verdict") or {}
        if not isinstance(verdict, dict):
            verdict = {}
        threshold = verdict.get("threshold_ms", verdict.get("threshold"))
        source = verdict.get("source")
        if threshold is not None and source == threshold_source(threshold):
            source = None  # the default source for that threshold, as the CLI leaves it
        fio = data.get("fio")
        params = kind.engine.params_type.from_json(data["params"])
        result = kind.engine.result_type.from_json(data)
        return cls(kind.name, params, Target.from_json(data["target"]), result,
                   threshold, source, kind.fio_from_json(fio) if isinstance(fio, dict) else None,
                   sections_from_json(data), repeats_of(data))

    @classmethod
    def of_run(cls, workload: str, params: Any, target: Target, result: Any, threshold: float | None = None,
               source: str | None = None, fio: Any = None,
               sections: dict[str, list[LatencyHistogram]] | None = None) -> BenchRecord:
        """The record of one run just finished, with the sections the engine streamed."""
        kept = None if sections is None else {key: [parts] for key, parts in judged_only(sections).items()}
        return cls(workload, params, target, result, threshold, source, fio, kept)
