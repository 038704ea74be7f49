"""Figures that line up and text that wraps where a reader expects (issue 23, a new-user pass in tmux):
numbers right-aligned with their units in a column, paths broken only after a "/", wrapped lines hanging under
the text of their first line. Driven with Pilot at the sizes the pass used; read as `tmux capture-pane`."""

from __future__ import annotations

import re
import shutil
from itertools import pairwise
from pathlib import Path

import pytest
from conftest import FIXTURES, fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.root import Root, live_root
from support.bench_fixed_run import PARAMS, feed_fixed_run, fixed_result, fixture_mounts
from test_bench_screen import until
from textual.geometry import Region
from textual.widget import Widget

__all__ = ["fixture_mounts"]
LATENCY = re.compile(r"(\d[\d,]*)(\.\d+)? +(ns|µs|ms|s)\b")


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def screen_lines(app: DiskDoctorApp) -> list[str]:
    """The screen as a new user reads it in `tmux capture-pane`: one string per row."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def drawn(app: DiskDoctorApp, widget: Widget) -> list[str]:
    """The rows of the screen inside `widget`'s region, as drawn."""
    region = widget.region
    return [line[region.x:region.right] for line in screen_lines(app)[region.y:region.bottom]]


def columns_of(rows: list[str]) -> list[list[tuple[int, int]]]:
    """Per figure column, (where its number ends, where its unit starts): numbers right-aligned, units in
    one column."""
    found = [[(m.end(2) if m[2] else m.end(1), m.start(3)) for m in LATENCY.finditer(row)] for row in rows]
    width = max(map(len, found))
    return [[row[index] for row in found if len(row) == width] for index in range(width)]


def blank(row: str) -> str:
    """A figures row with its label and latencies blanked out: what is left are the sample counts."""
    return LATENCY.sub(lambda m: " " * len(m[0]), re.sub(r"^\S+", lambda m: " " * len(m[0]), row))


@pytest.mark.parametrize("size", [(120, 40), (200, 60)], ids=["120x40", "200x60"])
async def test_the_figures_table_right_aligns_numbers_and_lines_up_units(
        fixture_mounts: None, size: tuple[int, int]) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        screen = app.screen
        feed_fixed_run(screen)
        await pilot.pause()
        layers_table = screen.query_one("#bench-layers")  # where the column rests once the verdict is pinned
        await until(pilot, lambda: layers_table.region.height > 0 and
                    layers_table.region.bottom < app.size.height - 2)
        stats = screen.query_one("#bench-stats")  # a finished run may scroll it out of view: its own lines
        rows = [strip.text for strip in stats.render_lines(Region(0, 0, stats.size.width, stats.size.height))]
        figures = [row for row in rows if re.match(r"(p50|p90|p99|p99\.9|max) ", row)]
        assert len(figures) == 5, rows
        columns = columns_of(figures)
        assert len(columns) == 1, figures  # a finished run: the whole run's column alone (newuser8)
        for column in columns:
            assert len(column) == 5 and len(set(column)) == 1, (column, figures)  # numbers and units line up
        counts = [[m.end() for m in re.finditer(r"\d[\d,]*", blank(row))]
                  for row in figures[:4]]
        samples = [m.end() for m in re.finditer("samples", rows[0])]
        assert all(ends == samples for ends in counts), (samples, counts, rows)  # counts under "samples"
        layers = drawn(app, screen.query_one("#bench-layers"))
        ends = [[m.end() for m in re.finditer(r"[\d.,]+(?: ms|%)?(?= |$)", row[12:])] for row in layers[1:]]
        assert len(ends) == 4 and all(row == ends[0] and len(row) == 5 for row in ends), layers  # aligned


