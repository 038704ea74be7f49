"""etcd's backend beside its WAL: every 100 ms the writes applied since the last commit go into bbolt,
whose commit writes the dirty pages, fdatasyncs the db file, writes a meta page and fdatasyncs again.

It runs in its own process (forked from the engine child), as etcd's backend runs on its own goroutine
beside the raft loop: its syncs land on the device and the filesystem's journal at the same time as the
WAL's, which is what raises the WAL's tail. What etcd 3.4.23 writes per commit (strace, 2,000-byte puts):
three 4 KiB pages scattered in the file (branches, the meta bucket, the freelist), one 8 KiB leaf write per
two puts appended at the high-water mark, fdatasync, the 4 KiB meta page (page 0 or 1, alternately),
fdatasync. The file grows as bbolt grows it: ftruncate 16 MiB further, then fsync.

The commit holds etcd's batch-transaction lock throughout (backend.batchTxBuffered.Commit), and applying
a put to the backend takes the same lock: a put is answered only once it is applied, so one client
writing sequentially cannot send its next put while a commit runs, and its WAL writes wait instead of
landing on the device beside the commit's syncs. An flock on the db file stands for that lock.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import json
import mmap
import os
import random
import select
import signal
import time
from collections.abc import Callable

PAGE = 4096
LEAF_WRITE = 8192
DB_GROW_BYTES = 16 << 20
"""bbolt's AllocSize: the file grows this much past what it needs (etcd's 10 GiB mmap is larger)."""
DB_BYTES_MAX = 64 << 20
"""Past this the leaves reuse pages from the file's start (bbolt's freelist after etcd compacts), so the
scratch space stays bounded (a run with smaller WAL segments bounds it at their size, at least DB_MIN)."""
DB_MIN = 4 << 20
BATCH_LIMIT = 10_000
"""etcd's defaultBatchLimit (server/mvcc/backend): a commit starts once this many puts are pending, before
its 100 ms tick. Here the puts pending at a tick are committed in batches of at most this many (fewer where
their leaves would outgrow the db's bound), back to back, so a closed loop on a fast device never writes
one commit of unbounded size nor grows the db past what the space check counts."""
DB_START = 1 << 20
KV_OVERHEAD = 64
"""A key's revision, the mvccpb.KeyValue fields and bbolt's element header around a put's value."""
FILL = 2
"""bbolt splits leaves half full: a leaf holds about half its size in values."""
STOP_WAIT_S = 5.0
PR_SET_PDEATHSIG = 1


def batch_puts(bs: int, max_bytes: int) -> int:
    """The most puts one commit takes: etcd's batch limit, or fewer where their leaves would not fit below
    `max_bytes` (a run with small WAL segments bounds its db small)."""
    per_put = (bs + KV_OVERHEAD) * FILL
    return max(1, min(BATCH_LIMIT, (max_bytes - DB_START - PAGE) // per_put))


def leaf_bytes(puts: int, bs: int) -> int:
    """The leaf pages one commit of `puts` puts of `bs` bytes writes (whole pages)."""
    need = puts * (bs + KV_OVERHEAD) * FILL
    return (need + PAGE - 1) // PAGE * PAGE


class BboltFile:
    """The db file and what one commit writes to it; `commit(puts)` calls `on_sync(ns)` per fdatasync."""

    def __init__(self, path: str, bs: int, sync: Callable[[int], None], seed: int = 1,
                 max_bytes: int = DB_BYTES_MAX) -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        self.bs, self.sync, self.max_bytes = bs, sync, max_bytes
        self.size = self.meta = 0
        self.end = DB_START
        self.pages = os.urandom(LEAF_WRITE)
        self.random = random.Random(seed)
        self._grow(DB_START)

    def _grow(self, needed: int) -> None:
        if needed <= self.size:
            return
        self.size = needed + DB_GROW_BYTES
        os.ftruncate(self.fd, self.size)
        os.fsync(self.fd)

    def commit(self, puts: int, on_sync: Callable[[int], None]) -> None:
        """One bbolt commit of `puts` applied puts, holding the batch-transaction lock."""
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        try:
            self._commit(puts, on_sync)
        finally:
            fcntl.flock(self.fd, fcntl.LOCK_UN)

    def _commit(self, puts: int, on_sync: Callable[[int], None]) -> None:
        leaves = leaf_bytes(puts, self.bs)
        if self.end + leaves > self.max_bytes:
            self.end = DB_START
        self._grow(self.end + leaves)
        used = max(self.end, DB_START + PAGE) // PAGE
        for _ in range(3):
            os.pwrite(self.fd, self.pages[:PAGE], self.random.randrange(2, used) * PAGE)
        written = 0
        while written < leaves:
            chunk = min(LEAF_WRITE, leaves - written)
            os.pwrite(self.fd, self.pages[:chunk], self.end + written)
            written += chunk
        self.end += leaves
        self._timed_sync(on_sync)
        os.pwrite(self.fd, self.pages[:PAGE], self.meta * PAGE)
        self.meta ^= 1
        self._timed_sync(on_sync)

    def _timed_sync(self, on_sync: Callable[[int], None]) -> None:
        t0 = time.perf_counter_ns()
        self.sync(self.fd)
        on_sync(time.perf_counter_ns() - t0)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)


class BackendCommitter:
    """The commit loop in a child process: `applied(n)` counts puts (a shared counter, no syscall),
    `level(i)` tags what follows, `stop()` returns each level's commit fdatasync latencies (ns).

    Use as a context manager: the child is always stopped and reaped."""

    def __init__(self, path: str, bs: int, interval_ms: float, sync: Callable[[int], None],
                 max_bytes: int = DB_BYTES_MAX) -> None:
        self.shared = mmap.mmap(-1, 24)
        self.cells = memoryview(self.shared).cast("q")  # applied puts, level index, stop flag
        self.db = BboltFile(path, bs, sync, max_bytes=max_bytes)
        self.lock_fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        """The writer's own open of the db file, whose flock waits for a commit to end."""
        reader, writer = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child never returns into the engine's stack
            code = 1
            try:
                os.close(reader)
                _close_inherited({writer, self.db.fd})
                _child_setup()
                self._loop(writer, interval_ms / 1000.0)
                code = 0
            finally:
                os._exit(code)
        os.close(writer)
        self.reader = reader
        self.db.close()  # the child has its own copy of the descriptor

    def applied(self, count: int, *, wait: bool = False) -> None:
        """`count` more puts were applied (they go into the next commit); with `wait`, first wait for a
        commit in progress to end, as applying a put does in etcd."""
        if wait:
            fcntl.flock(self.lock_fd, fcntl.LOCK_SH)
            fcntl.flock(self.lock_fd, fcntl.LOCK_UN)
        self.cells[0] += count

    def level(self, index: int) -> None:
        """Tag the commits from now on with level `index`."""
        self.cells[1] = index

    def _loop(self, writer: int, interval_s: float) -> None:
        samples: dict[int, list[int]] = {}
        parent = os.getppid()
        committed = 0
        tick = time.monotonic() + interval_s
        while not self.cells[2] and os.getppid() == parent:
            time.sleep(max(0.0, tick - time.monotonic()))
            tick += interval_s
            pending = self.cells[0] - committed
            most = batch_puts(self.db.bs, self.db.max_bytes)
            while pending > 0:
                batch = min(pending, most)
                committed, pending = committed + batch, pending - batch
                self.db.commit(batch, samples.setdefault(int(self.cells[1]), []).append)
        data = json.dumps({str(k): v for k, v in samples.items()}).encode()
        while data:
            data = data[os.write(writer, data):]
        os.close(writer)

    def stop(self) -> dict[int, list[int]]:
        """End the loop and return its samples per level ({} if the child died)."""
        self.cells[2] = 1
        chunks = []
        deadline = time.monotonic() + STOP_WAIT_S
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.reader], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                break
            chunk = os.read(self.reader, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
        self._reap()
        try:
            return {int(k): v for k, v in json.loads(b"".join(chunks) or b"{}").items()}
        except ValueError:
            return {}

    def _reap(self) -> None:
        """Wait for the child (it ends within one interval of the stop flag), killing it if it hangs."""
        self.cells[2] = 1
        if self.pid:
            deadline = time.monotonic() + STOP_WAIT_S
            with contextlib.suppress(ChildProcessError):
                while os.waitpid(self.pid, os.WNOHANG) == (0, 0):
                    if time.monotonic() > deadline:
                        os.kill(self.pid, signal.SIGKILL)
                        os.waitpid(self.pid, 0)
                        break
                    time.sleep(0.01)
            self.pid = 0
        for fd in (self.reader, self.lock_fd):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.reader = self.lock_fd = -1

    def __enter__(self) -> BackendCommitter:
        return self

    def __exit__(self, *_exc: object) -> None:
        self._reap()


def _close_inherited(keep: set[int]) -> None:
    """Close every descriptor the fork copied except stdio and `keep`: a WAL segment the writer cuts and
    removes must not stay allocated because the committer still holds it open."""
    start = 3
    for fd in sorted(keep):
        os.closerange(start, fd)
        start = fd + 1
    os.closerange(start, os.sysconf("SC_OPEN_MAX"))


def _child_setup() -> None:
    """The committer dies with the engine child and leaves stop signals to it (it removes the scratch)."""
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
