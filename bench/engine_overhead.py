"""Each workload's ceiling against fio's equivalent job on the same directory: ratios ours/fio.

On tmpfs the device costs nothing, so ops/s (WAL, randwrite, interference's WAL alone) and MB/s
(compaction, measured inside the calls as fio's separate reader and writer jobs are) show the engine's own
overhead; the target is >= 0.8 of fio. On a real filesystem the same script gives the fidelity ratios
(target 0.9-1.1). Runs alternate ours and fio ROUNDS times and print medians.

Usage: .venv/bin/python bench/engine_overhead.py --dir /dev/shm --rounds 3 [--only wal,randwrite]
       .venv/bin/python bench/engine_overhead.py --make-loop --rounds 5 --only compaction,randwrite
"""

from __future__ import annotations

import argparse
import contextlib
import resource
import statistics
import tempfile
from collections.abc import Callable

from diskdoctor.probes.engine.protocol import Finished
from diskdoctor.probes.engine.runner import EngineRun
from diskdoctor.probes.engine.runtime import EngineConfig
from diskdoctor.probes.engine.workloads.compaction import CompactionParams
from diskdoctor.probes.engine.workloads.interference import InterferenceParams
from diskdoctor.probes.engine.workloads.randwrite import RandwriteParams
from diskdoctor.probes.fio_jobs import run_compaction_fio, run_randwrite_fio
from diskdoctor.probes.fio_json import FioSyncStats
from diskdoctor.probes.fio_run import run_fio
from diskdoctor.probes.wal_params import WalParams
from diskdoctor.probes.wal_target import describe_target
from loop_image import loop_ext4

MIB = 1 << 20
Figures = dict[str, float]


def ours(kind: str, params: object, directory: str) -> object:
    """Our engine child exactly as `diskdoctor bench KIND` runs it."""
    target = describe_target(directory, params.scratch_bytes)  # type: ignore[attr-defined]
    final = EngineRun(EngineConfig(kind, target.directory, params, list(target.layers))).wait()
    if not isinstance(final, Finished):
        raise SystemExit(f"{kind}: {final.message}")
    return final.result


def _latency_figures(result: object) -> Figures:
    sync = result.sync  # type: ignore[attr-defined]
    return {"ops/s": result.ops_per_s, "p50": sync.percentile(50), "p99": sync.percentile(99)}  # type: ignore[attr-defined]


def _fio_figures(stats: FioSyncStats) -> Figures:
    return {"ops/s": stats.ops_per_s, "p50": stats.percentiles_ns[50.0], "p99": stats.percentiles_ns[99.0]}


def wal_pair(directory: str, seconds: float) -> tuple[Callable[[], Figures], Callable[[], Figures]]:
    params = WalParams(profile="custom", duration_s=seconds)

    def mine() -> Figures:
        return _latency_figures(ours("wal", params, directory))

    def theirs() -> Figures:
        return _fio_figures(run_fio(params, directory))

    return mine, theirs


def randwrite_pair(directory: str, seconds: float) -> tuple[Callable[[], Figures], Callable[[], Figures]]:
    params = RandwriteParams(size=64 * MIB, duration_s=seconds)

    def mine() -> Figures:
        return _latency_figures(ours("randwrite", params, directory))

    def theirs() -> Figures:
        return _fio_figures(run_randwrite_fio(params, directory))

    return mine, theirs


def compaction_pair(directory: str, file_mib: int) -> tuple[Callable[[], Figures], Callable[[], Figures]]:
    params = CompactionParams(inputs=4, file_size=file_mib * MIB)

    def mine() -> Figures:
        data = ours("compaction", params, directory).to_json()  # type: ignore[attr-defined]
        return {"read MB/s": data["read_busy_mb_s"], "write MB/s": data["write_busy_mb_s"]}

    def theirs() -> Figures:
        stats = run_compaction_fio(params, directory)
        return {"read MB/s": stats.read_mb_s, "write MB/s": stats.write_mb_s}

    return mine, theirs


