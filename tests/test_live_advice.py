"""Advisor rules on real loop-device filesystems mounted with the options that trigger them."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import live_prerequisites
from diskdoctor.app.core.advice.advise import advise, load_advice_input
from diskdoctor.app.core.findings.finding import Finding
from diskdoctor.probes.root import live_root
from support.loop_stack import LoopStack, _attach, _mount, forget_stale_partitions, sh

pytestmark = pytest.mark.live
LOG_LINE = ('{"ts":"2026-11-20T10:%02d:%02d","level":"info","service":"api","msg":"request served",'
            '"status":200}\n')


def _options(mountpoint: Path) -> str:
    """The options the kernel reports for a mount, read back after mounting."""
    return sh("findmnt", "-no", "OPTIONS", str(mountpoint))


@pytest.fixture(scope="module")
def advice_loops(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoopStack]:
    """ext4 with nobarrier, data=journal+commit=60, a plain ext4, btrfs compress-force with
    compressible logs, btrfs with autodefrag, and a loop with a partition starting at sector 63."""
    why = live_prerequisites()
    if why:
        pytest.skip(why)
    stack = LoopStack(tmp_path_factory.mktemp("advice-loops"))
    try:
        for role, options in (("nobarrier", "nobarrier"), ("journal", "data=journal,commit=60"),
                              ("plain", "noatime")):
            device = _attach(stack, role, 64)
            sh("mkfs.ext4", "-q", "-F", device)
            _mount(stack, role, device, options)
        for role, options in (("logs", "compress-force=zstd:3"), ("db", "autodefrag")):
            device = _attach(stack, role, 256)
            sh("mkfs.btrfs", "-q", "-f", device)
            _mount(stack, role, device, options)
        with open(stack.mountpoints["logs"] / "app.log", "w") as log:
            for index in range(60000):
                log.write(LOG_LINE % (index // 60 % 60, index % 60))
        subprocess.run(["sync"], check=True)
        device = _attach(stack, "misaligned", 16)
        sh("sfdisk", "-q", device, stdin="label: dos\nstart=63, size=20000, type=83\n")
        forget_stale_partitions(device)
        sh("partx", "-a", device)
        stack.partitioned.append(device)
        yield stack
    finally:
        stack.teardown()


def live_findings(stack: LoopStack, data: tuple[str, ...] = ()) -> list[Finding]:
    return advise(load_advice_input(live_root(), data_paths=data))


def about(found: list[Finding], stack: LoopStack, role: str) -> set[str]:
    return {f.id for f in found if f.subject == str(stack.mountpoints[role])}


def test_the_kernel_kept_the_triggering_options(advice_loops: LoopStack) -> None:
    assert "nobarrier" in _options(advice_loops.mountpoints["nobarrier"])
    journal = _options(advice_loops.mountpoints["journal"])
    assert "data=journal" in journal and "commit=60" in journal
    assert "compress-force=zstd:3" in _options(advice_loops.mountpoints["logs"])
    assert "autodefrag" in _options(advice_loops.mountpoints["db"])


def test_mount_option_rules_fire_on_real_mounts(advice_loops: LoopStack) -> None:
    db = str(advice_loops.mountpoints["db"])
    found = live_findings(advice_loops, data=(db, str(advice_loops.mountpoints["journal"])))
    assert "NOBARRIER" in about(found, advice_loops, "nobarrier")
    assert {"DATA-JOURNAL", "COMMIT-LONG", "ATIME"} <= about(found, advice_loops, "journal")
    assert "BTRFS-AUTODEFRAG-DB" in about(found, advice_loops, "db")


def test_real_mounts_without_the_options_stay_silent(advice_loops: LoopStack) -> None:
    found = live_findings(advice_loops, data=(str(advice_loops.mountpoints["plain"]),))
    plain = about(found, advice_loops, "plain")
    assert not plain & {"NOBARRIER", "DATA-JOURNAL", "COMMIT-LONG", "ATIME"}
    assert "BTRFS-AUTODEFRAG-DB" not in about(found, advice_loops, "db")  # no database data declared there
    assert "BTRFS-AUTODEFRAG-DB" not in about(found, advice_loops, "logs")


@pytest.mark.skipif(os.geteuid() != 0, reason="compsize needs root")
def test_compsize_measures_real_compression(advice_loops: LoopStack) -> None:
    found = live_findings(advice_loops)
    ratio = next(f for f in found if f.id == "BTRFS-COMPRESS-RATIO"
                 and f.subject == str(advice_loops.mountpoints["logs"]))
    percent = int(ratio.evidence[1].value.split("%")[0])
    assert percent < 50 and "du" in ratio.why
    assert ratio.evidence[1].source == f"command: compsize -x {advice_loops.mountpoints['logs']}"


def test_partition_at_sector_63_is_misaligned(advice_loops: LoopStack) -> None:
    part = Path(advice_loops.devices["misaligned"]).name + "p1"
    assert Path(f"/sys/class/block/{part}/start").read_text().strip() == "63"
    found = [f for f in live_findings(advice_loops) if f.id == "PART-ALIGN"]
    assert [f.subject for f in found if f.subject == part] == [part]
    ours = {Path(device).name for device in advice_loops.devices.values()}  # another run's loops are not ours
    assert not [f for f in found if f.subject.rstrip("0123456789").removesuffix("p") in ours
                and f.subject != part]
