"""The one selection every screen shares: the device or filesystem the user chose last, on any screen."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import App

SCREEN_NAMES = {"stack": "Stack", "trim": "TRIM", "monitor": "Monitor", "runs": "Runs", "bench": "Benchmark"}
"""A screen's name as its tab says it, by the `by` of a selection it made."""


@dataclass(frozen=True)
class Selection:
    """A device (kernel name) and/or a filesystem (mountpoint) chosen on one screen; `by` names it."""

    kname: str | None
    mountpoint: str | None
    by: str
    """The screen that made it (a screen does not re-apply its own selection)."""
    directory: str | None = None
    """The directory itself when one was chosen inside the filesystem (a saved run's own directory)."""
    above: tuple[str, ...] = ()
    """A lower layer's filesystems, in TRIM's order (`mountpoint` is the first): Advice keeps their
    findings and the device's own."""

    @property
    def subject(self) -> str | None:
        """What findings call it: the mountpoint, else the device."""
        return self.mountpoint or self.kname


def chosen(app: App[object]) -> Selection | None:
    """The selection, if any screen made one."""
    return getattr(app, "selection", None)


def choose(app: App[object], kname: str | None, mountpoint: str | None, by: str,
           directory: str | None = None, above: tuple[str, ...] = ()) -> None:
    """Remember the device/filesystem (and a directory in it) chosen on screen `by` for the other screens."""
    if kname or mountpoint:
        app.selection = Selection(kname, mountpoint, by, directory, above)  # type: ignore[attr-defined]


def looked_at(app: App[object]) -> Selection | None:
    """The row left under the cursor of the Stack or TRIM screen last visited without choosing one: never
    the selection (Advice is not narrowed by a row only looked at), only a suggestion (a benchmark target)."""
    return getattr(app, "looked_at", None)


def look(app: App[object], kname: str | None, mountpoint: str | None, by: str) -> None:
    """Remember the row the user left under the cursor on screen `by` without moving to it."""
    app.looked_at = Selection(kname, mountpoint, by) if kname or mountpoint else None  # type: ignore[attr-defined]
