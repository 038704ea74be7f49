"""The TRIM screen driven with Pilot: verdicts, details and fixes, the peak window, and a real trim now."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.core.findings.vocabulary import Severity
from diskdoctor.app.tui.trim_dialogs import ConfirmTrim, TrimProgress
from diskdoctor.app.tui.trim_layers import layer_lines
from diskdoctor.app.tui.trim_screen import COLUMNS, MIN_MOUNTPOINT_CELLS, TIMER_COLUMNS, headings_and_room
from diskdoctor.probes.root import live_root
from diskdoctor.widgets import FindingCard
from diskdoctor.widgets.filter_bar import FilterBar
from diskdoctor.widgets.wrap_text import WrappedText
from support.loop_stack import LoopStack
from test_tui import running, settled, text_of
from textual.widgets import DataTable

SIZE = (120, 40)


async def open_trim(app, pilot) -> DataTable:  # type: ignore[no-untyped-def]
    await pilot.press("2")
    await settled(app, pilot)
    return app.screen.query_one("#trim-table", DataTable)


def cards(app) -> list[str]:  # type: ignore[no-untyped-def]
    return [card.card.id for card in app.screen.query(FindingCard)]


async def test_verdicts_details_and_fix_cards() -> None:
    async with running(fixture_root("etcd-trim-blocked"), SIZE) as (app, pilot):
        table = await open_trim(app, pilot)
        rows = {str(table.get_row_at(i)[0]): str(table.get_row_at(i)[2]) for i in range(table.row_count)}
        assert rows == {"/": "OK", "/var/lib/etcd": "BLOCKED"}
        assert "fstrim.timer enabled" in text_of(app, "#trim-host")
        assert str(table.get_row_at(0)[0]) == "/var/lib/etcd"  # worst first: the BLOCKED one on top
        assert "Details: /var/lib/etcd" in text_of(app, "#trim-details-title")
        details = text_of(app, "#trim-verdict")
        assert "BLOCKED at luks-etcd" in details and "← blocks discard" in details
        assert "next run Mon 2026-11-23 01:12" in details
        assert cards(app) == ["TRIM-CRYPT-OFF", "TRIM-LVM-MYTH"]
        assert "1 of 2 filesystems OK" in text_of(app, "#status")
        crypt = app.screen.query(FindingCard).first()
        assert ("discard_max_bytes of luks-etcd", "0B", "/sys/block/dm-1/queue/discard_max_bytes") in \
            crypt.card.evidence  # each value with where it was read, as on the Advice screen
        assert "Evidence:" in crypt.plain and "Why: luks-etcd has discard_max_bytes 0" in crypt.plain
        assert crypt.card.badge_style == Severity.WARN.badge_style  # the one style map


async def test_number_keys_switch_screens_both_ways() -> None:
    async with running(fixture_root("etcd-trim-blocked"), SIZE) as (app, pilot):
        await open_trim(app, pilot)
        assert app.current_mode == "trim"
        await pilot.press("1")
        await pilot.pause()
        assert app.current_mode == "stack" and app.screen.query_one("#stack-tree")
        await pilot.press("2")
        await pilot.pause()
        assert app.screen.query_one("#trim-table", DataTable).row_count == 2


async def test_trim_now_is_refused_on_a_capture() -> None:
    async with running(fixture_root("etcd-trim-blocked"), SIZE) as (app, pilot):
        await open_trim(app, pilot)
        await pilot.press("t")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmTrim)
        assert any("live host only" in str(n.message) for n in app._notifications)


async def test_peak_window_setting_flags_the_monday_trim() -> None:
    async with running(fixture_root("etcd-trim-blocked"), SIZE) as (app, pilot):
        await open_trim(app, pilot)
        await pilot.press("down")  # "/", under the BLOCKED /var/lib/etcd (worst first)
        await pilot.pause()
        assert "TRIM-PEAK" not in cards(app)
        await pilot.press("p")
        await pilot.pause()
        await pilot.press(*"Mon 00:00-03:00", "enter")
        await settled(app, pilot)
        assert "peak window: Mon 00:00-03:00" in text_of(app, "#trim-host")
        assert "TRIM-PEAK" in cards(app)


async def test_bad_peak_window_is_explained_in_the_dialog() -> None:
    async with running(fixture_root("etcd-trim-blocked"), SIZE) as (app, pilot):
        await open_trim(app, pilot)
        await pilot.press("p")
        await pilot.pause()
        await pilot.press(*"someday", "enter")
        await pilot.pause()
        assert "cannot read the peak window" in text_of(app, "#peak-error")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.query_one("#trim-table", DataTable)


@pytest.mark.live
async def test_trim_now_confirms_then_runs_fstrim(loop_stack: LoopStack) -> None:
    target = str(loop_stack.mountpoints["xfs"])
    async with running(live_root(), SIZE) as (app, pilot):
        table = await open_trim(app, pilot)
        table.move_cursor(row=table.get_row_index(target))
        await pilot.pause()
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmTrim)
        assert "slow other I/O" in str(app.screen.query("Static")[1].render())
        await pilot.click("#confirm")
        await pilot.pause()
        progress = app.screen
        assert isinstance(progress, TrimProgress)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert progress.result is not None and progress.result.ok, progress.result
        assert "fstrim reported" in text_of(app, "#trim-progress")
        await pilot.click("#close")
        await pilot.pause()
        assert f"{target}: fstrim reported" in text_of(app, "#status")


@pytest.mark.live
async def test_trim_now_cancel_runs_nothing(loop_stack: LoopStack) -> None:
    async with running(live_root(), SIZE) as (app, pilot):
        await open_trim(app, pilot)
        await pilot.press("t")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, (ConfirmTrim, TrimProgress))


async def test_details_heading_cuts_each_path_and_keeps_what_sits_between() -> None:
    """At 80 both names stay whole, the device's (newuser21 #9 saw `(xfs on
    …/luks-elasticsea…-data-volume-01)`) and the mountpoint's; the folders give way."""
    async with running(fixture_root("long-names"), (80, 24)) as (app, pilot):
        await open_trim(app, pilot)
        heading = text_of(app, "#trim-details-title")
        assert heading.startswith("Details: /var/") and "/mount (xfs on " in heading, heading
        assert heading.endswith(" (xfs on …/luks-elasticsearch-hot-tier-data-volume-01)"), heading
        assert heading.count("(") == heading.count(")") == 1, heading
        assert len(heading) <= 78


async def test_list_that_cannot_show_every_row_says_how_many_fit() -> None:
    async with running(fixture_root("lab-ssd"), (80, 24)) as (app, pilot):
        table = await open_trim(app, pilot)
        await pilot.pause()
        fits = table.size.height - 1
        assert 0 < fits < table.row_count == 12
        assert f"{fits} of 12 rows fit: ↓ for more" in text_of(app, "#status")
    async with running(fixture_root("lab-ssd"), (120, 40)) as (app, pilot):
        await open_trim(app, pilot)
        await pilot.pause()
        assert "rows fit" not in text_of(app, "#status")  # all 12 show: nothing to say


async def test_the_host_summary_takes_two_rows_at_80x24() -> None:
    """At 80x24 on lab-ssd the timer and cron lines are folded to two rows, the timer's state kept, so the
    filesystem list gets the rows (newuser6 saw 5 rows of timer/cron text)."""
    async with running(fixture_root("lab-ssd"), (80, 24)) as (app, pilot):
        await open_trim(app, pilot)
        await pilot.pause(0.1)
        host = app.screen.query_one("#trim-host")
        assert host.size.height <= 2, text_of(app, "#trim-host")
        assert text_of(app, "#trim-host").startswith("fstrim.timer ")


def drawn_lines(app, selector: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The lines a WrappedText shows at its width now."""
    widget = app.screen.query_one(selector, WrappedText)
    wrap = widget.render()._renderable  # type: ignore[attr-defined]
    return [line.plain for line in wrap.lines(widget.content_size.width)]


@pytest.mark.parametrize("fixture", ["long-names", "lab-ssd"])
async def test_each_layer_takes_one_line_at_80x24(fixture: str) -> None:
    """At 80x24 a layer is one line: the sources shortened to their device and, on long-names, the names cut
    in the middle, so the layers stay above the fold (newuser17 #11: each source path wrapped onto a line of
    its own under a 45-cell name column)."""
    async with running(fixture_root(fixture), (80, 24)) as (app, pilot):
        await open_trim(app, pilot)
        await pilot.pause()
        layers = app.screen.verdicts[app.screen.selected].reach.layers
        lines = drawn_lines(app, "#trim-verdict")
        start = next(index for index, line in enumerate(lines) if line.startswith("Layers"))
        assert "/sys/block/DEV/queue" in lines[start], lines[start]
        assert lines[start + 1 + len(layers)].startswith("Discard mode: "), lines
        assert lines[start + 1].rstrip().endswith("← blocks discard"), lines[start + 1]
        assert all(len(line) <= 76 for line in lines[start:start + 1 + len(layers)])
        firsts = [line.split()[0] for line in lines[start + 1:start + 1 + len(layers)]]
        assert len(set(firsts)) == len(layers), firsts  # each name (or its cut) tells the layer apart


async def test_layer_lines_keep_whole_names_and_full_paths_where_they_fit() -> None:
    async with running(fixture_root("long-names"), (200, 60)) as (app, pilot):
        await open_trim(app, pilot)
        verdict = app.screen.verdicts[app.screen.selected]
    wide = layer_lines(verdict, 196).plain.splitlines()
    assert "luks-elasticsearch-hot-tier-data-volume-01 " in wide[1] and "/sys/block/dm-1/queue/" in wide[1]
    middle = layer_lines(verdict, 116).plain.splitlines()  # whole names, each source its device
    assert "luks-elasticsearch-hot-tier-data-volume-01 " in middle[1] and " dm-1 " in middle[1]
    assert max(map(len, middle)) <= 116
    narrow = layer_lines(verdict, 76).plain.splitlines()
    name = narrow[1].split()[0]
    assert name.startswith("luks-") and "…" in name and name.endswith("-01"), narrow[1]


@pytest.mark.parametrize("fixture", ["long-names", "lab-ssd"])
async def test_fix_cards_go_beside_the_layers_at_200x60(fixture: str) -> None:
    """At 200x60 the cards sit beside the layers, each side about half the width, the layer names whole
    (newuser17 #15: a card 200 cells wide round 120-cell text, the screen's right side empty); at 120x40 they
    stay under the layers, full width. On long-names the first row's check names a 133-character path: its
    cards go under the layers at 200 too, so the path shows whole (newuser21 #8); its next row goes beside."""
    async with running(fixture_root(fixture), (200, 60)) as (app, pilot):
        table = await open_trim(app, pilot)
        if fixture == "long-names":
            await pilot.pause()
            verdict, card = app.screen.query_one("#trim-verdict"), app.screen.query(FindingCard).first()
            assert card.region.y >= verdict.region.bottom and card.region.width > 190
            table.move_cursor(row=1)
            await settled(app, pilot)
        await pilot.pause()
        verdict, card = app.screen.query_one("#trim-verdict"), app.screen.query(FindingCard).first()
        assert card.region.x >= verdict.region.right and card.region.y <= verdict.region.y
        assert card.region.width < 110 and verdict.region.width < (120 if fixture == "lab-ssd" else 140)
        layers = app.screen.verdicts[app.screen.selected].reach.layers
        lines = drawn_lines(app, "#trim-verdict")
        assert all(any(f" {layer.name} " in line for line in lines) for layer in layers), lines
    async with running(fixture_root(fixture), (120, 40)) as (app, pilot):
        await open_trim(app, pilot)
        await pilot.pause()
        verdict, card = app.screen.query_one("#trim-verdict"), app.screen.query(FindingCard).first()
        assert card.region.y > verdict.region.y and card.region.width > 110


async def test_the_discard_mode_line_cuts_its_source_path_at_80x24() -> None:
    """On long-names at 80x24 the "Discard mode:" line's source, `/proc/self/mountinfo (<a 120-character
    Kubernetes path>)`, wrapped over three lines below the fold (trim9's note): its path is cut at a `/`,
    the last component whole, so it takes two lines (the source under the mode), not four."""
    async with running(fixture_root("long-names"), (80, 24)) as (app, pilot):
        await open_trim(app, pilot)
        await pilot.pause()
        lines = drawn_lines(app, "#trim-verdict")
        index = next(index for index, line in enumerate(lines) if line.startswith("Discard mode: "))
        shown = " ".join(line.strip() for line in lines[index:index + 2])
        assert shown.endswith("/mount)"), lines[index:index + 3]
        assert "/proc/self/mountinfo (/var/lib/" in shown and "…" in shown, shown
        assert lines[index + 2].startswith("Periodic trim: "), lines[index + 2]  # two lines, not three


def test_short_headings_only_where_they_make_every_mountpoint_whole() -> None:
    """newuser18: `…/newuser18-ext4mnt` cut by 2 beside an 8-cell column holding `1`: `Sched` and `Warn`
    make it whole, both together (newuser23 #13d). newuser20 #3: where a mountpoint is cut anyway, the
    headings stay whole."""
    row = ("/tmp/newuser18-ext4mnt", "ext4", "unscheduled", "off", "none", "1")
    pairs = zip(COLUMNS[1:], row[1:], strict=True)
    others = sum(max(len(label), len(cell)) + 2 for label, cell in pairs)
    width = len(row[0]) + 2 + others - 2  # 2 cells short with the whole headings
    assert headings_and_room([row], width) == (TIMER_COLUMNS, len(row[0]) - 2 + 8 + 4)
    labels, room = headings_and_room([row], width + 4)
    assert labels == COLUMNS and room >= len(row[0])
    cut = ("/tmp/a-much-longer-mountpoint-cut-at-any-of-these-widths/ext4mnt", *row[1:])
    assert headings_and_room([row, cut], width) == (COLUMNS, len(row[0]) - 2)
    narrow = others + 2 + MIN_MOUNTPOINT_CELLS - 1  # the whole headings would leave 15 cells
    assert headings_and_room([cut], narrow)[0] == TIMER_COLUMNS  # nothing else can give


@pytest.mark.parametrize("size", [(120, 40), (200, 60)], ids=lambda size: f"{size[0]}x{size[1]}")
async def test_the_warnings_heading_stays_whole_beside_a_cut_mountpoint(size: tuple[int, int]) -> None:
    """newuser20 #3: at 120x40 long-names read `Warn` beside the kubelet path, already cut at a "/" with its
    last component whole; it gives the 4 cells instead (at 80 the pg_wal name is cut inside: see
    test_trim_short_headings.py)."""
    async with running(fixture_root("long-names"), size) as (app, pilot):
        await open_trim(app, pilot)
        await pilot.pause()
        table = app.screen.query_one("#trim-table")
        labels = [str(column.label) for column in table.columns.values()]
        assert labels[-1] == "Warnings", (size, labels)


async def test_the_filter_is_said_once() -> None:
    """newuser20 #8: at 120x40 the filter line read `filter: newuser (1 of 13) · Esc clears` and the status
    line right under it `filter 'newuser': 1 of 13 filesystems · Esc clears`. As on Stack and Monitor, the
    status line says it only while it is typed; then the filter line says it."""
    async with running(fixture_root("long-names"), SIZE) as (app, pilot):
        await open_trim(app, pilot)
        await pilot.press("slash", *"srv")
        await settled(app, pilot)
        assert text_of(app, "#status").startswith("filter 'srv': 1 of 3 filesystems"), text_of(app, "#status")
        await pilot.press("enter")
        await settled(app, pilot)
        bar = app.screen.query_one(FilterBar)
        assert bar.summary == "filter 'srv': 1 of 3 filesystems · Esc clears", bar.summary
        status = text_of(app, "#status")
        assert "filter" not in status and "filesystems OK" in status, status
        await pilot.press("escape")
        await settled(app, pilot)
        assert "filter" not in text_of(app, "#status")
