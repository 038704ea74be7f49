"""Defects a new user met in the TUI (issue 14), each pinned by what the user sees."""

from __future__ import annotations

import subprocess
import sys

from conftest import fixture_host, fixture_root
from diskdoctor.app.core.bench.wal import Verdict
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.bench.view import comparison_text, fio_disagreement
from diskdoctor.app.tui.stack_screen import StackScreen
from diskdoctor.app.tui.trim_screen import host_summary
from diskdoctor.probes import host as host_module
from diskdoctor.probes.exit_status import describe_exit
from diskdoctor.probes.fio_json import FioSyncStats
from diskdoctor.probes.layer_details import read_layer_details
from diskdoctor.probes.root import live_root
from diskdoctor.probes.trim_facts import read_trim_facts
from diskdoctor.widgets import LatencyBars, LayerTimeTable, PercentileChart, StackTree
from diskdoctor.widgets.latency_bars import band_label
from support.bench_fixed_run import PARAMS, TARGET, feed_fixed_run, fixed_result, fixture_mounts
from support.cli_runner import run_cli
from test_tui import settled, text_of, visible_names
from textual.widgets import Input, Select

__all__ = ["fixture_mounts"]
KUBELET = ("/var/lib/kubelet/pods/8f0c2a4e-5b1d-4c0e-9a77-3c1f2d4e5f60/volumes/kubernetes.io~csi/"
           "pvc-4d5e6f70-8192-4a3b-bc4d-5e6f708192a3/mount")


def fio_with_p99(p99_ns: int) -> FioSyncStats:
    """fio's side of the fixed run, with a chosen p99."""
    return FioSyncStats(version="fio-3.33", metric="sync", percentiles_ns={50.0: 420_000, 90.0: 700_000,
                        99.0: p99_ns, 99.9: 3_000_000}, samples=10_028, min_ns=200_000.0,
                        max_ns=9_000_000.0, mean_ns=500_000.0, stdev_ns=100_000.0, ops_per_s=5100.0,
                        writes=10_029)


def test_histogram_labels_never_use_exponents_and_keep_one_unit() -> None:
    assert band_label(1e5, 3.162e5) == "100-316 µs"
    assert band_label(1e8, 3.162e8) == "100-316 ms"
    assert band_label(3162, 10_000) == "3.16-10 µs"
    assert band_label(3.162e6, 1e7) == "3.16-10 ms"


def test_a_verdict_never_rounds_into_a_contradiction() -> None:
    failed = Verdict(False, "p99 fdatasync", 10.3, 10.0, "etcd docs threshold", 100).line()
    assert failed.startswith("p99 fdatasync 10.3 ms ≥ 10 ms")
    near = Verdict(False, "p99 fdatasync", 10.02, 10.0, "etcd docs threshold", 100).line()
    assert near.startswith("p99 fdatasync 10.02 ms ≥ 10 ms")
    passed = Verdict(True, "p99 fdatasync", 19.9996, 20.0, "vendor", 100).line()
    assert passed.startswith("p99 fdatasync 19.9996 ms < 20 ms")


def test_fio_comparison_has_p99_9_max_and_the_ratio_direction() -> None:
    text = comparison_text(PARAMS, fixed_result(), fio_with_p99(800_000), 10.0).plain
    assert "p99.9" in text and "\nmax " in text and "ours/fio" in text
    assert "above 1.00: our latency is higher" in text


def test_fio_p99_on_the_other_side_of_the_threshold_is_pointed_out() -> None:
    result = fixed_result()
    assert fio_disagreement(result, fio_with_p99(800_000), 10.0) is None
    warning = fio_disagreement(result, fio_with_p99(24_000_000), 10.0)
    assert warning is not None and "fio's p99 24.0 ms is at or over the 10 ms threshold" in warning


def test_a_killed_child_names_the_signal() -> None:
    assert describe_exit(-9) == "killed by SIGKILL"
    assert describe_exit(-15) == "killed by SIGTERM"
    assert describe_exit(2) == "exit code 2"


def test_unknown_service_scope_is_said_in_words() -> None:
    root = fixture_root("etcd-raid0-lvm-luks")
    summary = host_summary(read_trim_facts(root, fixture_host("etcd-raid0-lvm-luks")), None).plain
    assert "trims ?" not in summary and "fstrim.service scope unknown" in summary


def test_a_partitions_vendor_source_is_its_disk() -> None:
    root = fixture_root("sata-ext4")
    identity = read_layer_details(root, fixture_host("sata-ext4"), "sda1")[0]
    vendor = next(d for d in identity.details if d.label == "vendor")
    assert vendor.fact.source == "/sys/block/sda/device/vendor"


