"""The Benchmark form as a user types into it (Pilot): the filesystem menu follows the directory, `/` only
moves to the directory field, a missing directory is marked at once, a fixed problem leaves the status line
(a late change message does not), help gives focus back where it was, Tab follows the form as drawn, the
profile menu shows whole names, and the progress line never promises "0 s left" before the end."""

from __future__ import annotations

import os

import pytest
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.form import BenchForm
from diskdoctor.app.tui.bench.view import progress_text
from diskdoctor.app.tui.help_screen import HelpScreen
from diskdoctor.probes.root import live_root
from support.wal_support import tmpfs_dir
from test_bench_screen import SIZE, open_bench, text_of
from textual.widgets import Input, Select, Static

__all__ = ["tmpfs_dir"]


async def test_filesystem_menu_follows_the_typed_directory(tmpfs_dir: str) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bench(app, pilot)
        menu = screen.query_one("#bench-fs", Select)
        screen.query_one("#bench-dir", Input).value = ""  # the suggestion from Stack, cleared
        holding = app.snapshot.host.mount_for_path(os.path.realpath(tmpfs_dir))  # type: ignore[union-attr]
        assert holding is not None  # on /dev/shm, offered only once a directory there is typed (newuser19)
        screen.query_one("#bench-dir", Input).focus()
        await pilot.press(*tmpfs_dir)
        await pilot.pause()
        assert menu.value == holding.mount.mountpoint
        assert screen.query_one("#bench-dir", Input).value == tmpfs_dir  # the typed path is kept


async def test_slash_only_moves_to_the_directory_field(tmpfs_dir: str) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bench(app, pilot)
        field = screen.query_one("#bench-dir", Input)
        await pilot.press("d")
        # nothing typed: the value there (the suggestion) is selected; the path typed next is the whole path
        assert field.has_focus and field.selected_text == field.value
        await pilot.press(*tmpfs_dir, "escape")
        assert field.value == tmpfs_dir
        await pilot.press("d")  # newuser10 #5: the value is selected, so the path typed next replaces it
        assert field.has_focus and field.value == tmpfs_dir and field.selected_text == tmpfs_dir
        await pilot.press("end")  # an arrow key or End keeps it to edit
        assert field.value == tmpfs_dir and field.cursor_position == len(tmpfs_dir)
        field.value = "//" + tmpfs_dir  # several leading slashes are one, as the kernel reads them
        await pilot.pause()
        assert screen.query_one(BenchForm).directory == tmpfs_dir and not field.has_class("-invalid")


async def test_closing_help_puts_focus_back_where_it_was() -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bench(app, pilot)
        fields = {f.id: f.value for f in screen.query(Input).results(Input)}
        screen.set_focus(None)  # keys go to the screen
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert app.screen is screen and screen.focused is None  # not in the first field
        await pilot.press("d")  # the hotkey acts: nothing is typed anywhere
        assert {f.id: f.value for f in screen.query(Input).results(Input)} == fields
        assert screen.focused is screen.query_one("#bench-dir")
        # the filesystem suggested from Stack is selected: it gives way to the path typed next
        assert screen.query_one("#bench-dir", Input).selected_text == fields["bench-dir"]
        bs = screen.query_one("#bench-bs", Input)
        bs.focus()
        await pilot.press("f1", "escape")
        assert screen.focused is bs  # the field the user was in


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_tab_follows_the_form_as_drawn(size: tuple[int, int]) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(app, pilot)
        form = screen.query_one("#bench-form")
        for profile in ("etcd", "compaction", "randwrite", "interference"):
            screen.query_one("#bench-profile", Select).value = profile
            await pilot.pause()
            screen.set_focus(None)
            await pilot.press("d")
            visited = [screen.focused]
            while True:
                await pilot.press("tab")
                if screen.focused is None or form not in screen.focused.ancestors:
                    break
                visited.append(screen.focused)
            await pilot.pause()  # the directory leaves its typing width: let the form lay out again
            drawn = sorted((w for w in form.children if w.focusable), key=lambda w: (w.region.y, w.region.x))
            dir_at = drawn.index(screen.query_one("#bench-dir"))
            assert [w.id for w in visited] == [w.id for w in drawn[dir_at:]], profile
            assert visited[-1].id == "bench-start"
            rows = [w.region.y for w in visited]
            # at 80 a WAL run's load (writes/s, arrivals, capacity) has its own row; at 200 all is one row
            # where every field is whole in it, else two (newuser18 #2: the live host's directory decides)
            load_row = profile == "etcd"
            assert rows == sorted(rows)
            assert len(set(rows)) == 2 + load_row if size[0] < 160 else len(set(rows)) in (1, 2)


async def test_an_error_stays_when_a_change_made_before_it_arrives_late() -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bench(app, pilot)
        screen.query_one("#bench-dir", Input).value = "/tmp"
        screen.query_one("#bench-bs", Input).value = "2x"  # their Changed messages are still queued
        screen.action_start()
        await pilot.pause()
        assert "cannot read block size '2x'" in text_of(app, "#bench-status")
        screen.query_one("#bench-bs", Input).value = "4k"  # a change after the error: it goes
        await pilot.pause()
        assert text_of(app, "#bench-status").startswith("/tmp (typed): press s to start")


