"""Walkthroughs end to end with Pilot: on fixture captures (live-only steps say so and are skipped) and on
real loop-device filesystems with short benchmarks; the running-service discovery they rely on."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import ADVICE_MODE, DiskDoctorApp
from diskdoctor.app.tui.guides.guide_screen import GuideScreen
from diskdoctor.probes.app_processes import find_app_processes, yaml_path_data
from diskdoctor.probes.root import live_root
from support.guide_pilot import next_step, open_guide, page, settle, start_step, type_answer
from support.loop_stack import LoopStack

SIZE = (80, 24)


async def test_etcd_walkthrough_on_a_capture_skips_what_needs_the_live_host() -> None:
    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_guide(pilot, "etcd")
        assert "step 1 of 7" in page(screen) and "/var/lib/etcd" in str(screen.view.choices)
        await pilot.press("enter")  # the offered /var/lib/etcd
        await settle(pilot)
        assert "luks-etcd" in page(screen) and "md0" in page(screen)  # its stack, top-down
        await next_step(pilot)
        assert "BLOCKED at luks-etcd" in page(screen) and "TRIM-CRYPT-OFF" in page(screen)
        await next_step(pilot)
        await type_answer(pilot, screen, "abc")
        assert "not a number" in page(screen) and "step 4 of 7" in page(screen)
        screen.query_one("#guide-typed").value = ""
        await pilot.press("escape")
        screen.query_one("#guide-choices").focus()  # as a click on the list would
        await pilot.press("down", "enter")  # 20 ms
        await settle(pilot)
        assert screen.ctx.answers["threshold_ms"] == 20.0
        assert "needs the live host: skipped on a capture" in page(screen)
        await pilot.press("s")  # Start does nothing on a skipped step
        await next_step(pilot)
        await next_step(pilot)
        text = page(screen)
        assert "step 7 of 7" in text and "No verdict on speed" in text and "TRIM-CRYPT-OFF" in text
        await pilot.click("#guide-report")  # the mouse works too: the report dialog opens
        await pilot.pause()
        assert type(app.screen).__name__ == "ReportDialog"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("b")
        await settle(pilot)
        assert "step 6 of 7" in page(screen)
        await next_step(pilot)
        await pilot.press("f")
        await settle(pilot)
        assert app.current_mode == ADVICE_MODE


async def test_a_typed_directory_that_is_not_on_a_block_device_is_refused_at_the_field() -> None:
    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_guide(pilot, "etcd")
        await type_answer(pilot, screen, "relative/dir")
        assert "give the full path" in page(screen) and "step 1 of 7" in page(screen)


@pytest.mark.live
async def test_etcd_walkthrough_on_a_loop_filesystem_runs_short_benchmarks(loop_stack: LoopStack) -> None:
    directory = str(loop_stack.mountpoints["xfs"])
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_guide(pilot, "etcd")
        await type_answer(pilot, screen, directory)
        assert loop_stack.kname("xfs") in page(screen)
        await next_step(pilot)  # TRIM
        await next_step(pilot)  # threshold
        await pilot.press("enter")  # 10 ms
        await settle(pilot)
        assert "a short run" in page(screen) and "22 MiB" in page(screen)
        await start_step(pilot)
        assert any(word in page(screen) for word in ("PASS", "FAIL", "INCONCLUSIVE")), page(screen)
        assert "saved as run" in page(screen)
        await next_step(pilot)
        await start_step(pilot)
        assert "alone" in page(screen) and "under" in page(screen), page(screen)
        await next_step(pilot)
        text = page(screen)
        # 50 writes at 50/s cannot bound a p99 from above: a short run is at best "Not settled", never Yes
        assert ("Not settled" in text or "No: too slow" in text) and "short runs" in text
        assert len(screen.ctx.runs) == 2 and all(run.saved for run in screen.ctx.runs)
    assert not list(Path(directory).glob(".diskdoctor*")), "scratch left behind"


def test_running_etcd_is_found_with_its_data_dir(tmp_path: Path) -> None:
    data = tmp_path / "etcd-data"
    data.mkdir()
    process = subprocess.Popen(["bash", "-c", f"exec -a etcd {sys.executable} -c 'import time; "
                                f"time.sleep(30)' --name node1 --data-dir={data}"])
    try:
        deadline = time.monotonic() + 5
        found = []
        while time.monotonic() < deadline and not found:
            found = [p for p in find_app_processes(live_root())[0] if p.pid == process.pid]
            time.sleep(0.05)
        assert found and found[0].kind == "etcd" and found[0].data_dirs == (str(data),)
        assert "--data-dir" in found[0].source
    finally:
        process.kill()
        process.wait()


def test_elasticsearch_path_data_in_every_documented_form() -> None:
    assert yaml_path_data("path.data: /var/data/es\n") == ["/var/data/es"]
    assert yaml_path_data("path.data: [/a, '/b']\n") == ["/a", "/b"]
    assert yaml_path_data("path:\n  logs: /l\n  data: /d # the data\n") == ["/d"]
    assert yaml_path_data("path.data:\n  - /x\n  - /y\nother: 1\n") == ["/x", "/y"]
    assert yaml_path_data("#path.data: /no\n") == []


def test_a_capture_has_no_processes_and_says_so() -> None:
    found, why = find_app_processes(fixture_root("lab-ssd"))
    assert found == [] and "live host" in (why or "")


def test_guides_are_in_the_command_palette() -> None:
    from diskdoctor.app.tui.commands import screen_actions

    app = DiskDoctorApp(fixture_root("sata-ext4"))
    texts = [action.text for action in screen_actions(app)]
    assert "Guide: Is this disk fast enough for etcd? (^g)" in texts
    assert any(text.startswith("Monitor: Sort") for text in texts)
    assert not any(text.startswith("Monitor: Pause") for text in texts)  # nothing ticks on a capture


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root")
async def test_guide_leave_returns_to_the_screen_it_was_opened_from() -> None:
    app = DiskDoctorApp(fixture_root("sata-ext4"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        screen = await open_guide(pilot, "etcd")
        assert isinstance(screen, GuideScreen)
        await pilot.press("tab")  # away from the list: Esc leaves the walkthrough
        await pilot.press("escape")
        await settle(pilot)
        assert app.current_mode == "trim"


async def test_trim_walkthrough_on_a_capture() -> None:
    app = DiskDoctorApp(fixture_root("etcd-trim-blocked"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_guide(pilot, "trim")
        assert "BLOCKED" in str(screen.view.choices)
        values = [c.value for c in screen.view.choices]
        await pilot.press(*(["down"] * values.index("/var/lib/etcd")), "enter")
        await settle(pilot)
        assert "luks-etcd" in page(screen) and "drops discard" in page(screen)
        await next_step(pilot)
        assert "What trims it" in page(screen) and "fstrim.timer" in page(screen)
        for _ in range(3):  # before, trim now, after: each needs the live host
            await next_step(pilot)
            assert "needs the live host" in page(screen), page(screen)
        await next_step(pilot)
        assert "No comparison" in page(screen)
        await next_step(pilot)
        text = page(screen)
        assert "No: BLOCKED at luks-etcd" in text and "TRIM-CRYPT-OFF" in text


async def test_slow_node_walkthrough_on_a_capture_goes_straight_to_the_configuration() -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_guide(pilot, "slow")
        assert "needs the live host" in page(screen)
        await next_step(pilot)
        assert "a capture has no live rates" in page(screen)
        await pilot.press("enter")
        await settle(pilot)
        assert "its layers from the top" in page(screen) and "findings" in page(screen)
        await next_step(pilot)
        assert "No live reading" in page(screen)


async def test_elasticsearch_ceph_walkthrough_on_a_capture_with_peak_hours() -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_guide(pilot, "apps")
        assert "a capture has none" in page(screen)
        await type_answer(pilot, screen, "/lab/data")
        assert "vg0-data" in page(screen)
        await next_step(pilot)
        await type_answer(pilot, screen, "Funday 25:00")
        assert "peak window" in page(screen) and "step 3 of 6" in page(screen)
        screen.query_one("#guide-typed").value = ""
        await pilot.press("escape")
        screen.query_one("#guide-choices").focus()
        await pilot.press("enter")
        await settle(pilot)
        assert screen.ctx.answers["peak"] is not None and "Matching rules" in page(screen)
        await next_step(pilot)
        assert "needs the live host" in page(screen)
        await next_step(pilot)
        assert "Compaction was not measured" in page(screen)


@pytest.mark.live
async def test_trim_walkthrough_on_a_loop_filesystem_trims_and_compares(loop_stack: LoopStack) -> None:
    point = str(loop_stack.mountpoints["ext4-discard"])
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_guide(pilot, "trim")
        values = [c.value for c in screen.view.choices]
        await pilot.press(*(["down"] * values.index(point)), "enter")
        await settle(pilot)
        assert loop_stack.kname("ext4-discard") in page(screen)
        await next_step(pilot)
        await next_step(pilot)
        await start_step(pilot)
        assert "saved as run" in page(screen), page(screen)
        await next_step(pilot)
        await pilot.press("s")  # the confirmation dialog
        await pilot.pause()
        await pilot.click("#confirm")
        await settle(pilot)
        await pilot.click("#close")
        await settle(pilot)
        assert "fstrim reported" in page(screen), page(screen)
        await next_step(pilot)
        await start_step(pilot)
        await next_step(pilot)
        assert "Before (run" in page(screen) and "after the trim" in page(screen)
        await next_step(pilot)
        assert "Trim now: done" in page(screen) and "Before/after" in page(screen)


@pytest.mark.live
async def test_slow_node_walkthrough_names_the_writer_on_a_loop_filesystem(loop_stack: LoopStack) -> None:
    point = loop_stack.mountpoints["xfs"]
    from test_monitor import WRITER

    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(point / "busy.img")])
    app = DiskDoctorApp(live_root())
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_guide(pilot, "slow")
            await start_step(pilot)
            text = page(screen)
            assert "Busiest device" in text and "Who: " in text, text
            sample = screen.ctx.results["monitor"]  # the top ten writers (the page names three)
            assert writer.pid in [p.pid for p in sample.processes.top], sample.processes
            await next_step(pilot)
            assert "the busiest device" in str(screen.view.choices)
            await pilot.press("enter")
            await settle(pilot)
            await next_step(pilot)
            verdict = page(screen).split("\n")[1]  # the busy 2-core CI host may be CPU-bound instead
            assert verdict.startswith(("Storage is a likely cause", "Storage is not the cause",
                                       "The CPUs are")), verdict
    finally:
        writer.kill()
        writer.wait()
        (point / "busy.img").unlink(missing_ok=True)


@pytest.mark.live
async def test_elasticsearch_walkthrough_on_a_loop_filesystem_runs_compaction(loop_stack: LoopStack) -> None:
    point = str(loop_stack.mountpoints["btrfs"])
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_guide(pilot, "apps")
        await type_answer(pilot, screen, point)
        await next_step(pilot)
        await pilot.press("down", "down", "enter")  # no peak hours
        await settle(pilot)
        await next_step(pilot)
        await start_step(pilot)
        assert "saved as run" in page(screen), page(screen)
        await next_step(pilot)
        assert "Compaction (short run)" in page(screen)
