"""The host's "now" and time zone: live clock, or the moment a capture was taken, in the host's zone."""

from __future__ import annotations

import datetime as dt
import io
import json
import zoneinfo
from dataclasses import dataclass

from .root import Root

LOCALTIME = "etc/localtime"
MANIFEST = "manifest.json"


@dataclass(frozen=True, slots=True)
class HostClock:
    """When "now" is for this root and which zone schedules are evaluated in."""

    now: dt.datetime
    zone: dt.tzinfo
    zone_name: str
    source: str


def _zone(root: Root) -> tuple[dt.tzinfo, str]:
    resolved = root.resolve(LOCALTIME) or LOCALTIME
    name = resolved.split("zoneinfo/", 1)[1] if "zoneinfo/" in resolved else "local"
    data, _ = root.read_bytes(resolved)
    root._record("file", LOCALTIME)
    try:
        if data is None:
            raise ValueError(LOCALTIME)
        return zoneinfo.ZoneInfo.from_file(io.BytesIO(data), key=name), name
    except ValueError:
        if root.live:
            local = dt.datetime.now().astimezone().tzinfo or dt.timezone.utc
            return local, str(local)
        return dt.timezone.utc, "UTC (no /etc/localtime in the capture)"


def read_host_clock(root: Root) -> HostClock:
    """Live: the current time. Capture: its manifest's created_utc, so schedules read as they did then."""
    zone, name = _zone(root)
    if not root.live:
        text, _ = root.read_text(MANIFEST)
        try:
            created = dt.datetime.fromisoformat(json.loads(text or "")["created_utc"])
            if created.tzinfo is None:
                created = created.replace(tzinfo=dt.timezone.utc)
            return HostClock(created.astimezone(zone), zone, name, f"capture time ({MANIFEST})")
        except (ValueError, KeyError, TypeError):
            pass
        return HostClock(dt.datetime.now(zone), zone, name, "this machine's clock (capture has no time)")
    return HostClock(dt.datetime.now(zone), zone, name, "this host's clock")
