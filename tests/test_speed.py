"""What keeps the tool fast that a user can see: the modules a command loads, JSON into a pipe, workers."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.root import Root
from textual.worker import Worker

SIZE = (150, 40)


async def test_workers_never_describe_themselves_with_the_host(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker named from repr() of its arguments repr()s the whole Host on every cursor move."""
    seen: list[str] = []
    original = Worker.__init__

    def recording(self: Worker[Any], *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        seen.append(f"{self.name} {self.description}")

    monkeypatch.setattr(Worker, "__init__", recording)
    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        for _ in range(3):
            await pilot.press("down")
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert any("device's details" in text for text in seen), seen
    assert all(len(text) < 200 and "Host(" not in text for text in seen), [text[:200] for text in seen]


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "diskdoctor.app", *argv], capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.mark.parametrize("command", ["devices", "trim"])
def test_json_into_a_pipe_is_compact_and_pretty_on_request(command: str) -> None:
    root = str(fixture_root("etcd-raid0-lvm-luks").path)
    compact = _cli(command, "--json", "--sysroot", root)
    pretty = _cli(command, "--json", "--pretty", "--sysroot", root)
    assert compact.stdout.count("\n") == 1 and ": " not in compact.stdout.split('"')[0]
    assert pretty.stdout.count("\n") > 20 and pretty.stdout.startswith("{\n  ")
    first, second = json.loads(compact.stdout), json.loads(pretty.stdout)
    first.pop("now", None), second.pop("now", None)  # trim's clock reading
    assert first == second


LOADED = """
import sys
sys.argv = ["diskdoctor", *sys.argv[1:]]
from diskdoctor.app.launcher import main
try:
    main()
finally:
    sys.stdout.flush()
    sys.stderr.write("\\nMODULES " + " ".join(sys.modules) + "\\n")
"""


