"""Every advisor rule on fixture hosts: it fires where it should and stays silent where it should not."""

from __future__ import annotations

from pathlib import Path

import pytest
from diskdoctor.app.core.advice.advise import advise, load_advice_input
from diskdoctor.app.core.advice.contexts import BenchContext
from diskdoctor.app.core.findings.finding import Finding
from diskdoctor.app.core.findings.vocabulary import Severity
from diskdoctor.probes.root import Root
from support import advice_scenarios as scenarios
from support.sysfs_builder import SysrootBuilder

FIXTURES = Path(__file__).parent / "fixtures"


def findings(build: SysrootBuilder | Path, *, data: tuple[str, ...] = (),
             bench: tuple[dict[str, object], ...] = ()) -> list[Finding]:
    """Advise on a built (or fixture) root."""
    path = build.finish() if isinstance(build, SysrootBuilder) else build
    advice = load_advice_input(Root(str(path), live=False), data_paths=data,
                               bench=tuple(BenchContext(doc, "result.json") for doc in bench))
    return advise(advice)


def only(found: list[Finding], rule: str) -> list[Finding]:
    return [finding for finding in found if finding.id == rule]


def one(found: list[Finding], rule: str) -> Finding:
    matches = only(found, rule)
    assert len(matches) == 1, [f.id for f in found]
    return matches[0]


# --- mount options -------------------------------------------------------------------------------

def test_nobarrier_is_critical_with_the_remount_fix(tmp_path: Path) -> None:
    found = one(findings(scenarios.nvme_host(tmp_path, fstype="ext4", super_options="rw,nobarrier")),
                "NOBARRIER")
    assert found.severity is Severity.CRIT and found.subject == "/var/lib/etcd"
    assert found.fix[0] == "mount -o remount,barrier /var/lib/etcd"
    assert found.evidence[0].value == "rw,noatime,nobarrier"
    assert found.evidence[0].source == "/proc/self/mountinfo (/var/lib/etcd)"


def test_barriers_on_are_silent(tmp_path: Path) -> None:
    assert not only(findings(scenarios.nvme_host(tmp_path, fstype="ext4", super_options="rw")), "NOBARRIER")


def test_data_journal_needs_a_remount_cycle(tmp_path: Path) -> None:
    found = one(findings(scenarios.nvme_host(tmp_path, fstype="ext4", super_options="rw,data=journal")),
                "DATA-JOURNAL")
    assert found.severity is Severity.WARN and "umount /var/lib/etcd && mount /var/lib/etcd" in found.fix


def test_data_ordered_is_silent(tmp_path: Path) -> None:
    assert not only(findings(scenarios.nvme_host(tmp_path, fstype="ext4", super_options="rw,data=ordered")),
                    "DATA-JOURNAL")


def test_long_commit_on_ext4(tmp_path: Path) -> None:
    found = one(findings(scenarios.nvme_host(tmp_path, fstype="ext4", super_options="rw,commit=60")),
                "COMMIT-LONG")
    assert found.title == "/var/lib/etcd commits every 60 s (default 5 s)"


def test_commit_within_btrfs_default_is_silent(tmp_path: Path) -> None:
    host = scenarios.nvme_host(tmp_path, fstype="btrfs", super_options="rw,ssd,space_cache=v2,commit=30")
    assert not only(findings(host), "COMMIT-LONG")


def test_atime_on_a_data_filesystem(tmp_path: Path) -> None:
    found = one(findings(scenarios.nvme_host(tmp_path, options="rw,relatime")), "ATIME")
    assert any(e.what == "etcd data" and e.value == "/var/lib/etcd" for e in found.evidence)


def test_atime_is_silent_with_noatime_or_without_data(tmp_path: Path) -> None:
    assert not only(findings(scenarios.nvme_host(tmp_path / "a", options="rw,noatime")), "ATIME")
    assert not only(findings(scenarios.nvme_host(tmp_path / "b", mountpoint="/srv", options="rw,relatime")),
                    "ATIME")


def test_atime_follows_a_data_dir_given_on_the_command_line(tmp_path: Path) -> None:
    host = scenarios.nvme_host(tmp_path, mountpoint="/srv", options="rw,relatime")
    found = one(findings(host, data=("/srv/pg",)), "ATIME")
    assert any(e.source == "--data" for e in found.evidence)


