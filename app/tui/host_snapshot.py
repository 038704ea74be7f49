"""One passive snapshot per refresh, read off the UI thread and shared by every screen.

The App owns it (`app.snapshot`). A worker reads the Host first and publishes it at once, so the
stack's first rows are drawn before the slower TRIM facts are read; then it publishes the same Host
with the TRIM facts and verdicts. Each publication is a new `HostSnapshot` (a higher `generation`).

How a screen consumes it (the stack, TRIM and benchmark screens do; an Advice screen would too):
subclass `SnapshotScreen` and implement `show_snapshot(snapshot)`. It is called on the UI thread
when a newer snapshot arrives while the screen is shown, and when the screen is shown again after
one arrived. Screens never read their own Host; `r` (refresh) calls `app.refresh_snapshot()`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual.message import Message

from .styled_once import StyledOnceScreen

if TYPE_CHECKING:  # the TRIM code loads when its facts are read, after the first frame
    from diskdoctor.probes.host import Host
    from diskdoctor.probes.trim_facts import TrimFacts

    from ..core.trim.doctor import TrimVerdict
    from ..core.trim.peak_window import PeakWindow


@dataclass(frozen=True)
class HostSnapshot:
    """Everything passive the screens show, read once: the Host, then the TRIM facts and verdicts."""

    generation: int
    host: Host
    trim_facts: TrimFacts | None = None
    """None while the TRIM facts are still being read (or when reading them failed)."""
    trim_verdicts: tuple[TrimVerdict, ...] = ()
    trim_problem: str | None = None
    """Why TRIM facts are missing, when reading them failed (one line)."""
    peak: PeakWindow | None = None

    @property
    def trim_ready(self) -> bool:
        """Whether the TRIM facts and verdicts of this snapshot are in (or failed for good)."""
        return self.trim_facts is not None or self.trim_problem is not None


@dataclass
class SnapshotReady(Message):
    """A newer snapshot is in `app.snapshot` (posted to the screens on the UI thread)."""

    bubble: ClassVar[bool] = False
    snapshot: HostSnapshot


@dataclass
class SnapshotFailed(Message):
    """Reading the host failed; `reason` is one line for the user."""

    bubble: ClassVar[bool] = False
    reason: str


class SnapshotScreen(StyledOnceScreen):
    """A screen that draws the App's shared snapshot: it never reads the host itself."""

    shown_generation = -1

    def __init_subclass__(cls, **kwargs: object) -> None:
        """Every snapshot screen must draw snapshots: checked when the class is defined (Textual's
        metaclass rules out ABCMeta), so a missing override fails at import, not on first use."""
        super().__init_subclass__(**kwargs)  # type: ignore[arg-type]
        if cls.show_snapshot is SnapshotScreen.show_snapshot:
            raise TypeError(f"{cls.__name__} is a SnapshotScreen but does not define show_snapshot")

    def show_snapshot(self, snapshot: HostSnapshot) -> None:
        """Draw `snapshot` (called on the UI thread, only with newer snapshots); each screen defines it."""

    def show_snapshot_failure(self, reason: str) -> None:
        """Say that the host could not be read (one line)."""

    def take_snapshot(self, snapshot: HostSnapshot | None) -> None:
        """Draw `snapshot` if this screen has not drawn it yet."""
        if snapshot is not None and snapshot.generation > self.shown_generation:
            self.shown_generation = snapshot.generation
            self.show_snapshot(snapshot)

    def on_snapshot_ready(self, message: SnapshotReady) -> None:
        self.take_snapshot(message.snapshot)

    def on_snapshot_failed(self, message: SnapshotFailed) -> None:
        self.show_snapshot_failure(message.reason)

    def on_screen_resume(self) -> None:
        self.take_snapshot(getattr(self.app, "snapshot", None))

    def request_refresh(self) -> None:
        """Ask the App to read the host again (every screen gets the new snapshot)."""
        refresh = getattr(self.app, "refresh_snapshot", None)
        if refresh is not None:
            refresh()
