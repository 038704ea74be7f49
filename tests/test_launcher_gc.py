"""The launcher imports the CLI with the cycle collector paused and then freezes what the imports made; a
command still runs with the collector on (a long `monitor` or `bench` collects its cycles as before)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import FIXTURES

CHECK = """
import gc, sys
from diskdoctor.app.launcher import main
sys.argv = ["diskdoctor", "devices", "--json", *sys.argv[1:]]
import diskdoctor.app.cli.main as cli
seen = {}
handler = cli.run_devices
def spy(args):
    seen.update(enabled=gc.isenabled(), frozen=gc.get_freeze_count())
    return handler(args)
cli.run_devices = spy
code = main()
sys.stderr.write(f"{seen['enabled']} {seen['frozen']} {code}")
"""


@pytest.mark.parametrize("sysroot", [["--sysroot", str(FIXTURES / "lab-ssd")],  # read without argparse
                                     [f"--sysroot={FIXTURES / 'lab-ssd'}"]])  # read by argparse
def test_a_command_runs_with_the_collector_on_and_the_imports_frozen(sysroot: list[str]) -> None:
    argv = [sys.executable, "-c", CHECK, *sysroot]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    enabled, frozen, code = done.stderr.split()
    assert (enabled, code) == ("True", "0"), done.stderr
    assert int(frozen) > 0  # what the start-up made: no pass walks it again
    assert json.loads(done.stdout)["devices"]