def loaded_modules(*argv: str) -> set[str]:
    """The modules a command has imported by its end, in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", LOADED, *argv], capture_output=True, text=True, timeout=120,
                          check=False)
    line = done.stderr.rsplit("MODULES ", 1)[-1]
    return set(line.split())


def heavy(modules: set[str], *prefixes: str) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in prefixes or m.startswith(prefixes))


@pytest.mark.parametrize("argv", [("trim", "--json"), ("trim",), ("devices", "--json")])
def test_trim_and_devices_load_no_benchmark_psutil_or_http(argv: tuple[str, ...]) -> None:
    modules = loaded_modules(*argv, "--sysroot", str(fixture_root("etcd-raid0-lvm-luks").path))
    assert "diskdoctor.app.core.snapshot" in modules or argv[0] == "devices"
    assert heavy(modules, "diskdoctor.probes.engine.", "diskdoctor.app.core.bench", "psutil", "pyudev",
                 "http", "urllib.request", "textual", "email", "importlib.metadata", "tarfile",
                 "diskdoctor.probes.scratch", "diskdoctor.probes.child_guard") == []
    if argv == ("devices", "--json"):
        assert heavy(modules, "rich", "subprocess", "shutil", "diskdoctor.app.core.trim") == []


def test_version_loads_neither_the_cli_nor_package_metadata() -> None:
    modules = loaded_modules("--version")
    assert heavy(modules, "argparse", "typing", "importlib.metadata", "email", "diskdoctor.app.cli") == []


def test_version_is_the_installed_distributions() -> None:
    from importlib.metadata import version

    assert _cli("--version").stdout == f"diskdoctor {version('diskdoctor')}\n"


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_with_hotplug_events_the_monitor_rereads_the_stack_only_when_something_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from diskdoctor.probes import io_monitor

    root = tmp_path / "lab-ssd"
    shutil.copytree(FIXTURES / "lab-ssd", root, symlinks=True)
    reads: list[int] = []
    real_read_host = io_monitor.read_host
    monkeypatch.setattr(io_monitor, "read_host", lambda r: reads.append(1) or real_read_host(r))
    clock = FakeClock()
    monitor = io_monitor.IoMonitor(Root(str(root), live=False), clock=clock, processes=False, rates=True,
                                   rescan_every=None)
    for _ in range(3):
        monitor.poll()
        clock.now += 60
    assert len(reads) == 1
    with (root / "proc/self/mountinfo").open("a") as mountinfo:
        mountinfo.write("99 1 0:99 / /mnt/new rw - tmpfs tmpfs rw\n")
    monitor.poll()
    assert len(reads) == 2
    first = (root / "proc/diskstats").read_text().splitlines()[0].split()
    with (root / "proc/diskstats").open("a") as diskstats:  # a device appears
        diskstats.write(" ".join(["259", "99", "nvme9n1", *first[3:]]) + "\n")
    monitor.poll()
    assert len(reads) == 3


def test_processes_are_sampled_only_while_wanted(monkeypatch: pytest.MonkeyPatch) -> None:
    from diskdoctor.probes import process_io
    from diskdoctor.probes.io_monitor import IoMonitor
    from diskdoctor.probes.root import live_root

    walks: list[int] = []
    real = process_io.read_process_bytes
    monkeypatch.setattr(process_io, "read_process_bytes", lambda exclude: walks.append(1) or real(exclude))
    clock = FakeClock()
    monitor = IoMonitor(live_root(), clock=clock)
    monitor.poll()
    walks.clear()
    monitor.sample_processes = False
    for _ in range(3):
        clock.now += 1
        assert monitor.poll().processes is None
    assert walks == []
    monitor.sample_processes = True
    clock.now += 1
    assert monitor.poll().processes is None  # a fresh baseline after the gap, not a rate over it
    clock.now += 1
    assert monitor.poll().processes is not None
    assert len(walks) == 2


async def test_the_monitor_table_repaints_only_cells_that_changed() -> None:
    from diskdoctor.app.tui.monitor_screen import MonitorScreen
    from textual.widgets import DataTable, Static

    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("6")
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MonitorScreen) and screen.sample is not None
        table = screen.query_one("#monitor-table", DataTable)
        repainted: list[str] = []
        for widget in (table, *screen.query(Static)):
            real = widget.refresh
            widget.refresh = (lambda real, name: lambda *regions, **kw:  # type: ignore[method-assign]
                              repainted.append(name) or real(*regions, **kw))(real, widget.id)
        screen.tick()  # the same capture counters again
        await app.workers.wait_for_complete()
        await pilot.pause()
        painted = list(repainted)
    assert table.row_count > 3 and painted == []


async def test_a_changed_counter_is_shown_and_only_its_cells_are_repainted(tmp_path: Path) -> None:
    """Each tick puts new figures in the Monitor's table and repaints those cells alone (a whole-table
    repaint rendered every visible cell again each second: most of the idle screen's CPU)."""
    from diskdoctor.app.tui.monitor_screen import MonitorScreen
    from textual.widgets import DataTable

    root = tmp_path / "lab-ssd"
    shutil.copytree(FIXTURES / "lab-ssd", root, symlinks=True)
    app = DiskDoctorApp(Root(str(root), live=False))
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("6")
        await app.workers.wait_for_complete()
        await pilot.press("g")  # the first rows (Monitor opens on Stack's row)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MonitorScreen) and screen.sample is not None
        table = screen.query_one("#monitor-table", DataTable)
        lines = [table.header_height + index for index, key in enumerate(screen._row_keys)
                 if key.endswith("|sda") and table.header_height + index < table.size.height]

        def shown() -> list[str]:
            return [table.render_line(y).text for y in range(table.size.height)]

        sda_rows = [index for index, key in enumerate(screen._row_keys) if key.endswith("|sda")]
        before = shown()
        repainted: list[Any] = []
        real_refresh = table.refresh
        table.refresh = lambda *regions, **kw: repainted.append(regions) or real_refresh(*regions, **kw)
        stats = (root / "proc/diskstats").read_text().splitlines()
        index, = (i for i, text in enumerate(stats) if text.split()[2] == "sda")
        fields = stats[index].split()
        # sda completed a thousand more reads: a figure as wide as before (a capture's counter columns are
        # as wide as their widest figure, so a wider one lays the table out again, as it must)
        fields[3] = str(int(fields[3]) + 1_000)
        stats[index] = " ".join(fields)
        (root / "proc/diskstats").write_text("\n".join(stats) + "\n")
        screen.tick()
        await app.workers.wait_for_complete()
        await pilot.pause()
        after, painted = shown(), list(repainted)
    reads = f"{int(fields[3]):,}"
    assert len(lines) > 1 and all(reads in after[y] and reads not in before[y] for y in lines)
    assert [y for y, (old, new) in enumerate(zip(before, after, strict=True)) if old != new] == lines
    assert painted and all(regions and all(region.height == 1 and region.y - table.header_height in sda_rows
                                           for region in regions) for regions in painted), painted


