"""Calibrate `bench wal` against a real etcd on the same directory: ours/etcd WAL fdatasync p50 and p99.

Starts a real etcd (Debian `etcd-server`) with its data directory inside --dir, drives one client sending
sequential 2,000-byte puts through etcd's v3 JSON gateway over one keep-alive HTTP connection (back to
back, at 50/s, at 500/s), and times etcd's own fdatasync calls from outside with
`perf trace -a -e fdatasync` (Debian `linux-perf`; `-p PID` misses the threads Go starts later), keeping
etcd's threads and mapping each fd to its file through /proc/PID/fd (`*.wal`: the WAL, `db`: bbolt).
Then runs our WAL benchmark (the etcd profile, one open-loop level at the same load; back to back: at the
rate etcd reached) on the same directory. Rounds alternate which goes first, and every phase starts on a
quiet disk (`sync`, then no request in flight for a second), so neither side pays for the writeback or
the discards of the files the other just deleted. Prints every figure, the
median over rounds of ours/etcd for p50 and p99 per load, and how many rounds the spread needs.
With --fio it also runs fio's community etcd job there each round (closed loop: a community check).

Installs nothing: it needs `etcd` and `etcdctl` (etcd-server, etcd-client) and `perf` (linux-perf), or
`strace` as a slower fallback (ptrace overhead inflates etcd's figures). Needs root for perf.

Usage (root):
  .venv/bin/python bench/calibrate_etcd.py --dir /var/tmp --rounds 3
  .venv/bin/python bench/calibrate_etcd.py --dir /mnt/xfs --rounds 3 --fio --json figures.json
  .venv/bin/python bench/calibrate_etcd.py --dir /var/tmp --small          (CI: seconds, not minutes)
Exit: 0 done (with --check: every ratio within its band), 1 --check found one outside, 2 unusable input.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import http.client
import json
import math
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field, replace

from diskdoctor.probes.engine.protocol import Finished
from diskdoctor.probes.engine.runner import EngineRun
from diskdoctor.probes.engine.runtime import EngineConfig
from diskdoctor.probes.engine.workloads.wal import WalResult
from diskdoctor.probes.wal_params import PROFILES, WalParams
from diskdoctor.probes.wal_target import TargetError, describe_target
from quiet_disk import settle

VALUE_BYTES = 2000
"""Each put's value: the issue's and etcd's hardware guide's sequential-write scenario."""
OUR_BS = 2040
"""Our record payload for a 2,000-byte put: etcd writes 2,104 bytes per put (strace), our framing of 2,040
bytes gives the same."""
LOADS = ("b2b", "50", "500")
P50_BAND = (0.85, 1.15)
P99_BAND = (0.75, 1.33)
START_TIMEOUT_S = 20.0
STOP_WAIT_S = 10.0
WARMUP_PUTS = 200
SETTLE_NOTE_S = 3.0
"""A wait for the disk to go quiet longer than this is printed (the previous phase's aftermath)."""
PACKAGES = "etcd-server etcd-client linux-perf"
TRACE_LINE = re.compile(r"\s*([\d.]+) \(\s*([\d.]*)(?: ms)?\s*\): (\S+?)/(\d+) (.*)")
STRACE_LINE = re.compile(r"(\d+)\s+[\d:.]+ (?:fdatasync\((\d+)\)|<\.\.\. fdatasync resumed>).*<([\d.]+)>")


class CalibrationError(Exception):
    """A one-line reason the calibration cannot run."""


@dataclass
class Figures:
    """One side's fdatasync figures at one load in one round (µs), from `count` calls, at `rate` puts/s."""

    p50: float | None
    p99: float | None
    count: int
    rate: float
    db_p99: float | None = None


@dataclass
class Round:
    """Both sides at every load in one round, and fio's community job if asked for."""

    index: int
    etcd: dict[str, Figures] = field(default_factory=dict)
    ours: dict[str, Figures] = field(default_factory=dict)
    """Ours timed by the same tracer as etcd (what the ratios use), or by its own clock without perf."""
    ours_own_clock: dict[str, Figures] = field(default_factory=dict)
    fio: Figures | None = None


def percentile(values: list[float], pct: float) -> float | None:
    """Nearest-rank percentile of `values` (None when empty)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(pct / 100 * len(ordered)) - 1))]


def free_port() -> int:
    """A free TCP port on the loopback address."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def tools() -> str:
    """"perf" or "strace", after checking every tool is installed; CalibrationError names what is not."""
    missing = [name for name in ("etcd", "etcdctl") if shutil.which(name) is None]
    tracer = "perf" if shutil.which("perf") else "strace" if shutil.which("strace") else None
    if tracer is None:
        missing.append("perf")
    if missing:
        raise CalibrationError(f"missing {', '.join(missing)} (install: apt-get install {PACKAGES})")
    if os.geteuid() != 0:
        raise CalibrationError("tracing etcd's fdatasync calls needs root")
    return tracer


class Etcd:
    """One real etcd with its data directory in `parent`; always stopped and removed (context manager)."""

    def __init__(self, parent: str) -> None:
        self.home = tempfile.mkdtemp(prefix="calibrate-etcd-", dir=parent)
        self.client_port, self.peer_port = free_port(), free_port()
        client, peer = f"http://127.0.0.1:{self.client_port}", f"http://127.0.0.1:{self.peer_port}"
        self.log = open(os.path.join(self.home, "etcd.log"), "wb")  # noqa: SIM115 (closed in stop)
        self.process = subprocess.Popen(
            ["etcd", "--name", "calibrate", "--data-dir", os.path.join(self.home, "data"),
             "--listen-client-urls", client, "--advertise-client-urls", client,
             "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
             "--initial-cluster", f"calibrate={peer}", "--log-level", "error"],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.connection: http.client.HTTPConnection | None = None

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait_ready(self) -> None:
        """Until `etcdctl endpoint health` says so and a put succeeds (or etcd exited, or timed out)."""
        deadline = time.monotonic() + START_TIMEOUT_S
        health = ["etcdctl", f"--endpoints=http://127.0.0.1:{self.client_port}", "--command-timeout=2s",
                  "endpoint", "health"]
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise CalibrationError(f"etcd exited with status {self.process.returncode} at start "
                                       f"(log: {self.tail_log()})")
            with contextlib.suppress(OSError, http.client.HTTPException, CalibrationError,
                                     subprocess.SubprocessError):
                subprocess.run(health, capture_output=True, timeout=5, check=True,
                               env={**os.environ, "ETCDCTL_API": "3"})
                self.put(0)
                return
            self.connection = None
            time.sleep(0.2)
        raise CalibrationError(f"etcd did not answer within {START_TIMEOUT_S:g} s (log: {self.tail_log()})")

    def tail_log(self) -> str:
        with contextlib.suppress(OSError), open(os.path.join(self.home, "etcd.log"), "rb") as handle:
            lines = handle.read().decode(errors="replace").strip().splitlines()
            return lines[-1][:200] if lines else "empty"
        return "unreadable"

    def put(self, index: int) -> None:
        """One 2,000-byte put through the v3 JSON gateway, on the one keep-alive connection."""
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.client_port, timeout=10)
        body = json.dumps({"key": base64.b64encode(b"calibrate/%09d" % index).decode(),
                           "value": VALUE})
        self.connection.request("POST", "/v3/kv/put", body, {"Content-Type": "application/json"})
        response = self.connection.getresponse()
        data = response.read()
        if response.status != 200:
            raise CalibrationError(f"etcd refused a put: HTTP {response.status} {data[:120]!r}")

    def drive(self, load: str, seconds: float, first: int) -> tuple[int, float]:
        """Sequential puts for `seconds`: back to back, or due every 1/rate s (a late put goes at once);
        returns (puts, achieved puts/s)."""
        rate = None if load == "b2b" else float(load)
        start = time.perf_counter()
        count = 0
        while True:
            now = time.perf_counter()
            if now - start >= seconds:
                break
            if rate is not None:
                due = start + count / rate
                if due >= start + seconds:
                    break
                if due > now:
                    time.sleep(due - now)
            self.put(first + count)
            count += 1
        return count, count / (time.perf_counter() - start)

    def files(self) -> dict[str, str]:
        """fd number -> "wal" or "db" for etcd's open WAL segments and bbolt file."""
        kinds = {}
        folder = f"/proc/{self.pid}/fd"
        for fd in os.listdir(folder):
            with contextlib.suppress(OSError):
                target = os.readlink(os.path.join(folder, fd))
                if target.endswith(".wal"):
                    kinds[fd] = "wal"
                elif target.endswith("/db"):
                    kinds[fd] = "db"
        return kinds

    def threads(self) -> set[str]:
        return set(os.listdir(f"/proc/{self.pid}/task"))

    def stop(self) -> None:
        """SIGTERM (SIGKILL after STOP_WAIT_S), then remove its data directory."""
        if self.connection is not None:
            self.connection.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        shutil.rmtree(self.home, ignore_errors=True)

    def __enter__(self) -> Etcd:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


VALUE = base64.b64encode(b"v" * VALUE_BYTES).decode()


class Trace:
    """fdatasync calls timed from outside while a block runs (perf trace -a, or strace -p PID); `parse`
    then sorts them by file kind for the threads and fds the caller names."""

    def __init__(self, tracer: str, workdir: str, strace_pid: int | None = None) -> None:
        self.tracer, self.out = tracer, os.path.join(workdir, f"trace-{os.getpid()}.txt")
        if tracer == "perf":
            argv = ["perf", "trace", "-a", "-e", "fdatasync", "-o", self.out]
        else:
            argv = ["strace", "-f", "-T", "-tt", "-e", "trace=fdatasync", "-p", str(strace_pid), "-o",
                    self.out]
        self.process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)  # perf needs a moment to attach its tracepoints
        if self.process.poll() is not None:
            raise CalibrationError(f"{tracer} stopped at once (status {self.process.returncode}): "
                                   "cannot trace")

    def stop(self) -> None:
        """SIGINT the tracer (it writes out what it has) and wait for it."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def parse(self, threads: set[str], kind_of: dict[str, str] | None,
              kind_by_thread: dict[str, str] | None = None) -> dict[str, list[float]]:
        """µs per file kind: by fd (`kind_of`: fd -> kind) or by thread (`kind_by_thread`)."""
        parse = parse_perf if self.tracer == "perf" else parse_strace
        found = parse(self.out, threads, kind_of, kind_by_thread)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.out)
        return found

    def __enter__(self) -> Trace:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()
        with contextlib.suppress(FileNotFoundError):
            if _exc[0] is not None:
                os.unlink(self.out)


def _kind(fd: str | None, tid: str, kinds: dict[str, str] | None,
          by_thread: dict[str, str] | None) -> str | None:
    if by_thread is not None:
        return by_thread.get(tid)
    return kinds.get(fd) if kinds is not None and fd is not None else None


def parse_perf(path: str, threads: set[str], kinds: dict[str, str] | None,
               by_thread: dict[str, str] | None = None) -> dict[str, list[float]]:
    """fdatasync durations (µs) of `threads` per file kind from `perf trace` output; a call interrupted
    by another event shows as an open line then a "[continued]" line with its duration."""
    found: dict[str, list[float]] = {}
    open_calls: dict[str, str] = {}
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            match = TRACE_LINE.match(line)
            if not match or match[4] not in threads:
                continue
            fd_match = re.search(r"fdatasync\(fd: (\d+)", match[5])
            if fd_match and not match[2]:
                open_calls[match[4]] = fd_match[1]
                continue
            fd = fd_match[1] if fd_match else open_calls.pop(match[4], None)
            kind = _kind(fd, match[4], kinds, by_thread)
            if match[2] and kind is not None:
                found.setdefault(kind, []).append(float(match[2]) * 1000.0)
    return found


def parse_strace(path: str, threads: set[str], kinds: dict[str, str] | None,
                 by_thread: dict[str, str] | None = None) -> dict[str, list[float]]:
    """The same from `strace -f -T` output (split calls are joined by thread)."""
    found: dict[str, list[float]] = {}
    open_calls: dict[str, str] = {}
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            start = re.match(r"(\d+)\s+[\d:.]+ fdatasync\((\d+) <unfinished", line)
            if start:
                open_calls[start[1]] = start[2]
                continue
            match = STRACE_LINE.match(line)
            if not match or match[1] not in threads:
                continue
            fd = match[2] or open_calls.pop(match[1], None)
            kind = _kind(fd, match[1], kinds, by_thread)
            if kind is not None:
                found.setdefault(kind, []).append(float(match[3]) * 1e6)
    return found


def figures(values: list[float], rate: float, db: list[float] | None = None) -> Figures:
    """Figures of traced fdatasync durations (µs); `count` is how many were traced."""
    return Figures(percentile(values, 50), percentile(values, 99), len(values), rate,
                   percentile(db or [], 99))


def measure_etcd(etcd: Etcd, tracer: str, load: str, seconds: float, workdir: str, first: int) -> Figures:
    """etcd's WAL fdatasync figures at `load`."""
    with Trace(tracer, workdir, etcd.pid) as trace:
        _count, rate = etcd.drive(load, seconds, first)
        time.sleep(0.2)
    found = trace.parse(etcd.threads(), etcd.files())
    return figures(found.get("wal", []), rate, found.get("db"))


