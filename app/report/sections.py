"""The report's tables as plain rows of text, shared by the Markdown and HTML renderers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from diskdoctor.probes.blockdev import scheduler_shown
from diskdoctor.probes.host import Host

from ..base.formatting import human_bytes, yes_no
from ..core.bench.outcome import verdict_word
from ..core.bench.run_metrics import param_rows
from ..core.bench.wal import record_level_lines
from ..core.findings.finding import Finding
from ..core.stack.walk import walk_forest
from ..text.devices_table import tree_guides
from ..text.runs import value_text

if TYPE_CHECKING:
    from ..core.runs.record import SavedRun
    from .model import Report

STACK_COLUMNS = ("NAME", "TYPE", "SIZE", "ROTA", "SCHED", "DISC-MAX", "TRIM", "FSTYPE", "MOUNTPOINTS")


def fingerprint_rows(report: Report) -> list[tuple[str, str]]:
    """(label, value) rows of the host fingerprint."""
    fingerprint = report.fingerprint
    return [("host", fingerprint.hostname or "unknown"),
            ("distribution", fingerprint.distribution or "unknown (no os-release)"),
            ("kernel", fingerprint.kernel or "unknown"),
            ("read from", "this host, live" if fingerprint.live else fingerprint.source),
            ("diskdoctor", fingerprint.tool_version),
            ("generated", report.generated_at.strftime("%Y-%m-%d %H:%M:%S UTC"))]


def stack_rows(host: Host) -> list[tuple[str, ...]]:
    """The `devices` table: one row per device from the disks up, NAME with lsblk's tree guides."""
    rows = []
    for row in walk_forest(host):
        device = host.devices[row.kname]
        name = tree_guides(row.last) + device.name + (" (shown above)" if row.shown_above else "")
        rows.append((name, device.kind, human_bytes(device.size_bytes.value), yes_no(device.rotational.value),
                     scheduler_shown(device), human_bytes(device.discard_max_bytes.value),
                     yes_no(device.accepts_discard), device.fstype.value or "",
                     " ".join(host.mountpoints(row.kname))))
    return rows


def severity_counts(report: Report) -> str:
    """"1 crit, 2 warn, 0 info", and how many judge the report's saved runs (the Advice screen shows
    the host's findings only, so a reader comparing the two knows where the others come from)."""
    counts = {"crit": 0, "warn": 0, "info": 0}
    for finding in report.findings:
        counts[finding.severity.value] += 1
    text = ", ".join(f"{number} {word}" for word, number in counts.items())
    from_runs = sum(1 for finding in report.findings if judges_a_run(finding))
    return f"{text}; {from_runs} of them judge the saved runs below" if from_runs else text


def judges_a_run(finding: Finding) -> bool:
    """Whether a finding's evidence was read from a saved benchmark run ("run ID: ...")."""
    return any(evidence.source.startswith("run ") for evidence in finding.evidence)


def run_title(run: SavedRun) -> str:
    """"Run 20261120-143012-wal-3fa9: WAL write + sync latency, 2026-11-20 14:30 UTC"."""
    return f"Run {run.id}: {run.kind_info.title}, {run.when()}"


def run_rows(run: SavedRun) -> list[tuple[str, str]]:
    """(label, value) rows: verdict, where it ran, every parameter, every metric."""
    kind = run.kind_info
    verdict = run.verdict()
    rows = []
    if verdict is not None:
        rows.append(("verdict", f"{verdict_word(verdict)} {verdict.line}"))
        rows += [(label, text) for label, text in (("settle", verdict.settle),
                                                   ("interval", verdict.interval_note)) if text]
    rows += run.record.caveats().rows()  # durability, model and the host's contention, beside the verdict
    rows += [("target", run.stack.describe()),
             ("mount options", ",".join(run.stack.mount_options) or "unknown"),
             ("layers", " → ".join(layer.kname for layer in run.stack.layers) or "no block device"),
             ("host", run.host.line()), ("parameters", kind.params_text(run.record))]
    rows += param_rows(run.params.to_json())  # type: ignore[attr-defined]
    rows += [(metric.label, value_text(metric.value, metric.unit)) for metric in kind.metrics(run.record)]
    return rows + load_rows(run)


def load_rows(run: SavedRun) -> list[tuple[str, str]]:
    """A WAL run's figures per load (each open-loop rate, then the closed-loop capacity), as the CLI prints
    them: the verdict judges the worst load, the others still matter to a reader."""
    return [(label.strip(), text.strip()) for label, _, text in
            (line.partition(" ") for line in record_level_lines(run.kind, run.record))]
