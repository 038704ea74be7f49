"""The report key (w): the proposed name is in the reports folder beside the saved runs (not the current
folder), the dialog says the full path it wrote, and a bad path gets one clear line in the dialog."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.report_dialog import ReportDialog
from diskdoctor.widgets.fit_text import path_ellipsis
from support.report_support import report_written
from support.wal_support import read_only_tmpfs
from test_tui_layout import settle
from textual.widgets import Input, Static


async def open_dialog(app: DiskDoctorApp, pilot) -> ReportDialog:  # type: ignore[no-untyped-def]
    await settle(pilot)
    await pilot.press("w")
    await pilot.pause()
    assert isinstance(app.screen, ReportDialog)
    return app.screen


async def write_to(app: DiskDoctorApp, pilot, path: str) -> str:  # type: ignore[no-untyped-def]
    """Type `path`, press Enter, and return what the dialog says (what the notice says once written)."""
    dialog = app.screen
    dialog.query_one("#report-path", Input).value = path
    dialog.query_one("#report-path", Input).focus()
    await pilot.press("enter")
    for _ in range(100):
        await settle(pilot)
        if app.screen is not dialog:
            return report_written(app)
        said = str(dialog.query_one("#report-result", Static).render())
        if not said.startswith(("Writing", "Reading")):
            return said
        await pilot.pause(0.05)
    return said


async def test_the_report_goes_to_the_reports_folder_and_the_dialog_says_where(
        tmp_path: Path, private_state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_dialog(app, pilot)
        proposed = dialog.query_one("#report-path", Input).value
        reports = private_state_dir / "diskdoctor" / "reports"
        assert Path(proposed).parent == reports and proposed.endswith(".html")
        assert not reports.exists()  # made on the first write there, not on opening the dialog
        said = await write_to(app, pilot, proposed)
        assert said.startswith(f"Wrote {proposed}:"), said
        assert Path(proposed).is_file() and oct(reports.stat().st_mode & 0o777) == "0o700"
        where = [n.message.replace("\n", "") for n in app._notifications]  # lines of a path too wide
        assert proposed in where, where
        assert not list(tmp_path.iterdir())  # nothing in the current folder


async def test_a_bad_path_gets_one_clear_line_in_the_dialog(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("a file, not a folder")
    (tmp_path / "folder.md").mkdir()
    bad = {str(tmp_path / "missing" / "r.md"): "does not exist",
           str(tmp_path / "notes.txt" / "r.md"): "is a file, not a folder",
           str(tmp_path / "folder.md"): "is a folder",
           str(tmp_path / "r.txt"): "must end in .md, .html or .json",
           "": "Give a file name"}
    with read_only_tmpfs(tmp_path / "ro") as read_only:
        bad[str(read_only / "r.md")] = "read-only"
        app = DiskDoctorApp(fixture_root("lab-ssd"))
        async with app.run_test(size=(80, 24)) as pilot:
            await open_dialog(app, pilot)
            for path, why in bad.items():
                said = await write_to(app, pilot, path)
                assert why in said and "\n" not in said and "Traceback" not in said, (path, said)
                assert isinstance(app.screen, ReportDialog)
                assert app.screen.focused is app.screen.query_one("#report-path")
        assert os.listdir(read_only) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.md", "notes.txt", "ro"]


async def test_at_80_the_name_field_shows_a_long_name_cut_at_its_folders_and_typing_replaces_it(
        tmp_path: Path, private_state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """newuser15 at 80x24: the field opened on `kdoctor/reports/diskdoctor-host-…` (the end of the proposed
    path, its start cut mid-word); newuser20 #11: shown from its start, the `.html` that picks the format
    was past the field's end. It shows the path from its start, cut at its folders by the one path rule,
    its file name and extension whole; the value stays whole, and the first key typed still replaces it."""
    from test_list_layout import screen_lines

    monkeypatch.chdir(tmp_path)
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_dialog(app, pilot)
        await settle(pilot)
        field = dialog.query_one("#report-path", Input)
        proposed = field.value
        assert len(proposed) > field.scrollable_content_region.width  # the case: too long for the field
        row = screen_lines(app)[field.region.y + 1]
        shown = row[field.content_region.x:field.content_region.right].strip()
        width = field.scrollable_content_region.width
        assert shown == path_ellipsis(proposed, width), (shown, proposed)
        assert shown.startswith("/") and shown.endswith(os.path.basename(proposed)), shown
        assert field.cursor_position == 0 and field.selected_text == proposed
        await pilot.press(*"r.md")
        assert field.value == "r.md"


async def test_a_proposed_name_carries_the_time_the_report_is_written(
        tmp_path: Path, private_state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """newuser16: the default name `diskdoctor-vm-20261126-1712.html` carried an earlier time than the
    report's; a proposed name left as it was is stamped when the report is written."""
    import datetime as dt

    monkeypatch.chdir(tmp_path)
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_dialog(app, pilot)
        field = dialog.query_one("#report-path", Input)
        opened = field.value
        assert f"{dt.datetime.now():%Y%m%d-}" in opened  # the time the dialog opened
        dialog.clock = lambda: dt.datetime(2030, 1, 2, 3, 4)  # the report is written later
        field.focus()
        await pilot.press("enter")
        for _ in range(100):
            await settle(pilot)
            if app.screen is not dialog:
                break
            await pilot.pause(0.05)
        written = list((private_state_dir / "diskdoctor" / "reports").iterdir())
        assert [path.name for path in written] == [os.path.basename(opened)[:-18] + "20300102-0304.html"]