def our_params(rate: float, seconds: float, commit_ms: float | None = None) -> WalParams:
    """The etcd profile at one open-loop rate, for 2,000-byte puts (`commit_ms`: another backend commit
    interval, to see what it does)."""
    params = replace(PROFILES["etcd"], bs=OUR_BS, rates=(rate,), capacity=False, level_s=seconds)
    return params if commit_ms is None else replace(params, commit_ms=commit_ms)


def measure_ours(directory: str, rate: float, seconds: float, tracer: str, workdir: str,
                 commit_ms: float | None = None) -> tuple[Figures, Figures | None]:
    """Our engine, exactly as `bench wal` runs it, at `rate` steady: its own figures, and its fdatasync
    calls timed by the same tracer as etcd's (perf only: it sees threads that start after it)."""
    params = our_params(rate, seconds, commit_ms)
    target = describe_target(directory, params.scratch_bytes)
    trace = Trace(tracer, workdir) if tracer == "perf" else None
    roles: dict[str, str] = {}
    try:
        run = EngineRun(EngineConfig("wal", target.directory, params, list(target.layers)), record_host=False)
        roles[str(run.process.pid)] = "wal"

        def note_committer(_event: object) -> None:
            with contextlib.suppress(OSError):
                pid = str(run.process.pid)
                with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as handle:
                    roles.update({child: "db" for child in handle.read().split()})

        final = run.wait(note_committer)
    finally:
        if trace is not None:
            trace.stop()
    if not isinstance(final, Finished) or not isinstance(final.result, WalResult):
        raise CalibrationError(f"our benchmark failed: {getattr(final, 'message', final)}")
    level = final.result.levels[0]
    us = [(level.sync.percentile(p) or 0.0) / 1000.0 for p in (50.0, 99.0)]
    own = Figures(us[0], us[1], level.sync.count, level.achieved_per_s or 0.0,
                  (level.commit.percentile(99.0) or 0.0) / 1000.0 if level.commit.count else None)
    if trace is None:
        return own, None
    found = trace.parse(set(roles), None, roles)
    return own, figures(found.get("wal", []), own.rate, found.get("db"))


