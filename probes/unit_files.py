"""systemd unit files under a Root: where a unit lives, its drop-ins, enablement, masking and settings."""

from __future__ import annotations

from dataclasses import dataclass

from .root import Root

UNIT_DIRS = ("etc/systemd/system", "run/systemd/system", "usr/local/lib/systemd/system",
             "lib/systemd/system", "usr/lib/systemd/system")
"""Search order, highest priority first (systemd.unit(5); Debian still ships units in /lib)."""
WANTS_DIRS = ("etc/systemd/system", "run/systemd/system", "lib/systemd/system", "usr/lib/systemd/system")


def parse_unit(text: str) -> list[tuple[str, str, str]]:
    """(section, key, value) assignments in file order; never raises on malformed lines."""
    assignments = []
    section = ""
    pending = ""
    for raw in text.splitlines():
        line = pending + raw.strip() if pending else raw.strip()
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
            continue
        key, sep, value = line.partition("=")
        if sep and key.strip():
            assignments.append((section, key.strip(), value.strip()))
    return assignments


@dataclass(frozen=True, slots=True)
class UnitSettings:
    """A unit's assignments after its drop-ins, with systemd's "empty value resets a list" rule."""

    assignments: tuple[tuple[str, str, str, str], ...]
    """(section, key, value, source path) in the order systemd applies them."""

    def values(self, section: str, key: str) -> list[tuple[str, str]]:
        """Effective (value, source) list for a list-valued key such as OnCalendar= or ExecStart=."""
        result: list[tuple[str, str]] = []
        for sec, name, value, source in self.assignments:
            if sec == section and name == key:
                if value == "":
                    result = []
                else:
                    result.append((value, source))
        return result

    def last(self, section: str, key: str) -> tuple[str, str] | None:
        """The effective (value, source) of a single-valued key, or None when unset."""
        values = self.values(section, key)
        return values[-1] if values else None


@dataclass(frozen=True, slots=True)
class UnitFile:
    """Where a unit is defined and how it is enabled, read from files only."""

    name: str
    path: str | None
    """The host path of the unit file in effect, None when not installed."""
    masked: bool
    enabled_links: tuple[str, ...]
    dropins: tuple[str, ...]
    settings: UnitSettings

    @property
    def installed(self) -> bool:
        """Whether a unit file (or a mask) exists."""
        return self.path is not None or self.masked


def _is_mask(root: Root, rel: str) -> bool:
    target = root.readlink(rel)
    if target is not None:
        return target == "/dev/null"
    text, _ = root.read_text(rel)
    return text is not None and text.strip() == ""


def _main_file(root: Root, name: str) -> tuple[str | None, bool, list[tuple[str, str, str, str]]]:
    """The unit file that wins in the search path: its host path, whether it is masked, its assignments."""
    for directory in UNIT_DIRS:
        rel = f"{directory}/{name}"
        if name not in (root.listdir(directory) or []):
            continue
        if directory.startswith(("etc/", "run/")) and _is_mask(root, rel):
            return root.host_path(rel), True, []
        text, _ = root.read_text_resolved(rel)
        if text is None:
            continue
        path = root.host_path(rel)
        return path, False, [(sec, key, value, path) for sec, key, value in parse_unit(text)]
    return None, False, []


def _dropins(root: Root, name: str) -> tuple[list[str], list[tuple[str, str, str, str]]]:
    """The drop-ins (*.d/*.conf, the first of each name in the search path, by name) and what they set."""
    found: dict[str, str] = {}
    for directory in UNIT_DIRS:
        for entry in root.listdir(f"{directory}/{name}.d") or []:
            if entry.endswith(".conf") and entry not in found:
                found[entry] = f"{directory}/{name}.d/{entry}"
    applied, assignments = [], []
    for entry in sorted(found):
        text, _ = root.read_text_resolved(found[entry])
        if text is None:
            continue
        source = root.host_path(found[entry])
        applied.append(source)
        assignments += [(sec, key, value, source) for sec, key, value in parse_unit(text)]
    return applied, assignments


def _wanted_by(root: Root, name: str) -> list[str]:
    """The .wants/.requires links that enable the unit."""
    links = []
    for directory in WANTS_DIRS:
        for wants in root.listdir(directory) or []:
            if wants.endswith((".wants", ".requires")) and \
                    name in (root.listdir(f"{directory}/{wants}") or []):
                links.append(root.host_path(f"{directory}/{wants}/{name}"))
    return links


def read_unit_file(root: Root, name: str) -> UnitFile:
    """Find `name` in the unit search path and merge its drop-ins (*.d/*.conf)."""
    path, masked, assignments = _main_file(root, name)
    applied, dropped_in = _dropins(root, name)
    return UnitFile(name, path, masked, tuple(_wanted_by(root, name)), tuple(applied),
                    UnitSettings(tuple(assignments + dropped_in)))
