"""Who does the I/O reads whole (newuser7, issue 23): an interpreter shows the script it runs, not a bare
`python[11858]`, and the pane's notes keep to one row where the figures beside leave room."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from diskdoctor.app.text.monitor import PROGRAM_CELLS, process_lines
from diskdoctor.app.tui import monitor_screen
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.monitor_screen import MonitorScreen
from diskdoctor.probes.process_io import ProcessIoSampler, ProcessRate, ProcessRates, program_of
from diskdoctor.probes.root import live_root
from test_monitor_layout import SIZE_IDS, SIZES, open_monitor, screen_lines


@pytest.mark.parametrize(("name", "cmdline", "program"), [
    ("python3", ["/usr/bin/python3", "-u", "/srv/sim/etcd_sim.py", "--dir", "/mnt/x"], "python3 etcd_sim.py"),
    ("python", ["python", "-m", "http.server", "8000"], "python -m http.server"),
    ("python3", ["python3", "-c", "import os; os.sync()"], ""),
    ("bash", ["/bin/bash", "./load.sh"], "bash load.sh"),
    ("etcd", ["/usr/bin/etcd", "--data-dir", "/var/lib/etcd"], ""),
    ("python3", [], ""),
])
def test_an_interpreter_is_named_by_its_script(name: str, cmdline: list[str], program: str) -> None:
    """The cmdline's first argument that is not the interpreter's own option names the program."""
    assert program_of(name, cmdline) == program


def test_a_process_line_is_made_safe_and_cut_in_its_middle() -> None:
    """A hostile or long script name never reaches the terminal raw, and both its ends stay."""
    long = "python3 " + "a" * 40 + "_sim.py"
    rates = ProcessRates([ProcessRate(7, "python3", 0.0, 1e6, "python3 evil\x1b[2J.py"),
                          ProcessRate(8, "python3", 0.0, 1e6, long)])
    first, second = process_lines(rates, live=True)
    assert "\x1b" not in first and first.startswith("python3 evil\\x1b[2J.py[7] ")
    program = second.partition("[8]")[0]
    assert len(program) == PROGRAM_CELLS and program.startswith("python3 aaa") and program.endswith("_sim.py")


def test_the_sampler_names_a_running_script(tmp_path: Path) -> None:
    """A real python script writing to a file is listed as `python3 writer.py`, not `python3`."""
    script = tmp_path / "writer.py"
    script.write_text("import os, sys, time\n"
                      "fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o600)\n"
                      "while True:\n    os.pwrite(fd, b'x' * 65536, 0); os.fsync(fd); time.sleep(0.01)\n")
    child = subprocess.Popen([sys.executable, str(script), str(tmp_path / "data")])
    try:
        sampler = ProcessIoSampler()
        found: list[ProcessRate] = []
        for _ in range(30):
            time.sleep(0.2)
            found = [rate for rate in sampler.sample(0.2, limit=1000).top if rate.pid == child.pid]
            if found:
                break
        assert found, "the writer never showed"
        assert found[0].label.endswith(" writer.py") and found[0].label.startswith("python")
    finally:
        child.kill()
        child.wait()


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
async def test_the_pane_shows_the_program_and_its_note_on_one_row(size: tuple[int, int]) -> None:
    """At 120x40 newuser7 saw `1 process not readable (permission` / `denied even to root: a ptrace policy` /
    `or another namespace)` in 40 columns, and `python[11858]` alone: the note is one row wherever the
    figures beside it leave room, and the process says its script."""
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=size) as pilot:
        screen: MonitorScreen = await open_monitor(pilot)
        screen._timer.pause()
        await app.workers.wait_for_complete()  # a poll in flight would land after the sample made here
        await pilot.pause()
        rates = ProcessRates([ProcessRate(11858, "python", 0.0, 2.1 * (1 << 20), "python3 etcd_sim.py")],
                             denied=1, as_root=True)
        sample = dataclasses.replace(screen.sample, processes=rates)
        screen.post_message(monitor_screen.MonitorTick(sample))
        await pilot.pause(0.3)
        lines = screen_lines(app)
        assert any(re.search(r"python3 etcd_sim.py\[11858\] +0 +2\.2( |$)", row) for row in lines), lines
        who, _, why = (rates.denied_note or "").partition(" (")  # who, and why, each whole on its row
        assert any(who in row for row in lines) and any(f"({why}" in row for row in lines), lines


def test_a_process_line_speaks_the_tables_unit() -> None:
    """newuser10 #11: the Who pane said `write 207.6M/s` (MiB) while the table's column said `wMB/s 247`
    (10^6 bytes): the process lines use the table's MB/s, with its digits."""
    from diskdoctor.app.text.monitor import mb_rate

    rates = ProcessRates([ProcessRate(28469, "dd", 0.0, 217.7e6), ProcessRate(9, "cp", 4096.0, 2.1e6)])
    first, second = process_lines(rates, live=True)
    assert first == "dd[28469] read 0 MB/s write 218 MB/s"
    assert second == "cp[9] read 4 kB/s write 2.1 MB/s"
    assert mb_rate(1_640e6) == "1,640 MB/s"