def measure_fio(directory: str, small: bool) -> Figures | None:
    """fio's community etcd job on the same directory (closed loop), if fio is installed."""
    if shutil.which("fio") is None:
        return None
    from diskdoctor.probes.fio_run import run_fio

    params = replace(PROFILES["etcd"], size=(1 << 20) if small else 22 << 20)
    stats = run_fio(params, directory)
    return Figures(stats.percentiles_ns.get(50.0, 0.0) / 1000.0, stats.percentiles_ns.get(99.0, 0.0) / 1000.0,
                   stats.samples, stats.ops_per_s)


def run_round(index: int, args: argparse.Namespace, tracer: str, b2b_rate: list[float]) -> Round:
    """One round: a fresh etcd, then per load etcd and ours, in an order that alternates by round."""
    result = Round(index)
    ours_first = index % 2 == 1
    with Etcd(args.dir) as etcd:
        etcd.wait_ready()
        workdir = etcd.home
        for i in range(WARMUP_PUTS):
            etcd.put(i + 1)
        first = 100_000
        for load in args.loads:
            # back to back, ours runs at the rate etcd just reached, so etcd goes first
            sides = ("ours", "etcd") if ours_first and load != "b2b" else ("etcd", "ours")
            for side in sides:
                waited = settle()
                if waited > SETTLE_NOTE_S:
                    print(f"  (waited {waited:.1f} s for the disk to go quiet before {side} {load})",
                          flush=True)
                if side == "etcd":
                    result.etcd[load] = measure_etcd(etcd, tracer, load, phase_seconds(args, load), workdir,
                                                     first)
                    first += result.etcd[load].count + 10
                    if load == "b2b":
                        b2b_rate.append(result.etcd[load].rate)
                else:
                    rate = b2b_rate[-1] if load == "b2b" else float(load)  # etcd's rate this round
                    own, traced_ours = measure_ours(args.dir, rate, phase_seconds(args, load), tracer,
                                                    workdir, args.commit_ms)
                    result.ours[load] = traced_ours or own
                    result.ours_own_clock[load] = own
                report(f"round {index + 1} {side:<4} {load:>4}", getattr(result, side)[load])
                if side == "ours" and load in result.ours_own_clock:
                    report(f"round {index + 1} ours {load:>4} (own clock)", result.ours_own_clock[load])
    if args.fio:
        result.fio = measure_fio(args.dir, args.small)
        if result.fio is not None:
            report(f"round {index + 1} fio  b2b", result.fio)
    return result


