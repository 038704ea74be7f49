"""NVMe trouble in the kernel log (`dmesg`): controller resets and "controller is down" lines."""

from __future__ import annotations

import re

from .facts import Fact
from .root import Root

KEY = "dmesg-nvme"
ARGV = ["dmesg"]
NVME_LINE = re.compile(r"\bnvme\d*\b", re.IGNORECASE)
TROUBLE = re.compile(r"controller is down|reset(ting)? controller|resetting|timeout, reset|"
                     r"Device not ready; aborting reset", re.IGNORECASE)
MAX_LINES = 200
MAX_KEPT_CHARS = 1 << 20
"""A capture keeps at most the last MiB of NVMe lines."""


def nvme_lines(text: str) -> str:
    """Only the kernel log lines about NVMe devices (what a capture keeps of `dmesg`: nothing else of the
    host's log travels)."""
    return "".join(line + "\n" for line in text.splitlines() if NVME_LINE.search(line))[-MAX_KEPT_CHARS:]


def read_nvme_trouble(root: Root) -> Fact[list[str]]:
    """The kernel log's NVMe reset / controller-down lines (newest last, at most MAX_LINES); unknown when
    the log cannot be read (dmesg_restrict without root, or a capture without it)."""
    output = root.run(KEY, ARGV)
    if output.text is None:
        return Fact(None, output.source, output.why_unknown)
    found = [line.strip() for line in nvme_lines(output.text).splitlines() if TROUBLE.search(line)]
    return Fact(found[-MAX_LINES:], output.source)