async def test_a_filesystem_row_shows_its_device_figures_and_the_side_pane_keeps_its_height() -> None:
    """The Monitor's side pane shows the selected row's figures; on a filesystem's heading row, those of
    the filesystem's own device. Its height stays the same from row to row (a height change was a layout
    pass and two more frames on every key)."""
    from diskdoctor.app.tui.monitor_screen import MonitorScreen
    from textual.widgets import DataTable, Static

    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=(200, 60)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("6")
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MonitorScreen) and screen.sample is not None
        await pilot.press("g")  # it opens on Stack's row (sda under /lab/data): to the first heading row
        table = screen.query_one("#monitor-table", DataTable)
        pane = screen.query_one("#monitor-selected", Static)
        shown = []
        for _ in range(4):
            await pilot.pause()
            shown.append((screen._row_keys[table.cursor_row], str(pane.render()), pane.size.height))
            await pilot.press("down")
    heading, first, *_ = shown
    group = screen.sample.groups[0]
    top = group.layers[0].row
    assert heading[0] == f"group|{group.group.key}" and first[0] == f"{group.group.key}|{top.kname}"
    assert f"{group.group.title} on {top.name} ({top.kind})" in heading[1] and "reads" in heading[1]
    assert heading[1].split("\n", 2)[2] == first[1].split("\n", 2)[2]  # the same figures
    assert len({height for _, _, height in shown}) == 1 and heading[2] > 5


async def test_a_filtered_monitor_shows_new_counters_of_the_rows_it_keeps(tmp_path: Path) -> None:
    """Rows the `/` filter leaves out are not in the table: their changed counters must not be put in
    it, and the kept rows still show theirs (then every row comes back with its latest figures)."""
    from diskdoctor.app.tui.monitor_screen import MonitorScreen
    from textual.widgets import DataTable

    root = tmp_path / "lab-ssd"
    shutil.copytree(FIXTURES / "lab-ssd", root, symlinks=True)
    stats_file = root / "proc/diskstats"
    app = DiskDoctorApp(Root(str(root), live=False))
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("6")
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MonitorScreen)
        await pilot.press("slash", *"sdb", "enter")
        await pilot.pause()
        kept = list(screen._row_keys)
        stats = stats_file.read_text().splitlines()
        reads = {}
        for index, text in enumerate(stats):
            fields = text.split()
            if fields[2] in ("sda", "sdb"):  # sda is filtered out, sdb is kept
                fields[3] = reads[fields[2]] = str(int(fields[3]) + 1_000_000)
                stats[index] = " ".join(fields)
        stats_file.write_text("\n".join(stats) + "\n")
        screen.tick()
        await app.workers.wait_for_complete()
        await pilot.pause()
        table = screen.query_one("#monitor-table", DataTable)
        filtered = {key: table.get_cell(key, "reads").plain for key in screen._row_keys
                    if key.endswith("|sdb")}
        await pilot.press("slash", "escape")
        await pilot.pause()
        every = {key: table.get_cell(key, "reads").plain for key in screen._row_keys
                 if key.endswith(("|sda", "|sdb"))}
    assert kept and not any(key.endswith("|sda") for key in kept)
    assert filtered and set(filtered.values()) == {f"{int(reads['sdb']):,}"}
    assert {value for key, value in every.items() if key.endswith("|sda")} == {f"{int(reads['sda']):,}"}


