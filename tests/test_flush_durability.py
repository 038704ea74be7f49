"""Why an fdatasync is not durable on a benchmark's target, read the way the advisor reads it: the mount's
nobarrier / barrier=0, and a disk whose queue says write through while its drive's cache is on; a hostile
result file's caveats made safe."""

from __future__ import annotations

from pathlib import Path

from diskdoctor.probes.flush_durability import mount_reasons, not_durable_reasons
from diskdoctor.probes.host import read_host
from diskdoctor.probes.root import Root
from support import advice_scenarios as scenarios
from support.cli_runner import run_cli

TOGGLED = ("sda's queue says write through while its drive's cache is on (ATA IDENTIFY word 85 (write cache "
           "enabled)): no cache flush reaches it")


def _reasons(path: Path, options: tuple[str, ...] = ("rw",)) -> tuple[str, ...]:
    root = Root(str(path), live=False)
    return not_durable_reasons(root, read_host(root), options, ("sda1", "sda"))


def test_a_drive_cache_the_kernel_no_longer_flushes_is_not_durable(tmp_path: Path) -> None:
    toggled = scenarios.sata_host(tmp_path / "on", write_cache="write through", identify_cache=True).finish()
    assert _reasons(toggled) == (TOGGLED,)
    off = scenarios.sata_host(tmp_path / "off", write_cache="write through", identify_cache=False).finish()
    assert _reasons(off) == ()  # a drive without a volatile cache: write through is the truth
    write_back = scenarios.sata_host(tmp_path / "wb", identify_cache=True).finish()
    assert _reasons(write_back) == ()  # the kernel flushes it
    assert _reasons(write_back, ("rw", "nobarrier")) == ("mounted nobarrier: the filesystem sends no cache "
                                                         "flushes",)


def test_both_spellings_of_no_barriers() -> None:
    assert mount_reasons(("rw", "barrier=0")) == ["mounted barrier=0: the filesystem sends no cache flushes"]
    assert mount_reasons(("rw", "barrier=1", "relatime")) == [] and mount_reasons(()) == []


def test_a_hostile_bench_file_gets_its_caveats_made_safe_and_its_bad_host_ignored(tmp_path: Path) -> None:
    result = tmp_path / "result.json"
    result.write_text('{"workload": "wal", "sync_latency_us": {"p99": 500}, "target": {"dir": "/x", '
                      '"fstype": "ext4", "not_durable": [3, "mounted \\u001b[31mnobarrier"]}, '
                      '"host": {"seconds": "x", "other_cpu": "y", "top_io": [{"pid": 1}]}}')
    advised = run_cli("advise", "--bench", str(result))
    assert "Traceback" not in advised.err and "\x1b" not in advised.out
    assert "not durable: mounted \\x1b[31mnobarrier" in advised.out and "BENCH-HOST-BUSY" not in advised.out
