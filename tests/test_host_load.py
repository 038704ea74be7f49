"""The host's contention during a run counts every other process, also those that came and went."""

from __future__ import annotations

import os
import subprocess
import sys

from diskdoctor.probes.host_load import HostLoadSampler

SPIN = "import time\nwhile time.process_time() < 0.8: pass\n"
"""Busy for 0.8 s of CPU, however long a loaded host takes to give it that (a wall-clock spin got 0.2 s)."""


def test_a_process_that_came_and_went_during_the_run_counts_as_contention() -> None:
    sampler = HostLoadSampler()
    subprocess.run([sys.executable, "-c", SPIN], check=True)  # 0.8 s of CPU, then gone
    load = sampler.finish()
    # the spinner is this process's child, waited: it counts as the engine, not as others
    assert load.engine_cpu_s >= 0.5
    sampler = HostLoadSampler()
    spinner = subprocess.Popen([sys.executable, "-c", SPIN], start_new_session=True)
    try:
        os.waitid(os.P_PID, spinner.pid, os.WEXITED | os.WNOWAIT)  # it has exited; not reaped (WNOWAIT)
        load = sampler.finish()  # the spinner was born and exited during the run, and is not waited yet
    finally:
        spinner.wait()
    assert load.other_cpu * load.seconds * load.cpus >= 0.5, load
    assert "other processes used" in (load.busy_reason or "") or load.cpus > 2
