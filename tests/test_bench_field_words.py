"""The Benchmark form's fields read as meant (newuser16 #6): loads as "50, 500", bytes with their unit, the
empty seconds field said, the checkboxes titled, and F1 explaining every field in a line."""

from __future__ import annotations

from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.folded import FoldedForm
from diskdoctor.app.tui.bench.form import BenchForm, bytes_text, read_size
from diskdoctor.app.tui.bench.view import FIELD_LABELS
from diskdoctor.app.tui.screen_help import BENCH_HELP
from diskdoctor.probes.root import live_root
from diskdoctor.probes.wal_params import WalParams, profile_params
from test_bench_screen import open_bench
from textual.widgets import Checkbox, Input


async def test_the_fields_show_loads_apart_and_bytes_with_units() -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_bench(app, pilot)
        value = {name: screen.query_one(f"#bench-{name}", Input).value for name in ("bs", "size", "rates")}
        assert value == {"bs": "2,300 B", "size": "22 MiB", "rates": "50, 500"}
        assert screen.query_one("#bench-duration", Input).placeholder == "until size"
        for box in screen.query(Checkbox):
            assert box.border_title, box.id  # no box with an empty title
        params = screen.query_one(BenchForm).params()
        assert isinstance(params, WalParams)
        assert (params.bs, params.size, params.rates) == (2300, 22 << 20, (50.0, 500.0))


def test_bytes_read_back_as_shown_and_the_folded_line_keeps_loads_apart() -> None:
    assert [bytes_text(size) for size in (2300, 22 << 20, 8 << 10, 1 << 30)] == \
        ["2,300 B", "22 MiB", "8 KiB", "1 GiB"]
    assert read_size("2,300 B") == 2300 and read_size("22 MiB") == 22 << 20 and read_size("8k") == 8192
    assert "50, 500/s steady" in FoldedForm(profile_params("etcd"), "/mnt/x").plain


def test_f1_explains_every_field() -> None:
    words = " ".join(word for word, _, _ in BENCH_HELP.words)
    for label in FIELD_LABELS.values():
        if label not in ("threshold", "ms"):  # the threshold row has its own line in the help
            assert label in words, label


async def test_the_workload_is_said_once_the_profile_menu_only_where_it_has_a_choice() -> None:
    """newuser16 #10: after `]` the tab and the profile menu both said `compaction`."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_bench(app, pilot)
        menu = screen.query_one("#bench-profile")
        assert menu.display  # etcd, postgres, custom
        for _ in range(3):  # compaction, randwrite, interference: one entry each
            await pilot.press("right_square_bracket")
            await pilot.pause()
            assert not menu.display
        await pilot.press("left_square_bracket", "left_square_bracket", "left_square_bracket")
        await pilot.pause()
        assert menu.display


def test_a_suffix_typed_before_the_shown_unit_wins() -> None:
    """The cursor sits before the unit on focus, so a user who deletes the digits and types `8k` leaves
    "8k B": it reads as 8k, not as an error naming the 8k they typed."""
    assert read_size("8k B") == 8 << 10 and read_size("64k MiB") == 64 << 10
    assert read_size("1g MiB") == 1 << 30
    assert read_size("22m B") == 22 << 20 and read_size("2,300 B") == 2300 and read_size("4 MiB") == 4 << 20


async def test_typing_a_size_with_its_suffix_over_the_digits_makes_that_size() -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_bench(app, pilot)
        field = screen.query_one("#bench-bs", Input)
        field.focus()
        await pilot.pause()
        await pilot.pause()
        await pilot.press(*["backspace"] * len("2,300"), "8", "k")
        await pilot.pause()
        assert field.value == "8k B" and field.is_valid
        assert screen.query_one(BenchForm).params().bs == 8 << 10  # type: ignore[attr-defined]