def test_the_levels_and_fio_tables_line_up_too() -> None:
    from dataclasses import replace

    from diskdoctor.app.tui.bench import view
    from diskdoctor.probes.engine.workloads.wal import WalLevel
    from diskdoctor.probes.latency_histogram import LatencyHistogram
    from test_tui_defects import fio_with_p99

    def histogram(*samples: tuple[int, int]) -> LatencyHistogram:
        made = LatencyHistogram()
        for value, count in samples:
            for _ in range(count):
                made.record(value)
        return made

    empty = LatencyHistogram()
    levels = [WalLevel(None, "steady", 100, 100, 1.0, histogram((400_000, 99), (2_000_000, 1)), empty,
                       histogram((400_000, 99), (2_000_000, 1)), empty),
              WalLevel(500.0, "steady", 100, 100, 1.0, histogram((600_000, 90), (15_000_000, 10)), empty,
                       empty, empty),
              WalLevel(2000.0, "poisson", 100, 100, 1.0, histogram((6_000_000, 90), (150_000_000, 10)), empty,
                       empty, empty)]
    result = replace(fixed_result(), levels=levels)
    for text in (view.levels_table(result, 10.0).plain,
                 view.comparison_text(PARAMS, fixed_result(), fio_with_p99(800_000), 10.0).plain):
        rows = [row for row in text.splitlines() if LATENCY.search(row)]
        assert len(rows) >= 3, text
        for column in columns_of(rows):
            assert len(set(column)) == 1, (column, text)

    capacity = replace(levels[0], writes=128_170, batches=128_170)  # newuser6 #7: "capacity 128,170/s"
    text = view.levels_table(replace(result, levels=[capacity, *levels[1:]]), 10.0).plain
    rows = [row for row in text.splitlines() if LATENCY.search(row)]
    assert len(rows) == 3 and "capacity 128,170/s" in text, text
    for column in columns_of(rows):
        assert len(set(column)) == 1, (column, text)


def split_words(lines: list[str], words: set[str]) -> list[str]:
    """Words of `words` that the drawn `lines` cut anywhere but after a "/" (as "fstrim.t" / "imer")."""
    cut = []
    for above, below in pairwise(lines):
        if not above.strip() or not below.strip():
            continue
        tail, head = above.split()[-1], below.split()[0]
        if not tail.endswith("/") and any(tail + head in word for word in words):
            cut.append(f"{tail} | {head}")
    return cut


@pytest.mark.parametrize(("fixture", "size"), [("lab-ssd", (120, 40)), ("long-names", (120, 40)),
                                               ("long-names", (80, 24))],
                         ids=["lab-ssd-120x40", "long-names-120x40", "long-names-80x24"])
async def test_advice_cards_break_paths_only_after_a_slash(fixture: str, size: tuple[int, int]) -> None:
    from diskdoctor.widgets import FindingCard

    app = DiskDoctorApp(fixture_root(fixture))
    async with app.run_test(size=(size[0], 120)) as pilot:  # tall: the whole card is drawn
        await settle(pilot)
        await pilot.press("4")
        for _ in range(100):
            await settle(pilot)
            if getattr(app.screen, "rows", None):
                break
        screen = app.screen
        for _ in screen.rows:
            card = screen.query_one("#advice-card", FindingCard)
            title = screen.query_one("#advice-details-title")
            card_lines = [line[1:-1] for line in drawn(app, card)[1:-1]]  # inside the border
            words = set(card.plain.split()) | set(str(title.render()).split())
            assert not split_words(card_lines, words), (card.card.id, card_lines)
            assert not split_words(drawn(app, title), words), drawn(app, title)
            await pilot.press("down")
            await settle(pilot)


@pytest.mark.parametrize("width", [80, 120])
async def test_trim_layer_rows_line_up_and_wrap_under_their_row(width: int) -> None:
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=(width, 80)) as pilot:  # 80 or 120 wide, tall enough to draw every layer
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        screen = app.screen
        for _ in screen.verdicts:
            lines = drawn(app, screen.query_one("#trim-verdict"))
            start = next(i for i, line in enumerate(lines) if line.startswith("Layers, top"))
            end = next(i for i, line in enumerate(lines) if line.startswith("Discard mode"))
            block = lines[start + 1:end]
            rows = [line for line in block if re.match(r"  \S+ +(crypt|lvm|part|disk|raid\d*|loop)\b", line)]
            assert len(rows) >= 2, block
            kinds = {re.search(r" (crypt|lvm|part|disk|raid\d*|loop)\b", row).start() for row in rows}
            slashes = {row.index(" / ") for row in rows}
            assert len(kinds) == 1 and len(slashes) == 1, block  # one column each, under the longest name
            assert all(line.startswith("   ") for line in block if line not in rows), block  # hanging
            assert not any(line.rstrip().endswith("←") for line in block), block  # the marker whole
            await pilot.press("down")
            await settle(pilot)


