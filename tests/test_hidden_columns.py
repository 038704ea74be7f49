"""Columns left out for want of width are said in one phrasing on every screen (newuser21 #10 read three:
Stack `+4 hidden: ROTA, SCHED, DISC-MAX …`, live Monitor `+7 not in the table: util trend; inflight, d_await,
dMB/s … in the details`, capture Monitor `+2 hidden: inflight, busy s`): hidden_columns.py makes it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import fixture_root
from diskdoctor.app.core.runs.store import RunStore
from diskdoctor.app.tui import monitor_screen
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.monitor_screen import MonitorScreen
from diskdoctor.widgets.hidden_columns import WIDER, WIDER_OR_DETAILS, hidden_columns_forms
from diskdoctor.widgets.stack_tree import StackTree
from test_monitor_layout import open_monitor
from test_runs_narrow_list import SAVED_RUNS
from test_runs_screen import open_runs
from test_text_fit import screen_lines

NOTE = re.compile(r"\+\d+ hidden.*?(?= · |  |$)")


def note_on_screen(app: DiskDoctorApp) -> str:
    """The hidden-columns note as the screen shows it (up to the next status part)."""
    found = [match[0] for line in screen_lines(app) if (match := NOTE.search(line.rstrip()))]
    assert len(found) == 1, "\n".join(screen_lines(app))
    return found[0]


def same_form(note: str, hidden: list[str] | tuple[str, ...], where: tuple[str, ...]) -> None:
    """The note is one of the common forms, and says where to see the columns."""
    assert note in hidden_columns_forms(hidden, where), (note, hidden_columns_forms(hidden, where))
    assert any(note.endswith(f"({place})") for place in where), note


def test_the_forms_shorten_by_whole_names_then_drop_the_place() -> None:
    forms = hidden_columns_forms(("ROTA", "SCHED", "DISC-MAX", "DISC-GRAN"), WIDER_OR_DETAILS)
    assert forms == ("+4 hidden: ROTA, SCHED, DISC-MAX, DISC-GRAN (wider terminal or details)",
                     "+4 hidden: ROTA, SCHED, DISC-MAX, DISC-GRAN (see details)",
                     "+4 hidden: ROTA, SCHED, DISC-MAX … (wider terminal or details)",
                     "+4 hidden: ROTA, SCHED, DISC-MAX … (see details)",
                     "+4 hidden: ROTA, SCHED … (wider terminal or details)",
                     "+4 hidden: ROTA, SCHED … (see details)",
                     "+4 hidden: ROTA … (wider terminal or details)", "+4 hidden: ROTA … (see details)",
                     "+4 hidden (wider terminal or details)", "+4 hidden (see details)", "+4 hidden")
    assert hidden_columns_forms(("saved",), WIDER_OR_DETAILS)[-2:] == ("+1 hidden: saved", "+1 hidden")
    assert hidden_columns_forms((), WIDER) == ()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_stack_says_its_hidden_columns_in_the_common_form(size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=size) as pilot:
        await pilot.app.workers.wait_for_complete()
        await pilot.pause(0.2)
        hidden = app.screen.query_one(StackTree).hidden_extra()
        assert hidden, "long-names hides some of Stack's extra columns at this width"
        note = note_on_screen(app)
        if note != f"+{len(hidden)} hidden: {', '.join(hidden)}":  # beside a long verdict: names, no place
            same_form(note, hidden, WIDER_OR_DETAILS)  # (newuser23 #11; the details list them too)


@pytest.mark.parametrize("live", [False, True], ids=["capture", "live-columns"])
async def test_monitor_says_its_hidden_columns_in_the_common_form(live: bool) -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_monitor(pilot)
        assert isinstance(screen, MonitorScreen)
        if live:
            screen._columns, screen._fitted_width = monitor_screen.COLUMNS, 0  # as on the live host
            screen._fit_columns(80)
            screen._draw_summary(screen.sample)
        await pilot.pause(0.1)
        where = WIDER_OR_DETAILS if screen._in_details() else WIDER
        same_form(note_on_screen(app), screen.hidden_columns, where)


async def test_runs_says_its_hidden_column_in_the_common_form(private_state_dir: Path) -> None:
    folder = RunStore().directory
    folder.mkdir(parents=True, exist_ok=True)
    for run_file in SAVED_RUNS.glob("*.json"):
        shutil.copy(run_file, folder / run_file.name)
    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_runs(pilot)
        same_form(note_on_screen(app), ("saved",), WIDER_OR_DETAILS)
