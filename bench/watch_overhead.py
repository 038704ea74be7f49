"""What `diskdoctor watch` costs the process it traces: a writer's write+fdatasync throughput and per-call
time with and without a watch on it, in paired rounds (the order alternates), medians of the ratios.

Two loads on the same directory: a closed loop (as many write+fdatasync pairs as the disk takes: the
throughput ratio) and an open loop paced at --rate (1,000 syncs/s by default: the issue's goal, at most 3%
slower), where the figure is the mean time spent inside write+fdatasync. The watch runs exactly as a user
runs it (`diskdoctor watch --pid PID --json-lines --no-save`), tracing the syscalls and the block layer.

Needs root (tracefs). With --make-loop it makes a throwaway ext4 on a loop device under /var/tmp.
Usage: flock /work/wt/measure.lock .venv/bin/python bench/watch_overhead.py --make-loop --rounds 5
       .venv/bin/python bench/watch_overhead.py --make-loop --image-dir /dev/shm  (the tracing's own cost)
       .venv/bin/python bench/watch_overhead.py --dir /var/tmp --seconds 5 --rate 1000
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile

from loop_image import loop_ext4

WRITER = r"""
import json, os, sys, time
path, seconds, rate = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
block = b"w" * 2048
print("ready", flush=True)
sys.stdin.readline()
times, start = [], time.perf_counter()
count, clock = 0, time.perf_counter_ns
while True:
    now = time.perf_counter()
    if now - start >= seconds:
        break
    if rate > 0:
        due = start + count / rate
        if due > now:
            time.sleep(due - now)
    began = clock()
    os.write(fd, block)
    os.fdatasync(fd)
    times.append(clock() - began)
    count += 1
    if count % 4096 == 0:
        os.lseek(fd, 0, os.SEEK_SET)
elapsed = time.perf_counter() - start
times.sort()
print(json.dumps({"count": count, "per_s": count / elapsed, "mean_us": sum(times) / len(times) / 1000,
                  "p99_us": times[int(len(times) * 0.99)] / 1000}), flush=True)
os.unlink(path)
"""


def run_writer(directory: str, seconds: float, rate: float, watched: bool) -> dict[str, float]:
    """One writer run (with a watch tracing it when `watched`): its count, rate, mean and p99 per call."""
    path = os.path.join(directory, f"watch-overhead-{os.getpid()}.dat")
    writer = subprocess.Popen([sys.executable, "-c", WRITER, path, str(seconds), str(rate)], cwd=directory,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    watch = None
    try:
        assert writer.stdout is not None and writer.stdin is not None
        if writer.stdout.readline() != "ready\n":
            raise SystemExit("the writer did not start")
        if watched:
            watch = subprocess.Popen([sys.executable, "-m", "diskdoctor.app", "watch", "--pid",
                                      str(writer.pid), "--json-lines", "--no-save"], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
            assert watch.stdout is not None
            if not watch.stdout.readline():
                raise SystemExit(f"watch did not start: {watch.stderr.read() if watch.stderr else ''}")
        writer.stdin.write("go\n")
        writer.stdin.flush()
        figures = json.loads(writer.stdout.readline())
    finally:
        writer.kill()
        writer.wait()
        if watch is not None and watch.poll() is None:
            watch.send_signal(signal.SIGINT)
            out, _err = watch.communicate(timeout=60)
            lines = out.splitlines()
            if lines:
                summary = json.loads(lines[-1])
                figures_seen = sum(row["latency_us"]["samples"] for row in summary.get("by_class", [])
                                   if row["call"] == "fdatasync")
                print(f"#   watch saw {figures_seen:,} fdatasync calls, lost {summary.get('lost_events')}",
                      flush=True)
    return figures


def rounds(directory: str, count: int, seconds: float, rate: float) -> dict[str, list[float]]:
    """Paired runs, alternating which goes first; each pair gives ratios watched/alone."""
    ratios: dict[str, list[float]] = {"closed per_s": [], "closed mean": [], "paced per_s": [],
                                      "paced mean": []}
    for index in range(count):
        for name, load in (("closed", 0.0), ("paced", rate)):
            order = (False, True) if index % 2 == 0 else (True, False)
            found = {watched: run_writer(directory, seconds, load, watched) for watched in order}
            alone, watched = found[False], found[True]
            print(f"round {index + 1} {name:<6}: alone {alone['per_s']:,.0f}/s mean "
                  f"{alone['mean_us']:.1f} µs p99 {alone['p99_us']:.0f} µs · watched "
                  f"{watched['per_s']:,.0f}/s mean {watched['mean_us']:.1f} µs "
                  f"p99 {watched['p99_us']:.0f} µs", flush=True)
            ratios[f"{name} per_s"].append(watched["per_s"] / alone["per_s"])
            ratios[f"{name} mean"].append(watched["mean_us"] / alone["mean_us"])
    return ratios


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--dir", help="a directory on the filesystem to write in")
    where.add_argument("--make-loop", action="store_true", help="a throwaway ext4 on a loop device")
    parser.add_argument("--image-dir", default="/var/tmp",
                        help="where --make-loop puts its image (/dev/shm: flushes cost no device time, so "
                             "the figures are the tracing's own cost, not the shared disk's noise)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rate", type=float, default=1000.0, help="the paced load's syncs per second")
    args = parser.parse_args()
    if os.geteuid() != 0:
        raise SystemExit("watch_overhead: needs root (watch reads tracefs)")
    with contextlib.ExitStack() as stack:
        directory = stack.enter_context(loop_ext4(256, parent=args.image_dir)) if args.make_loop else args.dir
        directory = stack.enter_context(tempfile.TemporaryDirectory(prefix="watch-overhead-", dir=directory))
        ratios = rounds(directory, args.rounds, args.seconds, args.rate)
    print()
    print(f"median over {args.rounds} paired round(s), watched / alone:")
    for key, values in ratios.items():
        median = statistics.median(values)
        print(f"  {key:<12} x{median:.3f} ({(median - 1) * 100:+.1f}%)  rounds: "
              + " ".join(f"{value:.3f}" for value in values))
    return 0


if __name__ == "__main__":
    sys.exit(main())
