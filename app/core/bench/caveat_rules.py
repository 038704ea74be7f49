"""The caveats of a benchmark result as findings, so that `advise --bench`, reports and the Benchmark screen
say them beside the verdict: a target where fdatasync is not durable, and a run taken on a busy host (the
WAL model of a saved run is said by its own rows: runs show, reports, the Runs screen)."""

from __future__ import annotations

from collections.abc import Iterator

from ..findings.finding import Evidence, Finding
from ..findings.registry import Scope, rule
from ..findings.vocabulary import Severity
from .caveats import NOT_DURABLE_CONSEQUENCE, caveats_of
from .context import BenchContext
from .rules import subject_of


@rule("BENCH-NOT-DURABLE", scope=Scope.BENCH, severity=Severity.WARN,
      checks="a benchmark's target does not make fdatasync durable (tmpfs/ramfs, nobarrier or barrier=0, a "
             "drive cache the kernel was told is write through)",
      sources=("linux:Documentation/admin-guide/ext4.rst (barrier)",
               "linux:Documentation/ABI/stable/sysfs-block (write_cache)", "tmpfs(5)"))
def not_durable(bench: BenchContext) -> Iterator[Finding]:
    """BENCH-NOT-DURABLE: the figure is what a write costs without a cache flush, whatever it passed."""
    caveats = caveats_of(bench.document)
    if caveats.durable:
        return
    evidence = tuple(Evidence("not durable", reason, f"{bench.origin}: target")
                     for reason in caveats.not_durable)
    yield Finding(
        "BENCH-NOT-DURABLE", Severity.WARN, subject_of(bench.document),
        f"the benchmark's fdatasync was not durable here: {NOT_DURABLE_CONSEQUENCE}", evidence,
        "A PASS here says nothing about the disk: without a cache flush the write returns before the data is "
        "safe, so a database on this filesystem gets this speed only by risking what it was told is on disk, "
        "and on a durable filesystem the same disk is slower. Benchmark the directory the database will "
        "really use, mounted with barriers (no nobarrier / barrier=0) and its queue's write_cache as the "
        "drive reports it.",
        (), None, ("diskdoctor advise   # NOBARRIER / WCACHE-SYSFS-TOGGLED name the setting to change",))


@rule("BENCH-HOST-BUSY", scope=Scope.BENCH, severity=Severity.INFO,
      checks="other processes kept the host busy (CPU, storage I/O, hypervisor steal) during a benchmark",
      sources=("psutil cpu_times and per-process I/O, read before and after the run",))
def host_busy(bench: BenchContext) -> Iterator[Finding]:
    """BENCH-HOST-BUSY: the figures include other processes' interference."""
    caveats = caveats_of(bench.document)
    if not caveats.busy or caveats.host is None:
        return
    yield Finding(
        "BENCH-HOST-BUSY", Severity.INFO, subject_of(bench.document),
        "the host was busy during the benchmark: its figures include other processes' interference",
        (Evidence("host load", caveats.host.line(), f"{bench.origin}: host"),
         Evidence("host", caveats.contention_text(), f"{bench.origin}: host.busy")),
        "Other processes' CPU time and I/O delay the benchmark's writes as they would delay the database's; "
        "a verdict from such a run describes this host at this moment, not the disk alone.",
        (), None, ("# run the benchmark again at a quieter moment, then compare: "
                   "diskdoctor runs compare latest previous",))
