"""Run `fstrim -v MOUNTPOINT` (the one confirmed, host-changing action) and read what it reports."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass

from .root import host_command_env

POLL_S = 0.1
REPORTED = re.compile(r"\((\d+) bytes\) trimmed")
BYTES_NOTE = ("fstrim -v reports the bytes passed down for potential discard, not what the device "
              "discarded; the same number can repeat on every run")


DISCARD_FIELDS = slice(11, 15)
"""/sys/block/X/stat fields 12-15: discards completed, merged, sectors, milliseconds (sysfs-block ABI)."""
SECTOR = 512


@dataclass(frozen=True, slots=True)
class DiscardCounters:
    """Discard requests a block device completed, from its stat file."""

    requests: int
    bytes: int
    busy_ms: int


def read_discard_counters(stat_path: str) -> DiscardCounters | None:
    """Discard counters from a /sys/block/X/stat file; None on kernels without them (before 4.19)."""
    try:
        with open(stat_path) as handle:
            fields = handle.read().split()
    except OSError:
        return None
    if len(fields) < DISCARD_FIELDS.stop:
        return None
    ios, _merged, sectors, ms = (int(f) for f in fields[DISCARD_FIELDS])
    return DiscardCounters(ios, sectors * SECTOR, ms)


def counters_delta(before: dict[str, DiscardCounters | None],
                   after: dict[str, DiscardCounters | None]) -> dict[str, DiscardCounters]:
    """Per-device difference of two readings (devices missing in either are left out)."""
    delta = {}
    for name, old in before.items():
        new = after.get(name)
        if old is not None and new is not None:
            delta[name] = DiscardCounters(new.requests - old.requests, new.bytes - old.bytes,
                                          new.busy_ms - old.busy_ms)
    return delta


@dataclass(frozen=True, slots=True)
class FstrimResult:
    """What one fstrim run did: ok with bytes reported, or a one-line reason."""

    ok: bool
    mountpoint: str
    elapsed_s: float
    reported_bytes: int | None
    message: str
    kind: str
    """ok, unsupported, not-root, missing, interrupted or failed."""
    reached: dict[str, DiscardCounters] | None = None
    """Discards the bottom devices completed while fstrim ran (what really reached them)."""


def classify_failure(stderr: str, mountpoint: str) -> tuple[str, str]:
    """A (kind, one-line message) for fstrim's error output."""
    text = stderr.strip().splitlines()[-1] if stderr.strip() else "fstrim failed"
    lowered = text.lower()
    if "not supported" in lowered:
        return "unsupported", f"{mountpoint}: the device does not accept discard (fstrim: not supported)"
    if "not permitted" in lowered or "permission denied" in lowered:
        return "not-root", f"{mountpoint}: fstrim needs root (run diskdoctor as root)"
    if "no such file" in lowered:
        return "missing", f"{mountpoint}: no longer exists"
    return "failed", text.removeprefix("fstrim: ")


def run_fstrim(mountpoint: str, on_tick: Callable[[float], None] | None = None,
               watch: tuple[str, ...] = ()) -> FstrimResult:
    """Run fstrim on one mountpoint, calling `on_tick(elapsed)` while it runs; fstrim errors are results.

    `watch` names block devices (e.g. the disks under the filesystem) whose discard counters are
    compared before and after, to show what really reached them."""
    binary = shutil.which("fstrim") or next((p for p in ("/sbin/fstrim", "/usr/sbin/fstrim")
                                             if os.path.exists(p)), None)
    if binary is None:
        return FstrimResult(False, mountpoint, 0.0, None, "fstrim is not installed (package util-linux)",
                            "failed")
    stats = {name: f"/sys/block/{name}/stat" for name in watch}
    before = {name: read_discard_counters(path) for name, path in stats.items()}
    started = time.monotonic()
    process = subprocess.Popen([binary, "--verbose", mountpoint], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                               env=host_command_env())
    try:
        while process.poll() is None:
            if on_tick:
                on_tick(time.monotonic() - started)
            time.sleep(POLL_S)
    except BaseException:
        process.send_signal(signal.SIGINT)
        process.wait()
        raise
    stdout, stderr = process.communicate()
    elapsed = time.monotonic() - started
    if process.returncode != 0:
        kind, message = classify_failure(stderr, mountpoint)
        return FstrimResult(False, mountpoint, elapsed, None, message, kind)
    match = REPORTED.search(stdout)
    reported = int(match.group(1)) if match else None
    reached = counters_delta(before, {name: read_discard_counters(path) for name, path in stats.items()})
    return FstrimResult(True, mountpoint, elapsed, reported, stdout.strip() or "done", "ok",
                        reached if watch else None)
