"""Close the terminal under a running TUI (tmux kill-session, as an SSH drop does) and look for what
is left: processes still running a second later, and extraction folders in /tmp."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import time
from pathlib import Path

SETTLE_S = 20.0
EXIT_WITHIN_S = 1.0


def _pids_with(marker: str) -> list[int]:
    """Processes whose command line contains `marker`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().decode(errors="replace")
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[-1].split()[0]
        except OSError:
            continue
        if marker in cmdline and state != "Z":
            found.append(int(entry))
    return found


def tmp_leftovers(private_tmp: str) -> set[str]:
    """Extraction and scratch folders: staticx's in /tmp (it ignores TMPDIR), and everything in the
    runs' private TMPDIR (PyInstaller's _MEI*, diskdoctor-sysroot-*), so other programs' runs at the
    same time do not count."""
    staticx = {n for n in os.listdir("/tmp") if n.startswith("staticx-")}
    return staticx | set(os.listdir(private_tmp))


def hang_up(argv: list[str], marker: str, runs: int, private_tmp: str) -> tuple[list[str], set[str]]:
    """Run `argv` in a tmux terminal `runs` times, kill the terminal once the first screen is up;
    returns (survivors described, new /tmp leftovers)."""
    socket = f"dd-hup-{os.getpid()}"
    tmux = ["tmux", "-L", socket]
    before = tmp_leftovers(private_tmp)
    survivors: list[str] = []
    try:
        for run in range(runs):
            session = f"s{run}"
            subprocess.run([*tmux, "new-session", "-d", "-s", session, "-x", "100", "-y", "30",
                            shlex.join(["env", f"TMPDIR={private_tmp}", *argv])], check=True)
            deadline = time.monotonic() + SETTLE_S
            while time.monotonic() < deadline:
                screen = subprocess.run([*tmux, "capture-pane", "-p", "-t", session], capture_output=True,
                                        text=True, check=False).stdout
                if "Storage stack" in screen:
                    break
                time.sleep(0.2)
            else:
                survivors.append(f"run {run}: the first screen never appeared")
            pids = _pids_with(marker)
            subprocess.run([*tmux, "kill-session", "-t", session], check=False)
            time.sleep(EXIT_WITHIN_S)
            alive = [pid for pid in pids if pid in _pids_with(marker)]
            if alive:
                survivors.append(f"run {run}: {len(alive)} processes still running")
                for pid in alive:
                    os.kill(pid, 9)
        time.sleep(0.5)
    finally:
        subprocess.run([*tmux, "kill-server"], check=False, capture_output=True)
    return survivors, tmp_leftovers(private_tmp) - before


def tmux_missing() -> str | None:
    """Why the hang-up test cannot run here, or None."""
    return None if shutil.which("tmux") else "tmux is not installed (apt-get install tmux)"