def phase_seconds(args: argparse.Namespace, load: str) -> float:
    """Seconds of one side at `load`: --seconds, longer at a slow rate so the phase holds --min-syncs calls
    (a p99 of 750 calls is the 8th slowest, and a few stalls of the shared disk move it ×20)."""
    return args.seconds if load == "b2b" else max(args.seconds, args.min_syncs / float(load))


def report(label: str, fig: Figures) -> None:
    db = f"  db p99 {fig.db_p99:,.0f} µs" if fig.db_p99 else ""
    print(f"{label}: fdatasync p50 {_us(fig.p50)} p99 {_us(fig.p99)}  ({fig.count:,} at {fig.rate:,.0f}/s)"
          f"{db}", flush=True)


def _us(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f} µs"


def _ratio(ours: float | None, theirs: float | None) -> float | None:
    return ours / theirs if ours and theirs else None


def rounds_needed(values: list[float], tolerance: float) -> int | None:
    """Rounds whose median lands within ±tolerance of the true figure at ~95%, from the spread seen
    (coefficient of variation, normal approximation); None with fewer than two values."""
    if len(values) < 2 or not statistics.mean(values):
        return None
    cv = statistics.stdev(values) / statistics.mean(values)
    return max(1, math.ceil((1.96 * cv * 1.25 / tolerance) ** 2))


