"""The run cut into consecutive sections per figure, collected from the intervals the engine streams, so a
verdict can see how much its percentile moved within the run (sectioning) and runs can be compared by their
samples, not by two numbers."""

from __future__ import annotations

from ..latency_histogram import LatencyHistogram
from .protocol import Interval
from .streams import SECTIONS, split_sections

KEPT_STREAMS = ("sync", "write")
"""The streams a verdict can judge: the durable call (or latency from due) and the write itself."""


def section_key(phase: str, stream: str, load: dict[str, object]) -> str:
    """"run/sync@50/s steady", "under_compaction/sync@500/s steady"; "run/write" without a load or in the
    closed loop (judged only where a run has no rate: bench interference --size, runs from before)."""
    rate = load.get("rate") if load else None
    if not isinstance(rate, (int, float)) or isinstance(rate, bool):
        return f"{phase}/{stream}"
    return f"{phase}/{stream}@{rate:g}/s {load.get('arrival') or 'steady'}"


class SectionLog:
    """Every interval histogram of the run itself (not its sub-jobs), per section key, in order."""

    def __init__(self) -> None:
        self.intervals: dict[str, list[LatencyHistogram]] = {}

    def add(self, event: Interval) -> None:
        """Keep the judged streams of one interval of the run itself."""
        if event.job:
            return
        for stream in KEPT_STREAMS:
            histogram = event.streams.get(stream)
            key = section_key(event.phase, stream, event.load)
            if histogram is not None and histogram.count:
                self.intervals.setdefault(key, []).append(histogram)

    def sections(self, count: int = SECTIONS) -> dict[str, list[LatencyHistogram]]:
        """Each key's run cut into up to `count` consecutive parts of about equal samples."""
        return {key: split_sections(parts, count) for key, parts in self.intervals.items()}