async def test_missing_directory_is_marked_while_typing_and_a_fixed_problem_leaves_the_status() -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bench(app, pilot)
        field = screen.query_one("#bench-dir", Input)
        field.value = ""  # the filesystem suggested from Stack's cursor, cleared: nothing to start on
        await pilot.pause()
        await pilot.press("s")
        assert text_of(app, "#bench-status") == "Type a directory or pick a mounted filesystem first."
        field.focus()
        await pilot.press(*"/no/such/dir")
        await pilot.pause()
        assert field.has_class("-invalid")
        # said once (newuser15 #4 read it under the form and on the status line): where the status line
        # names the path and where it came from, the red field beside it
        assert not screen.query_one("#bench-form-error").display
        assert text_of(app, "#bench-status").startswith("/no/such/dir (typed): no such directory")
        assert text_of(app, "#bench-status").count("no such directory") == 1
        screen.query_one("#bench-bs", Input).value = "x"  # another field's problem: still under the form
        await pilot.pause()
        assert "no such directory" not in text_of(app, "#bench-form-error")
        assert screen.query_one("#bench-form-error").display
        screen.query_one("#bench-bs", Input).value = "2300"
        field.value = "/tmp"
        await pilot.pause()
        assert not field.has_class("-invalid") and not screen.query_one("#bench-form-error").display


async def test_profile_menu_shows_the_longest_name_whole_at_200_columns() -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await open_bench(app, pilot)
        for choice in ("postgres-wal", "interference", "compaction"):
            screen.query_one("#bench-profile", Select).value = choice
            await pilot.pause()
            label = screen.query_one("#bench-profile").query_one("#label", Static)
            if choice == "postgres-wal":
                assert label.render_line(0).text.strip() == choice
            else:  # one entry: the tab names it, the menu is not shown (newuser16 #10)
                assert not screen.query_one("#bench-profile").display
        sync = screen.query_one("#bench-sync").query_one("#label", Static)
        assert sync.render_line(0).text.strip() == "range+fdatasync"


def test_progress_says_finishing_rather_than_zero_seconds_left() -> None:
    assert str(progress_text(0.84, 1.3, 100, 10.0)).endswith("· finishing")  # 0.25 s at this pace
    assert str(progress_text(0.5, 2.0, 100, 10.0)).endswith("· 2.0 s left")
    assert str(progress_text(0.25, 10.0, 100, 10.0)).endswith("· 30 s left")
    assert str(progress_text(1.0, 2.0, 100, 0.0)).endswith("· finishing")  # the last interval, not the end
    assert str(progress_text(1.0, 2.0, 100, 0.0, finished=True)).endswith("· done")
    assert str(progress_text(1.0, 0.674, 32, 0.0, finished=True, mb_s=(379.6, 380.0))).endswith(
        "read 379.6 MB/s · write 380.0 MB/s · 674 ms · done")  # a compaction: MB/s, and ms under a second


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_slash_then_typing_replaces_the_directory_whatever_filled_it(tmpfs_dir: str,
                                                                          size: tuple[int, int]) -> None:
    """newuser10 #5: at 80 `/` then typing appended to a Runs pick (`/dev/…/dev/shm/newuser10`, no such
    directory) while at 120 the suggestion was cleared; now `/` selects the value at every width."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await open_bench(app, pilot)
        form, field = screen.query_one(BenchForm), screen.query_one("#bench-dir", Input)
        for fill in ("picked", "typed", "suggested"):
            if fill == "picked":
                form.choose("/proc")  # as a Runs pick fills it in
            elif fill == "typed":
                await pilot.press("d", *"/proc", "escape")
            else:
                screen._suggested = field.value = "/proc"
            screen.set_focus(None)
            await pilot.pause()
            await pilot.press("d", *tmpfs_dir)
            await pilot.pause()
            assert field.value == tmpfs_dir, (fill, field.value)
            await pilot.press("escape")


async def test_at_120_the_form_is_two_rows_sized_from_what_the_fields_hold() -> None:
    """newuser10 #8: at 120x40 the directory field was 40 cells for `/` and the form took three rows where
    two fit; now the settings share the first row, and the directory is not 40 cells wide for `/`."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_bench(app, pilot)
        screen.query_one(BenchForm).choose("/")
        screen.set_focus(None)
        await pilot.pause()
        await pilot.pause()
        form = screen.query_one("#bench-form")
        shown = [field for field in form.children if field.display]
        assert len({field.region.y for field in shown}) == 2, [(f.id, f.region) for f in shown]
        field = screen.query_one("#bench-dir", Input)
        # one width for any path at 120, not one for `/` (newuser21 #7: fields jumped while typing)
        width = field.region.width
        screen.query_one(BenchForm).choose("/tmp")
        await pilot.pause()
        await pilot.pause()
        assert field.region.width == width < 40, field.region
        assert all(field.region.right <= 119 for field in shown)
