"""TRIM-LONG: a WAL run during which the disks completed discards, against one on the same filesystem
without: when the fdatasync p99 is over ten times worse, trims stall the foreground writes."""

from __future__ import annotations

from collections.abc import Iterator

from diskdoctor.app.core.bench.caveats import model_of
from diskdoctor.app.core.bench.context import BenchContext
from diskdoctor.app.core.bench.rules import p99_ms, subject_of
from diskdoctor.app.core.bench.wal import format_ms
from diskdoctor.app.core.findings.finding import Evidence, Finding
from diskdoctor.app.core.findings.registry import Scope, rule
from diskdoctor.app.core.findings.vocabulary import Severity
from diskdoctor.probes.host import Host
from diskdoctor.probes.host_text import shell_quote, shown

from ..contexts import AdviceInput

RISE = 10.0
"""The p99 during discards must exceed this many times the p99 without (storage-facts, rule catalog)."""
SMALLER_DISCARDS = 64 * 1024 * 1024
"""A discard_max_bytes that splits a trim into 64 MiB requests."""


def _discarding(document: dict[str, object]) -> list[dict[str, object]]:
    """The layers of a WAL result whose diskstats counted completed discards during the run."""
    layers = document.get("layers")
    return [layer for layer in layers if isinstance(layer, dict) and isinstance(layer.get("discards"), int)
            and layer["discards"] > 0] if isinstance(layers, list) else []


def _quiet(document: dict[str, object]) -> bool:
    """Whether every layer of a WAL result read zero discards (known, not missing)."""
    layers = document.get("layers")
    return isinstance(layers, list) and bool(layers) and all(
        isinstance(layer, dict) and layer.get("discards") == 0 for layer in layers)


def _disks(host: Host, layers: list[dict[str, object]]) -> list[str]:
    """The bottom devices among the discarding layers (the last layer when this host does not know them)."""
    names = [str(layer.get("kname")) for layer in layers]
    disks = [n for n in names if n in host.devices and not host.parents(n)]
    return disks or names[-1:]


def _pairs(bench: list[BenchContext]) -> Iterator[tuple[BenchContext, BenchContext]]:
    """(a run with discards, a run without) on the same filesystem, each run with discards once (the
    quietest baseline: the lowest p99)."""
    for during in bench:
        if "sync_latency_us" not in during.document or not _discarding(during.document):
            continue
        subject = subject_of(during.document)
        quiet = [b for b in bench if b is not during and "sync_latency_us" in b.document
                 and _quiet(b.document) and subject_of(b.document) == subject
                 and p99_ms(b.document) is not None
                 and model_of(b.document) == model_of(during.document)]  # open and closed loop never compare
        if quiet:
            yield during, min(quiet, key=lambda b: p99_ms(b.document) or 0.0)


@rule("TRIM-LONG", scope=Scope.HOST, severity=Severity.WARN,
      checks="two WAL results on one filesystem: the one whose disks completed discards during the run "
             "(diskstats discard ios/ms) has a p99 over 10x the one without",
      sources=("linux:Documentation/ABI/stable/sysfs-block (discard_max_bytes)", "fstrim(8) (--minimum)",
               "linux:Documentation/admin-guide/iostats.rst (fields 12-15: discards)"))
def trim_long(advice: AdviceInput) -> Iterator[Finding]:
    """TRIM-LONG: large discards in flight hold the device queue and fdatasync waits behind them."""
    for during, quiet in _pairs(advice.bench):
        slow, base = p99_ms(during.document), p99_ms(quiet.document)
        if slow is None or not base or slow <= base * RISE:
            continue
        layers = _discarding(during.document)
        subject = subject_of(during.document)
        evidence = [Evidence("p99 fdatasync while discards ran", format_ms(slow),
                             f"{during.origin}: sync_latency_us.p99"),
                    Evidence("p99 fdatasync without discards", format_ms(base),
                             f"{quiet.origin}: sync_latency_us.p99")]
        for layer in layers:
            kname = str(layer.get("kname"))
            evidence.append(Evidence(
                f"discards completed on {kname} during the run",
                f"{layer['discards']:,} in {layer.get('discard_ms') or 0:,} ms",
                f"{during.origin}: layers[{kname}] (diskstats fields 12-15)"))
        disks = _disks(advice.host, layers)
        point = shell_quote(shown(subject))
        yield Finding(
            "TRIM-LONG", Severity.WARN, subject,
            f"fdatasync p99 on {subject} rose {slow / base:.0f}x ({format_ms(base)} to {format_ms(slow)}) "
            "while discards ran", tuple(evidence),
            "A trim sends the device discard requests up to discard_max_bytes each; while one is in flight "
            "many drives stop serving other I/O, so every fdatasync waits behind it. Smaller discard "
            "requests and a trim that skips small free extents keep the stalls short; running it off-peak "
            "keeps it away from the database's busy hours.",
            (*(f"echo {SMALLER_DISCARDS} > {shell_quote(f'/sys/block/{d}/queue/discard_max_bytes')}"
               "   # 64 MiB discard requests" for d in disks),
             f"fstrim --minimum 1M -v {point}   # skips free extents under 1 MiB",
             "# move fstrim.timer off-peak: diskdoctor trim --peak 'Mon-Fri 08:00-20:00' prints the drop-in"),
            "Smaller requests make the whole trim take longer; --minimum leaves small free extents "
            "untrimmed. The discard_max_bytes change lasts until reboot (persist it with a udev rule).",
            (f"fstrim -v {point} & diskdoctor bench wal --dir {point}   # the p99 stays close to the quiet "
             "run's",
             "diskdoctor runs compare A B   # the quiet run against the one during the trim"))
