"""The `diskdoctor` argument parser (argparse), built only for argument lists the quick path in
`quick_args` does not take, so that argparse's import and the parser's construction cost those only."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence

from ..base.errors import EXIT_USAGE
from .completion import OPTION as COMPLETION_OPTION
from .completion import add_completion_option
from .json_output import add_json_options
from .manual import ManualAction

TYPE_CHECKING = False  # not typing's: importing typing costs every start-up ~2 ms
if TYPE_CHECKING:
    from typing import NoReturn

BENCH_HELP = "run a database-style storage benchmark (writes scratch files)"
ADVISE_HELP = "every configuration finding, with evidence, fix, risk and how to verify"
RUNS_HELP = "saved benchmark runs: list, show, compare"
REPORT_HELP = "write a report for a ticket (.md, .html or .json)"
MONITOR_HELP = "the live per-layer I/O monitor (iostat -x for the stack)"
WATCH_HELP = "per-call sync latency of a running database, from kernel tracepoints (root)"
HEAVY_SUBCOMMANDS = ("bench", "advise", "runs", "report", "monitor", "watch")
"""Subcommands whose options need their own modules; other commands parse without importing them."""
ALL_HEAVY = "*"
"""`with_heavy` for a parser with every subcommand's options (the shell completion covers them all)."""
COMMANDS = ("devices", "trim", "capture", *HEAVY_SUBCOMMANDS)


def _terminal_columns() -> int:
    """The terminal's width as shutil.get_terminal_size gives it (COLUMNS, the terminal, else 80)."""
    with contextlib.suppress(ValueError):
        if int(os.environ.get("COLUMNS", "0")) > 0:
            return int(os.environ["COLUMNS"])
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class QuickFormatter(argparse.HelpFormatter):
    """argparse's formatter, given the width so that it does not import shutil (and bz2, lzma) on every
    add_argument of every start-up."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         _terminal_columns() - 2 if width is None else width)


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line and exit code 2."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", QuickFormatter)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class VersionAction(argparse.Action):
    """`--version`: reads the package metadata only when asked (it costs every other command ~20 ms)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        from ..base.version import installed_version

        parser.exit(0, f"diskdoctor {installed_version()}\n")


def heavy_subcommand(argv: Sequence[str]) -> str | None:
    """Which subcommand with heavy option imports (bench: the engine; advise: the rules; runs, report)
    `argv` runs, so every other command parses without importing them (a stub lists them in --help)."""
    if COMPLETION_OPTION in argv:
        return ALL_HEAVY
    words = [word for index, word in enumerate(argv)
             if not word.startswith("-") and (index == 0 or argv[index - 1] != "--sysroot")]
    return words[0] if words and words[0] in HEAVY_SUBCOMMANDS else None


def _global_options(parser: argparse.ArgumentParser, *, in_subcommand: bool) -> None:
    default = argparse.SUPPRESS if in_subcommand else None
    parser.add_argument("--sysroot", metavar="DIR", default=default,
                        help="read a capture (folder or .tar.gz) instead of this host, "
                             "like lsblk --sysroot")


def build_parser(with_heavy: str | None = None, only: str | None = None) -> OneLineParser:
    """The argument parser; `bench` and `advise` get their full options only when `with_heavy` names them.

    With `only` (the command the arguments start with) the other subcommands' parsers are not built:
    argparse gives every word after the command to its parser, so nothing else could be asked for.
    Building them cost each start-up ~2 ms."""

    def wanted(name: str) -> bool:
        return only is None or only == name

    parser = OneLineParser(
        prog="diskdoctor",
        description="Why is this node's storage slow? Explore the storage stack, where TRIM "
                    "stops, and what each layer is set to. Read-only, except an explicitly "
                    "confirmed `trim --run`.",
        epilog="Run without a command to open the interactive TUI.")
    parser.add_argument("--version", action=VersionAction, nargs=0, help="print the version and exit")
    parser.add_argument("--man", action=ManualAction, nargs=0, help="show the manual page and exit")
    add_completion_option(parser)
    parser.add_argument("--smoke", action="store_true",
                        help="start the TUI headless, check that its first screen shows the stack, "
                             "print one line and exit (no terminal needed; checks a copied binary)")
    _global_options(parser, in_subcommand=False)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser,
                                     prog=parser.prog)  # a given prog spares argparse a formatter (shutil)

    if wanted("devices"):
        _add_devices_parser(commands)
    if wanted("trim"):
        _add_trim_parser(commands)
    if wanted("capture"):
        _add_capture_parser(commands)
    _add_heavy_parsers(commands, with_heavy, wanted)
    return parser