def summarise(rounds: list[Round], loads: list[str]) -> tuple[list[str], bool, dict[str, object]]:
    """The summary lines, whether every median ratio is in its band, and the same as JSON."""
    lines = ["", f"median over {len(rounds)} round(s), ours/etcd WAL fdatasync "
                 f"(bands: p50 {P50_BAND[0]}-{P50_BAND[1]}, p99 {P99_BAND[0]}-{P99_BAND[1]}):"]
    inside, table = True, {}
    for load in loads:
        ratios = {p: [r for r in (_ratio(getattr(x.ours[load], p), getattr(x.etcd[load], p))
                                  for x in rounds if load in x.ours and load in x.etcd) if r is not None]
                  for p in ("p50", "p99")}
        etcd = {p: [getattr(x.etcd[load], p) for x in rounds if load in x.etcd and getattr(x.etcd[load], p)]
                for p in ("p50", "p99")}
        ours = {p: [getattr(x.ours[load], p) for x in rounds if load in x.ours and getattr(x.ours[load], p)]
                for p in ("p50", "p99")}
        median = {p: statistics.median(v) if v else None for p, v in ratios.items()}
        ok = all(m is not None and band[0] <= m <= band[1]
                 for m, band in ((median["p50"], P50_BAND), (median["p99"], P99_BAND)))
        inside &= ok
        need = {p: rounds_needed(etcd[p], tol) for p, tol in (("p50", 0.15), ("p99", 0.29))}
        label = "back to back" if load == "b2b" else f"{load}/s"
        lines.append(f"  {label:<13} p50 x{_fmt(median['p50'])} (etcd {_med(etcd['p50'])}, ours "
                     f"{_med(ours['p50'])})  p99 x{_fmt(median['p99'])} (etcd {_med(etcd['p99'])}, ours "
                     f"{_med(ours['p99'])})  {'in band' if ok else 'OUT OF BAND'}; rounds needed: "
                     f"p50 {need['p50'] or '?'}, p99 {need['p99'] or '?'}")
        table[load] = {"ratio_p50": median["p50"], "ratio_p99": median["p99"], "in_band": ok,
                       "etcd_p50_us": _median(etcd["p50"]), "etcd_p99_us": _median(etcd["p99"]),
                       "ours_p50_us": _median(ours["p50"]), "ours_p99_us": _median(ours["p99"]),
                       "rounds_needed_p50": need["p50"], "rounds_needed_p99": need["p99"]}
    fio = [x.fio for x in rounds if x.fio is not None]
    if fio:
        p50, p99 = _median([f.p50 for f in fio if f.p50]), _median([f.p99 for f in fio if f.p99])
        etcd_b2b = [x.etcd["b2b"] for x in rounds if "b2b" in x.etcd]
        e50 = _median([f.p50 for f in etcd_b2b if f.p50])
        e99 = _median([f.p99 for f in etcd_b2b if f.p99])
        lines.append(f"  fio community job (closed loop): p50 {_us(p50)} p99 {_us(p99)}; against etcd "
                     f"back to back x{_fmt(_ratio(p50, e50))} / x{_fmt(_ratio(p99, e99))}")
        table["fio"] = {"p50_us": p50, "p99_us": p99, "ratio_p50": _ratio(p50, e50),
                        "ratio_p99": _ratio(p99, e99)}
    return lines, inside, table


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _med(values: list[float]) -> str:
    return _us(_median(values))


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", required=True, help="the directory etcd and ours write in (same filesystem)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    parser.add_argument("--seconds", type=float, help="seconds per load and side (default 20; --small: 2)")
    parser.add_argument("--min-syncs", type=int, default=3000,
                        help="lengthen a slow load's phase to this many syncs (default 3,000: 60 s at 50/s; "
                             "--small: 0)")
    parser.add_argument("--loads", default=",".join(LOADS), help="b2b,50,500 (default all three)")
    parser.add_argument("--small", action="store_true", help="CI size: 1 round of 2 s per load")
    parser.add_argument("--fio", action="store_true", help="also run fio's community etcd job each round")
    parser.add_argument("--json", metavar="FILE", help="also write every figure and the summary as JSON")
    parser.add_argument("--check", action="store_true", help="exit 1 when a median ratio is outside its band")
    parser.add_argument("--commit-ms", type=float,
                        help="run ours with this backend commit interval (0: none)")
    args = parser.parse_args(argv)
    if args.small:
        args.rounds = 1 if args.rounds == parser.get_default("rounds") else args.rounds
        args.seconds = args.seconds or 2.0
        args.min_syncs = 0 if args.min_syncs == parser.get_default("min_syncs") else args.min_syncs
    args.seconds = args.seconds or 20.0
    args.loads = [load.strip() for load in args.loads.split(",") if load.strip()]
    bad = [load for load in args.loads if load != "b2b" and not re.fullmatch(r"\d+(\.\d+)?", load)]
    if bad or not args.loads:
        raise CalibrationError(f"unknown load {', '.join(bad) or '(none)'} (use b2b or writes/s, e.g. 50)")
    if any(load != "b2b" and not 0 < float(load) <= 10_000 for load in args.loads):
        raise CalibrationError("a load must be more than 0 and at most 10,000 puts/s")
    if not 0 <= args.min_syncs <= 1_000_000:
        raise CalibrationError("--min-syncs must be 0 to 1,000,000")
    if not 1 <= args.rounds <= 50:
        raise CalibrationError("--rounds must be 1 to 50")
    if not 0.5 <= args.seconds <= 3600:
        raise CalibrationError("--seconds must be 0.5 to 3600")
    return args