def test_btrfs_autodefrag_under_a_database(tmp_path: Path) -> None:
    host = scenarios.nvme_host(tmp_path, fstype="btrfs", super_options="rw,ssd,autodefrag,space_cache=v2")
    assert one(findings(host), "BTRFS-AUTODEFRAG-DB").fix[0] == "mount -o remount,noautodefrag /var/lib/etcd"


def test_btrfs_autodefrag_without_database_is_silent(tmp_path: Path) -> None:
    host = scenarios.nvme_host(tmp_path, mountpoint="/home", fstype="btrfs", super_options="rw,autodefrag")
    assert not only(findings(host), "BTRFS-AUTODEFRAG-DB")


COMPSIZE = ("Processed 1812 files, 2301 regular extents (2301 refs), 0 inline.\n"
            "Type       Perc     Disk Usage   Uncompressed Referenced\n"
            "TOTAL       {p}%      {d}          27M          27M\n")


def _btrfs_logs(tmp_path: Path, option: str, percent: int) -> SysrootBuilder:
    host = scenarios.nvme_host(tmp_path, mountpoint="/srv/logs", fstype="btrfs", super_options=f"rw,{option}")
    host.command_output("compsize-srv-logs", COMPSIZE.format(p=percent, d="4.3M"))
    return host


def test_compress_force_on_data_that_does_not_compress(tmp_path: Path) -> None:
    found = one(findings(_btrfs_logs(tmp_path, "compress-force=zstd:3", 97)), "BTRFS-COMPRESS-RATIO")
    assert found.fix[0] == "mount -o remount,compress=zstd:3 /srv/logs"
    assert found.evidence[1].value == "97% (4.3M of 27M)"
    assert found.evidence[1].source == "command: compsize -x /srv/logs"


def test_good_compression_reports_what_du_hides(tmp_path: Path) -> None:
    found = one(findings(_btrfs_logs(tmp_path, "compress=zstd:3", 15)), "BTRFS-COMPRESS-RATIO")
    assert "15%" in found.title and "du" in found.why and not found.fix


def test_middling_ratio_or_no_compsize_is_silent(tmp_path: Path) -> None:
    assert not only(findings(_btrfs_logs(tmp_path / "a", "compress-force=zstd", 60)), "BTRFS-COMPRESS-RATIO")
    host = scenarios.nvme_host(tmp_path / "b", mountpoint="/srv/logs", fstype="btrfs",
                               super_options="rw,compress-force=zstd")
    assert not only(findings(host), "BTRFS-COMPRESS-RATIO")


# --- queues --------------------------------------------------------------------------------------

def test_nvme_with_a_scheduler(tmp_path: Path) -> None:
    host = scenarios.nvme_host(tmp_path, queue={"scheduler": "none [mq-deadline] kyber bfq"})
    found = one(findings(host), "SCHED-NVME")
    assert found.fix[0] == "echo none > /sys/block/nvme0n1/queue/scheduler"
    assert found.evidence[0].source == "/sys/block/nvme0n1/queue/scheduler"


def test_nvme_without_scheduler_is_silent(tmp_path: Path) -> None:
    assert not only(findings(scenarios.nvme_host(tmp_path)), "SCHED-NVME")


def test_sata_hard_disk_without_scheduler(tmp_path: Path) -> None:
    host = scenarios.sata_host(tmp_path, rotational="1", scheduler="[none] mq-deadline kyber bfq")
    assert one(findings(host), "SCHED-HDD").fix[0] == "echo mq-deadline > /sys/block/sda/queue/scheduler"


def test_virtio_rotational_is_not_a_hard_disk(tmp_path: Path) -> None:
    found = findings(scenarios.virtio_host(tmp_path, scheduler="[none] mq-deadline kyber bfq"))
    assert not only(found, "SCHED-HDD")
    assert "says nothing about the storage" in one(found, "ROTA-VIRT").title


def test_virtio_reporting_flash_is_silent(tmp_path: Path) -> None:
    assert not only(findings(scenarios.virtio_host(tmp_path, rotational="0")), "ROTA-VIRT")


def test_write_through_cache(tmp_path: Path) -> None:
    found = one(findings(scenarios.sata_host(tmp_path, write_cache="write through")), "WCACHE-OFF")
    assert found.fix[0] == "hdparm -W /dev/sda   # SATA: write-caching = 1 (on)?"
    assert "never write to queue/write_cache" in " ".join(found.fix)


