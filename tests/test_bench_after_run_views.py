"""The Benchmark screen's result and run views as newuser13 and newuser14 saw them (issue 23): after a run
`c` brings the judged load's chart into view at 80x24 and 120x40 and steps the loads there; a busy host is
said once, short, under the verdict; the running histogram is named by what it counts; the no-block-device
line wraps instead of losing its last word."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from diskdoctor.app.core.bench.caveats import HOST_LOAD, Caveats
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench import live, view
from diskdoctor.probes.host_load import HostLoad, ProcessIO
from diskdoctor.probes.root import live_root
from diskdoctor.widgets.figures_text import FiguresText, KeepFigures
from support.bench_fixed_run import PARAMS, TARGET, fixed_result
from support.wal_support import tmpfs_dir
from test_bench_phases import run_wal
from test_footer_and_fold_fit import screen_lines

__all__ = ["tmpfs_dir"]
BUSY = HostLoad(seconds=2.0, cpus=2, cpu_busy=0.9, iowait=0.0, steal=0.0, engine_cpu_s=0.5, other_cpu=0.83,
                other_read_bytes=0, other_write_bytes=700 << 20,
                top_io=[ProcessIO(1, "python -m pytest", 0, 400 << 20), ProcessIO(2, "dd", 0, 300 << 20)])


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda size: f"{size[0]}x{size[1]}")
async def test_c_after_a_run_shows_the_judged_loads_chart_in_view_then_the_others(
        tmpfs_dir: str, size: tuple[int, int]) -> None:
    """newuser14 #1: at 80x24 c toggled between a pane of zero rows and a histogram's tail; at 120x40 the
    chart was not on the first screen either."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await run_wal(app, pilot, tmpfs_dir)
        await pilot.pause(1.0)  # the verdict pinned at the column's top
        shown = "\n".join(screen_lines(app))
        assert re.search(r"^ (PASS|FAIL|INCONCLUSIVE) p99", shown, re.MULTILINE), shown  # the verdict first
        judged = screen.live.phases.shown + 1  # the load the verdict cites (the highest p99) comes first
        for press in range(4):
            step = (judged - 1 + press) % 3 + 1
            await pilot.press("c")
            await pilot.pause(0.2)
            lines = screen_lines(app)
            title = next((row for row in lines if f"load {step} of 3" in row and "(" in row), None)
            assert title is not None, (step, "\n".join(lines))  # the chart title, on screen
            below = lines[lines.index(title):]
            assert sum("┤" in row for row in below) >= 2 and any("└" in row for row in below), \
                "\n".join(lines)  # its plot and time axis under it, not a rule or a histogram's tail
            if step == judged:
                assert "(judged: load" in title, title
            else:  # newuser15 #3: a rate's load with its own verdict in the table was "not judged"
                assert "not judged" in title if "capacity" in title else \
                    f"the verdict judged load {judged})" in title, title


def test_a_busy_host_is_said_once_and_short_under_the_verdict() -> None:
    """newuser14 #5: the settle line and the host line both named the CPU share, the MiB/s and the
    processes: 8 of 17 rows at 80x24, the per-load table pushed below the fold."""
    result = replace(fixed_result(), host=BUSY)
    caveats = Caveats(BUSY, (), "open loop")
    text, _ = view.verdict_text(PARAMS, TARGET, result, 0.9, "custom threshold", {}, caveats)
    plain = text.plain
    assert plain.startswith("INCONCLUSIVE"), plain
    assert plain.count("83% of the CPUs") == 1 and plain.count("python -m pytest") == 1, plain
    assert "settle    a run about" in plain and "so would a quieter moment" in plain, plain
    assert "host load BUSY: other processes used 83% of the CPUs, did 350 MiB/s of I/O (python -m pytest, " \
           "dd)\n" in plain, plain
    settled, _ = view.verdict_text(PARAMS, TARGET, result, 10.0, "custom threshold", {}, caveats)
    assert "BUSY: other processes used 83% of the CPUs, did 350 MiB/s of I/O (python -m pytest, dd): run " \
           "again at a quieter moment" in settled.plain, settled.plain  # no settle line: the host says it


def test_the_running_histogram_is_named_by_what_it_counts() -> None:
    """newuser14 #10: during load 2 it was titled `latency histogram (whole run)` over that load's writes."""
    assert live.LOAD_HISTOGRAM_TITLE == "latency histogram (this load)"
    assert "whole run" in live.HISTOGRAM_TITLE


async def test_the_no_block_device_line_wraps_at_80_columns(tmpfs_dir: str) -> None:
    """newuser13 #2: `... so no per-layer` lost its last word `times` at 80 columns."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await run_wal(app, pilot, tmpfs_dir)
        title = screen.query_one("#bench-layers-title")
        body = screen.query_one("#bench-body")
        body.scroll_to_widget(title, top=True, animate=False)
        await pilot.pause(0.2)
        shown = "\n".join(screen_lines(app)[title.region.y:title.region.bottom + 1])
        assert "per-layer" in shown and "times" in shown, shown


QUIET = HostLoad(seconds=2.0, cpus=2, cpu_busy=0.1, iowait=0.0, steal=0.0, engine_cpu_s=0.5, other_cpu=0.09,
                 other_read_bytes=0, other_write_bytes=int(6.2 * (1 << 20)), top_io=[])


@pytest.mark.parametrize("width", range(40, 121))
def test_a_quiet_host_line_wraps_with_no_lone_fragment(width: int) -> None:
    """newuser23 #13c: at 80x24 the result read `host load quiet during the run (other processes 9% CPU,
    3.1 MiB/s I/O; steal` / `0%)`; the last line takes the word before it (no lone fragment), and the
    wrapped rest hangs under the value column as on Runs."""
    caveats = Caveats(QUIET, (), "open loop")
    text, _ = view.verdict_text(PARAMS, TARGET, replace(fixed_result(), host=QUIET), 10.0, "custom threshold",
                                {}, caveats)
    lines = [line.plain for line in KeepFigures(text, labels=(HOST_LOAD,)).lines(width)]
    start = next(n for n, line in enumerate(lines) if line.startswith("host load quiet"))
    block = lines[start:next(n for n in range(start + 1, len(lines)) if lines[n][:1].strip())]
    assert all(re.search(r"[A-Za-z]", line) for line in block), block  # no `0%)` alone
    assert all(line.startswith(" " * 10) and line[10] != " " for line in block[1:]), block
    joined = " ".join(line.strip() for line in block).replace("\u00a0", " ")
    assert "steal 0%)" in joined and "9% CPU" in joined and "3.1 MiB/s I/O" in joined, block


async def test_the_result_pane_hangs_host_load_under_its_value() -> None:
    """The Benchmark result pane wraps `host load …` as the test above does (labels=(HOST_LOAD,))."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        assert HOST_LOAD in app.screen.query_one("#bench-verdict", FiguresText).labels
