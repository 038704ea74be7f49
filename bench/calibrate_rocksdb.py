"""Calibrate `bench interference`'s store against real RocksDB (db_bench) on one directory: median ratios.

Each round runs, in alternating order, (a) ours: `bench interference` (its store: RocksDB through rocksdict,
started from db_bench's own OPTIONS file, as `--rocksdb-options` does), and (b) theirs: the same WAL writer
alone, then beside Debian's db_bench `fillrandom` (flushes and compactions, no compression, 2 background
jobs) once its first compaction has run. It prints each run's WAL p99 alone and beside, the interference
ratio (p99 beside / alone) and the compaction's write and read MB/s over the WAL's window (db_bench's from
its LOG: table files created, and the inputs of the compactions that finished; ours from RocksDB's
statistics), then the medians of ours/db_bench. Targets: interference 0.7-1.3, compaction MB/s 0.75-1.25.
With --aggressor model it calibrates the compaction model instead (the fallback where rocksdict cannot load).

Usage (root; --make-loop builds a fresh ext4 or xfs on a loop device under /var/tmp):
  .venv/bin/python bench/calibrate_rocksdb.py --dir /var/tmp --rounds 3 --lock /work/wt/measure.lock
  .venv/bin/python bench/calibrate_rocksdb.py --make-loop xfs --rounds 3
  .venv/bin/python bench/calibrate_rocksdb.py --dir /tmp --small          # seconds, for CI
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import glob
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

import quiet_disk
from diskdoctor.probes.engine.protocol import Finished, PhaseChanged, Started
from diskdoctor.probes.engine.runner import EngineRun
from diskdoctor.probes.engine.runtime import EngineConfig
from diskdoctor.probes.engine.workloads.interference import (
    DEFAULT_COMPACTION,
    DEFAULT_WAL,
    InterferenceParams,
    InterferenceResult,
)
from diskdoctor.probes.engine.workloads.rocksdb_store import KEY_BYTES, VALUE_BYTES, StoreParams
from diskdoctor.probes.engine.workloads.wal import WalResult
from diskdoctor.probes.rocksdb_options import load_options
from diskdoctor.probes.wal_params import WalParams
from diskdoctor.probes.wal_target import describe_target
from loop_image import loop_fs

MIB = 1 << 20
FULL = {"memtable": 8 * MIB, "level_base": 32 * MIB, "phase_s": 20.0, "rounds": 3}
SMALL = {"memtable": 2 * MIB, "level_base": 8 * MIB, "phase_s": 3.0, "rounds": 1}
FIRST_COMPACTION_S = 60.0
"""db_bench must have finished a compaction by then (it does within seconds at these sizes)."""
LOOP_MIB = 8192


@dataclass
class Figures:
    """One side of a round: the WAL p99 alone and beside the store, and what the store compacted meanwhile."""

    p99_alone_us: float
    p99_beside_us: float
    write_mb_s: float
    read_mb_s: float
    cpu_cores: float = 0.0
    """CPU the store used while the WAL ran beside it, in cores (its threads together)."""
    puts_s: float = 0.0
    """The store's puts per second meanwhile (ours: its count; db_bench: the entries its flushes took)."""

    @property
    def ratio(self) -> float:
        """The interference ratio: p99 beside / alone."""
        return self.p99_beside_us / self.p99_alone_us if self.p99_alone_us else float("nan")


def db_bench_argv(db_bench: str, db: str, size: dict[str, float], seconds: int, benchmark: str) -> list[str]:
    """db_bench fillrandom with small memtables and files, so flushes and compactions start in seconds."""
    memtable, base = int(size["memtable"]), int(size["level_base"])
    return [db_bench, f"--benchmarks={benchmark}", f"--db={db}", "--num=1000000000", f"--duration={seconds}",
            "--compression_type=none", "--value_size=100", f"--write_buffer_size={memtable}",
            f"--target_file_size_base={memtable}", f"--max_bytes_for_level_base={base}",
            "--max_background_jobs=2", "--seed=1"]


