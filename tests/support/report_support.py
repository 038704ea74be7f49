"""Reports made from fixture captures and fixed runs, plus a hostile variant whose every host string bites."""

from __future__ import annotations

import dataclasses
import datetime as dt

from conftest import fixture_root
from diskdoctor.app.core.runs.stack_fingerprint import StackFingerprint
from diskdoctor.app.report.model import Report, build_report
from diskdoctor.probes.wal_target import Target

from support.bench_fixed_run import fixed_result
from support.runs_support import saved_run

GENERATED = dt.datetime(2026, 11, 22, 9, 0, tzinfo=dt.timezone.utc)
HOSTILE = "<script>alert(1)</script> | `x` **b** [l](http://evil.example) & \\x1b]52"
"""What a hostile capture's strings look like after ingestion (controls are already visible escapes)."""


def fixture_report(name: str = "etcd-raid0-lvm-luks") -> Report:
    """The report of a committed capture with one realistic WAL run (the fixed TUI run)."""
    run = saved_run(20, result=fixed_result())
    return build_report(fixture_root(name), [run], now=GENERATED)


def hostile_report() -> Report:
    """A report whose hostname, target directory, mount options and run host hold markup and HTML."""
    report = fixture_report()
    run = report.runs[0]
    target = Target(f"/data/{HOSTILE}", "/data", "ext4", "dm-2", ("dm-2",))
    stack = StackFingerprint(target, (HOSTILE,), ())
    record = dataclasses.replace(run.record, target=target)
    hostile_run = dataclasses.replace(run, stack=stack, record=record,
                                      host=dataclasses.replace(run.host, hostname=HOSTILE))
    return dataclasses.replace(report, fingerprint=dataclasses.replace(report.fingerprint, hostname=HOSTILE),
                               runs=[hostile_run], notes=[f"runs directory: skipped {HOSTILE}.json"])


def report_written(app: object) -> str:
    """What the TUI said about the last report it wrote, as one line: "Wrote /path/r.md: 4 findings, …"
    (the notice's title says what the report holds, its text the folder and file, on lines of their own where
    the path is wider than the screen); "" if none."""
    notices = [n for n in app._notifications  # type: ignore[attr-defined]
               if n.title.startswith("Report written: ")]
    if not notices:
        return ""
    summary = notices[-1].title.removeprefix("Report written: ")
    return f"Wrote {''.join(notices[-1].message.split(chr(10)))}: {summary}"
