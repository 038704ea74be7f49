"""Which host and tool produced a result or report: hostname, kernel, distribution, version, source."""

from __future__ import annotations

from dataclasses import dataclass

from diskdoctor.app.base.version import __version__
from diskdoctor.probes.host import Host
from diskdoctor.probes.host_text import visible
from diskdoctor.probes.os_release import read_distribution
from diskdoctor.probes.root import Root


def _text(value: object) -> str | None:
    """A string field of a stored document made safe (None stays None, anything else becomes text)."""
    return None if value is None else visible(str(value))


@dataclass(frozen=True)
class HostFingerprint:
    """The identity of the host a result describes; every string is already made visible."""

    hostname: str | None
    kernel: str | None
    distribution: str | None
    tool_version: str
    source: str
    """"live" for this host, or "capture NAME" for a --sysroot capture."""

    @property
    def live(self) -> bool:
        """Whether the facts were read from a running host (not a capture)."""
        return self.source == "live"

    def line(self) -> str:
        """One line for a header: "etcd-2 · Debian GNU/Linux 12 · kernel 6.1.0-26 · live"."""
        parts = [self.hostname or "unknown host", self.distribution or "unknown distribution",
                 f"kernel {self.kernel or '?'}", self.source, f"diskdoctor {self.tool_version}"]
        return " · ".join(parts)

    def to_json(self) -> dict[str, object]:
        """The `host` object of saved runs and JSON reports."""
        return {"hostname": self.hostname, "kernel": self.kernel, "distribution": self.distribution,
                "tool_version": self.tool_version, "source": self.source}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> HostFingerprint:
        """Inverse of `to_json`; strings from the file are made visible (a run file is untrusted)."""
        return cls(_text(data.get("hostname")), _text(data.get("kernel")), _text(data.get("distribution")),
                   _text(data.get("tool_version")) or "?", _text(data.get("source")) or "?")


def host_fingerprint(root: Root, host: Host) -> HostFingerprint:
    """The fingerprint of the host a Root reads (the Host snapshot already holds hostname and kernel)."""
    source = "live" if root.live else root.describe()
    return HostFingerprint(host.hostname, host.kernel, read_distribution(root).value, __version__, source)
