"""`diskdoctor report -o FILE.md|FILE.html|FILE.json`: the host, TRIM, findings and runs for a ticket."""

from __future__ import annotations

import argparse
import sys

from ..base.errors import EXIT_OK, UsageError
from ..base.formatting import counted
from ..core.capture.sysroot import open_root
from ..core.runs.store import RunListing, RunStore, RunStoreError
from ..report.model import build_report
from ..report.render import render_report
from ..report.writer import ReportWriteError, report_format, write_report_file


def add_report_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add `report` to the CLI."""
    report = commands.add_parser(
        "report", help="write a report for a ticket (.md, .html or .json)",
        description="The host fingerprint, the storage stack, TRIM verdicts, findings and benchmark runs "
                    "with their parameters, in one file. The format follows the file name.")
    report.add_argument("-o", "--output", required=True, metavar="FILE",
                        help="FILE.md (renders in a ticket), FILE.html (one self-contained file) "
                             "or FILE.json")
    report.add_argument("--run", action="append", default=None, metavar="ID",
                        help="include this saved run (id or unique part, latest, previous; repeatable); "
                             "default: "
                             "the newest run of each kind on each filesystem of this host")
    report.add_argument("--force", action="store_true", help="replace FILE if it exists")
    return report


def _runs_listing() -> RunListing | None:
    """The runs directory, read once; each skipped file is one warning line on stderr (and a report note).
    None when it cannot be read (the report then says why in its notes)."""
    try:
        listing = RunStore().scan()
    except RunStoreError:
        return None
    for warning in listing.warnings():
        print(f"diskdoctor: warning: {warning}", file=sys.stderr)
    return listing


def run_report(args: argparse.Namespace) -> int:
    """Build the report from one read of the host and write it atomically."""
    try:
        kind = report_format(args.output)
        listing, runs = _runs_listing(), None
        if args.run:
            store = RunStore()
            runs = [store.find(reference, listing) for reference in dict.fromkeys(args.run)]
        with open_root(args.sysroot) as root:
            report = build_report(root, runs, listing=listing)
        write_report_file(args.output, render_report(report, kind), force=args.force)
    except (RunStoreError, ReportWriteError) as err:
        raise UsageError(str(err)) from err
    counts = (f"{counted(len(report.findings), 'finding')}, {counted(len(report.verdicts), 'TRIM verdict')}, "
              f"{counted(len(report.runs), 'run')}")
    print(f"wrote {args.output}: {kind} report of {report.fingerprint.hostname or 'unknown host'} ({counts})")
    return EXIT_OK
