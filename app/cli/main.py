"""The `diskdoctor` command: the TUI by default, plus devices, trim and capture subcommands."""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import sys

try:  # the C module `signal` wraps: the same handlers and numbers without building its enums (~0.5 ms)
    import _signal as signal
except ImportError:  # pragma: no cover  (an interpreter without it)
    import signal  # type: ignore[no-redef]

from diskdoctor.probes.host_text import visible
from diskdoctor.probes.root import describe_write_error

from ..base.errors import EXIT_OK, EXIT_USAGE, UsageError
from ..core.capture.sysroot import open_root
from .json_output import json_text
from .quick_args import quick_arguments

TYPE_CHECKING = False  # not typing's: importing typing costs every start-up ~2 ms
if TYPE_CHECKING:
    import argparse  # argparse itself loads only when quick_arguments hands the arguments to it
    from collections.abc import Callable, Sequence

SIGNAL_EXIT_BASE = 128
PIPE_WIDTH = 240
DEBUG_ENV = "DISKDOCTOR_DEBUG"


def run_devices(args: argparse.Namespace) -> int:
    """`diskdoctor devices [--json]`, with Python's cycle collector paused throughout (see `_devices`)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _devices(args)
    finally:
        if collecting:
            gc.enable()


def _devices(args: argparse.Namespace) -> int:
    """`run_devices` itself. Nothing here makes a cycle, and the host read leaves ~300,000 new objects (at
    5,000 devices) that every collection of the document's own objects would pass over again: paused, the
    JSON document is built in ~20 ms instead of 45-85 (docs/figures.md, "Thirteenth pass")."""
    from diskdoctor.probes.blkid import start_blkid

    with open_root(args.sysroot) as root:
        start_blkid(root)  # it runs while the modules below load
        from diskdoctor.probes.host import read_host

        host = read_host(root, include_empty=args.all)
        if args.json:
            from ..core.stack.devices_json import devices_document

            sys.stdout.write(json_text(devices_document(host), args) + "\n")
            return EXIT_OK
        from ..core.snapshot import read_snapshot

        # each filesystem's line says what `trim` says (whether anything trims it), not only the path
        verdicts = () if host.mounts_unknown else read_snapshot(root, host=host).verdicts
    from rich.console import Console

    from ..text.devices_table import print_devices

    for warning in host.warnings:
        print(f"diskdoctor: warning: {warning}", file=sys.stderr)
    width = None if sys.stdout.isatty() else PIPE_WIDTH
    print_devices(host, Console(highlight=False, width=width), verdicts)
    return EXIT_OK


def run_trim(args: argparse.Namespace) -> int:
    """`diskdoctor trim [--json] [--peak SPEC] [--run MOUNTPOINT --yes]`."""
    from .trim import run_trim as trim_command

    return trim_command(args)


def run_capture(args: argparse.Namespace) -> int:
    """`diskdoctor capture -o FILE`."""
    if args.sysroot is not None:
        raise UsageError("capture reads this host; it cannot be combined with --sysroot")
    from ..core.capture.bundle import write_capture

    summary = write_capture(args.output, redact=args.redact, force=args.force, rules_path=args.redact_rules)
    redacted = (f", redacted ({summary.replacements} replacements, listed by rule and file in "
                "redactions.json)" if summary.redacted else "")
    print(f"wrote {summary.output}: {summary.files} files, {summary.commands} command outputs"
          f"{redacted}; replay with: diskdoctor --sysroot {summary.output}")
    if summary.unreadable:
        print(f"note: {summary.unreadable} files could not be read (listed in manifest.json)")
    return EXIT_OK


def run_bench(args: argparse.Namespace) -> int:
    """`diskdoctor bench KIND ...` (the engine runs in a child process)."""
    from .bench import run_bench as run

    return run(args)


def run_advise(args: argparse.Namespace) -> int:
    """`diskdoctor advise [--json] [--data DIR] [--bench FILE] [--peak SPEC]`."""
    from .advise import run_advise as advise_command

    return advise_command(args)


def run_runs(args: argparse.Namespace) -> int:
    """`diskdoctor runs list|show|compare`."""
    from .runs import run_runs as runs_command

    return runs_command(args)


def run_report(args: argparse.Namespace) -> int:
    """`diskdoctor report -o FILE`."""
    from .report import run_report as report_command

    return report_command(args)


def run_monitor(args: argparse.Namespace) -> int:
    """`diskdoctor monitor [--json-lines] [--interval S] [--count N]`."""
    from .monitor import run_monitor as monitor_command

    return monitor_command(args)


def run_watch(args: argparse.Namespace) -> int:
    """`diskdoctor watch --process NAME | --pid N [--seconds S] [--json-lines]`."""
    from .watch import run_watch as watch_command

    return watch_command(args)


def _raise_on_signal(signum: int, _frame: object) -> None:
    from ..core.process.hangup import note_signal, start_watchdog

    note_signal(signum)
    if signum == signal.SIGHUP:  # the terminal is gone: unwinding must not wait on it for long
        start_watchdog(SIGNAL_EXIT_BASE + signum)
    raise SystemExit(SIGNAL_EXIT_BASE + signum)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _no_tui(_args: argparse.Namespace) -> int:
    raise UsageError("no command given (see diskdoctor --help)")


def _prepare_process() -> None:
    """Signals end the process cleanly; the frozen binary also cleans up after its bootloader."""
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _raise_on_signal)
    if getattr(sys, "frozen", False):
        from ..core.process.hangup import remember_bootloader, remove_orphaned_bundle, sweep_stale_bundles

        remember_bootloader()
        atexit.register(remove_orphaned_bundle)
        sweep_stale_bundles()


def _parse_with_argparse(argv: list[str], *, whole_process: bool) -> argparse.Namespace:
    """What `quick_arguments` does not take, parsed by argparse. For the process's own command line it is
    imported and built with the cycle collector paused and then frozen, as the launcher imports the CLI
    (the collector's passes over it are waste); a caller passing `argv` (a test) keeps its collector."""
    collecting = whole_process and gc.isenabled()
    if collecting:
        gc.disable()
    try:
        from .parser import parse_arguments

        return parse_arguments(argv)
    finally:
        if collecting:
            gc.freeze()
            gc.enable()


def _run(handler: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run one command, turning every failure into one line and an exit code."""
    try:
        if args.smoke and args.command:
            raise UsageError(f"--smoke starts the TUI; it cannot be combined with `{args.command}`")
        return handler(args)
    except UsageError as err:
        print(f"diskdoctor: error: {visible(str(err))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("diskdoctor: interrupted", file=sys.stderr)
        return SIGNAL_EXIT_BASE + signal.SIGINT
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OK
    except OSError as err:
        print(f"diskdoctor: error: cannot write output: {describe_write_error(err)}",
              file=sys.stderr)
        _silence_stdout()
        return EXIT_USAGE
    except SystemExit as stop:
        if isinstance(stop.code, int) and stop.code > SIGNAL_EXIT_BASE:
            print("diskdoctor: stopped by signal", file=sys.stderr)
        raise
    except Exception as err:
        if os.environ.get(DEBUG_ENV):
            raise
        print(f"diskdoctor: internal error: {type(err).__name__}: {visible(str(err))} "
              f"(set {DEBUG_ENV}=1 for the traceback, and please report it)", file=sys.stderr)
        return EXIT_USAGE


def main(argv: Sequence[str] | None = None, *,
         open_tui: Callable[[argparse.Namespace], int] | None = None) -> int:
    """Entry point: parse, dispatch, and turn every failure into one line and an exit code; without a
    command it runs `open_tui` (the launcher passes the TUI: this layer never imports it)."""
    whole_process = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    _prepare_process()
    if sys.stdout is None:
        if sys.stderr is not None:
            print("diskdoctor: error: standard output is closed", file=sys.stderr)
        return EXIT_USAGE
    args = quick_arguments(argv) or _parse_with_argparse(argv, whole_process=whole_process)
    handlers = {"devices": run_devices, "trim": run_trim, "capture": run_capture, "bench": run_bench,
                "advise": run_advise, "runs": run_runs, "report": run_report, "monitor": run_monitor,
                "watch": run_watch, None: open_tui or _no_tui}
    return _run(handlers[args.command], args)


if __name__ == "__main__":
    sys.exit(main())