def options_file(db_bench: str, size: dict[str, float], keep: str) -> str:
    """Let db_bench write its OPTIONS file (a 1,000-key fill) and keep a copy in `keep`."""
    db = tempfile.mkdtemp(prefix="calibrate-options-")
    try:
        argv = db_bench_argv(db_bench, db, size, 0, "fillseq") + ["--num=1000"]
        subprocess.run(argv, capture_output=True, check=True, timeout=120)
        found = sorted(glob.glob(os.path.join(db, "OPTIONS-*")))
        if not found:
            raise SystemExit("db_bench wrote no OPTIONS file")
        path = os.path.join(keep, os.path.basename(found[-1]))
        shutil.copyfile(found[-1], path)
        return path
    finally:
        shutil.rmtree(db, ignore_errors=True)


def settle() -> None:
    """Let the previous run's dirty data, deletions and discards reach the disk before a baseline is
    measured: `sync`, then no request in flight for a second."""
    quiet_disk.settle()


def wal_run(params: WalParams, directory: str) -> WalResult:
    """Our WAL engine, exactly as `bench wal` runs it."""
    target = describe_target(directory, params.scratch_bytes)
    final = EngineRun(EngineConfig("wal", target.directory, params, list(target.layers))).wait()
    if not isinstance(final, Finished):
        raise SystemExit(f"WAL run failed: {final.message}")
    return final.result  # type: ignore[no-any-return]


