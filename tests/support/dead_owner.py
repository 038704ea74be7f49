"""An owner tag of a process that has exited: what a stale scratch directory of a killed run carries."""

from __future__ import annotations

import subprocess

from diskdoctor.probes.scratch import owner_tag


def dead_tag() -> str:
    """An owner tag ("PID-START-") of a process that has exited."""
    dead = subprocess.Popen(["sleep", "30"])
    tag = owner_tag(dead.pid)
    dead.kill()
    dead.wait()
    return tag