def test_volatile_cache_without_fua_under_data(tmp_path: Path) -> None:
    found = findings(scenarios.sata_host(tmp_path, fua="0"))
    assert one(found, "WCACHE-NO-FUA").severity is Severity.INFO and not only(found, "WCACHE-OFF")


def test_cache_with_fua_is_silent(tmp_path: Path) -> None:
    found = findings(scenarios.sata_host(tmp_path, fua="1"))
    assert not only(found, "WCACHE-NO-FUA") and not only(found, "WCACHE-OFF")


def test_read_ahead_on_raid_under_search_data(tmp_path: Path) -> None:
    found = only(findings(scenarios.md_host(tmp_path, read_ahead="4096")), "RA-HIGH")
    assert sorted(f.subject for f in found) == ["md0", "vg0-data"]
    lvm = next(f for f in found if f.subject == "vg0-data")
    assert lvm.fix[0] == "blockdev --setra 256 /dev/mapper/vg0-data   # 256 sectors = 128 KiB"
    assert all("Elasticsearch" in f.title for f in found)


def test_read_ahead_of_128k_is_silent(tmp_path: Path) -> None:
    assert not only(findings(scenarios.md_host(tmp_path, read_ahead="128")), "RA-HIGH")


def test_partition_starting_at_sector_63(tmp_path: Path) -> None:
    found = one(findings(scenarios.nvme_host(tmp_path, start=63)), "PART-ALIGN")
    assert found.subject == "nvme0n1p1"
    assert found.title == "nvme0n1p1 starts at byte 32,256, not a multiple of 4,096"


def test_partitions_at_1mib_are_silent(tmp_path: Path) -> None:
    assert not only(findings(scenarios.nvme_host(tmp_path)), "PART-ALIGN")


def test_real_lab_partitions_are_aligned() -> None:
    for name in ("lab-ssd", "lab-disks", "lab-4kn"):
        assert not only(findings(FIXTURES / name), "PART-ALIGN"), name


# --- RAID geometry -------------------------------------------------------------------------------

def test_xfs_on_raid5_without_stripe_geometry(tmp_path: Path) -> None:
    found = one(findings(scenarios.md_host(tmp_path)), "STRIPE-XFS")
    assert found.title.endswith("has no stripe geometry; md0 wants sunit=1024, swidth=2048")
    assert any(e.what == "data disks of md0" and e.value == "2" for e in found.evidence)


def test_xfs_with_matching_geometry_is_silent(tmp_path: Path) -> None:
    host = scenarios.md_host(tmp_path, super_options="rw,attr2,inode64,sunit=1024,swidth=2048")
    assert not only(findings(host), "STRIPE-XFS")
    assert not only(findings(FIXTURES / "etcd-raid0-lvm-luks"), "STRIPE-XFS")


TUNE2FS = "Block size:               4096\nRAID stride:              {s}\nRAID stripe width:        {w}\n"


def test_ext4_stride_mismatch_read_from_tune2fs(tmp_path: Path) -> None:
    host = scenarios.md_host(tmp_path, fstype="ext4", super_options="rw")
    host.command_output("tune2fs-dm-0", TUNE2FS.format(s=16, w=16))
    found = one(findings(host), "STRIPE-EXT4")
    assert found.fix == ("tune2fs -E stride=128,stripe_width=256 /dev/mapper/vg0-data",)
    assert found.evidence[-1].source == "command: tune2fs -l /dev/mapper/vg0-data"


def test_ext4_stride_matching_is_silent(tmp_path: Path) -> None:
    host = scenarios.md_host(tmp_path, fstype="ext4", super_options="rw,stripe=256")
    host.command_output("tune2fs-dm-0", TUNE2FS.format(s=128, w=256))
    assert not only(findings(host), "STRIPE-EXT4")


def test_real_lab_raid0_ext4_stripe_differs_from_the_array() -> None:
    found = one(findings(FIXTURES / "lab-ssd"), "STRIPE-EXT4")
    assert found.subject == "/lab/raid0" and "stripe=512" in found.title


# --- hardware, software --------------------------------------------------------------------------

def test_swap_on_the_data_disk(tmp_path: Path) -> None:
    found = one(findings(scenarios.nvme_host(tmp_path, swap="same")), "SWAP-SHARED")
    assert found.title == "Swap /dev/nvme0n1p3 is on nvme0n1, the disk under /var/lib/etcd"


