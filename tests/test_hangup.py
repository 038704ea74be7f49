"""Closing the terminal under the TUI ends it within a second and leaves nothing in /tmp."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES
from support.hangup_support import hang_up, tmux_missing

RUNS = 4


@pytest.mark.live
def test_terminal_hang_up_ends_the_tui_cleanly(tmp_path: Path) -> None:
    why = tmux_missing()
    if why:
        pytest.skip(why)
    private = tmp_path / "tmp"
    private.mkdir()
    sysroot = shutil.copytree(FIXTURES / "etcd-raid0-lvm-luks", tmp_path / "hup-venv-capture", symlinks=True)
    survivors, leftovers = hang_up([sys.executable, "-m", "diskdoctor.app", "--sysroot", str(sysroot)],
                                   marker=str(sysroot), runs=RUNS, private_tmp=str(private))
    assert not survivors
    assert not leftovers
