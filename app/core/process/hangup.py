"""A vanished terminal (SSH drop, closed tmux) ends the process within a second and leaves nothing behind.

On hang-up every process of the terminal's foreground group gets SIGHUP at once. The TUI exits
gracefully when it can; a watchdog finishes the job when the graceful path stalls on the dead terminal
(Textual's shutdown writes to it, a second SIGHUP can interrupt that half way). The static binary's
staticx bootloader forwards only SIGINT and SIGTERM, so SIGHUP kills it before it removes its
/tmp/staticx-* extraction: this process removes that folder itself when the bootloader is gone."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable

from diskdoctor.probes.scratch import proc_stat, remove_tree

EXIT_HANGUP = 128 + signal.SIGHUP
GRACE_S = 0.5
STATICX_DIR_ENV = "STATICX_BUNDLE_DIR"
STATICX_PREFIX = "staticx-"
STALE_AFTER_S = 60.0

_cleanups: dict[int, Callable[[], None]] = {}
_bootloader: tuple[int, int | None] | None = None
_hung_up = False


def note_signal(signum: int) -> None:
    """Remember a hang-up: the bootloader got the same SIGHUP and dies (maybe a moment from now)
    without removing its folder, so this process must."""
    global _hung_up
    if signum == signal.SIGHUP:
        _hung_up = True


def on_emergency_exit(action: Callable[[], None]) -> int:
    """Run `action` if the process has to end without unwinding (returns a handle for `forget`)."""
    handle = id(action)
    _cleanups[handle] = action
    return handle


def forget(handle: int) -> None:
    """The cleanup ran the normal way; drop it."""
    _cleanups.pop(handle, None)


def run_emergency_cleanups() -> None:
    """Run every registered cleanup once, then the staticx folder if its bootloader is gone."""
    for handle in list(_cleanups):
        action = _cleanups.pop(handle, None)
        if action is not None:
            with contextlib.suppress(Exception):
                action()
    remove_orphaned_bundle()


def hard_exit(code: int = EXIT_HANGUP) -> None:
    """Clean up what must not be left behind and end now, whatever the threads are doing."""
    run_emergency_cleanups()
    os._exit(code)


def start_watchdog(code: int = EXIT_HANGUP, grace_s: float = GRACE_S) -> None:
    """End the process `grace_s` from now unless it has ended by itself."""
    def expire() -> None:
        time.sleep(grace_s)
        hard_exit(code)

    threading.Thread(target=expire, name="hangup-watchdog", daemon=True).start()


def remember_bootloader() -> None:
    """Under staticx, note the bootloader (our grandparent: staticx → PyInstaller parent → us)."""
    global _bootloader
    if not os.environ.get(STATICX_DIR_ENV):
        return
    parent = proc_stat(os.getppid())
    if parent is None:
        return
    grandparent = proc_stat(parent[0])
    _bootloader = (parent[0], grandparent[1] if grandparent else None)


def remove_orphaned_bundle() -> None:
    """Remove our staticx extraction when the bootloader that would remove it has died (or will: after
    a hang-up, which it does not handle)."""
    bundle = os.environ.get(STATICX_DIR_ENV, "")
    if _bootloader is None or not os.path.basename(bundle).startswith(STATICX_PREFIX):
        return
    pid, started = _bootloader
    alive = proc_stat(pid)
    if _hung_up or alive is None or (started is not None and alive[1] != started):
        remove_tree(bundle)


def _in_use(folder: str) -> bool:
    """Whether a running process executes from `folder` (a live staticx app runs its program there)."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{entry}/exe").startswith(folder + "/"):
                    return True
    return False


def sweep_stale_bundles(tmp: str = "/tmp") -> list[str]:
    """Remove /tmp/staticx-* folders of earlier diskdoctor runs that were killed (the same program
    inside), older than a minute and used by no running process."""
    own = os.environ.get(STATICX_DIR_ENV, "")
    prog = sys.executable
    if not own or not prog.startswith(own + "/"):
        return []
    try:
        size = os.stat(prog).st_size
        names = [n for n in os.listdir(tmp) if n.startswith(STATICX_PREFIX)]
    except OSError:
        return []
    removed = []
    for name in names:
        folder = os.path.join(tmp, name)
        try:
            info = os.lstat(folder)
            same = os.stat(os.path.join(folder, os.path.basename(prog))).st_size == size
        except OSError:
            continue
        if folder == own or not same or info.st_uid != os.getuid() or \
                time.time() - info.st_mtime < STALE_AFTER_S or _in_use(folder):
            continue
        remove_tree(folder)
        removed.append(folder)
    return removed
