"""fio's equivalents of the compaction, randwrite and interference workloads: job files, runs, figures."""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Callable
from dataclasses import dataclass

from .child_guard import IN_SCRATCH, guarded_argv
from .engine.workloads.compaction import CompactionParams
from .engine.workloads.randwrite import RandwriteParams
from .exit_status import describe_exit
from .fio_json import FioOutputError, FioSyncStats, _objects, parse_fio_json
from .fio_run import fio_available
from .scratch import open_owned_dir
from .wal_params import WalParams, _fio_size, fio_argv, fio_runtime
from .wal_target import TargetError, describe_bench_error, make_scratch, remove_scratch

JOB_FILE = "job.fio"
Started = Callable[[subprocess.Popen[str]], object]
"""Called with each fio process as it starts, so another thread can stop it."""


def _fadvise(params: CompactionParams) -> list[str]:
    """The reader's hint matching ours: RANDOM (no kernel readahead) as RocksDB's advise_random_on_open."""
    return ["fadvise_hint=random"] if params.advise_random else []


def compaction_job_file(params: CompactionParams, directory: str) -> str:
    """The compaction as fio jobs: a reader (bs=2m) of the inputs, then a writer (bs=1m) syncing as it goes.

    With a duration ours compacts pass after pass until the time is up, reading and writing all along, so
    fio's reader and writer then run side by side for the same time (time_based, runtime) and stop with it.
    """
    size = _fio_size(params.file_size)
    timed = ["time_based", f"runtime={fio_runtime(params.duration_s)}"] if params.duration_s else []
    return "\n".join([
        "[global]", f"directory={directory}", "ioengine=sync", f"nrfiles={params.inputs}", f"filesize={size}",
        f"numjobs={params.jobs}", "group_reporting=0", *timed, "",
        "[reader]", "rw=read", f"bs={_fio_size(params.read_bs)}", *_fadvise(params), "",
        "[writer]", *([] if timed else ["stonewall"]), "rw=write", f"bs={_fio_size(params.write_bs)}",
        "fallocate=keep", f"sync_file_range=write:{max(params.bytes_per_sync // params.write_bs, 1)}",
        "end_fsync=1", "fsync_on_close=1", ""])


def randwrite_argv(params: RandwriteParams, directory: str, *, json_output: bool = False) -> list[str]:
    """The fio command doing the same random writes at queue depth 1."""
    argv = ["fio", "--rw=randwrite", "--ioengine=sync", "--iodepth=1", f"--bs={_fio_size(params.bs)}",
            f"--size={_fio_size(params.size)}", f"--directory={directory}"]
    if params.direct:
        argv.append("--direct=1")
    if params.sync != "none":
        argv.append("--fdatasync=1")
    if params.writes:
        argv.append(f"--number_ios={params.writes}")
    elif params.duration_s:
        argv += ["--time_based", f"--runtime={fio_runtime(params.duration_s)}"]
    argv.append("--name=randwrite")
    if json_output:
        argv.append("--output-format=json")
    return argv


def interference_job_file(wal: WalParams, compaction: CompactionParams, directory: str) -> str:
    """The WAL job beside the compaction's reader and writer; exitall ends them when the WAL is done."""
    wal_options = [arg[2:] for arg in fio_argv(wal, directory)[1:] if arg.startswith("--")
                   and not arg.startswith(("--directory", "--name"))]
    size = _fio_size(compaction.file_size)
    return "\n".join([
        "[global]", f"directory={directory}", "ioengine=sync", "", "[wal]", *wal_options, "exitall", "",
        "[compaction-reader]", "rw=read", f"bs={_fio_size(compaction.read_bs)}", *_fadvise(compaction),
        f"nrfiles={compaction.inputs}",
        f"filesize={size}", "time_based", "runtime=24h", f"numjobs={compaction.jobs}", "",
        "[compaction-writer]", "rw=write", f"bs={_fio_size(compaction.write_bs)}", "fallocate=keep",
        f"nrfiles={compaction.inputs}", f"filesize={size}",
        f"sync_file_range=write:{max(compaction.bytes_per_sync // compaction.write_bs, 1)}",
        "fsync_on_close=1",
        "time_based", "runtime=24h", f"numjobs={compaction.jobs}", ""])


def shell_text(argv: list[str]) -> str:
    """An argv as one copyable shell line."""
    return shlex.join(argv)


@dataclass(frozen=True)
class FioThroughput:
    """fio's bandwidth per job name (MB/s, 10^6 bytes) for the reads and the writes, and the writer's sync
    calls' p99 (its sync_file_range calls and the fsync at each file's end, which fio counts together)."""

    version: str
    read_mb_s: float
    write_mb_s: float
    sync_p99_ns: float | None = None

    def to_json(self) -> dict[str, object]:
        """The `fio` object of a compaction result."""
        data: dict[str, object] = {"version": self.version, "read_mb_s": round(self.read_mb_s, 2),
                                   "write_mb_s": round(self.write_mb_s, 2)}
        if self.sync_p99_ns is not None:
            data["sync_p99_us"] = round(self.sync_p99_ns / 1000, 3)
        return data

    @classmethod
    def from_json(cls, data: dict[str, object]) -> FioThroughput:
        """Inverse of `to_json`."""
        sync = data.get("sync_p99_us")
        return cls(str(data["version"]), float(data["read_mb_s"]), float(data["write_mb_s"]),  # type: ignore[arg-type]
                   float(sync) * 1000 if isinstance(sync, (int, float)) else None)


