"""The single binary: build it once, then run it in an empty chroot as on a locked-down customer host."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import statistics
import subprocess
import time
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import pytest
from conftest import FIXTURES
from support.cli_runner import assert_one_line_error, run_cli
from support.empty_chroot import EmptyChroot, mounts_under

pytestmark = pytest.mark.binary

REPO = Path(__file__).resolve().parent.parent
BUILD_SCRIPT = REPO / "packaging" / "build-binary.sh"
BINARY = REPO / "dist" / "diskdoctor"
GOLDEN = Path(__file__).parent / "golden"
GOLDEN_FIXTURES = ["etcd-raid0-lvm-luks", "multipath", "captured-loops"]
TRIM_FIXTURE = "etcd-trim-blocked"
MAX_SIZE_BYTES = 60 * 1024 * 1024
MAX_STARTUP_S = 2.0
BUILD_TIMEOUT_S = 1800


@pytest.fixture(scope="session")
def binary() -> Path:
    """dist/diskdoctor, freshly built from this tree by the documented one command."""
    if os.geteuid() != 0:
        pytest.skip("the binary smoke test needs root (chroot, mounts, apt-get for patchelf)")
    done = subprocess.run(["bash", str(BUILD_SCRIPT)], capture_output=True, text=True, check=False,
                          timeout=BUILD_TIMEOUT_S, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        pytest.fail(f"packaging/build-binary.sh failed:\n{done.stderr[-4000:]}", pytrace=False)
    return BINARY


@pytest.fixture(scope="session")
def chroot(binary: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmptyChroot]:
    """An empty root: the binary, /proc, /sys, a tiny /dev, a tmpfs /tmp, and copies of fixture sysroots."""
    jail = EmptyChroot(tmp_path_factory.mktemp("chroot"))
    try:
        jail.setup(binary)
        for name in [*GOLDEN_FIXTURES, TRIM_FIXTURE]:
            shutil.copytree(FIXTURES / name, jail.root / "fixtures" / name, symlinks=True)
        yield jail
    finally:
        jail.teardown()
        assert not mounts_under(jail.root)


def tmp_is_clean(jail: EmptyChroot) -> bool:
    """staticx and PyInstaller unpack into /tmp; every run must remove what it unpacked."""
    return not any((jail.root / "tmp").iterdir())


@pytest.mark.live
def test_binary_is_under_size_limit(binary: Path) -> None:
    size = binary.stat().st_size
    assert size < MAX_SIZE_BYTES, f"dist/diskdoctor is {size / 2**20:.1f} MiB (limit 60)"


@pytest.mark.live
def test_version_help_and_bad_input(chroot: EmptyChroot) -> None:
    result = chroot.run("--version")
    assert (result.code, result.out.strip()) == (0, f"diskdoctor {version('diskdoctor')}"), result.err
    result = chroot.run("--help")
    assert result.code == 0 and "devices" in result.out and "capture" in result.out
    assert_one_line_error(chroot.run("devices", "--sysroot", "/nowhere"), "does not exist")
    assert_one_line_error(chroot.run("--bogus"), "unrecognized arguments")
    assert tmp_is_clean(chroot)


@pytest.mark.live
def test_the_binary_carries_its_manual_page_and_completions(chroot: EmptyChroot) -> None:
    result = chroot.run("--man")  # not a terminal: the roff page itself, for `| man -l -`
    assert result.code == 0, result.err
    assert result.out == (REPO / "docs" / "man" / "diskdoctor.1").read_text()
    result = chroot.run("--print-completion", "bash")
    assert result.code == 0, result.err
    assert result.out == (REPO / "packaging" / "completions" / "diskdoctor").read_text()
    assert tmp_is_clean(chroot)


@pytest.mark.live
@pytest.mark.parametrize("name", GOLDEN_FIXTURES)
def test_devices_json_on_fixture_matches_golden(chroot: EmptyChroot, name: str) -> None:
    result = chroot.run("devices", "--json", "--sysroot", f"/fixtures/{name}")
    assert result.code == 0, result.err
    assert json.loads(result.out) == json.loads((GOLDEN / f"{name}.devices.json").read_text())


@pytest.mark.live
def test_devices_table_prints_tree_and_trim_verdict(chroot: EmptyChroot) -> None:
    result = chroot.run("devices", "--sysroot", "/fixtures/etcd-raid0-lvm-luks")
    assert result.code == 0, result.err
    assert "│ └─md0" in result.out
    assert "BLOCKED at luks-etcd (dm-crypt without allow_discards)" in result.out


@pytest.mark.live
def test_trim_doctor_matches_the_python_install(chroot: EmptyChroot) -> None:
    frozen = chroot.run("trim", "--json", "--sysroot", f"/fixtures/{TRIM_FIXTURE}")
    venv = run_cli("trim", "--json", "--sysroot", str(FIXTURES / TRIM_FIXTURE))
    assert (frozen.code, frozen.err) == (venv.code, venv.err)
    assert json.loads(frozen.out) == json.loads(venv.out)


@pytest.mark.live
def test_headless_tui_draws_first_screen(chroot: EmptyChroot) -> None:
    on_fixture = chroot.run("--smoke", "--sysroot", "/fixtures/etcd-raid0-lvm-luks")
    assert on_fixture.code == 0, on_fixture.err
    assert on_fixture.out.strip() == ("diskdoctor: smoke ok: first screen drew 11 tree rows for 8 devices "
                                      "(first row: nvme0n1)")
    on_live_root = chroot.run("--smoke")
    assert on_live_root.code == 0, on_live_root.err
    assert "smoke ok" in on_live_root.out
    assert tmp_is_clean(chroot)


@pytest.mark.live
def test_startup_to_first_screen_is_under_two_seconds(chroot: EmptyChroot) -> None:
    samples = []
    for _ in range(3):
        start = time.perf_counter()
        assert chroot.run("--smoke", "--sysroot", "/fixtures/etcd-raid0-lvm-luks").code == 0
        samples.append(time.perf_counter() - start)
    assert statistics.median(samples) < MAX_STARTUP_S, samples


@pytest.mark.live
def test_capture_replays_as_the_live_root(chroot: EmptyChroot) -> None:
    for _attempt in range(3):  # another process attaching a loop device mid-capture changes the host: retry
        before = chroot.run("devices", "--json")
        assert before.code == 0, before.err
        capture = chroot.run("capture", "-o", "/host.tar.gz")
        try:
            assert capture.code == 0, capture.err
            assert "wrote /host.tar.gz" in capture.out
            replay = chroot.run("devices", "--json", "--sysroot", "/host.tar.gz")
            assert replay.code == 0, replay.err
        finally:
            (chroot.root / "host.tar.gz").unlink(missing_ok=True)
        if json.loads(chroot.run("devices", "--json").out) == json.loads(before.out):
            break
    assert json.loads(replay.out) == json.loads(before.out)
    assert tmp_is_clean(chroot)


@pytest.mark.live
def test_noexec_tmp_needs_tmpdir(chroot: EmptyChroot) -> None:
    """A hardened host mounts /tmp noexec: the binary then needs TMPDIR on an exec filesystem (README)."""
    exec_dir = chroot.mount("exec-tmp", "tmpfs", "mode=700,size=256m")
    subprocess.run(["mount", "-o", "remount,noexec", str(chroot.root / "tmp")], check=True)
    try:
        refused = chroot.run("--version")
        assert refused.code != 0 and "Permission denied" in refused.err
        allowed = chroot.run("--version", env={"TMPDIR": "/exec-tmp"})
        assert allowed.code == 0, allowed.err
        assert not any(exec_dir.iterdir())
    finally:
        subprocess.run(["mount", "-o", "remount,exec", str(chroot.root / "tmp")], check=True)
        chroot.unmount(exec_dir)
        exec_dir.rmdir()


SMALL_COMPACTION = ("--inputs", "2", "--file-size", "4m")
BENCH_RUNS = {
    "wal": ("--duration", "2"),
    "compaction": (*SMALL_COMPACTION, "--jobs", "2"),
    "randwrite": ("--size", "4m", "--duration", "2"),
    "interference": ("--duration", "1", "--aggressor", "model", *SMALL_COMPACTION),
    "interference-rocksdb": ("--duration", "1", "--rocksdb-options", "/OPTIONS-000007"),
}
"""interference-rocksdb: real RocksDB (rocksdict, bundled) with 1 MiB memtables, from an OPTIONS file."""


@pytest.mark.live
@pytest.mark.parametrize("kind", list(BENCH_RUNS))
def test_every_benchmark_from_binary_cleans_up(chroot: EmptyChroot, kind: str) -> None:
    """Every workload runs as the binary re-invoked (`_engine KIND`; compaction jobs and the WAL beside
    compaction re-invoke it again from the engine), and leaves its directory empty."""
    assert re.search(r"^\s+bench\s", chroot.run("--help").out, re.MULTILINE)
    wal_dir = chroot.mount("wal", "tmpfs", "size=512m")  # two 64 MB WAL segments, the db, the capacity file
    options = chroot.root / "OPTIONS-000007"
    text = (Path(__file__).parent / "fixtures" / "rocksdb" / "db_bench-7.8.3-calibration.OPTIONS").read_text()
    for name, size in (("write_buffer_size", "1048576"), ("target_file_size_base", "1048576"),
                       ("max_bytes_for_level_base", "4194304")):
        text = re.sub(rf"(?m)^(\s*{name})=\d+$", rf"\1={size}", text)
    options.write_text(text)
    try:
        workload = kind.split("-")[0]
        result = chroot.run("bench", workload, "--dir", "/wal", *BENCH_RUNS[kind], "--json", timeout=120)
        assert result.code in (0, 1, 3), result.err  # 3: a short run's p99 interval straddles 10 ms
        document = json.loads(result.out)
        assert document["workload"] == workload
        if kind == "interference-rocksdb":
            assert document["compaction"]["rocksdb"]["version"].startswith("9.")
        assert not any(wal_dir.iterdir()), sorted(p.name for p in wal_dir.iterdir())
    finally:
        options.unlink()
        chroot.unmount(wal_dir)
        wal_dir.rmdir()
    assert tmp_is_clean(chroot)


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        for child in _children(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


def _running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's zombie waits for whatever reaps orphans here)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _cmdline(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return []


@pytest.mark.live
def test_killing_the_binary_mid_run_stops_its_engine_and_removes_the_scratch(binary: Path,
                                                                          tmp_path: Path) -> None:
    """SIGKILL of the process running the CLI (under staticx and the PyInstaller launcher): the engine
    child, the binary re-invoked as `_engine`, notices its parent died, removes its directory, exits."""
    process = subprocess.Popen([str(binary), "bench", "wal", "--dir", str(tmp_path), "--duration", "60"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                               env={**os.environ, "TMPDIR": "/var/tmp"})
    try:
        engine = None
        for _ in range(200):
            engine = next((p for p in _descendants(process.pid) if "_engine" in _cmdline(p)), None)
            if engine and any(tmp_path.iterdir()):
                break
            time.sleep(0.1)
        assert engine is not None, "the engine child never started"
        cli = int(Path(f"/proc/{engine}/stat").read_text().rsplit(")", 1)[1].split()[1])
        os.kill(cli, 9)
        for _ in range(100):
            if not any(tmp_path.iterdir()) and not _running(engine):
                break
            time.sleep(0.1)
        assert not any(tmp_path.iterdir()), sorted(p.name for p in tmp_path.iterdir())
        assert not _running(engine)
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_closing_the_terminal_ends_the_binary_and_leaves_nothing(binary: Path, tmp_path: Path) -> None:
    from support.hangup_support import hang_up, tmux_missing
    from support.hostile_roots import tar_gz

    why = tmux_missing()
    if why:
        pytest.fail(why)
    bundle = tar_gz(FIXTURES / "etcd-raid0-lvm-luks", tmp_path / "hup-binary-capture.tar.gz")
    private = tmp_path / "tmp"
    private.mkdir()
    survivors, leftovers = hang_up([str(binary), "--sysroot", str(bundle)], marker=str(bundle), runs=8,
                                   private_tmp=str(private))
    assert not survivors
    assert not leftovers  # no /tmp/staticx-*, /tmp/_MEI*, /tmp/diskdoctor-sysroot-*


@pytest.mark.live
def test_watch_from_binary_counts_a_writers_syncs_and_leaves_no_instance(chroot: EmptyChroot,
                                                                          tmp_path: Path) -> None:
    """`watch` needs nothing installed: tracefs (mounted in the empty root as a host has it), /proc."""
    import sys
    import threading

    from support import sync_writer

    untraced = chroot.run("watch", "--pid", "1", "--seconds", "1", "--no-save")
    assert_one_line_error(untraced, "tracefs is not mounted")
    tracing = chroot.mount("sys/kernel/tracing", "tracefs")
    writer = subprocess.Popen([sys.executable, sync_writer.__file__, str(tmp_path), "300"], cwd=tmp_path,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert writer.stdout is not None and writer.stdin is not None and writer.stdout.readline() == "ready\n"

    def enabled() -> bool:  # the watch's syscall instance exists, filtered to the pid, fdatasync's exit on
        for name in os.listdir(tracing / "instances"):
            flag = tracing / "instances" / name / "events/syscalls/sys_exit_fdatasync/enable"
            if name.startswith("diskdoctor-") and name.endswith("-sys") and flag.exists():
                with contextlib.suppress(OSError):
                    if flag.read_text().strip() == "1":
                        return True
        return False

    def go_once_traced() -> None:  # the writer starts once the watch traces
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not enabled():
            time.sleep(0.05)
        time.sleep(0.2)  # the pid filter and the reader follow the events being switched on
        writer.stdin.write("go\n")  # type: ignore[union-attr]
        writer.stdin.flush()  # type: ignore[union-attr]

    starter = threading.Thread(target=go_once_traced, daemon=True)
    starter.start()
    try:
        result = chroot.run("watch", "--pid", str(writer.pid), "--seconds", "8", "--json-lines", "--no-save")
    finally:
        starter.join(timeout=60)
        writer.kill()
        writer.wait()
        left = [name for name in os.listdir(tracing / "instances") if name.startswith("diskdoctor-")]
        chroot.unmount(tracing)
    assert result.code == 0, result.err
    rows = {(row["call"], row["label"]): row for row in json.loads(result.out.splitlines()[-1])["by_class"]}
    assert rows[("fdatasync", "etcd WAL")]["latency_us"]["samples"] == 300
    assert rows[("fsync", "etcd backend (bbolt db)")]["latency_us"]["samples"] == 30
    assert left == []
