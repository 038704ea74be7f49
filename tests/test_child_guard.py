"""fio and fstrim end with diskdoctor, even when it is SIGKILLed: fio, its jobs and its guard are gone
within seconds and fio's scratch directory with them, from the CLI (`bench wal --fio`) and from the
TUI, which starts fio from a worker thread. The guard reports the program's own ending."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from diskdoctor.probes.child_guard import guarded_argv
from diskdoctor.probes.wal_target import make_scratch
from support.wal_support import tmpfs_dir

__all__ = ["tmpfs_dir"]
needs_fio = pytest.mark.skipif(not shutil.which("fio"), reason="fio is not installed")
TESTS = Path(__file__).parent
ENDS_WITHIN_S = 10.0
"""Generous: the guard stops fio at once (a pidfd wakes it); an orphaned fio would run on for a minute."""


def processes_in(directory: str) -> list[str]:
    """Live processes (not zombies) working in `directory` or naming it in their command line (fio runs
    inside its scratch directory; its guard names it), as "PID argv0"."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[-1].split()[0]
            cwd = os.readlink(f"/proc/{entry}/cwd")
        except OSError:
            continue
        if state != "Z" and (cwd.startswith(directory + "/") or any(directory.encode() in a for a in argv)):
            found.append(f"{entry} {argv[0].decode(errors='replace')}")
    return found


def fio_running_in(directory: str) -> bool:
    return any(p.split(" ", 1)[1].endswith("fio") for p in processes_in(directory)) and \
        bool(os.listdir(directory))


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {timeout:g} s for {what}")
        time.sleep(0.05)


def kill_leftovers(directory: str) -> None:
    """After a failed run: no fio may write on for a minute."""
    for process in processes_in(directory):
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(process.split()[0]), signal.SIGKILL)


def assert_all_gone_after_sigkill(main: subprocess.Popen[bytes], directory: str) -> None:
    """SIGKILL `main` once fio writes in `directory`; fio, its guard and its scratch must go."""
    try:
        wait_for(lambda: fio_running_in(directory), 90, "fio to start")
    finally:
        main.kill()
        main.wait()
    try:
        wait_for(lambda: not processes_in(directory), ENDS_WITHIN_S,
                 f"fio to end with diskdoctor: {processes_in(directory)}")
        wait_for(lambda: os.listdir(directory) == [], ENDS_WITHIN_S,
                 f"fio's scratch directory to go: {os.listdir(directory)}")
    finally:
        kill_leftovers(directory)


@needs_fio
def test_sigkill_of_the_cli_during_fio(tmpfs_dir: str) -> None:
    main = subprocess.Popen([sys.executable, "-m", "diskdoctor.app", "bench", "wal", "--dir", tmpfs_dir,
                             "--bs", "4k", "--duration", "2", "--fio", "--no-save"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert_all_gone_after_sigkill(main, tmpfs_dir)


TUI_WITH_FIO = """
import asyncio, sys
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.probes.root import live_root
from diskdoctor.probes.wal_params import WalParams
from test_bench_screen import SIZE, open_bench

async def main():
    app = DiskDoctorApp(live_root())
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_bench(app, pilot)
        screen.fio_run.start("wal", WalParams(profile="custom", bs=4096, size=4 << 20, duration_s=60.0),
                             sys.argv[1])
        await asyncio.sleep(120)

asyncio.run(main())
"""
"""The Benchmark screen's fio side by side (its worker thread starts fio), a minute long."""


@needs_fio
def test_sigkill_of_the_tui_during_fio(tmpfs_dir: str) -> None:
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, PYTHONPATH=path)
    main = subprocess.Popen([sys.executable, "-c", textwrap.dedent(TUI_WITH_FIO), tmpfs_dir], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert_all_gone_after_sigkill(main, tmpfs_dir)


def run_guarded(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(guarded_argv(command), capture_output=True, text=True, check=False, timeout=60,
                          **kwargs)  # type: ignore[call-overload]


def test_the_guard_ends_as_the_program_ended() -> None:
    assert run_guarded(["sh", "-c", "echo out; echo err >&2; exit 3"]).returncode == 3
    done = run_guarded(["sh", "-c", "echo out; echo err >&2; exit 3"])
    assert (done.stdout, done.stderr) == ("out\n", "err\n")  # the program's own streams
    assert run_guarded(["sh", "-c", "kill -TERM $$"]).returncode == -signal.SIGTERM
    missing = run_guarded(["/nonexistent/fio"])
    assert missing.returncode == 127 and missing.stderr.startswith("cannot run /nonexistent/fio: ")


def test_stopping_the_guard_stops_the_programs_whole_group_and_removes_the_scratch(tmpfs_dir: str) -> None:
    scratch = make_scratch(tmpfs_dir)
    Path(scratch, "data").write_text("x")
    marker = os.path.join(scratch, "marker")
    # a program that forks a worker (as fio does) and ignores nothing: both must go
    script = f"sleep 300 & echo started > {marker}; wait"
    guard = subprocess.Popen(guarded_argv(["sh", "-c", script], scratch=scratch), stdout=subprocess.DEVNULL)
    try:
        wait_for(lambda: os.path.exists(marker), 30, "the program to start")
        guard.terminate()
        assert guard.wait(timeout=30) == -signal.SIGTERM
    finally:
        kill_leftovers(scratch)
    assert not os.path.exists(scratch)
    assert not processes_in(scratch)


@needs_fio
def test_children_never_import_code_from_the_working_directory(tmp_path: Path, tmpfs_dir: str) -> None:
    """Root running diskdoctor in a folder others can write: the engine and fio's guard start without
    that folder on their import path, so a planted `diskdoctor/` there never runs."""
    script = Path(sys.executable).parent / "diskdoctor"
    if not script.exists():
        pytest.skip("no diskdoctor console script beside this interpreter")
    planted = tmp_path / "diskdoctor"
    planted.mkdir()
    marker = tmp_path / "ran"
    (planted / "__init__.py").write_text(f"open({str(marker)!r}, 'w').close()\nraise SystemExit(9)\n")
    done = subprocess.run([str(script), "bench", "wal", "--dir", tmpfs_dir, "--size", "128k", "--bs", "4k",
                           "--fio", "--no-save"], cwd=tmp_path, capture_output=True, text=True, check=False,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode in (0, 3), done.stderr  # 32 writes cannot bound a p99: exit 3, INCONCLUSIVE
    assert not marker.exists()
