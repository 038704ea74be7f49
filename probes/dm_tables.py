"""`dmsetup table` and `lvs` output: dm-crypt allow_discards and thin pools' discards mode."""

from __future__ import annotations

import json
from dataclasses import dataclass

from .commands import READ_ONLY_COMMANDS
from .root import Root

THIN_POOL_MODES = {"ignore_discard": "ignore", "no_discard_passdown": "nopassdown"}


@dataclass(frozen=True, slots=True)
class DmTarget:
    """One line of `dmsetup table`: a mapping name, its target type and the target's arguments."""

    name: str
    target: str
    args: tuple[str, ...]

    @property
    def allows_discards(self) -> bool | None:
        """For crypt targets: whether allow_discards is among the optional parameters."""
        return "allow_discards" in self.args if self.target == "crypt" else None

    @property
    def thin_pool_discards(self) -> str | None:
        """For thin-pool targets: ignore, nopassdown or passdown (from the feature arguments)."""
        if self.target != "thin-pool":
            return None
        for feature, mode in THIN_POOL_MODES.items():
            if feature in self.args:
                return mode
        return "passdown"


def parse_dmsetup_table(text: str) -> dict[str, list[DmTarget]]:
    """Targets by mapping name; lines that do not look like `name: start len target ...` are skipped."""
    tables: dict[str, list[DmTarget]] = {}
    for line in text.splitlines():
        name, sep, rest = line.partition(": ")
        fields = rest.split()
        if not sep or len(fields) < 3 or not fields[0].isdigit():
            continue
        tables.setdefault(name.strip(), []).append(DmTarget(name.strip(), fields[2], tuple(fields[3:])))
    return tables


def parse_lvs_json(text: str) -> list[dict[str, str]]:
    """The LV rows of `lvs --reportformat json`; [] when the text is not that JSON."""
    try:
        document = json.loads(text)
        rows = [row for report in document.get("report", []) for row in report.get("lv", [])]
    except (ValueError, AttributeError, TypeError):
        return []
    return [{str(k): str(v) for k, v in row.items()} for row in rows if isinstance(row, dict)]


@dataclass(frozen=True, slots=True)
class DmFacts:
    """What device-mapper tooling said, with the command each came from (None when unavailable)."""

    tables: dict[str, list[DmTarget]]
    tables_source: str
    tables_why: str | None
    thin_pools: dict[str, str]
    """'vg/pool' -> discards mode from lvs."""
    lvs_source: str
    lvs_why: str | None


def read_dm_facts(root: Root, *, has_dm: bool) -> DmFacts:
    """Run `dmsetup table` and `lvs` (or read them from a capture); skipped when there is no dm device."""
    if not has_dm:
        none = "no device-mapper devices"
        return DmFacts({}, "dmsetup table", none, {}, "lvs", none)
    table = root.run("dmsetup-table", READ_ONLY_COMMANDS["dmsetup-table"])
    lvs = root.run("lvs", READ_ONLY_COMMANDS["lvs"])
    pools = {}
    for row in parse_lvs_json(lvs.text or ""):
        if row.get("lv_attr", "").startswith("t") and row.get("discards"):
            pools[f"{row.get('vg_name', '?')}/{row.get('lv_name', '?')}"] = row["discards"]
    return DmFacts(parse_dmsetup_table(table.text or ""), table.source, table.why_unknown,
                   pools, lvs.source, lvs.why_unknown)