async def test_live_rates_a_device_that_goes_idle_shows_zeros_and_idle_rows_are_left_alone(
        tmp_path: Path) -> None:
    """The Monitor's live table (rates): a device that wrote shows its rate, then zeros once it stops;
    the rows of devices that stayed idle are not drawn again."""
    from diskdoctor.app.tui.monitor_screen import MonitorScreen
    from textual.app import App
    from textual.widgets import DataTable

    root = tmp_path / "lab-ssd"
    shutil.copytree(FIXTURES / "lab-ssd", root, symlinks=True)
    screen = MonitorScreen(Root(str(root), live=True), interval=3600)  # ticks by hand below

    class OneScreen(App[None]):
        def on_mount(self) -> None:
            self.push_screen(screen)

    app = OneScreen()
    stats_file = root / "proc/diskstats"
    stats = stats_file.read_text().splitlines()
    index, = (i for i, text in enumerate(stats) if text.split()[2] == "sda")

    def writes(more: int) -> None:
        fields = stats[index].split()
        fields[7] = str(int(fields[7]) + more)  # writes completed
        stats[index] = " ".join(fields)
        stats_file.write_text("\n".join(stats) + "\n")

    async def tick() -> dict[str, dict[str, str]]:
        screen.tick()
        await app.workers.wait_for_complete()
        await pilot.pause()
        table = screen.query_one("#monitor-table", DataTable)
        return {key: {str(column.key.value): str(getattr(table.get_cell(key, column.key), "plain", ""))
                      for column in table.columns.values()} for key in screen._row_keys}

    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await tick()  # the first rates (an interval after the first reading)
        writes(50_000)
        busy = await tick()
        table, repainted = screen.query_one("#monitor-table", DataTable), []
        real_refresh = table.refresh
        table.refresh = lambda *regions, **kw: repainted.append(regions) or real_refresh(*regions, **kw)
        idle = await tick()
        rows = {region.y - table.header_height for regions in repainted for region in regions}
        whole = [regions for regions in repainted if not regions]
    sda = [key for key in busy if key.endswith("|sda")]
    assert sda and all(busy[key]["w_s"] not in ("0.0", "-") for key in sda)
    assert all(idle[key]["w_s"] == "0.0" and idle[key]["util"] == "0%" for key in sda)
    others = [key for key in idle if not key.startswith("group|") and not key.endswith("|sda")]
    assert others and all(idle[key] == busy[key] for key in others)
    assert rows and not whole and {screen._row_keys[row] for row in rows} <= set(sda)


@pytest.mark.parametrize("numbers", ["100 2 300 4 500 6 700 8 9 1000 11",
                                     "100 2 300 4 500 6 700 8 9 1000 11 12 13 14 15",
                                     "100 2 300 4 500 6 700 8 9 1000 11 12 13 14 15 16 17"])
def test_an_unchanged_diskstats_line_is_parsed_once_and_its_delta_is_the_same(numbers: str) -> None:
    from diskdoctor.probes.diskstats import DiskstatsParser, disk_delta, parse_diskstats

    line = f"   8       0 sda {numbers}"
    parser = DiskstatsParser()
    first, again = parser.parse(line)["sda"], parser.parse(line)["sda"]
    assert first is again
    fresh = parse_diskstats(line)["sda"]
    assert disk_delta(first, again, 1.0) == disk_delta(fresh, parse_diskstats(line)["sda"], 1.0)