def test_swap_on_another_disk_is_silent(tmp_path: Path) -> None:
    assert not only(findings(scenarios.nvme_host(tmp_path, swap="other")), "SWAP-SHARED")


def test_sata_link_below_the_drive(tmp_path: Path) -> None:
    found = one(findings(scenarios.sata_host(tmp_path, link=("3.0 Gbps", "6.0 Gbps"))), "SATA-LINK")
    assert found.title == "sda's SATA link runs at 3.0 Gbps, below 6.0 Gbps"
    assert found.evidence[0].source == "/sys/class/ata_link/link1/sata_spd"


def test_sata_speed_downs_count_even_at_full_speed(tmp_path: Path) -> None:
    assert "lowered" in one(findings(scenarios.sata_host(tmp_path, speed_downs="2")), "SATA-LINK").title


def test_full_speed_sata_link_is_silent(tmp_path: Path) -> None:
    assert not only(findings(scenarios.sata_host(tmp_path)), "SATA-LINK")


def test_nvme_apst_with_outliers_in_a_benchmark_on_the_nvme_disk(tmp_path: Path) -> None:
    result = {**wal(900), "target": {"dir": "/var/lib/etcd/b", "mountpoint": "/var/lib/etcd",
                                     "device": "nvme0n1p1"}}
    result["sync_latency_us"] = {"p50": 300, "p99": 900, "max": 48_000}
    found = one(findings(scenarios.nvme_host(tmp_path, apst="100000"), bench=(result,)), "NVME-APST")
    assert found.title == ("NVMe power saving (APST) is on and there are tail-latency outliers in a "
                           "benchmark: suspect wake-ups of nvme0n1")
    assert found.evidence[0].value == "100000"
    assert (found.evidence[1].what, found.evidence[1].value, found.evidence[1].source) == (
        "slowest fdatasync (53x the p99 of 900 µs)", "48.0 ms", "result.json: sync_latency_us.max")


def test_nvme_apst_with_controller_resets_in_the_kernel_log(tmp_path: Path) -> None:
    host = scenarios.nvme_host(tmp_path, apst="100000")
    host.command_output("dmesg-nvme",
                        "[ 12.3] nvme nvme0: pci function 0000:04:00.0\n"
                        "[8123.4] nvme nvme0: controller is down; will reset: CSTS=0xffffffff\n")
    found = one(findings(host), "NVME-APST")
    assert "NVMe controller resets in the kernel log" in found.title
    assert found.evidence[-1].value == "[8123.4] nvme nvme0: controller is down; will reset: CSTS=0xffffffff"
    assert found.evidence[-1].source == "command: dmesg"


def test_apst_on_without_evidence_or_off_is_silent(tmp_path: Path) -> None:
    calm = {**wal(900), "target": {"mountpoint": "/var/lib/etcd", "device": "nvme0n1p1"}}
    calm["sync_latency_us"] = {"p50": 300, "p99": 900, "max": 2_500}  # a tail, not an outlier
    assert not only(findings(scenarios.nvme_host(tmp_path / "on", apst="100000"), bench=(calm,)), "NVME-APST")
    off = scenarios.nvme_host(tmp_path / "a", apst="0")
    off.command_output("dmesg-nvme", "[8123.4] nvme nvme0: controller is down; will reset\n")
    assert not only(findings(off), "NVME-APST")
    assert not only(findings(scenarios.sata_host(tmp_path / "b")), "NVME-APST")


CRYPT = "aes-xts-plain64 :64:logon:cryptsetup:3f9c2a41-d0 0 253:0 32768 1 {flags}"


def test_dm_crypt_on_nvme_with_workqueues(tmp_path: Path) -> None:
    found = one(findings(scenarios.md_host(tmp_path, crypt_table=CRYPT.format(flags="allow_discards"))),
                "CRYPT-WORKQUEUE")
    assert found.fix == ("cryptsetup refresh --perf-no_read_workqueue --perf-no_write_workqueue --persistent "
                         "luks-data",)


def test_dm_crypt_without_workqueues_is_silent(tmp_path: Path) -> None:
    table = CRYPT.format(flags="3 allow_discards no_read_workqueue no_write_workqueue")
    assert not only(findings(scenarios.md_host(tmp_path, crypt_table=table)), "CRYPT-WORKQUEUE")


def test_dm_crypt_on_scsi_lab_disks_is_silent() -> None:
    assert not only(findings(FIXTURES / "lab-ssd"), "CRYPT-WORKQUEUE")