def unhung(drawn_lines: list[str], text: str) -> list[str]:
    """The wrapped lines of an indented line of `text` that do not start further in than it (a hanging
    indent), read off the drawn lines in order."""
    bad, rows = [], iter(line.rstrip() for line in drawn_lines)
    for logical in text.split("\n"):
        words, first = logical.split(), None
        taken: list[str] = []
        while len(taken) < len(words):
            row = next(rows)
            if not row.strip():
                continue
            first = first or row
            if row is not first and logical.startswith("  ") and \
                    len(row) - len(row.lstrip()) <= len(logical) - len(logical.lstrip()):
                bad.append(f"{first!r} / {row!r}")
            taken += row.split()
    return bad


@pytest.mark.parametrize(("fixture", "directory"), [
    ("long-names", "/srv/postgresql/16/main/pg_wal_archive_for_point_in_time_recovery"),
    ("lab-ssd", "/lab/data")], ids=["long-names", "lab-ssd"])
async def test_guide_lines_hang_under_their_first_line_at_80x24(fixture: str, directory: str) -> None:
    from support.guide_pilot import next_step, open_guide, type_answer

    app = DiskDoctorApp(fixture_root(fixture))
    async with app.run_test(size=(80, 60)) as pilot:  # 80 wide, as at 80x24, tall enough for a whole page
        screen = await open_guide(pilot, "etcd")
        await type_answer(pilot, screen, directory)
        pages = 0
        while screen.query_one("#guide-next").display and pages < 8:
            widget = screen.query_one("#guide-text")
            text = str(widget.render())
            assert not unhung(drawn(app, widget), text), (screen.step.title, drawn(app, widget))
            if "WARN" in text or "discard yes" in text:
                pages += 1
            await next_step(pilot)
        widget = screen.query_one("#guide-text")
        assert "findings" in str(widget.render()) and not unhung(drawn(app, widget), str(widget.render()))
        assert pages >= 2  # the stack and the TRIM pages were read


async def test_runs_figures_and_comparison_line_up(private_state_dir: Path) -> None:
    from test_list_layout import RUNS

    runs = private_state_dir / "diskdoctor" / "runs"
    runs.mkdir(parents=True)
    for run in RUNS.glob("*.json"):
        shutil.copy(run, runs / run.name)
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(120, 60)) as pilot:
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        screen = app.screen
        table = screen.query_one("#runs-table")
        for row in range(table.row_count):
            table.move_cursor(row=row)
            await pilot.pause()
            lines = drawn(app, screen.query_one("#runs-detail"))
            start = next(i for i, line in enumerate(lines) if line.strip() == "figures")
            figures = [line for line in lines[start + 1:] if LATENCY.search(line)]
            assert figures and all(len(set(column)) == 1 for column in columns_of(figures)), lines


def test_the_runs_comparison_right_aligns_numbers_and_lines_up_units() -> None:
    from diskdoctor.app.core.runs.compare import compare_runs
    from diskdoctor.app.text.runs import compare_lines
    from support.runs_support import saved_run

    comparison = compare_runs(saved_run(20, slow_ms=0.9), saved_run(23, slow_ms=6.8, ops_per_s=1500))
    lines = compare_lines(comparison)
    rows = [line for line in lines if re.match(r" +(p\d+(\.\d)?|max) ", line)]
    assert len(rows) >= 4 and all(len(set(column)) == 1 for column in columns_of(rows)), lines