def test_the_tui_loads_only_the_first_screens_module() -> None:
    modules = loaded_modules("--smoke", "--sysroot", str(fixture_root("etcd-raid0-lvm-luks").path))
    assert "diskdoctor.app.tui.stack_screen" in modules
    assert heavy(modules, "diskdoctor.app.tui.bench", "diskdoctor.app.tui.advice_screen",
                 "diskdoctor.app.tui.monitor_screen", "diskdoctor.app.tui.runs_screen",
                 "diskdoctor.probes.engine.", "diskdoctor.app.core.advice", "psutil") == []


def _loops_root(tmp_path: Path) -> Root:
    from support.sysfs_builder import SysrootBuilder

    builder = SysrootBuilder(tmp_path / "loops", hostname="loops")
    builder.loop("loop0", "7:0", 1 << 30, "/images/a.img")
    for index in range(1, 8):
        builder.loop(f"loop{index}", f"7:{index}", 0, None)
    builder.sata("sda", "8:0", 100 << 30, port=1, model="disk")
    return Root(str(builder.finish()), live=False)


def test_idle_loop_devices_are_not_read_only_to_be_left_out(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A host has dozens of unattached loop devices that lsblk (and `devices`) leave out: reading every
    attribute of each was most of `devices --json` on a live host. `--all` still shows them in full."""
    from diskdoctor.probes.host import read_host

    read: list[str] = []
    real = Root.read_bytes
    monkeypatch.setattr(Root, "read_bytes", lambda self, rel, *a: read.append(rel) or real(self, rel, *a))
    host = read_host(_loops_root(tmp_path))
    assert sorted(host.devices) == ["loop0", "sda"]
    idle = [rel for rel in read if "/loop3/" in rel]
    assert idle and not any("queue/" in rel for rel in idle), idle
    everything = read_host(_loops_root(tmp_path), include_empty=True)
    assert everything.devices["loop3"].rotational.value is True
    assert everything.devices["loop3"].size_bytes.value == 0


def test_a_missing_host_command_is_named_without_a_path_search_of_our_own() -> None:
    from diskdoctor.probes.root import live_root

    output = live_root().run("nothing", ["diskdoctor-no-such-command", "--version"])
    assert output.text is None and output.why_unknown == "diskdoctor-no-such-command is not installed"


@pytest.mark.parametrize("argv", [("devices", "--json"), ("trim", "--json")])
def test_devices_and_trim_load_neither_typing_nor_other_commands_options(argv: tuple[str, ...]) -> None:
    modules = loaded_modules(*argv, "--sysroot", str(fixture_root("etcd-raid0-lvm-luks").path))
    assert heavy(modules, "typing", "shutil", "diskdoctor.app.cli.advise", "diskdoctor.app.cli.bench",
                 "diskdoctor.app.cli.runs", "diskdoctor.app.cli.report", "diskdoctor.app.cli.watch") == []


def test_a_captured_folder_a_listing_showed_is_not_read_as_a_link(monkeypatch: pytest.MonkeyPatch) -> None:
    """A capture's folders are resolved inside it; one its parent's listing showed to be a folder needs no
    readlink of its own (at 5,000 devices that was 17,000 of 28,000 failed readlinks)."""
    import os

    from diskdoctor.probes.host import read_host

    links: list[str] = []
    real = os.readlink
    monkeypatch.setattr(os, "readlink", lambda path, *a, **k: links.append(str(path)) or real(path, *a, **k))
    host = read_host(fixture_root("etcd-raid0-lvm-luks"))
    assert host.devices
    folders = [path for path in links if path.endswith(("/queue", "/slaves"))  # a disk's (its folder listed)
               and os.path.isdir(path) and not os.path.islink(path)]
    assert not folders, folders