def _ceph(tmp_path: Path, version: str, distro: str = "ID=ubuntu\nID_LIKE=debian\n") -> SysrootBuilder:
    host = scenarios.nvme_host(tmp_path)
    host.command_output("ceph-osd-version",
                        f"ceph version {version} (b12291d1) quincy (stable)\n")
    host.etc("os-release", distro + 'PRETTY_NAME="Ubuntu 22.04.4 LTS"\n')
    return host


@pytest.mark.parametrize("version", ["17.2.7", "16.2.14", "18.2.2", "15.2.17"])
def test_ceph_packages_with_unoptimised_rocksdb(tmp_path: Path, version: str) -> None:
    found = one(findings(_ceph(tmp_path, version)), "CEPH-ROCKSDB-BUILD")
    assert found.subject == "ceph-osd" and version in found.title


@pytest.mark.parametrize("version,distro", [("17.2.8", "ID=ubuntu\n"), ("18.2.4", "ID=debian\n"),
                                            ("19.2.0", "ID=debian\n"),
                                            ("17.2.7", 'ID="rocky"\nID_LIKE="rhel"\n')])
def test_ceph_fixed_or_not_debian_is_silent(tmp_path: Path, version: str, distro: str) -> None:
    assert not only(findings(_ceph(tmp_path, version, distro)), "CEPH-ROCKSDB-BUILD")


# --- benchmark verdicts --------------------------------------------------------------------------

def wal(p99_us: float, threshold: float = 10.0) -> dict[str, object]:
    """A `bench wal --json` document reduced to what the rules read."""
    return {"target": {"dir": "/var/lib/etcd/bench", "mountpoint": "/var/lib/etcd", "fstype": "xfs"},
            "samples": 10029, "sync_latency_us": {"p50": p99_us / 4, "p99": p99_us},
            "verdict": {"pass": p99_us / 1000 < threshold, "metric": "p99 fdatasync",
                        "value_ms": p99_us / 1000, "threshold_ms": threshold,
                        "source": "etcd docs threshold"}}


def test_wal_over_threshold_is_critical_and_grouped_with_its_filesystem(tmp_path: Path) -> None:
    found = one(findings(scenarios.nvme_host(tmp_path), bench=(wal(15300),)), "ETCD-FSYNC-P99")
    assert found.severity is Severity.CRIT and found.subject == "/var/lib/etcd"
    assert found.title == "WAL p99 fdatasync is 15.3 ms, at or over the 10 ms threshold"
    assert found.evidence[0].source == "result.json: sync_latency_us.p99"


def test_wal_with_little_headroom_is_info_and_fast_wal_silent(tmp_path: Path) -> None:
    found = findings(scenarios.nvme_host(tmp_path), bench=(wal(3000), wal(400)))
    assert [f.severity for f in only(found, "ETCD-FSYNC-P99")] == [Severity.INFO]


def interference(alone_us: float, under_us: float) -> dict[str, object]:
    return {"alone": wal(alone_us), "under_compaction": wal(under_us), "p99_ratio": under_us / alone_us}


def test_wal_collapsing_under_compaction(tmp_path: Path) -> None:
    results = (interference(1000, 12000), interference(1000, 4000))
    found = findings(scenarios.nvme_host(tmp_path), bench=results)
    severities = [f.severity for f in only(found, "WAL-COMPACTION-P99")]
    assert severities == [Severity.CRIT, Severity.WARN]
    assert not only(found, "ETCD-FSYNC-P99")


def test_wal_steady_under_compaction_is_silent(tmp_path: Path) -> None:
    assert not only(findings(scenarios.nvme_host(tmp_path), bench=(interference(1000, 1500),)),
                    "WAL-COMPACTION-P99")


def test_bind_mounts_do_not_repeat_filesystem_findings(tmp_path: Path) -> None:
    host = scenarios.nvme_host(tmp_path, fstype="ext4", super_options="rw,nobarrier")
    for index in range(3):  # kubelet-style bind mounts of directories of the same filesystem
        host.mountinfo.append(f"{90 + index} 1 259:1 /pods/{index} /var/lib/kubelet/pods/{index} rw,noatime "
                              "shared:1 - ext4 /dev/nvme0n1p1 rw,nobarrier")
    found = only(findings(host), "NOBARRIER")
    assert [f.subject for f in found] == ["/var/lib/etcd"]
