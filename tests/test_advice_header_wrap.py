"""The Advice card's header wraps between subjects, never inside a short name (newuser23 #10 at 80x24 on
lab-ssd: `TRIM-NO-SCHEDULE · 8: /lab/data, … /lab/` then `raid1, …`); a path longer than a line still goes
on after a `/`."""

from __future__ import annotations

from conftest import fixture_root
from diskdoctor.app.tui.advice_rows import wrap_at_slashes
from diskdoctor.app.tui.app import DiskDoctorApp
from support.advice_pilot import advice_on
from test_list_layout import screen_lines

LAB = ("/lab/data", "/lab/luks2on", "/lab/plain", "/lab/raid0", "/lab/raid1", "/lab/slow", "/lab/span",
       "/lab/thin_passdown")
HEADER = "TRIM-NO-SCHEDULE · 8: " + ", ".join(LAB)


def test_short_names_go_whole_to_the_next_line() -> None:
    for width in range(24, len(HEADER)):
        lines = wrap_at_slashes(HEADER, width)
        assert all(len(line) <= width for line in lines), (width, lines)
        assert " ".join(lines) == HEADER, (width, lines)  # broken only at spaces


async def test_at_80x24_the_lab_header_breaks_between_subjects() -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        await advice_on(app, pilot, "TRIM-NO-SCHEDULE")
        await pilot.pause()
        lines = screen_lines(app)
        start = next(i for i, line in enumerate(lines) if "TRIM-NO-SCHEDULE · 8:" in line)
        shown = " ".join(line.strip() for line in lines[start:start + 2])
        assert shown.startswith(HEADER), lines[start:start + 2]
        assert not lines[start].rstrip().endswith("/"), lines[start]


def test_a_long_path_still_goes_on_after_a_slash_from_where_the_line_is() -> None:
    """long-names at 80x24: `TRIM-LVM-MYTH · 2: /srv/postgresql/16/main/` then the rest, not `2:` alone."""
    wal = "/srv/postgresql/16/main/pg_wal_archive_for_point_in_time_recovery"
    lines = wrap_at_slashes(f"TRIM-LVM-MYTH · 2: {wal}, /var/lib/kubelet/pods/x/volumes/mount", 78)
    assert lines[0] == "TRIM-LVM-MYTH · 2: /srv/postgresql/16/main/", lines
    assert lines[1:] == ["pg_wal_archive_for_point_in_time_recovery,", "/var/lib/kubelet/pods/x/volumes/mount"
                         ], lines
