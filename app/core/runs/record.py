"""A saved benchmark run: which host and stack, every parameter, the typed result, and its file format."""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass

from diskdoctor.probes.host_text import visible

from ..bench.kind import WorkloadKind
from ..bench.kinds import kind_for
from ..bench.outcome import outcome_of_verdict
from ..bench.record import BenchRecord
from .host_fingerprint import HostFingerprint
from .json_fields import as_dict
from .run_schema import schema_problem
from .stack_fingerprint import StackFingerprint

FORMAT = "diskdoctor-run"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class RunVerdict:
    """Pass or fail of a run against its threshold, as one line with the threshold's source."""

    passed: bool
    line: str
    outcome: str = ""
    """"pass", "fail" or "inconclusive"."""
    settle: str | None = None
    """What would settle an INCONCLUSIVE verdict."""
    interval_note: str | None = None
    """Why the verdict has no confidence interval (a run saved before intervals)."""

    @property
    def result(self) -> str:
        """"pass", "fail" or "inconclusive"."""
        return self.outcome or ("pass" if self.passed else "fail")


class RunFormatError(ValueError):
    """A file is not a saved run this version can read; the message is one line. `damaged` marks a file
    that says it is a diskdoctor run but has a field of the wrong type, out of range, or missing."""

    def __init__(self, message: str, *, damaged: bool = False) -> None:
        super().__init__(message)
        self.damaged = damaged


@dataclass(frozen=True)
class SavedRun:
    """One benchmark run as saved: `record` is the same BenchRecord the CLI and the screen showed."""

    id: str
    kind: str
    saved_at: dt.datetime
    host: HostFingerprint
    stack: StackFingerprint
    record: BenchRecord

    @property
    def kind_info(self) -> WorkloadKind:
        """The registered kind of this run (loading refuses runs of unknown kinds)."""
        kind = kind_for(self.kind)
        assert kind is not None
        return kind

    @property
    def params(self) -> object:
        """The workload's typed parameters (WalParams, CompactionParams...)."""
        return self.record.params

    @property
    def result(self) -> object:
        """The workload's typed result (WalResult, CompactionResult...)."""
        return self.record.result

    @property
    def threshold(self) -> float | None:
        """The threshold the run was judged against (ms; MB/s for compaction), None when not judged."""
        return self.record.threshold

    @property
    def latency_threshold(self) -> float | None:
        """The threshold in ms to draw on latency charts (None for compaction, judged in MB/s)."""
        return self.threshold if self.kind_info.threshold_unit == "ms" else None

    def verdict(self) -> RunVerdict | None:
        """Pass or fail against the threshold it was saved with (None when the run was not judged)."""
        verdict = self.record.verdict()
        if verdict is None:
            return None
        settle, note = getattr(verdict, "settle", None), getattr(verdict, "interval_note", None)
        return RunVerdict(bool(verdict.passed), visible(verdict.line()), outcome_of_verdict(verdict),
                          visible(settle) if settle else None, note)

    def when(self) -> str:
        """The save time in UTC, minutes precision: "2026-11-20 14:30 UTC"."""
        return self.saved_at.astimezone(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")

    def to_json(self) -> dict[str, object]:
        """The document written to the runs directory (its format: docs/runs.md)."""
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "id": self.id, "kind": self.kind,
                "saved_at": self.saved_at.isoformat(), "host": self.host.to_json(),
                "stack": self.stack.to_json(), "record": self.record.to_json()}


def new_run_id(kind: str, saved_at: dt.datetime) -> str:
    """A sortable, unique-enough id: 20261120-143012-wal-3fa9 (the file is named after it)."""
    return f"{saved_at.astimezone(dt.timezone.utc):%Y%m%d-%H%M%S}-{kind}-{secrets.token_hex(2)}"


def run_from_json(data: object, run_id: str) -> SavedRun:
    """Rebuild a saved run (its typed BenchRecord) or raise RunFormatError with the reason."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RunFormatError("not a diskdoctor run file")
    if data.get("format_version") != FORMAT_VERSION:
        raise RunFormatError(f"run format version {visible(str(data.get('format_version')))} is not "
                             f"readable by this diskdoctor (it reads version {FORMAT_VERSION})")
    kind = kind_for(str(data.get("kind")))
    if kind is None:
        raise RunFormatError(f"benchmark kind {visible(str(data.get('kind')))!r} is unknown to this "
                             "diskdoctor version")
    problem = schema_problem(data)  # every field typed first: the typed objects below trust their input
    if problem is not None:
        raise RunFormatError(f"damaged run file ({problem})", damaged=True)
    try:
        saved_at = dt.datetime.fromisoformat(str(data["saved_at"]))
        if saved_at.tzinfo is None:
            saved_at = saved_at.replace(tzinfo=dt.timezone.utc)
        stack = StackFingerprint.from_json(as_dict(data["stack"], "stack"))
        raw = as_dict(data["record"], "record")
        record = BenchRecord.from_json(raw | {"workload": kind.name})
        record.params.validate()
        record.target = stack.target  # the visible-made copy: the run file is untrusted
        return SavedRun(run_id, kind.name, saved_at, HostFingerprint.from_json(as_dict(data["host"], "host")),
                        stack, record)
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError, IndexError,
            AssertionError) as err:
        what = f"missing field {err}" if isinstance(err, KeyError) else visible(str(err))
        raise RunFormatError(f"damaged run file ({what})", damaged=True) from err
