"""The Watch screen (from Monitor, key d): pick a running database, then its per-call sync latency per file
class live, the WAL's histogram and its verdict; the tracing runs in a `diskdoctor watch --json-lines`
child, so the UI never reads the kernel's trace and a UI that dies still leaves the instance removed."""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

from diskdoctor.app.base.units import AT_LEAST, format_latency
from diskdoctor.app.core.bench.wal import ETCD_THRESHOLD_MS
from diskdoctor.app.core.bench.watch import OTHER_CLASS, files_text
from diskdoctor.probes.host_text import visible
from diskdoctor.probes.latency_histogram import LatencyHistogram
from diskdoctor.probes.root import Root
from diskdoctor.probes.watch_session import candidates
from diskdoctor.widgets.fit_text import fit_end
from diskdoctor.widgets.fitted_footer import FittedFooter
from diskdoctor.widgets.keyed_lists import KeyedOptionList
from diskdoctor.widgets.latency_bars import LatencyBars
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header, Input, OptionList, Static
from textual.widgets.option_list import Option

from .screen_help import ScreenHelp

CLI_ENTRY = ("import sys\n"
             "if not getattr(sys.flags, 'safe_path', False): del sys.path[0]\n"
             "from diskdoctor.app.cli.main import main\n"
             "sys.exit(main(sys.argv[1:]))\n")
"""`diskdoctor ARGS` with this interpreter, without the working directory first on the import path."""
STOP_WAIT_S = 10.0
WATCH_HELP = ScreenHelp(
    title="Watch a database",
    shows=("The real database's own sync calls, as the kernel sees them: every fdatasync, fsync and "
           "sync_file_range of the chosen processes, timed from entry to exit, per file class (etcd's WAL "
           "apart from its bbolt backend, PostgreSQL's WAL, RocksDB's SST files...), each second and in "
           "total, with the WAL's histogram and its p99 against etcd's 10 ms. Stopping (s) saves it as a "
           "run. Needs root; it adds private tracefs instances (diskdoctor-*), removed when it stops."),
    words=(("PASS / FAIL", "bold", "the WAL's p99 durable call against the threshold (etcd: 10 ms)"),
           ("lost", "bold red", "events the kernel's buffer could not keep: the figures undercount")),
    sources=("syscalls/sys_enter_* and sys_exit_* tracepoints in a private tracefs instance, filtered in "
             "the kernel to the chosen processes' threads",
             "block_rq_issue / block_rq_complete for the devices under the data directory",
             "file of each call: /proc/PID/fd"))