def _sync_p99_ns(job: dict[str, object]) -> float | None:
    """A job's p99 sync-call latency (fio leaves `sync.total_ios` 0; `lat_ns.N` counts the calls)."""
    latency = job.get("sync", {}).get("lat_ns", {})  # type: ignore[union-attr]
    if not isinstance(latency, dict) or not int(latency.get("N", 0)):
        return None
    value = (latency.get("percentile") or {}).get("99.000000")
    return float(value) if value is not None else None


def parse_throughput(text: str) -> FioThroughput:
    """Sum of read bandwidth over reader jobs and write bandwidth over writer jobs; the writers' worst sync
    p99."""
    reports = [o for o in _objects(text) if isinstance(o.get("jobs"), list) and o["jobs"]]
    if not reports:
        raise FioOutputError("fio printed no job results")
    report = reports[-1]
    try:
        jobs = report["jobs"]
        read = sum(float(j["read"]["bw_bytes"]) for j in jobs if j["jobname"] == "reader")  # type: ignore[union-attr]
        write = sum(float(j["write"]["bw_bytes"]) for j in jobs if j["jobname"] == "writer")  # type: ignore[union-attr]
        syncs = [p99 for j in jobs if j["jobname"] == "writer"  # type: ignore[union-attr]
                 and (p99 := _sync_p99_ns(j)) is not None]
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise FioOutputError(f"fio's JSON lacks the expected fields ({err})") from err
    return FioThroughput(str(report.get("fio version", "fio")), read / 1e6, write / 1e6,
                         max(syncs) if syncs else None)


def _write_into(scratch: str, name: str, text: str) -> None:
    """A new file in the scratch directory, held by descriptor (never through a link put in its place)."""
    folder = open_owned_dir(scratch)
    try:
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                     dir_fd=folder)
    finally:
        os.close(folder)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)


def run_fio_job(directory: str, *, job_file: str | None = None, argv: list[str] | None = None,
                timeout_s: float | None = None, started: Started | None = None) -> str:
    """Run fio (a job file or a command) with JSON output in a scratch dir of `directory`; its stdout.

    `started` receives the fio process (its guard), so another thread can terminate it (a cancelled run);
    the scratch directory is removed however fio ends, and fio ends with this process (child_guard)."""
    if fio_available() is None:
        raise TargetError("fio is not installed (apt-get install fio), so there is nothing to compare")
    scratch = make_scratch(directory)
    process: subprocess.Popen[str] | None = None
    try:
        if job_file is not None:
            job = job_file.replace(f"directory={directory}", f"directory={IN_SCRATCH}")
            try:
                _write_into(scratch, JOB_FILE, job)
            except OSError as err:
                raise TargetError(f"cannot write fio's job file in {scratch}: "
                                  f"{describe_bench_error(err)}") from err
            command = ["fio", "--output-format=json", JOB_FILE]
        else:
            assert argv is not None
            command = [arg.replace(f"--directory={directory}", f"--directory={IN_SCRATCH}") for arg in argv]
            command.append("--output-format=json")
        process = subprocess.Popen(guarded_argv(command, scratch=scratch), stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
        if started is not None:
            started(process)
        out, err = process.communicate(timeout=timeout_s)
        if process.returncode < 0:
            raise TargetError(f"fio was stopped ({describe_exit(process.returncode)})")
        if process.returncode != 0:
            lines = (err or "").strip().splitlines()
            raise TargetError(f"fio failed: {lines[-1] if lines else describe_exit(process.returncode)}")
        return out
    except subprocess.TimeoutExpired as err:
        raise TargetError("fio did not finish in time") from err
    finally:
        if process is not None and process.poll() is None:
            process.terminate()
            process.wait()
        remove_scratch(scratch)


def run_compaction_fio(params: CompactionParams, directory: str, *,
                       started: Started | None = None) -> FioThroughput:
    """fio's reader and writer bandwidth for the same sizes on the same filesystem."""
    try:
        return parse_throughput(run_fio_job(directory, job_file=compaction_job_file(params, directory),
                                            started=started))
    except FioOutputError as err:
        raise TargetError(str(err)) from err


def run_randwrite_fio(params: RandwriteParams, directory: str, *,
                      started: Started | None = None) -> FioSyncStats:
    """fio's latencies for the same random writes (the sync call's when syncing, else the write's)."""
    try:
        return parse_fio_json(run_fio_job(directory, argv=randwrite_argv(params, directory), started=started))
    except FioOutputError as err:
        raise TargetError(str(err)) from err


def run_interference_fio(params: object, directory: str, *,
                         started: Started | None = None) -> tuple[FioSyncStats, FioSyncStats]:
    """fio's WAL job alone, then beside fio's compaction reader and writer: (alone, under compaction)."""
    from .fio_run import run_fio

    wal, compaction = params.wal, params.compaction  # type: ignore[attr-defined]
    alone = run_fio(wal, directory, started=started)
    try:
        job_file = interference_job_file(wal, compaction, directory)
        beside = parse_fio_json(run_fio_job(directory, job_file=job_file, started=started))
    except FioOutputError as err:
        raise TargetError(str(err)) from err
    return alone, beside
