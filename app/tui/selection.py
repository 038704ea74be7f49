"""The one selection every screen shares: the device or filesystem the user chose last, on any screen."""

from __future__ import annotations

from dataclasses import dataclass

from diskdoctor.widgets.fit_text import fit_path
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


def without_device(app: App[object], selection: Selection | None) -> str | None:
    """The filesystem type of a selection that has no block device under it (a run's tmpfs chosen on
    Runs), None when it has one or the host does not know the path: Stack, TRIM and Monitor cannot show it."""
    snapshot = getattr(app, "snapshot", None)
    if selection is None or selection.kname or not selection.mountpoint or snapshot is None:
        return None
    mounted = snapshot.host.mount_for_path(selection.mountpoint)
    return mounted.mount.fstype if mounted is not None and mounted.kname is None else None


def no_device_words(app: App[object], selection: Selection | None, nothing: str,
                    width: int = 0) -> tuple[str, ...]:
    """What a screen that cannot show the chosen filesystem says instead, longest first
    ("/tmp/x (tmpfs, chosen on Runs) has no block device: nothing to trim", "/tmp/x (tmpfs) has no block
    device"); given a `width`, a last form with the path cut to fit (`fit_path`); empty when the selection
    has a block device."""
    fstype = without_device(app, selection)
    if selection is None or fstype is None:
        return ()
    by = SCREEN_NAMES.get(selection.by, selection.by)
    subject = selection.mountpoint
    rest = f" ({fstype}) has no block device"
    forms = (f"{subject} ({fstype}, chosen on {by}) has no block device: {nothing}",
             f"{subject}{rest}: {nothing}", f"{subject}{rest}")
    return (*forms, f"{fit_path(subject, max(width - len(rest), 8))}{rest}") if width else forms


@dataclass(frozen=True)
class BeforeFilter:
    """A screen's cursor row and the row it had placed there itself when `/` opened its filter: a filter's
    jump to its first match is placed, never chosen, and Esc puts both back (newuser24 #12)."""

    cursor: str | None
    placed: str | None
    held: Selection | None
    """The one selection then, which Esc on the filter's own jump puts back (Enter had chosen the match)."""


def restore(app: App[object], held: Selection | None) -> None:
    """Put back the selection `held` before a filter (None: nothing was chosen)."""
    app.selection = held  # type: ignore[attr-defined]
