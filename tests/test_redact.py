"""`capture --redact` removes every kind of identifying value it promises to (README: Capture)."""

from __future__ import annotations

import json
from pathlib import Path

from diskdoctor.app.core.capture.redact import redact_tree
from diskdoctor.probes.device_cache import parse_identify_cache

PLANTED = {
    "proc/sys/kernel/hostname": "web01\n",
    "etc/hostname": "web01.corp.example.com\n",
    "etc/fstab": ("LABEL=custdata /data ext4 defaults 0 2\n"
                  "PARTLABEL=billing-ledger /ledger xfs defaults 0 2\n"
                  "nfs01.corp.example.com:/export /mnt/nfs nfs defaults 0 0\n"
                  "10.20.30.40:/share /mnt/share nfs defaults 0 0\n"
                  "[fd00:abcd::5]:/v6 /mnt/v6 nfs defaults 0 0\n"
                  "/home/alice/disk.img /mnt/img ext4 loop 0 0\n"),
    "proc/cmdline": "BOOT_IMAGE=/vmlinuz root=/dev/sda1 ip=10.1.2.3::10.1.2.1:255.255.255.0:web01:eth0:off\n",
    "proc/self/mountinfo": ("30 1 0:40 / /mnt/share rw - nfs4 10.20.30.40:/share rw,addr=10.20.30.40\n"
                            "31 1 7:0 / /mnt/img rw - ext4 /dev/loop0 rw\n"
                            "32 1 8:1 / /Users/bob/scratch rw - ext4 /dev/sdb1 rw\n"),
    "sys/block/loop0/loop/backing_file": "/home/alice/disk.img\n",
    "run/udev/data/b8:1": ("E:ID_FS_LABEL=custdata\nS:disk/by-label/custdata\n"
                           "E:ID_PART_ENTRY_NAME=billing-ledger\n"),
    "fs-usage.json": json.dumps({"/home/alice/data": {"total": 1}}),
    "var/spool/cron/crontabs/root": ("AWS_SECRET_ACCESS_KEY=hunter2-secret\nMAILTO=ops@corp.example.com\n"
                                     "0 3 * * 0 /sbin/fstrim -av\n*/5 * * * * curl -u admin:s3cr3t x\n"),
    "etc/crontab": "SHELL=/bin/sh\n25 6 * * * root test -x /usr/sbin/anacron || run-parts /etc/cron.daily\n",
    "manifest.json": json.dumps({"hostname": "web01"}),
}
SECRETS = ["web01", "corp.example.com", "10.20.30.40", "10.1.2.3", "10.1.2.1", "fd00:abcd::5", "custdata",
           "billing-ledger", "alice", "bob", "hunter2-secret", "s3cr3t", "MAILTO"]


def test_redacted_bundle_holds_none_of_the_planted_secrets(tmp_path: Path) -> None:
    for rel, text in PLANTED.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    redact_tree(str(tmp_path), "web01")
    everything = "\n".join(p.read_text() for p in tmp_path.rglob("*") if p.is_file())
    for secret in SECRETS:
        assert secret not in everything, secret
    crontab = (tmp_path / "var/spool/cron/crontabs/root").read_text()
    assert "0 3 * * 0 /sbin/fstrim -av" in crontab and "removed by diskdoctor" in crontab
    assert "run-parts /etc/cron.daily" in (tmp_path / "etc/crontab").read_text()
    fstab = (tmp_path / "etc/fstab").read_text()
    assert "/data ext4 defaults 0 2" in fstab and "/home/user-" in fstab  # structure kept for replay
    assert json.loads((tmp_path / "manifest.json").read_text())["hostname"].startswith("host-")


def test_short_hostname_does_not_corrupt_longer_words(tmp_path: Path) -> None:
    (tmp_path / "proc/sys/kernel").mkdir(parents=True)
    (tmp_path / "proc/sys/kernel/hostname").write_text("vm\n")
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc/fstab").write_text("# vm: kvm guest, vmstat\n/dev/vda1 / ext4 defaults 0 1\n")
    redact_tree(str(tmp_path), "vm")
    text = (tmp_path / "etc/fstab").read_text()
    assert "kvm guest, vmstat" in text and "# vm:" not in text


def test_ata_identify_data_loses_its_serial_and_wwn_but_keeps_the_cache_bit(tmp_path: Path) -> None:
    words = [f"{i:04x}" for i in range(256)]
    words[10:20] = ["5336", "3447", "4e45", "3052", "3930", "3035", "3130", "2020", "2020", "2020"]  # serial
    words[85] = "7469"  # write cache enabled (bit 5)
    ident = tmp_path / "sys/devices/pci0000:00/0000:00:1f.2/ata1/link1/dev1.0/ata_device/dev1.0/id"
    ident.parent.mkdir(parents=True)
    ident.write_text("".join(" ".join(words[i:i + 8]) + "\n" for i in range(0, 256, 8)))
    redact_tree(str(tmp_path), None)
    redacted = ident.read_text().split()
    assert redacted[10:20] == ["0000"] * 10 and redacted[108:112] == ["0000"] * 4
    assert redacted[85] == "7469" and redacted[9] == "0009" and len(redacted) == 256
    assert parse_identify_cache(ident.read_text()) is True
