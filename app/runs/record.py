"""A saved benchmark run: which host and stack, every parameter, the typed result, and its file format."""

from __future__ import annotations

import datetime as dt
import math
import secrets
from dataclasses import dataclass, field

from diskdoctor.probes.host_text import visible

from ..host_fingerprint import HostFingerprint
from .json_fields import as_dict
from .kinds import RunKind
from .registry import kind_for
from .stack_fingerprint import StackFingerprint

FORMAT = "diskdoctor-run"
FORMAT_VERSION = 1


class RunFormatError(ValueError):
    """A file is not a saved run this version can read; the message is one line."""


@dataclass(frozen=True)
class SavedRun:
    """One benchmark run as saved: `params` and `result` are the kind's own typed objects."""

    id: str
    kind: str
    saved_at: dt.datetime
    host: HostFingerprint
    stack: StackFingerprint
    params: object
    result: object
    settings: dict[str, object] = field(default_factory=dict)
    """How the run was judged (e.g. threshold_ms and its source); not part of the measurement."""

    @property
    def kind_info(self) -> RunKind:
        """The registered kind of this run (loading refuses runs of unknown kinds)."""
        kind = kind_for(self.kind)
        assert kind is not None
        return kind

    def when(self) -> str:
        """The save time in UTC, minutes precision: "2026-11-20 14:30 UTC"."""
        return self.saved_at.astimezone(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")

    def to_json(self) -> dict[str, object]:
        """The document written to the runs directory (schema in the README)."""
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "id": self.id, "kind": self.kind,
                "saved_at": self.saved_at.isoformat(), "host": self.host.to_json(),
                "stack": self.stack.to_json(), "params": self.params.to_json(),  # type: ignore[attr-defined]
                "settings": dict(self.settings), "result": self.result.to_json()}  # type: ignore[attr-defined]


def new_run_id(kind: str, saved_at: dt.datetime) -> str:
    """A sortable, unique-enough id: 20261120-143012-wal-3fa9 (the file is named after it)."""
    return f"{saved_at.astimezone(dt.timezone.utc):%Y%m%d-%H%M%S}-{kind}-{secrets.token_hex(2)}"


def _settings(data: object) -> dict[str, object]:
    """Only plain finite numbers, booleans and (visible) strings survive from a file's settings."""
    settings: dict[str, object] = {}
    for key, value in as_dict(data or {}, "settings").items():
        if isinstance(value, str):
            settings[visible(str(key))] = visible(value)
        elif isinstance(value, (bool, int)) or (isinstance(value, float) and math.isfinite(value)):
            settings[visible(str(key))] = value
    return settings


def run_from_json(data: object, run_id: str) -> SavedRun:
    """Rebuild a saved run (typed params and result) or raise RunFormatError with the reason."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RunFormatError("not a diskdoctor run file")
    if data.get("format_version") != FORMAT_VERSION:
        raise RunFormatError(f"run format version {visible(str(data.get('format_version')))} is not "
                             f"readable by this diskdoctor (it reads version {FORMAT_VERSION})")
    kind = kind_for(str(data.get("kind")))
    if kind is None:
        raise RunFormatError(f"benchmark kind {visible(str(data.get('kind')))!r} is unknown to this "
                             "diskdoctor version")
    try:
        saved_at = dt.datetime.fromisoformat(str(data["saved_at"]))
        if saved_at.tzinfo is None:
            saved_at = saved_at.replace(tzinfo=dt.timezone.utc)
        return SavedRun(run_id, kind.name, saved_at,
                        HostFingerprint.from_json(as_dict(data["host"], "host")),
                        StackFingerprint.from_json(as_dict(data["stack"], "stack")),
                        kind.decode_params(as_dict(data["params"], "params")),
                        kind.decode_result(as_dict(data["result"], "result")),
                        _settings(data.get("settings")))
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as err:
        what = f"missing field {err}" if isinstance(err, KeyError) else visible(str(err))
        raise RunFormatError(f"damaged run file ({what})") from err
