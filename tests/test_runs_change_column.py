"""The comparison table as newuser17 read it (#13): one way to say a change (a ratio on every row), every
value with its unit, the figures of a column ending on one edge."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from support.runs_support import saved_run
from test_runs_compare_layout import compare_newest_two, save
from test_runs_screen import FIXTURE, _wal_run_at_loads

ROW = re.compile(r"^ +(?P<label>\S.*?) {2,}(?P<before>[\d.,]+) (?P<before_unit>\S+) +(?P<after>[\d.,]+) "
                 r"(?P<after_unit>\S+) +(?P<change>\S+)(?:  \S.*)?$")
"""A metric row: its label, the two values each with its unit, the change (and a flag after it)."""


def table_rows(lines: list[str]) -> list[str]:
    """The comparison's metric rows (under its `metric … change` header, up to its first non-row)."""
    start = next(index for index, line in enumerate(lines) if line.split()[:1] == ["metric"])
    rows = []
    for line in lines[start + 1:]:
        if line.strip().startswith(("at ", "closed loop")) or line.split()[-1:] == ["-"]:
            continue  # a load's heading, a figure neither run has
        if not ROW.match(line.rstrip(" ▁▂▃▄▅▆▇█")):
            break
        rows.append(line.rstrip(" ▁▂▃▄▅▆▇█"))
    return rows


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
async def test_every_change_is_a_ratio_and_every_value_ends_on_one_edge(private_state_dir: Path,
                                                                        size: tuple[int, int]) -> None:
    """`×5.4` beside `+155%`, and `ops/s  50  50  +0%` ending 3 columns left of `104 µs`: now every change
    is a ratio and each value column's right edge (its unit's) is one column, ops/s included."""
    save(saved_run(20, slow_ms=2.0), saved_run(21, slow_ms=6.8, ops_per_s=1500))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=size) as pilot:
        lines = await compare_newest_two(pilot)
        screen = "\n".join(lines)
        rows = table_rows(lines)
        assert len(rows) >= 5 and any(row.lstrip().startswith("ops/s") for row in rows), screen
        matches = [ROW.match(row) for row in rows]
        assert all(match and match["change"][0] in "×÷" for match in matches), screen
        for side in ("before", "after"):  # numbers on one right edge, units from one column
            assert len({match.end(side) for match in matches if match}) == 1, (side, screen)
            assert len({match.start(f"{side}_unit") for match in matches if match}) == 1, (side, screen)
        assert "ops/s  " in screen and re.search(r"1,500 ops/s +÷1\.33", screen), screen
        assert "%" not in "".join(match["change"] for match in matches if match), screen


async def test_wal_loads_comparison_reads_one_way(private_state_dir: Path) -> None:
    """Two WAL runs at two loads and a closed loop: big and small changes alike are ratios, the ops/s rows
    carry their unit and end where the latency rows end."""
    save(_wal_run_at_loads(20, 50.0, {50.0: 2.7, 500.0: 9.0}, "20261120-143000-wal-0000"),
         _wal_run_at_loads(21, 500.0, {50.0: 2.8, 500.0: 46.0}, "20261121-143000-wal-0001"))
    app = DiskDoctorApp(fixture_root(FIXTURE))
    async with app.run_test(size=(120, 40)) as pilot:
        lines = await compare_newest_two(pilot)
        screen = "\n".join(lines)
        matches = [ROW.match(row) for row in table_rows(lines)]
        assert len(matches) >= 8, screen
        assert all(match and match["change"][0] in "×÷" for match in matches), screen
        assert len({match.end("after") for match in matches if match}) == 1, screen
        assert len({match.start("after_unit") for match in matches if match}) == 1, screen
