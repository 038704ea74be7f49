"""Who does the I/O never implies more I/O than the devices did (newuser24 #3: `kworker/u8:1+loop0[1015]
0 1,117`, `kworker/u8:2-writeback 963`, `bash 328` beside a disk writing 303 MB/s): a kernel worker's
write_bytes are data a process wrote already, dirtied again (a loop device's worker, into its backing
file), so its rows come after the writers', dim, with a note that says so."""

from __future__ import annotations

import pytest
from diskdoctor.app.text.monitor import process_lines, process_table, rewriter, rewriter_notes
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.process_io import ProcessRate, ProcessRates
from diskdoctor.probes.root import live_root
from test_monitor_layout import SIZE_IDS, SIZES
from test_monitor_who_table import _paused_monitor, _tick

LOOP_WORKER = ProcessRate(1015, "kworker/u8:1+loop0", 0.0, 1_117e6)
POOLED = ProcessRate(27719, "kworker/u8:2-writeback", 0.0, 963e6)
WRITER = ProcessRate(1295, "bash", 0.0, 328e6)
UNDER_LOAD = ProcessRates([LOOP_WORKER, POOLED, WRITER], as_root=True)


def test_kernel_workers_are_told_from_writers() -> None:
    assert rewriter(LOOP_WORKER) and rewriter(POOLED) and rewriter(ProcessRate(9, "kworker/0:1", 0, 1))
    assert not rewriter(WRITER) and not rewriter(ProcessRate(9, "kworkerd", 0, 1))


def test_writers_first_then_the_workers_with_what_they_are() -> None:
    rows, notes = process_table(UNDER_LOAD, live=True, name_cells=30)
    assert [row.split()[0] for row in rows[1:]] == ["bash[1295]", "kworker/u8:1+loop0[1015]",
                                                  "kworker/u8:2-writeback[27719]"]
    assert notes == ["dim: kernel workers, the same data again", "(a loop device's, into its backing file)"]
    assert all(len(note) <= 42 for note in notes)  # the process table's width: the pane is not widened


def test_one_worker_without_a_loop_in_its_name() -> None:
    assert rewriter_notes([POOLED]) == ["dim: kernel worker, the same data again",
                                        "(e.g. a loop's, into its backing file)"]
    assert rewriter_notes([WRITER]) == []


def test_the_cli_says_it_on_the_line() -> None:
    lines = process_lines(UNDER_LOAD, live=True)
    assert lines[0].startswith("bash[1295] ")
    assert lines[1].endswith("write 1,117 MB/s (the same data again)")
    assert "again" not in lines[0]


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_the_pane_dims_the_workers_and_says_why(size: tuple[int, int]) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen = await _paused_monitor(pilot)
        lines = await _tick(pilot, screen, UNDER_LOAD)
        tags = ("[1295]", "[1015]", "[27719]")
        rows = [next(i for i, row in enumerate(lines) if tag in row) for tag in tags]
        assert rows == sorted(rows), lines  # the writer first
        assert any("dim: kernel workers, the same data again" in row for row in lines), lines
        assert any("(a loop device's, into its backing file)" in row for row in lines), lines
        plain, _, spans, _ = screen._shown_text["#monitor-who"]  # the pane's text as last shown
        dim = {plain[span.start:span.end].strip() for span in spans if str(span.style) == "dim"}
        for tag, dimmed in (("[1295]", False), ("[1015]", True), ("[27719]", True)):
            row = next(line for line in plain.splitlines() if tag in line)
            assert (row.strip() in dim) is dimmed, (row, dim)
        assert "dim: kernel workers, the same data again" in dim, dim