def watch_argv(args: list[str]) -> list[str]:
    """argv that runs `diskdoctor watch ARGS`: the frozen binary itself, or this interpreter."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "watch", *args]
    return [sys.executable, "-c", CLI_ENTRY, "watch", *args]


@dataclass
class WatchLine(Message):
    """One JSON line of the watch child (start, interval, summary)."""

    data: dict[str, Any]


@dataclass
class WatchEnded(Message):
    """The watch child exited; `error` is its one-line complaint, if any."""

    code: int
    error: str


class WatchScreen(Screen[None]):
    """A picked process's sync calls per file class, live, from a `diskdoctor watch` child."""

    SCREEN_HELP = WATCH_HELP
    TITLE = "Watch"
    """The name the title row lights before what the watch shows."""
    BINDINGS = [
        Binding("s", "stop", "Stop and save", tooltip="Stop the watch; the summary is saved as a run."),
        Binding("escape", "app.pop_screen", "Back", tooltip="Back to the monitor (the watch stops)."),
    ]

    def __init__(self, root: Root) -> None:
        super().__init__()
        self.root = root
        self.child: subprocess.Popen[str] | None = None
        self.totals: dict[tuple[str, str, str], LatencyHistogram] = {}
        self.rows: dict[tuple[str, str, str], dict[str, Any]] = {}
        self.seconds = 0.0
        self.lost = 0
        self.process = ""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(Text("Type a pid or a program name below, then Enter."), id="watch-intro")
        yield KeyedOptionList(id="watch-processes")
        yield Input(placeholder="pid or program name, then Enter", id="watch-target")
        with VerticalScroll(id="watch-body"):
            yield Static("", id="watch-live")
            yield LatencyBars(id="watch-bars")
            yield Static("", id="watch-verdict")
        yield Static("", id="watch-status")
        yield FittedFooter()

    def on_mount(self) -> None:
        self.sub_title = "Per-call sync latency of a running database"
        self.query_one("#watch-bars", LatencyBars).display = False  # drawn once there is a WAL to show
        options = self.query_one("#watch-processes", OptionList)
        options.display = False  # shown only with databases in it (empty, it was a blank box)
        self.query_one("#watch-target", Input).focus()  # typing a pid works at once
        if not self.root.live:
            self.query_one("#watch-status", Static).update(
                Text("a capture has no running processes: watch needs the live host", style="bold red"))
            return
        found = candidates()
        options.display = bool(found)
        for name, pids, data_dir in found:
            options.add_option(Option(Text(visible(f"{name}  pids {', '.join(map(str, pids[:6]))}  "
                                                   f"data {data_dir or '-'}")), id=name))
        if found:
            self.query_one("#watch-intro", Static).update(Text(
                "Pick a running database (Tab to the list, then Enter), or type a pid or a program name."))
        else:
            self.query_one("#watch-intro", Static).update(Text(
                "No etcd, postgres, mysqld, ceph-osd or elasticsearch runs here: type a pid or a program "
                "name."))

    def on_unmount(self) -> None:
        self._stop(signal.SIGTERM)

    @on(OptionList.OptionSelected, "#watch-processes")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.start(["--process", str(event.option.id)])

    @on(Input.Submitted, "#watch-target")
    def _typed(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        if value:
            self.start(["--pid", value] if value.isdigit() else ["--process", value])

    def start(self, which: list[str]) -> None:
        """Start a watch child for the chosen process (stopping the one before)."""
        self._stop(signal.SIGTERM)
        self.totals, self.rows, self.seconds, self.lost, self.process = {}, {}, 0.0, 0, ""
        self.query_one("#watch-status", Static).update(Text("starting the tracing…"))
        self.child = subprocess.Popen(watch_argv([*which, "--json-lines"]), stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
        self.read_child(self.child)
        self.query_one("#watch-body", VerticalScroll).focus()  # keys are the screen's again (s stops)

    @work(thread=True, group="watch-child", exit_on_error=False, description="read the watch child")
    def read_child(self, child: subprocess.Popen[str]) -> None:
        """Worker: post each JSON line of the child, then how it ended."""
        assert child.stdout is not None and child.stderr is not None
        for line in child.stdout:
            with contextlib.suppress(ValueError):
                self.post_message(WatchLine(json.loads(line)))
        error = child.stderr.read().strip().splitlines()
        code = child.wait()
        problem = next((line for line in error if "error" in line), "")
        saved = next((line for line in error if "saved as run" in line), "")
        self.post_message(WatchEnded(code, problem or saved))

    def on_watch_line(self, message: WatchLine) -> None:
        data = message.data
        if data.get("type") == "start":
            self.process = str(data.get("process"))
            self.query_one("#watch-status", Static).update(
                visible(f"tracing {data['process']} (pids {', '.join(map(str, data['pids'][:8]))}) through "
                        f"{', '.join(data['instances'])} · s stops and saves"))
        elif data.get("type") == "interval":
            self._add_interval(data)
        elif data.get("type") == "summary":
            verdict = data.get("verdict")
            lines = [self._verdict_text(verdict) if verdict else "not judged (no threshold for this process)"]
            if data.get("prediction"):
                lines.append(str(data["prediction"]))
            self.query_one("#watch-verdict", Static).update(Text("\n".join(visible(line) for line in lines),
                                                                 style="bold"))

    def on_watch_ended(self, message: WatchEnded) -> None:
        style = "bold red" if message.code not in (0, 1) else ""
        text = message.error or f"the watch ended (exit {message.code})"
        self.query_one("#watch-status", Static).update(Text(visible(text), style=style))

    def _add_interval(self, data: dict[str, Any]) -> None:
        self.seconds = float(data.get("t") or 0.0)
        self.lost = int(data.get("lost_events") or 0)
        for row in data.get("by_class") or []:
            key = _row_key(row)
            self.rows[key] = row
            if isinstance(row.get("histogram"), dict):
                total = self.totals.setdefault(key, LatencyHistogram())
                total.merge(LatencyHistogram.from_json(row["histogram"]))
        # one line per row, figures before the path, cut (never wrapped) where the terminal ends: at 80
        # columns every figure shows and the path gives way
        text = Text(f"{'call':<13} {'file':<16} {'calls':>8} {'last s':>7} {'p50':>9} {'p99':>9} "
                    f"{'p99.9':>9}  path\n", style="bold", no_wrap=True, overflow="ellipsis")
        last = {_row_key(row): row for row in data.get("by_class") or []}
        for key, histogram in sorted(self.totals.items(), key=lambda item: ("WAL" not in item[0][1],
                                                                             -item[1].count)):
            recent = last.get(key, {}).get("latency_us", {}).get("samples", 0)
            text.append(f"{fit_end(visible(key[0]), 13):<13} {fit_end(visible(key[1]), 16):<16} "
                        f"{histogram.count:>8,} {recent:>7,} {_ms(histogram.percentile(50))} "
                        f"{_ms(histogram.percentile(99))} {_ms(histogram.percentile(99.9))}  "
                        f"{files_text([str(path) for path in self.rows[key].get('files') or []])}\n")
        if self.lost:
            text.append(f"lost events: {self.lost:,} (the figures undercount)\n", style="bold red")
        text.append(f"{self.seconds:.0f} s watched", style="dim")
        self.query_one("#watch-live", Static).update(text)
        wal = next(((key, h) for key, h in self.totals.items() if "WAL" in key[1] and key[0] != "write"),
                   None)
        if wal is not None:
            self._draw_wal(*wal)

    def _draw_wal(self, key: tuple[str, str, str], histogram: LatencyHistogram) -> None:
        """The WAL's histogram, and its verdict so far where the process has a threshold (etcd: 10 ms)."""
        call, label, _path = key
        bands = [(low, low * 10 ** 0.5, count) for low, count in histogram.log_bands()]
        self.query_one("#watch-bars", LatencyBars).display = True
        self.query_one("#watch-bars", LatencyBars).show_bands(visible(f"{call} on the {label}, whole watch"),
                                                             bands)
        if self.process != "etcd":
            return
        p99 = (histogram.percentile(99.0) or 0) / 1e6
        verdict = {"pass": p99 < ETCD_THRESHOLD_MS, "metric": f"p99 {call} of the {label}", "value_ms": p99,
                   "threshold_ms": ETCD_THRESHOLD_MS, "source": "etcd docs threshold"}
        self.query_one("#watch-verdict", Static).update(Text(self._verdict_text(verdict), style="bold"))

    @staticmethod
    def _verdict_text(verdict: dict[str, Any]) -> str:
        word = "PASS" if verdict.get("pass") else "FAIL"
        sign = "<" if verdict.get("pass") else AT_LEAST
        value = format_latency(float(verdict.get("value_ms") or 0) * 1e6)
        return visible(f"{word} {verdict.get('metric')} {value} {sign} {verdict.get('threshold_ms'):g} ms: "
                       f"{verdict.get('source')}")

    def action_stop(self) -> None:
        """Stop the watch as Ctrl-C does: the child prints its summary and saves the run."""
        self._stop(signal.SIGINT, wait=False)

    def _stop(self, signum: int, wait: bool = True) -> None:
        child = self.child
        if child is None or child.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            child.send_signal(signum)
        if wait:
            try:
                child.wait(timeout=STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


def _row_key(row: dict[str, Any]) -> tuple[str, str, str]:
    """(call, label, path): a file of no known role keeps a row of its own, as `class_rows` gives it."""
    files = row.get("files") or []
    own = str(files[0]) if row.get("class") == OTHER_CLASS and files else ""
    return str(row["call"]), str(row["label"]), own


def _ms(value_ns: float | None) -> str:
    return f"{format_latency(value_ns):>9}"
