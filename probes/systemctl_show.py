"""Parse `systemctl show UNIT...` output: one Key=Value block per unit, blank-line separated."""

from __future__ import annotations

import datetime as dt
import re

TIMESTAMP = re.compile(r"^(?:[A-Za-z]{3} )?(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})(?: ([A-Za-z][\w/+-]*))?$")
ARGV = re.compile(r"argv\[\]=(.*?)(?: ;|$)")


def parse_systemctl_show(text: str) -> dict[str, dict[str, str]]:
    """Properties per unit Id (a block without Id= is keyed by its position, e.g. '#0')."""
    units: dict[str, dict[str, str]] = {}
    for index, block in enumerate(re.split(r"\n\s*\n", text)):
        properties: dict[str, str] = {}
        for line in block.splitlines():
            key, sep, value = line.partition("=")
            if sep and key and key.replace("_", "").isalnum():
                properties[key] = value.strip()
        if properties:
            units[properties.get("Id", f"#{index}")] = properties
    return units


def parse_show_timestamp(value: str, local: dt.tzinfo) -> dt.datetime | None:
    """'Mon 2026-11-16 00:12:01 UTC' as an aware datetime; None for 'n/a', empty or garbage.

    Zone abbreviations other than UTC/GMT are ambiguous, so those times are taken as host-local.
    """
    match = TIMESTAMP.match(value.strip())
    if not match:
        return None
    try:
        naive = dt.datetime.strptime(match.group(1), "%Y-%m-%d %H:%M:%S")
    except ValueError:
        return None
    zone = dt.timezone.utc if (match.group(2) or "").upper() in ("UTC", "GMT") else local
    return naive.replace(tzinfo=zone)


def calendar_expressions(value: str) -> list[str]:
    """OnCalendar expressions out of TimersCalendar='{ OnCalendar=weekly ; next_elapse=... }'."""
    return [match.strip() for match in re.findall(r"OnCalendar=([^;}]*)", value) if match.strip()]


def exec_command_lines(value: str) -> list[str]:
    """Command lines out of ExecStart='{ path=... ; argv[]=/sbin/fstrim -av ; ... }'."""
    return [match.strip() for match in ARGV.findall(value) if match.strip()]