def _add_devices_parser(commands: argparse._SubParsersAction) -> None:
    devices = commands.add_parser("devices", help="print the storage stack (disks up), lsblk style",
                                  description="Print every block device and how they stack.")
    add_json_options(devices)
    devices.add_argument("--all", action="store_true",
                         help="also list unattached loop devices and RAM disks")
    _global_options(devices, in_subcommand=True)


def _add_trim_parser(commands: argparse._SubParsersAction) -> None:
    trim = commands.add_parser("trim", help="does TRIM reach the flash, and when is it trimmed?",
                               description="One TRIM verdict per mounted filesystem: where discard "
                                           "stops, the discard mount mode, the fstrim timer and cron "
                                           "jobs, and fixes. Exit 1 when any verdict is not ok.")
    add_json_options(trim)
    trim.add_argument("--peak", metavar="SPEC",
                      help='busy hours, e.g. "Mon-Fri 08:00-20:00": flag trims scheduled inside them')
    trim.add_argument("--run", metavar="MOUNTPOINT",
                      help="trim this filesystem now with fstrim -v (asks first; changes the host)")
    trim.add_argument("--yes", action="store_true", help="with --run: do not ask for confirmation")
    _global_options(trim, in_subcommand=True)


def _add_capture_parser(commands: argparse._SubParsersAction) -> None:
    capture = commands.add_parser("capture", help="write a capture bundle for a support ticket",
                                  description="Copy the files the probes read, outputs of "
                                              "read-only commands and a manifest to a .tar.gz.")
    capture.add_argument("-o", "--output", required=True, metavar="FILE.tar.gz",
                         help="the bundle to write (a .tar.gz a support engineer can attach to a ticket; "
                              "refused if it exists, unless --force)")
    capture.add_argument("--redact", action="store_true",
                         help="replace what identifies the host (hostname, addresses, user names, paths, "
                              "labels, UUIDs, serials, kernel parameters) with stand-ins; the bundle's "
                              "redactions.json says what each rule replaced")
    capture.add_argument("--redact-rules", metavar="FILE",
                         help="extra rules, one a line: 'literal NAME TEXT' or 'regex NAME PATTERN' "
                              "(implies --redact)")
    capture.add_argument("--force", action="store_true", help="replace FILE if it exists")
    _global_options(capture, in_subcommand=True)


def _add_heavy_parsers(commands: argparse._SubParsersAction, with_heavy: str | None,
                       wanted: Callable[[str], bool]) -> None:
    """advise, bench, runs, report, monitor and watch: a stub (name and help) unless `with_heavy` names
    them, so that their options' modules load only for them."""
    stubs = {"advise": ADVISE_HELP, "bench": BENCH_HELP, "runs": RUNS_HELP, "report": REPORT_HELP,
             "monitor": MONITOR_HELP, "watch": WATCH_HELP}
    for name, stub_help in stubs.items():
        if not wanted(name):
            continue
        if with_heavy not in (name, ALL_HEAVY):
            commands.add_parser(name, help=stub_help)
        else:
            _add_full_parser(commands, name)


def _add_full_parser(commands: argparse._SubParsersAction, name: str) -> None:
    """One heavy subcommand's parser with all its options (its module imported now)."""
    if name == "advise":
        from .advise import add_advise_parser

        _global_options(add_advise_parser(commands, OneLineParser), in_subcommand=True)
    elif name == "bench":
        from .bench import add_bench_parser

        for kind in add_bench_parser(commands, OneLineParser):
            kind.add_argument("--sysroot", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    elif name == "runs":
        from .runs import add_runs_parser

        for action in add_runs_parser(commands, OneLineParser):
            action.add_argument("--sysroot", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    elif name == "report":
        from .report import add_report_parser

        _global_options(add_report_parser(commands), in_subcommand=True)
    elif name == "monitor":
        from .monitor import add_monitor_parser

        _global_options(add_monitor_parser(commands), in_subcommand=True)
    else:
        from .watch import add_watch_parser

        _global_options(add_watch_parser(commands), in_subcommand=True)


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    """The arguments; an unknown one is a usage error naming the (sub)command's help."""
    first = argv[0] if argv else None
    parser = build_parser(with_heavy=heavy_subcommand(argv), only=first if first in COMMANDS else None)
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        words = [parser.prog, args.command, getattr(args, "bench_kind", None),
                 getattr(args, "runs_action", None)]
        where = " ".join(word for word in words if word)
        parser.exit(EXIT_USAGE, f"{parser.prog}: error: unrecognized arguments: "
                                f"{' '.join(unknown)} (see {where} --help)\n")
    return args
