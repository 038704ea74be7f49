"""Drive a walkthrough with Textual's Pilot as a user would: open it, answer, start steps, read the page."""

from __future__ import annotations

from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.guides.guide_screen import GuideScreen
from diskdoctor.app.tui.guides.quick_bench import MIB, QuickSizes
from textual.widgets import Static

TINY = QuickSizes(wal_bytes=MIB // 4, phase_s=1.0, compaction_file=2 * MIB, compaction_jobs=1,
                  monitor_ticks=2)
"""Benchmarks small enough for a test (a few seconds on a loop device)."""


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    """Wait for the workers (host snapshot, step pages, step runs) and a repaint."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def open_guide(pilot, key: str) -> GuideScreen:  # type: ignore[no-untyped-def]
    """Open a walkthrough from the menu (Ctrl-G, then the list) and wait for its first page."""
    app: DiskDoctorApp = pilot.app
    app.guide_sizes = TINY
    await settle(pilot)
    await pilot.press("ctrl+g")
    await pilot.pause()
    keys = {"etcd": 0, "trim": 1, "slow": 2, "apps": 3}
    await pilot.press(*(["down"] * keys[key]), "enter")
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, GuideScreen), type(screen)
    return screen


def page(screen: GuideScreen) -> str:
    """Everything the current page says (its text, result and error lines)."""
    parts = [str(screen.query_one(f"#guide-{name}", Static).render()) for name in
             ("progress", "text", "error", "result")]
    return "\n".join(parts)


async def type_answer(pilot, screen: GuideScreen, text: str) -> None:  # type: ignore[no-untyped-def]
    """Type an answer into the step's field and submit it with Enter."""
    field = screen.query_one("#guide-typed")
    field.focus()
    await pilot.pause()
    await pilot.press(*list(text), "enter")
    await settle(pilot)


async def next_step(pilot) -> None:  # type: ignore[no-untyped-def]
    """n: the next step (leaving a focused field first, as a user would with Esc)."""
    await pilot.press("escape") if pilot.app.focused is not None and \
        pilot.app.focused.id == "guide-typed" else None
    await pilot.press("n")
    await settle(pilot)


async def start_step(pilot) -> None:  # type: ignore[no-untyped-def]
    """s: run the step and wait for it to finish."""
    await pilot.press("s")
    await settle(pilot)