def interference_pair(directory: str, seconds: float) -> tuple[Callable[[], Figures], Callable[[], Figures]]:
    params = InterferenceParams(WalParams(profile="custom", duration_s=seconds),
                                CompactionParams(inputs=2, file_size=16 * MIB, jobs=2))

    def mine() -> Figures:
        result = ours("interference", params, directory)
        return {"ops/s alone": result.alone.ops_per_s,  # type: ignore[attr-defined]
                "ops/s under": result.under_compaction.ops_per_s}  # type: ignore[attr-defined]

    def theirs() -> Figures:
        from diskdoctor.probes.fio_jobs import run_interference_fio

        alone, under = run_interference_fio(params, directory)
        return {"ops/s alone": alone.ops_per_s, "ops/s under": under.ops_per_s}

    return mine, theirs


def children_cpu() -> float:
    """CPU seconds (user + system) of every child process waited for so far (our engine child, fio)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def with_cpu_per_op(run: Callable[[], Figures], seconds: float) -> Callable[[], Figures]:
    """`run`, adding "cpu µs/op": the child's CPU over the run divided by its ops (ops/s × `seconds`)."""

    def measured() -> Figures:
        before = children_cpu()
        figures = run()
        spent = children_cpu() - before
        if figures.get("ops/s"):
            figures["cpu µs/op"] = spent / (figures["ops/s"] * seconds) * 1e6
        return figures

    return measured


def compare(name: str, pair: tuple[Callable[[], Figures], Callable[[], Figures]], rounds: int,
            seconds: float = 0.0) -> None:
    """Alternate ours and fio, print each run, then the median ratio of every figure (with `seconds`, the
    run's length, also each side's CPU per op: the engine overhead the target ≤ 1.5x fio's is about)."""
    mine, theirs = pair
    if seconds:
        mine, theirs = with_cpu_per_op(mine, seconds), with_cpu_per_op(theirs, seconds)
    ratios: dict[str, list[float]] = {}
    for index in range(rounds):
        order = [("ours", mine), ("fio", theirs)]
        results = {}
        for label, run in order if index % 2 == 0 else order[::-1]:
            results[label] = run()
            shown = "  ".join(f"{k} {v:,.1f}" if k.startswith("cpu") else
                              f"{k} {v:,.0f}" if "p" not in k[:1] else f"{k} {v / 1e3:,.1f} µs"
                              for k, v in results[label].items())
            print(f"{name:<12} round {index + 1} {label:<5} {shown}", flush=True)
        for key, value in results["ours"].items():
            other = results["fio"].get(key)
            if value and other:
                ratios.setdefault(key, []).append(value / other)
    print(f"{name:<12} median ours/fio: " + "  ".join(f"{k} {statistics.median(v):.2f}"
                                                     for k, v in ratios.items()), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--dir", default="/dev/shm", help="directory on the filesystem to test")
    where.add_argument("--make-loop", action="store_true",
                       help="a fresh ext4 (2 GiB or more) on a direct-I/O loop device under /var/tmp")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--compaction-mib", type=int, default=64, help="size of each of the 4 inputs")
    parser.add_argument("--only", default="wal,randwrite,compaction,interference")
    args = parser.parse_args()
    wanted = args.only.split(",")
    image_mib = max(2048, 12 * args.compaction_mib + 512)  # our inputs and outputs, then fio's 4 files
    place = loop_ext4(image_mib, direct_io=True, prefix="engine-overhead-") if args.make_loop else None
    with place or contextlib.nullcontext(args.dir) as root, \
            tempfile.TemporaryDirectory(prefix="engine-overhead-", dir=root) as directory:
        pairs = {"wal": lambda: wal_pair(directory, 5.0),
                 "randwrite": lambda: randwrite_pair(directory, 5.0),
                 "compaction": lambda: compaction_pair(directory, args.compaction_mib),
                 "interference": lambda: interference_pair(directory, 5.0)}
        for name in wanted:
            compare(name, pairs[name](), args.rounds, 5.0 if name in ("wal", "randwrite") else 0.0)


if __name__ == "__main__":
    main()
