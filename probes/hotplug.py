"""Block-device hotplug events on the live host (pyudev's netlink monitor), so the monitor and the stack
refresh when a device appears or vanishes. Without udev the kernel's own uevents are used; where netlink
is not available at all, nothing is watched and the monitor's per-tick re-read of sysfs still notices."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from .root import Root

UDEV_CONTROL = "run/udev/control"
"""udevd's control socket: present when udevd runs and re-broadcasts events with its properties."""


class HotplugWatcher:
    """Calls `on_change(action, kname)` from a background thread for every block add/remove/change."""

    def __init__(self, observer: object, source: str) -> None:
        self._observer = observer
        self.source = source
        """"udev" (udevd's processed events) or "kernel" (raw uevents: a container without udevd)."""

    def stop(self) -> None:
        """Stop watching (idempotent)."""
        with contextlib.suppress(Exception):
            self._observer.stop()  # type: ignore[attr-defined]


def watch_block_devices(root: Root,
                        on_change: Callable[[str, str], None]) -> tuple[HotplugWatcher | None, str]:
    """Start watching block devices: (watcher, "how") or (None, "why not") on a capture or without netlink."""
    if not root.live:
        return None, "hotplug events need the live host"
    try:
        import pyudev
    except ImportError as err:  # libudev missing: the sysfs re-read is enough
        return None, f"pyudev unavailable ({err}): devices are re-read from sysfs each tick"
    source = "udev" if root.exists(UDEV_CONTROL) else "kernel"
    try:
        monitor = pyudev.Monitor.from_netlink(pyudev.Context(), source=source)
        monitor.filter_by("block")

        def event(device: object) -> None:
            action = getattr(device, "action", None) or "change"
            on_change(str(action), str(getattr(device, "sys_name", "") or ""))

        observer = pyudev.MonitorObserver(monitor, callback=event, name="diskdoctor-hotplug", daemon=True)
        observer.start()
    except Exception as err:  # no netlink in this sandbox, libudev too old...
        return None, f"hotplug events unavailable ({err}): devices are re-read from sysfs each tick"
    return HotplugWatcher(observer, source), f"hotplug events from {source} (pyudev)"
