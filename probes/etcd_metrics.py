"""etcd's disk histograms from its Prometheus /metrics text (a URL or a saved file), with percentiles
computed from the cumulative buckets the way Prometheus's histogram_quantile does."""

from __future__ import annotations

import itertools
import math
import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

from .app_processes import etcd_metrics_locations
from .host_text import visible
from .root import Root

COMMIT = "etcd_disk_backend_commit_duration_seconds"
WAL_FSYNC = "etcd_disk_wal_fsync_duration_seconds"
NAMES = (COMMIT, WAL_FSYNC)
MAX_BYTES = 16 * 1024 * 1024
FETCH_TIMEOUT_S = 10.0
DISCOVERED_TIMEOUT_S = 2.0
"""A URL found on etcd's command line (not asked for) gets a short wait: advise must not hang on it."""
SAMPLE = re.compile(r"^([A-Za-z_:][A-Za-z0-9_:]*)(\{[^}]*\})?\s+(\S+)")
LE_LABEL = re.compile(r'\ble="([^"]*)"')


class MetricsError(Exception):
    """The metrics could not be read or hold no etcd disk histogram (the message is one line)."""


@dataclass(frozen=True)
class Histogram:
    """One cumulative Prometheus histogram: (upper bound in seconds, observations <= it), +Inf last."""

    name: str
    buckets: tuple[tuple[float, float], ...]
    total: float
    """Observations since etcd started (the +Inf bucket)."""

    def quantile(self, q: float) -> float | None:
        """The q-quantile in seconds, interpolated linearly inside its bucket (histogram_quantile); the
        highest finite bound when it falls in the +Inf bucket; None without observations."""
        if self.total <= 0 or not self.buckets:
            return None
        rank, lower, below = q * self.total, 0.0, 0.0
        for upper, count in self.buckets:
            if count >= rank:
                if math.isinf(upper):
                    return lower
                share = (rank - below) / (count - below) if count > below else 1.0
                return lower + (upper - lower) * share
            lower, below = upper, count
        return lower


@dataclass(frozen=True)
class EtcdMetrics:
    """The disk histograms found in one metrics text, and where it was read."""

    source: str
    histograms: dict[str, Histogram]


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return None if math.isnan(value) else value


def parse_metrics(text: str, source: str) -> EtcdMetrics:
    """The etcd disk histograms of a Prometheus text exposition (bucket series of the same `le` are
    summed, as `sum by (le)` would); MetricsError when there is none."""
    buckets: dict[str, dict[float, float]] = {}
    for line in text.splitlines():
        match = SAMPLE.match(line.strip())
        if match is None or not match.group(1).endswith("_bucket"):
            continue
        name = match.group(1).removesuffix("_bucket")
        le = LE_LABEL.search(match.group(2) or "")
        bound, value = _number(le.group(1)) if le else None, _number(match.group(3))
        if name not in NAMES or bound is None or value is None:
            continue
        series = buckets.setdefault(name, {})
        series[bound] = series.get(bound, 0.0) + value
    histograms = {}
    for name, series in buckets.items():
        ordered = tuple(sorted(series.items()))
        if any(later < earlier for (_, earlier), (_, later) in itertools.pairwise(ordered)):
            raise MetricsError(f"{source}: the {name} buckets decrease; Prometheus buckets count "
                               "cumulatively, so this is not a histogram to judge")
        if ordered and math.isinf(ordered[-1][0]):
            histograms[name] = Histogram(name, ordered, ordered[-1][1])
    if not histograms:
        raise MetricsError(f"{source}: no {COMMIT} or {WAL_FSYNC} histogram (with a +Inf bucket) in it; "
                           "is it etcd's /metrics?")
    return EtcdMetrics(source, histograms)


def _fetch(url: str, timeout: float) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.read(MAX_BYTES + 1)
    except (urllib.error.URLError, OSError, ValueError) as err:
        reason = getattr(err, "reason", None) or err
        raise MetricsError(f"cannot read {visible(url)}: {visible(str(reason))[:160]} (with client "
                           "certificates, save it first: curl --cert C --key K --cacert CA URL > metrics.txt)"
                           ) from err


def read_etcd_metrics(location: str, timeout: float = FETCH_TIMEOUT_S) -> EtcdMetrics:
    """Read etcd's metrics from an http(s) URL or a file; MetricsError with one line when that fails."""
    if location.startswith(("http://", "https://")):
        data = _fetch(location, timeout)
    else:
        try:
            with open(location, "rb") as handle:
                data = handle.read(MAX_BYTES + 1)
        except OSError as err:
            raise MetricsError(f"cannot read {location}: {err.strerror or err}") from err
    if len(data) > MAX_BYTES:
        raise MetricsError(f"{location}: larger than {MAX_BYTES:,} bytes, not a metrics page")
    return parse_metrics(data.decode("utf-8", errors="replace"), visible(location))


def summary(metrics: EtcdMetrics) -> str:
    """One line on what was read: each histogram's p99 and count ("backend commit p99 1.20 ms over 8,120
    commits; WAL fsync p99 3.10 ms over 9,004 fsyncs")."""
    parts = []
    for name, what, unit in ((COMMIT, "backend commit", "commits"), (WAL_FSYNC, "WAL fsync", "fsyncs")):
        histogram = metrics.histograms.get(name)
        p99 = histogram.quantile(0.99) if histogram else None
        if histogram is not None and p99 is not None:
            parts.append(f"{what} p99 {p99 * 1000.0:.3g} ms over {histogram.total:,.0f} {unit}")
    return "; ".join(parts) or "no observations yet"


def discover(root: Root) -> tuple[EtcdMetrics | None, list[str]]:
    """The metrics of an etcd running on this live host that serves them over plain http (kubeadm:
    127.0.0.1:2381), and one line for each such URL that did not answer."""
    notes = []
    for pid, url in etcd_metrics_locations(root):
        try:
            return read_etcd_metrics(url, DISCOVERED_TIMEOUT_S), notes
        except MetricsError as err:
            notes.append(f"etcd (pid {pid}): {err}; its commit latency is not judged")
    return None, notes
