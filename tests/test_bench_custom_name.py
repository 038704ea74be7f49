"""A WAL run with a value changed is named from its profile (newuser12 #7): `etcd WAL (custom: 5 s)` on the
status line, the folded form, the form's menu (still `etcd WAL`) and the saved run, never a bare `custom`."""

from __future__ import annotations

from diskdoctor.app.core.bench.profile_name import profile_title
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.form import BenchForm
from diskdoctor.app.tui.bench.screen import BenchScreen
from diskdoctor.probes.root import live_root
from diskdoctor.probes.wal_params import WalParams, profile_params
from diskdoctor.probes.wal_target import Target
from test_layout_defects import open_bench, screen_lines
from textual.widgets import Input


def test_a_custom_run_is_named_from_the_profile_it_changed() -> None:
    assert profile_title(profile_params("etcd")) == "etcd WAL"
    assert profile_title(profile_params("etcd", duration_s=5.0)) == "etcd WAL (custom: 5 s)"
    assert profile_title(profile_params("postgres-wal", duration_s=5.0)) == "postgres WAL (custom: 5 s)"
    assert profile_title(profile_params("etcd", bs=4096, sync="fsync")) == \
        "etcd WAL (custom: 4,096 B writes, fsync)"
    saved = WalParams.from_json(profile_params("etcd", duration_s=5.0).to_json())  # as a saved run reads it
    assert saved.profile == "custom" and profile_title(saved) == "etcd WAL (custom: 5 s)"


async def test_changing_only_the_seconds_says_etcd_wal_custom_not_custom() -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_bench(pilot)
        assert isinstance(screen, BenchScreen)
        form = screen.query_one(BenchForm)
        screen.choose_directory("/dev/shm")
        form.query_one("#bench-duration", Input).value = "5"
        await pilot.pause()
        params = form.params()
        assert isinstance(params, WalParams) and params.profile == "custom"
        form.show_params(params)  # as Start does
        screen.post_message(BenchScreen.RunStarted(Target("/dev/shm", "/dev/shm", "tmpfs", None, ()), params))
        await pilot.pause()
        await pilot.pause()
        text = "\n".join(screen_lines(app))
        assert "Running etcd WAL (custom: 5 s) on /dev/shm" in text, text
        assert "custom WAL" not in text and "Running custom" not in text
        assert " · etcd WAL (custom: 5 s) · " in text  # the folded form at 80x24
        assert str(form.query_one("#bench-profile").value) == "etcd"
        assert form.query_one("#bench-duration", Input).value == "5"