def test_the_runs_comparison_lines_up_an_ops_row_and_spaces_a_long_label() -> None:
    """newuser6 #6: the ops/s row's value ended 3 columns right of the latency rows, and the longest label
    ("p99.9 fdatasync from due at 50 writes/s, steady") left one space before its value; the numbers end
    in one column and (newuser17 #13) every unit, ops/s too, starts in one column of its own."""
    import dataclasses

    from diskdoctor.app.core.runs.compare import compare_runs
    from diskdoctor.app.text.runs import compare_lines
    from support.runs_support import saved_run

    comparison = compare_runs(saved_run(20, slow_ms=0.9), saved_run(23, slow_ms=6.8, ops_per_s=1500))
    long_label = "ops/s at 50 writes/s, steady, from due"  # the longest label, the widest figure
    deltas = [dataclasses.replace(d, label=long_label) if d.label == "ops/s" else d
              for d in comparison.deltas]
    lines = compare_lines(dataclasses.replace(comparison, deltas=deltas))
    header = next(i for i, line in enumerate(lines) if line.split()[:2] == ["metric", "baseline"])
    rows = [line for line in lines[header + 1:] if line.startswith("  ")]
    ops = next(row for row in rows if long_label in row)
    assert ops[2 + len(long_label):].startswith("  "), ops  # two spaces at least before the value
    start = 2 + len(long_label) + 1
    ends = {re.match(r" *[\d,.]+", row[start:]).end() for row in rows}
    assert len(ends) == 1, lines  # the baseline numbers end in one column
    units = {re.match(r" *[\d,.]+ (\S)", row[start:]).start(1) for row in rows}
    assert len(units) == 1, lines  # newuser17 #13: every value has its unit, the units in one column


async def test_trim_table_headers_stay_whole_when_rows_scroll(tmp_path: Path) -> None:
    root = tmp_path / "lab-ssd"
    shutil.copytree(FIXTURES / "lab-ssd", root, symlinks=True)
    mountinfo = root / "proc" / "self" / "mountinfo"  # /lab/data with discard: a wider Discard column
    text = mountinfo.read_text().replace("/lab/data rw,relatime", "/lab/data rw,relatime,discard")
    mountinfo.write_text(text.replace(" /lab/", " /lab/mounted-under-a-longer-directory/"))  # cut to fit
    app = DiskDoctorApp(Root(str(root), live=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.pause()
        table = app.screen.query_one("#trim-table")
        assert table.row_count + 1 > table.size.height, table.row_count  # its rows scroll
        assert not table.show_horizontal_scrollbar, table.virtual_size
        last = str(list(table.columns.values())[-1].label)  # "Warn" where a mountpoint is cut
        heading = drawn(app, table)[0]
        assert last in ("Warnings", "Warn") and heading.rstrip().endswith(last), heading


def test_a_wrapped_guide_choice_title_hangs_past_its_note() -> None:
    from diskdoctor.app.tui.guides.guide_menu import titled_option
    from rich.console import Console

    console = Console(width=60, record=True, color_system=None)
    title = "/tmp/pytest-of-root/pytest-1019/loops0/mnt-ext4-discard (ext4 on /dev/loop16)"
    console.print(titled_option(title, "TRIM OK"))
    lines = [line.rstrip() for line in console.export_text().splitlines()]
    assert lines == ["/tmp/pytest-of-root/pytest-1019/loops0/mnt-ext4-discard",
                     "    (ext4 on /dev/loop16)", "  TRIM OK"], lines


def test_three_significant_digit_figures_read_as_plain_right_aligned_numbers() -> None:
    """newuser5 #9: decimal alignment padded "870    µs" above "11.9  ms"; fio/iostat readers expect the
    numbers right-aligned and the unit in its own column."""
    from diskdoctor.app.base.columns import aligned_figures

    assert aligned_figures(["870 µs", "11.9 ms", "2.74 ms", "-"]) == [" 870 µs", "11.9 ms", "2.74 ms",
                                                                       "   -   "]