def test_trim_text_is_not_wrapped_when_piped() -> None:
    result = run_cli("--sysroot", str(fixture_root("etcd-trim-blocked").path), "trim")
    lines = result.out.splitlines()
    warn = next(line for line in lines if "TRIM-CRYPT-OFF:" in line)
    assert "never reach the disk" in warn and warn.endswith("shows no allow_discards.")
    starts = (" ", "/", "fstrim.timer", "cron", "1 of")
    assert all(line == "" or line.startswith(starts) for line in lines), lines  # no cut continuation lines


def test_version_and_devices_load_only_what_they_need() -> None:
    code = ("import sys\n"
            "sys.argv = ['diskdoctor', *sys.argv[1:]]\n"
            "from diskdoctor.app.launcher import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith(('diskdoctor', 'textual', "
            "'importlib.metadata')))), file=sys.stderr)\n")
    version = subprocess.run([sys.executable, "-c", code, "--version"], capture_output=True, text=True,
                             check=True)
    assert "diskdoctor.app.cli.main" not in version.stderr.split()
    devices = subprocess.run([sys.executable, "-c", code, "devices", "--json", "--sysroot",
                              str(fixture_root("etcd-raid0-lvm-luks").path)], capture_output=True, text=True,
                             check=True)
    loaded = devices.stderr.split()
    for heavy in ("diskdoctor.probes.wal_engine", "diskdoctor.probes.fio_run", "diskdoctor.app.cli.bench",
                  "importlib.metadata", "textual"):
        assert heavy not in loaded, heavy


