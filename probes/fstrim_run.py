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

from .child_guard import guarded_argv
from .diskstats import DiskCounters, disk_delta, read_counters
from .host_text import visible
from .root import live_root

POLL_S = 0.1
REPORTED = re.compile(r"\((\d+) bytes\) trimmed")
BYTES_NOTE = ("fstrim -v reports the bytes passed down for potential discard, not what the device "
              "discarded; the same number can repeat on every run")


@dataclass(frozen=True, slots=True)
class DiscardCounters:
    """Discard requests a block device completed (from the diskstats model's delta of its counters)."""

    requests: int
    bytes: int
    busy_ms: int


def read_discard_counters(knames: tuple[str, ...]) -> dict[str, DiskCounters]:
    """The watched devices' counters, read through the live Root by the one diskstats model."""
    return read_counters(live_root(), knames)


def counters_delta(before: dict[str, DiskCounters],
                   after: dict[str, DiskCounters]) -> dict[str, DiscardCounters]:
    """Discards per device between two readings (devices missing in either, or kernels before 4.19
    without discard counters, are left out)."""
    delta = {}
    for name in before:
        if name not in after:
            continue
        change = disk_delta(before[name], after[name], 0.0)
        if change.discards is not None:
            delta[name] = DiscardCounters(change.discards, change.discard_bytes or 0, change.discard_ms or 0)
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
    """ok, unsupported, not-root, missing, changed, interrupted or failed."""
    reached: dict[str, DiscardCounters] | None = None
    """Discards the bottom devices completed while fstrim ran (what really reached them)."""


@dataclass
class HeldMount:
    """The confirmed filesystem, held open from before the prompt until fstrim has run on it.

    fstrim re-opens its path: a filesystem unmounted while the user read the prompt would let it trim
    whatever lies below (often /). Holding the mount's root directory and trimming through that very
    descriptor makes "what was confirmed" and "what is trimmed" the same object."""

    mountpoint: str
    fd: int
    mount_id: int | None

    def close(self) -> None:
        """Let go of the filesystem (safe to call twice)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _mount_id(fd: int) -> int | None:
    """The mount ID of an open file (/proc/self/fdinfo's mnt_id, Linux 3.15+), or None."""
    try:
        with open(f"/proc/self/fdinfo/{fd}") as handle:
            for line in handle:
                if line.startswith("mnt_id:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def hold_mount(mountpoint: str) -> HeldMount:
    """Open the mountpoint's root directory and remember its mount ID (raises OSError when it cannot)."""
    fd = os.open(mountpoint, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    return HeldMount(mountpoint, fd, _mount_id(fd))


def changed_since_held(held: HeldMount) -> str | None:
    """Why the mountpoint is no longer the held filesystem (unmounted, replaced), or None if it is."""
    changed = (f"{visible(held.mountpoint)} is no longer the filesystem you confirmed (unmounted or replaced "
               "while waiting); nothing was trimmed")
    try:
        fresh = os.open(held.mountpoint, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return changed
    try:
        same_device = os.fstat(fresh).st_dev == os.fstat(held.fd).st_dev
        same_mount = _mount_id(fresh) == held.mount_id
    finally:
        os.close(fresh)
    return None if same_device and same_mount else changed


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
               watch: tuple[str, ...] = (), held: HeldMount | None = None) -> FstrimResult:
    """Run fstrim on one mountpoint, calling `on_tick(elapsed)` while it runs; fstrim errors are results.

    `watch` names block devices (e.g. the disks under the filesystem) whose discard counters are
    compared before and after, to show what really reached them. With `held`, fstrim trims the held
    filesystem through its descriptor, after checking the mountpoint still shows it."""
    binary = shutil.which("fstrim") or next((p for p in ("/sbin/fstrim", "/usr/sbin/fstrim")
                                             if os.path.exists(p)), None)
    if binary is None:
        return FstrimResult(False, mountpoint, 0.0, None, "fstrim is not installed (package util-linux)",
                            "failed")
    target, keep = mountpoint, ()
    if held is not None:
        why = changed_since_held(held)
        if why is not None:
            return FstrimResult(False, mountpoint, 0.0, None, why, "changed")
        target, keep = f"/proc/self/fd/{held.fd}", (held.fd,)
    before = read_discard_counters(watch)
    started = time.monotonic()
    process = subprocess.Popen(guarded_argv([binary, "--verbose", target], keep_fds=keep),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                               text=True, pass_fds=keep)  # fstrim stops if this process dies
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
    reached = counters_delta(before, read_discard_counters(watch))
    return FstrimResult(True, mountpoint, elapsed, reported, stdout.strip() or "done", "ok",
                        reached if watch else None)