def p99_us(result: WalResult) -> float:
    """The durable call's p99 in µs."""
    return (result.sync.percentile(99.0) or 0.0) / 1e3


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process so far (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class CpuWindow:
    """The CPU a process used between `start()` and `stop()`, in cores."""

    def __init__(self) -> None:
        self.pid = 0
        self.begin = self.cpu = 0.0
        self.cores = 0.0

    def start(self, pid: int) -> None:
        self.pid, self.begin, self.cpu = pid, time.monotonic(), cpu_seconds(pid)

    def stop(self) -> None:
        if self.pid and time.monotonic() > self.begin:
            self.cores = (cpu_seconds(self.pid) - self.cpu) / (time.monotonic() - self.begin)
            self.pid = 0


def ours(params: InterferenceParams, directory: str) -> Figures:
    """`bench interference` with the store started from db_bench's options."""
    target = describe_target(directory, params.scratch_bytes)
    settle()
    run = EngineRun(EngineConfig("interference", target.directory, params, list(target.layers)))
    store, window = 0, CpuWindow()

    def watch(event: object) -> None:
        nonlocal store
        if isinstance(event, Started) and event.job.startswith("compaction"):
            store = event.pid
        elif isinstance(event, PhaseChanged) and not event.job and event.phase == "under_compaction":
            window.start(store)
        elif isinstance(event, PhaseChanged) and not event.job and event.phase == "cleanup":
            window.stop()

    final = run.wait(watch)
    if not isinstance(final, Finished):
        raise SystemExit(f"interference run failed: {final.message}")
    result: InterferenceResult = final.result
    read, write = result.compaction_mb_s()
    puts = result.rocksdb.puts / result.rocksdb.seconds if result.rocksdb and result.rocksdb.seconds else 0.0
    return Figures(p99_us(result.alone), p99_us(result.under_compaction), write, read, window.cores, puts)


def log_events(db: str) -> list[dict[str, object]]:
    """db_bench's EVENT_LOG_v1 records from its LOG."""
    events = []
    with contextlib.suppress(FileNotFoundError), open(os.path.join(db, "LOG"), errors="replace") as log:
        for line in log:
            marker = line.find("EVENT_LOG_v1 ")
            if marker >= 0:
                with contextlib.suppress(ValueError):
                    events.append(json.loads(line[marker + len("EVENT_LOG_v1 "):]))
    return events


def compaction_mb_s(events: list[dict[str, object]], start_us: float, end_us: float) -> tuple[float, float]:
    """(write, read) MB/s over the window: table files created in it (flushes and compactions, as
    RocksDB's "Cumulative compaction" counts), and the inputs of the compactions that finished in it."""
    seconds = (end_us - start_us) / 1e6
    inputs = {e.get("job"): int(e.get("input_data_size") or 0) for e in events
              if e.get("event") == "compaction_started"}
    inside = [e for e in events if start_us <= float(e.get("time_micros") or 0) <= end_us]  # type: ignore[arg-type]
    written = sum(int(e.get("file_size") or 0) for e in inside if e.get("event") == "table_file_creation")  # type: ignore[call-overload]
    read = sum(inputs.get(e.get("job"), 0) for e in inside if e.get("event") == "compaction_finished")
    return written / seconds / 1e6, read / seconds / 1e6


def first_compaction_done(db: str) -> bool:
    """Whether db_bench has finished a compaction (its LOG says so)."""
    return any(e.get("event") == "compaction_finished" for e in log_events(db))


def theirs(wal: WalParams, db_bench: str, size: dict[str, float], directory: str) -> Figures:
    """The WAL alone, then beside db_bench fillrandom in a scratch dir of the same directory."""
    settle()
    alone = wal_run(wal, directory)
    db = tempfile.mkdtemp(prefix="calibrate-db-", dir=directory)
    seconds = int(FIRST_COMPACTION_S + (wal.duration_s or 20) * 3 + 30)
    process = subprocess.Popen(db_bench_argv(db_bench, db, size, seconds, "fillrandom"),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + FIRST_COMPACTION_S
        while not first_compaction_done(db):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"db_bench ran no compaction (exit {process.poll()})")
            time.sleep(0.2)
        window = CpuWindow()
        window.start(process.pid)
        start = time.time()
        beside = wal_run(wal, directory)
        end = time.time()
        window.stop()
        events = log_events(db)
        write, read = compaction_mb_s(events, start * 1e6, end * 1e6)
        flushed = sum(int(e.get("num_entries") or 0) for e in events  # type: ignore[call-overload]
                      if e.get("event") == "flush_started"
                      and start * 1e6 <= float(e.get("time_micros") or 0) <= end * 1e6)  # type: ignore[arg-type]
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
        process.wait()
        shutil.rmtree(db, ignore_errors=True)
    return Figures(p99_us(alone), p99_us(beside), write, read, window.cores, flushed / (end - start))


@contextlib.contextmanager
def locked(path: str | None) -> Iterator[None]:
    """Hold an exclusive flock on `path` (shared machines: one measuring round at a time)."""
    if not path:
        yield
        return
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def line(index: int, name: str, figures: Figures) -> str:
    """One run's figures."""
    return (f"round {index} {name:<8} WAL p99 alone {figures.p99_alone_us:8.0f} µs  beside "
            f"{figures.p99_beside_us:8.0f} µs  ratio {figures.ratio:7.2f}  compaction write "
            f"{figures.write_mb_s:6.1f} MB/s  read {figures.read_mb_s:6.1f} MB/s  store CPU "
            f"{figures.cpu_cores:4.2f} cores  {figures.puts_s:7,.0f} puts/s")


def calibrate(directory: str, rounds: int, size: dict[str, float], lock: str | None, db_bench: str,
              aggressor: str = "rocksdb", match_puts: bool = False) -> int:
    """Alternate the rounds, print each run, then the median ratios ours/db_bench; 0 when all printed."""
    keep = tempfile.mkdtemp(prefix="calibrate-rocksdb-")
    try:
        options = load_options(options_file(db_bench, size, keep))
        wal = replace(DEFAULT_WAL, duration_s=size["phase_s"])
        store = StoreParams(options_file=os.path.basename(options.path), options_text=options.text)
        model = replace(DEFAULT_COMPACTION, file_size=int(size["memtable"]),  # type: ignore[arg-type]
                        bytes_per_sync=int(options.values.get("bytes_per_sync") or 1 << 20))  # type: ignore[call-overload]
        params = InterferenceParams(wal, model, store, aggressor)
        values = options.values
        given = "RocksDB (rocksdict)" if aggressor == "rocksdb" else "the model"
        print(f"# db_bench {options.version} OPTIONS given to {given}: "
              f"write_buffer_size {int(values['write_buffer_size']) >> 20} MiB, target_file_size_base "  # type: ignore[call-overload]
              f"{int(values['file_size']) >> 20} MiB, max_bytes_for_level_base "  # type: ignore[call-overload]
              f"{int(values['level_base']) >> 20} MiB, {values['jobs']} background jobs, bytes_per_sync "  # type: ignore[call-overload]
              f"{values.get('bytes_per_sync', 0)}; WAL {wal.bs} B writes at {wal.rates[0]:g}/s open loop, "
              f"{size['phase_s']:g} s per phase; "
              f"CPUs {os.cpu_count()}", flush=True)
        runs: dict[str, list[Figures]] = {"ours": [], "db_bench": []}
        def paced() -> InterferenceParams:
            """Ours at db_bench's put rate in its latest run (same offered load), when asked to match it."""
            if not match_puts or not runs["db_bench"] or aggressor != "rocksdb":
                return params
            rate = runs["db_bench"][-1].puts_s * (KEY_BYTES + VALUE_BYTES) / 1e6
            return replace(params, store=replace(params.store, ingest_mb_s=round(max(rate, 0.1), 3)))

        kinds = [("ours", lambda: ours(paced(), directory)),
                 ("db_bench", lambda: theirs(params.wal, db_bench, size, directory))]
        if match_puts:  # db_bench first in round 1, so ours always has a put rate to match
            kinds.reverse()
        for index in range(1, rounds + 1):
            with locked(lock):
                for name, run in (kinds if index % 2 else kinds[::-1]):
                    figures = run()
                    runs[name].append(figures)
                    print(line(index, name, figures), flush=True)
        pairs = list(zip(runs["ours"], runs["db_bench"], strict=True))

        def median(key: str) -> float:
            return statistics.median(getattr(a, key) / getattr(b, key) if getattr(b, key) else float("nan")
                                     for a, b in pairs)

        print(f"median ours/db_bench over {rounds} round{'s' if rounds > 1 else ''}: interference ratio "
              f"{median('p99_beside_us'):.2f} (target 0.7-1.3; over the round's shared alone baseline: "
              f"both alone runs are the same WAL on the same disk)  compaction write "
              f"{median('write_mb_s'):.2f}  read {median('read_mb_s'):.2f} MB/s (target 0.75-1.25)",
              flush=True)
        print(f"median ours/db_bench: interference ratio per side {median('ratio'):.2f} (each over its own "
              f"alone run: adds the two alone runs' noise), WAL p99 alone {median('p99_alone_us'):.2f}; "
              f"store CPU {median('cpu_cores'):.2f}; puts/s {median('puts_s'):.2f}", flush=True)
        return 0
    finally:
        shutil.rmtree(keep, ignore_errors=True)


def _stop(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)  # unwinds: db_bench killed, scratch and loop devices removed


def main() -> int:
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGHUP, _stop)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--dir", help="a directory on the filesystem to test")
    where.add_argument("--make-loop", choices=("ext4", "xfs"), help="a fresh filesystem on a loop device")
    parser.add_argument("--rounds", type=int, help="alternating rounds (default 3; 1 with --small)")
    parser.add_argument("--small", action="store_true", help="seconds, not minutes (CI)")
    parser.add_argument("--phase-s", type=float, help="seconds of each WAL run (default 20; 3 with --small)")
    parser.add_argument("--lock", metavar="FILE", help="flock this file around each round")
    parser.add_argument("--aggressor", choices=("rocksdb", "model"), default="rocksdb",
                        help="our store: real RocksDB (default) or the compaction model")
    parser.add_argument("--match-puts", action="store_true",
                        help="put at db_bench's measured rate (its latest run) instead of as fast as one "
                             "thread: the same offered load, so the compaction MB/s compare RocksDB's work")
    args = parser.parse_args()
    db_bench = shutil.which("db_bench")
    if db_bench is None:
        print("calibrate_rocksdb: db_bench not found (apt-get install rocksdb-tools)", file=sys.stderr)
        return 2
    size = dict(SMALL if args.small else FULL)
    if args.phase_s:
        size["phase_s"] = args.phase_s
    rounds = args.rounds or int(size["rounds"])
    if args.dir and not os.path.isdir(args.dir):
        print(f"calibrate_rocksdb: {args.dir} is not a directory", file=sys.stderr)
        return 2
    place = (loop_fs(args.make_loop, LOOP_MIB, prefix="calibrate-") if args.make_loop
             else contextlib.nullcontext(args.dir))
    with place as directory:
        return calibrate(directory, rounds, size, args.lock, db_bench, args.aggressor, args.match_puts)


if __name__ == "__main__":
    sys.exit(main())
