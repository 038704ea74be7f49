"""The host read on a thread started before Textual is imported, so on a small host the read and Textual's
own start overlap and the Stack screen's rows are in its very first frame.

The TUI's first rows wait for two things: Textual's imports and start (~0.3 s here) and reading the host
(0.05 s at 10 devices, ~1 s of CPU at 5,000). A short read runs while Textual starts (its syscalls and the
blkid child use the second core). A long one is not started early: two busy threads share one GIL, and at
5,000 devices the overlap made the first rows later, not sooner (paired runs, docs/figures.md "Fifth pass").
This module imports no textual, so starting it costs nothing of the overlap.
"""

from __future__ import annotations

import gc
import os
import sys
import threading

from diskdoctor.probes import host as host_probe
from diskdoctor.probes.block_names import SYS_BLOCK
from diskdoctor.probes.blockdev import SPLIT_FROM_DEVICES
from diskdoctor.probes.host import Host
from diskdoctor.probes.root import Root

EARLY_MAX_ENTRIES = 500
"""Read early only up to this many entries in /sys/class/block (a read of ~0.1 s of CPU here, shorter than
Textual's start); a bigger host is read by the App's worker once Textual is up, as before."""
SHARED_SWITCH_S = 0.0005
"""The GIL's switch interval while the read and Textual's start share it (CPython's is 5 ms): each thread
gives up the GIL at every file it opens and then waits up to the interval to get it back from the other,
busy one. Measured where the overlap is longest (5,000 devices, before the early read was kept to small
hosts; busy 2-core host): 0.5 ms brought the first rows 0.3-0.7 s sooner in 3 of 4 alternating pairs
(0.1 s later in one)."""


_frozen = False
"""Whether a first read has frozen what existed after it (once per process)."""


def read_first_host(root: Root, *, read_here: bool = True) -> Host:
    """The first read of the host, with the cycle collector paused, then what exists moved to its
    permanent generation (`gc.freeze`): the read and Textual's imports make objects that all stay (modules,
    classes, the Host), and the collector's passes over them cost 0.1-0.4 s of the first rows at 5,000
    devices, during the read and again in the first full pass after it. Reference counting still frees a
    replaced Host (it holds no cycles). Only one freeze here per process (the launcher's own freeze of the
    CLI's imports does not count): a process that makes many apps (the tests) would otherwise freeze each
    earlier app's uncollected cycles for good. Without `read_here` a big host's devices are all read in
    child processes (`read_host`'s `read_here`)."""
    global _frozen
    collecting = gc.isenabled()
    gc.disable()
    try:
        if read_here:
            return host_probe.read_host(root)  # looked up at each call, as the worker's own read
        return host_probe.read_host(root, read_here=False)
    finally:
        if collecting:
            if not _frozen:
                _frozen = True
                gc.freeze()
            gc.enable()


_paused = False
"""Whether `start_early_read` paused the cycle collector (until the first frame: `resume_collector`)."""


def start_early_read(root: Root) -> EarlyHost | None:
    """The host read started now when the host is small (see EARLY_MAX_ENTRIES) or its read is split across
    processes (then every part is read by a child, so this process's thread only gathers them while
    Textual starts: `read_in_children`), else None. With a small host's read, the
    cycle collector is paused until the App's first frame (`resume_collector`): Textual's imports and start
    make ~130 collections' worth of objects that all stay (its modules, classes, the first screen); paused,
    a 10-device first paint comes ~13 ms sooner (paired runs, docs/figures.md "Twelfth pass"; the launcher
    pauses it only over the CLI's imports). A big host's read pauses it itself (`read_first_host`), so it
    is not paused here."""
    global _paused
    entries = root.listdir("sys/class/block")
    if entries is not None and len(entries) > EARLY_MAX_ENTRIES:
        return EarlyHost(root, read_here=False) if read_in_children(root) else None
    if gc.isenabled():
        gc.disable()
        _paused = True
    return EarlyHost(root)


def read_in_children(root: Root) -> bool:
    """Whether `root`'s devices would be read in several processes (a big capture or host on a machine with
    more than one usable CPU), so that all of the read can go to child processes and Textual's start runs
    beside them: at 5,000 devices the first rows came 0.3-0.6 s sooner in paired runs on a loaded 2-core
    host (docs/figures.md, "Thirteenth pass"). A serial read here would share the GIL with Textual's start."""
    from diskdoctor.probes.split_read import usable_cpus  # as the split read itself: imported when used

    if root.recorded is not None or not hasattr(os, "fork") or usable_cpus() < 2:
        return False
    disks = root.listdir(SYS_BLOCK)
    return disks is not None and len(disks) >= SPLIT_FROM_DEVICES


def resume_collector() -> None:
    """After the first frame: what the start made is moved to the permanent generation (once per process, as
    `read_first_host` does) and the collector runs again; nothing when `start_early_read` did not pause it."""
    global _paused, _frozen
    if not _paused:
        return
    _paused = False
    if not _frozen:
        _frozen = True
        gc.freeze()
    gc.enable()


class EarlyHost:
    """One read of `root`'s Host on a daemon thread; `take` gives it (or raises what the read raised)."""

    def __init__(self, root: Root, *, read_here: bool = True) -> None:
        self.root = root
        self.read_here = read_here
        self._host: Host | None = None
        self._error: Exception | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._read, name="diskdoctor read the host", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        """The first read (`read_first_host`), the GIL handed over every SHARED_SWITCH_S meanwhile."""
        interval = sys.getswitchinterval()
        sys.setswitchinterval(SHARED_SWITCH_S)
        try:
            self._host = read_first_host(self.root, read_here=self.read_here)
        except Exception as err:  # handed to whoever takes the host: a probe bug must not kill the app
            self._error = err
        finally:
            sys.setswitchinterval(interval)
            self._done.set()

    def done(self) -> bool:
        """Whether the read has finished (the host or its error is ready)."""
        return self._done.is_set()

    def take(self, timeout: float | None = None) -> Host | None:
        """The Host, waiting up to `timeout` seconds for it (None when it is not in by then); raises the
        read's error."""
        if not self._done.wait(timeout):
            return None
        if self._error is not None:
            raise self._error
        return self._host