def _interrupt(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str]) -> int:
    # stop cleanly (etcd stopped, its data and our scratch removed) on Ctrl-C, SIGTERM and SIGHUP, even
    # when started in the background, where SIGINT arrives ignored
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _interrupt)
    try:
        args = parse_args(argv)
        if not os.path.isdir(args.dir):
            raise CalibrationError(f"{args.dir} is not a directory")
        describe_target(args.dir, PROFILES["etcd"].scratch_bytes)  # refuses what bench wal refuses
        tracer = tools()
        print(f"calibrating on {args.dir}: etcd {_etcd_version()}, tracer {tracer}, {args.rounds} round(s) "
              f"of {args.seconds:g} s per load ({', '.join(args.loads)}; at least {args.min_syncs:,} syncs "
              f"each), {VALUE_BYTES:,}-byte puts",
              flush=True)
        rounds, b2b_rate = [], []
        for index in range(args.rounds):
            rounds.append(run_round(index, args, tracer, b2b_rate))
        lines, inside, table = summarise(rounds, args.loads)
        print("\n".join(lines))
        if args.json:
            with open(args.json, "w", encoding="utf-8") as handle:
                json.dump({"dir": args.dir, "rounds": [asdict(r) for r in rounds], "summary": table}, handle,
                          indent=2)
        return 1 if args.check and not inside else 0
    except (CalibrationError, TargetError, OSError, http.client.HTTPException) as err:
        print(f"calibrate_etcd: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("calibrate_etcd: interrupted", file=sys.stderr)
        return 130


def _etcd_version() -> str:
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        out = subprocess.run(["etcd", "--version"], capture_output=True, text=True, timeout=10).stdout
        match = re.search(r"etcd Version: (\S+)", out)
        if match:
            return match.group(1)
    return "(version unknown)"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
