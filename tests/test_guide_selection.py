"""The guides start from the one selection (newuser23 #14: with an xfs loop chosen on Stack, the etcd guide
started at /var/lib/etcd): a question about a directory or a filesystem offers the chosen one first and
says so; with nothing chosen the directory found on the host (/var/lib/etcd) stays first."""

from __future__ import annotations

from conftest import fixture_host, fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.selection import choose
from support.guide_pilot import open_guide, settle

SIZE = (80, 24)
CAPTURE = "etcd-raid0-lvm-luks"


def _chosen_root(app: DiskDoctorApp) -> None:
    mounted = fixture_host(CAPTURE).mount_for_path("/")
    assert mounted is not None and mounted.kname
    choose(app, mounted.kname, "/", "stack")


async def test_the_etcd_guide_offers_the_filesystem_chosen_on_stack_first() -> None:
    app = DiskDoctorApp(fixture_root(CAPTURE))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        _chosen_root(app)
        screen = await open_guide(pilot, "etcd")
        first = screen.view.choices[0]
        assert (first.value, first.note) == ("/", "chosen on Stack"), screen.view.choices
        assert "/var/lib/etcd" in [choice.value for choice in screen.view.choices]  # still offered
        assert screen.query_one("#guide-choices").highlighted == 0
        await pilot.press("enter")
        await settle(pilot)
        assert screen.ctx.answers["dir"] == "/"


async def test_with_nothing_chosen_the_found_data_directory_stays_first() -> None:
    app = DiskDoctorApp(fixture_root(CAPTURE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_guide(pilot, "etcd")
        assert screen.view.choices[0].value == "/var/lib/etcd", screen.view.choices


async def test_the_trim_guide_offers_the_filesystem_chosen_on_stack_first() -> None:
    app = DiskDoctorApp(fixture_root(CAPTURE))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        _chosen_root(app)
        screen = await open_guide(pilot, "trim")
        first = screen.view.choices[0]
        assert first.value == "/" and first.note.startswith("chosen on Stack; TRIM "), screen.view.choices
        assert screen.query_one("#guide-choices").highlighted == 0


async def test_a_device_row_offers_its_first_filesystem_and_says_which_device() -> None:
    """A row with no filesystem of its own (a RAID member, an LVM PV) stands for the filesystems above it:
    the first is offered, named as on that device, not as if it had been chosen itself."""
    app = DiskDoctorApp(fixture_root(CAPTURE))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        choose(app, "md0", "/var/lib/etcd", "stack", above=("/var/lib/etcd",))
        screen = await open_guide(pilot, "etcd")
        first = screen.view.choices[0]
        assert first.value == "/var/lib/etcd" and first.note.startswith("on md0, chosen on Stack; etcd:"), \
            screen.view.choices