async def test_the_host_is_read_once_per_refresh_for_every_screen(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    reads: list[object] = []
    real = host_module.read_host
    monkeypatch.setattr(host_module, "read_host", lambda root, **kw: reads.append(root) or real(root, **kw))
    app = DiskDoctorApp(fixture_root("etcd-trim-blocked"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        for key in ("2", "3", "1"):
            await pilot.press(key)
            await settled(app, pilot)
        assert len(reads) == 1
        await pilot.press("r")
        await settled(app, pilot)
        assert len(reads) == 2
        assert app.snapshot is not None and app.snapshot.trim_facts is not None


async def test_v_keeps_the_selected_device_and_refresh_keeps_collapsed_rows() -> None:
    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    async with app.run_test(size=(150, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("down", "down", "down", "down")
        await pilot.pause()
        tree = app.screen.query_one(StackTree)
        assert tree.cursor_node.data.name == "luks-etcd"
        await pilot.press("v")
        await settled(app, pilot)
        assert tree.cursor_node.data.name == "luks-etcd"
        await pilot.press("v", "home", "left")  # collapse nvme0n1
        await settled(app, pilot)
        assert visible_names(app)[:2] == ["nvme0n1", "nvme1n1"]
        await pilot.press("r")
        await settled(app, pilot)
        assert visible_names(app)[:2] == ["nvme0n1", "nvme1n1"]


async def test_long_mountpoints_keep_both_ends_and_the_details_heading_its_kind() -> None:
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("v")
        await settled(app, pilot)
        tree = app.screen.query_one(StackTree)
        lines = [tree.render_line(y).text for y in range(tree.size.height)]
        mount_row = next(line for line in lines if "xfs" in line and "BLOCKED" in line)
        assert "/var/lib/kubelet" in mount_row and mount_row.rstrip().endswith("…/mount") is False
        assert any("/mount" in line and "…" in line for line in lines)
        header = text_of(app, "#stack-columns")
        # every mountpoint is its own row's name here: no MOUNTPOINTS column repeats it (issue 23)
        assert "MOUNTPOINTS" not in header and len(header.rstrip()) <= tree.scrollable_content_region.width
        await pilot.press("end", "up")
        await settled(app, pilot)
        await pilot.press("home")
        for _ in range(8):
            await pilot.press("down")
        await settled(app, pilot)
        title = text_of(app, "#details-title")
        assert title.endswith(("· crypt", "· lvm", "· part", "· disk", "· xfs", "· ext4")), title


async def test_stack_b_opens_the_benchmark_with_the_filesystem_chosen(fixture_mounts: None) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(160, 48)) as pilot:
        await settled(app, pilot)
        assert isinstance(app.screen, StackScreen)
        await pilot.press("v")  # mountpoints down, worst first: "/" somewhere among them
        await settled(app, pilot)
        tree = app.screen.query_one("#stack-tree")
        await pilot.press("home")
        for _ in range(60):
            if tree.cursor_key() == "mount:/":
                break
            await pilot.press("j")
            await pilot.pause()
        await pilot.press("b")
        await settled(app, pilot)
        assert app.current_mode == "bench"
        assert app.screen.query_one("#bench-dir", Input).value == "/"
        assert app.screen.query_one("#bench-fs", Select).value == "/"


async def test_after_a_run_the_layers_are_whole_run_totals_and_the_result_stays_until_replaced(
        fixture_mounts: None) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("3")
        await settled(app, pilot)
        screen = app.screen
        feed_fixed_run(screen)
        await pilot.pause()
        table = screen.query_one(LayerTimeTable)
        assert str(table.get_row_at(0)[1]) == "10,060" and "whole run" in text_of(app, "#bench-layers-title")
        screen.start_run(PARAMS, "/nonexistent-dir-for-diskdoctor-test")
        await settled(app, pilot)
        assert "Error" in text_of(app, "#bench-status")
        assert text_of(app, "#bench-previous").startswith("previous run: PASS p99 ")
        assert "no samples yet" in str(screen.query_one(LatencyBars).render())  # nothing of the old run
        assert TARGET.directory in text_of(app, "#bench-previous")


async def test_vendor_threshold_shows_in_the_custom_box_and_tmpfs_legend_is_not_in_ms(
        fixture_mounts: None) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("3")
        await settled(app, pilot)
        screen = app.screen
        screen.query_one("#bench-threshold", Select).value = "vendor"
        await pilot.pause()
        custom = screen.query_one("#bench-threshold-custom", Input)
        assert custom.value == "20" and custom.disabled
        chart = screen.query_one(PercentileChart)
        screen.query_one("#bench-left").display = True  # as a run shows it (hidden, empty, before one)
        chart.clear_history("fdatasync")
        chart.push(0.5, {"p50": 0.00038, "p90": 0.0005, "p99": 0.001, "p99.9": 0.002,
                         "p99 cumulative": 0.001})
        await pilot.pause()
        legend = chart.render_line(1).text
        assert "380 ns" in legend and "0.00038" not in legend


async def test_block_size_field_shows_its_whole_value_after_editing(fixture_mounts: None) -> None:
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("3")
        await settled(app, pilot)
        field = app.screen.query_one("#bench-bs", Input)
        field.focus()
        await pilot.press("ctrl+u", *"8192", "tab")
        await pilot.pause()
        assert field.value == "8192"
        assert "8192" in "".join(field.render_line(y).text for y in range(field.size.height))


async def test_v_on_the_first_row_keeps_the_device_and_its_details() -> None:
    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    async with app.run_test(size=(150, 40)) as pilot:
        await settled(app, pilot)
        tree = app.screen.query_one(StackTree)
        assert tree.cursor_node.data.name == "nvme0n1"
        await pilot.press("v")
        await settled(app, pilot)
        assert tree.cursor_node.data.name == "nvme0n1"
        assert "nvme0n1" in text_of(app, "#details-title")


async def test_refresh_clears_reading_the_host_and_keeps_the_device_when_rows_move() -> None:
    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    async with app.run_test(size=(150, 40)) as pilot:
        await settled(app, pilot)
        await pilot.press("down", "down", "down", "down")
        await settled(app, pilot)
        await pilot.press("r")
        await settled(app, pilot)
        assert "Reading the host" not in text_of(app, "#status")
        assert "luks-etcd" in text_of(app, "#details-title")


async def test_a_target_taken_from_another_screens_selection_says_where_it_came_from(
        fixture_mounts: None) -> None:
    """A new user moved the cursor on one screen, pressed 3 then s, and benchmarked "/" without knowing
    why "/" was the target: the status line names the screen the selection came from."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=(160, 48)) as pilot:
        await settled(app, pilot)
        await pilot.press("v")  # mountpoints down: the first row is the worst filesystem
        await settled(app, pilot)
        await pilot.press("end", "home")
        await settled(app, pilot)
        first = app.screen.query_one("#stack-tree").cursor_key().removeprefix("mount:")
        await pilot.press("3")
        await settled(app, pilot)
        assert app.current_mode == "bench"
        assert app.screen.query_one("#bench-dir", Input).value == first
        said = f"{first} (chosen on Stack): press s to start"
        assert said in text_of(app, "#bench-status")


async def test_advice_narrowed_to_one_filesystem_speaks_of_it_and_counts_its_rows() -> None:
    """Arriving on Advice narrowed to /lab/raid1 (selected elsewhere): a finding merged over many
    filesystems reads, shows and copies /lab/raid1's version, and the status line says how many rows
    of all are shown."""
    from diskdoctor.app.tui.advice_screen import AdviceScreen
    from diskdoctor.app.tui.selection import choose

    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        choose(app, None, "/lab/raid1", "stack")
        await pilot.press("4")
        await settled(app, pilot)
        screen = app.screen
        assert isinstance(screen, AdviceScreen)
        merged = [row for row in screen.rows if "/lab/raid1" in row.subjects and len(row.subjects) > 1
                  and row.finding.subject != "/lab/raid1"]
        assert merged, "the lab has TRIM-NO-SCHEDULE merged over several filesystems, /lab/data first"
        assert "only /lab/raid1 (a: all)" in text_of(app, "#status")
        index = screen.rows.index(merged[0])
        await pilot.press("home", *["down"] * index)
        await settled(app, pilot)
        selected = screen.selected()
        assert selected is not None and selected.subject == "/lab/raid1"
        assert "/lab/raid1" in selected.title and "/lab/data" not in selected.title
        assert "/lab/raid1" in str(screen.query_one("#advice-table").get_row_at(index)[1])
