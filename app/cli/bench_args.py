"""The options every `bench KIND` shares; each kind's own options come from the kinds table."""

from __future__ import annotations

import argparse

from ..core.bench.kinds import KINDS, kind_of
from ..core.bench.repeat import REPEATABLE
from .json_output import add_json_options

FITTING = ("compaction", "randwrite", "interference")
"""The workloads --fit can size down to the free space (app/core/bench/fit.py)."""


def _common(parser: argparse.ArgumentParser, name: str) -> None:
    parser.add_argument("--dir", required=True, metavar="DIR", help="a directory on the filesystem to test")
    add_json_options(parser, "print the JSON result (schema: man diskdoctor)")
    parser.add_argument("--fio", action="store_true", help="also run the equivalent fio job and compare")
    parser.add_argument("--plot", action="store_true",
                        help="also draw the run's intervals and percentiles as text charts (plotext)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",  # hidden where it is refused
                        help="run N times and judge the merged samples (the interval also covers how "
                             "much the runs differed); saved as one run" if name in REPEATABLE
                        else argparse.SUPPRESS)
    if name in FITTING:
        parser.add_argument("--fit", action="store_true",
                            help="when the run does not fit the free space, size it down until it does "
                                 "(and say what it chose and what that costs)")
    parser.add_argument("--no-save", action="store_true",
                        help="do not save the run (runs are saved in $XDG_STATE_HOME/diskdoctor/runs)")


def add_kinds(kinds: argparse._SubParsersAction) -> list[argparse.ArgumentParser]:
    """One `bench` subcommand per workload of the kinds table."""
    parsers = []
    for kind in KINDS.values():
        if not kind.benchmark:
            continue
        parser = kinds.add_parser(kind.name, help=kind.cli.help, description=kind.cli.description)
        _common(parser, kind.name)
        kind.cli.add_options(parser)
        parsers.append(parser)
    return parsers


def params_from_args(args: argparse.Namespace) -> object:
    """The workload parameters the user asked for (ParamError for unusable values)."""
    return kind_of(args.bench_kind).cli.params(args)
