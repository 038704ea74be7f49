"""`capture --redact` by rules: mountpoints, backing files, the kernel command line, addresses, hostnames
and user names are replaced consistently, the user's own rules are applied, the bundle says what each
rule replaced per file, none of the originals travel, and the bundle still replays to the same stack."""

from __future__ import annotations

import json
import re
import tarfile
from pathlib import Path

import pytest
from conftest import live_prerequisites
from diskdoctor.app.core.capture.redact import REPORT_FILE, redact_tree
from diskdoctor.app.core.capture.redact_rules import load_rules
from support.cli_runner import assert_one_line_error, run_cli
from support.hostile_roots import add_device, copy_fixture, replace_everywhere, tar_gz
from support.loop_stack import LoopStack, sh
from support.loop_stack import _attach as attach

SECRETS = ["acme-alice-payroll", "acme images", "acme\\040images", "acme-images", "alice", "bob", "web01",
           "corp.example.com", "10.1.2.3", "10.1.2.1", "10.9.8.7", "ACME-Project-X", "TICKET-4711",
           "payroll-disk", "acme", "payroll", "filer7", "winbox"]
RULES = ("# extra rules for this customer\nliteral project ACME-Project-X\n"
         "regex ticket TICKET-(?P<mask>\\d+)\n")
CMDLINE = ("BOOT_IMAGE=/vmlinuz root=UUID=7e6d5c4b-3a29-4817-8695-a4b3c2d1e0f9 ro rd.luks.options=discard "
           "ip=10.1.2.3::10.1.2.1:255.255.255.0:web01:eth0:off nfsroot=10.9.8.7:/exports/acme-alice-payroll "
           "quiet\n")


def planted_capture(tmp_path: Path) -> Path:
    """The blocked-TRIM etcd fixture as a customer's capture: its data under /srv/acme-alice-payroll, a
    loop device backed by a file in alice's home mounted on a path with a space, a label, addresses and
    names in the kernel command line, bob's crontab, a mount unit named after the data path (and its
    link) and the customer's project name in fstab."""
    root = copy_fixture("etcd-trim-blocked", tmp_path)
    replace_everywhere(root, "/var/lib/etcd", "/srv/acme-alice-payroll")
    add_device(root, "loop0", size="131072", extra={"dev": "7:0", "loop/backing_file":
                                                     "/home/alice/acme-images/disk.img"})
    with open(root / "proc/self/mountinfo", "a") as out:
        out.write("40 1 7:0 / /mnt/acme\\040images rw,relatime shared:9 - ext4 /dev/loop0 rw\n")
    with open(root / "etc/fstab", "a") as out:
        out.write("# ACME-Project-X owner, see TICKET-4711\nLABEL=payroll-disk /mnt/acme\\040images ext4 "
                  "defaults 0 2\nfiler7.acme-corp.net:/exports/payroll /mnt/reports nfs4 defaults 0 0\n"
                  "//winbox-alice/share /mnt/share cifs defaults 0 0\n")
    (root / "proc/cmdline").write_text(CMDLINE)
    (root / "proc/sys/kernel/hostname").write_text("web01\n")
    (root / "etc/hostname").write_text("web01.corp.example.com\n")
    (root / "fs-usage.json").write_text(json.dumps({"/srv/acme-alice-payroll": {"size": 1, "used": 0,
                                                                               "free": 1}}))
    unit = root / "etc/systemd/system" / "srv-acme\\x2dalice\\x2dpayroll.mount"
    unit.parent.mkdir(parents=True, exist_ok=True)
    unit.write_text("[Mount]\nWhat=/dev/mapper/luks-etcd\nWhere=/srv/acme-alice-payroll\n")
    wants = root / "etc/systemd/system/local-fs.target.wants"
    wants.mkdir(parents=True, exist_ok=True)
    (wants / unit.name).symlink_to(f"../{unit.name}")
    crontab = root / "var/spool/cron/crontabs/bob"
    crontab.parent.mkdir(parents=True)
    crontab.write_text("MAILTO=bob@corp.example.com\n0 3 * * 0 /sbin/fstrim -v /srv/acme-alice-payroll\n")
    return root


def redacted_bundle(tmp_path: Path) -> tuple[Path, Path]:
    """(the planted capture folder, its redacted copy as a .tar.gz), redacted as `capture` does."""
    original = planted_capture(tmp_path / "original")
    work = planted_capture(tmp_path / "work")
    rules_file = tmp_path / "rules.txt"
    rules_file.write_text(RULES)
    redact_tree(str(work), "web01", rules=load_rules(str(rules_file)), usernames=["alice", "bob"])
    return original, tar_gz(work, tmp_path / "redacted.tar.gz")


def members(bundle: Path) -> dict[str, bytes]:
    """Every member of a bundle: its name and its bytes (a symlink's target stands for its bytes)."""
    found = {}
    with tarfile.open(bundle) as tar:
        for member in tar.getmembers():
            handle = tar.extractfile(member) if member.isfile() else None
            found[member.name] = handle.read() if handle else member.linkname.encode()
    return found


def shape(nodes: list[dict], mountpoints: list[str]) -> list[tuple]:
    """The stack without names that redaction changes: kernel names, types, sizes, filesystems and how
    many mountpoints each has (collected in order into `mountpoints`)."""
    out = []
    for node in nodes:
        mountpoints += node["mountpoints"]
        out.append((node["kname"], node["type"], node["size_bytes"], node["fstype"],
                    len(node["mountpoints"]), tuple(shape(node.get("children") or [], mountpoints))))
    return out


def test_no_original_travels_in_any_member_or_member_name(tmp_path: Path) -> None:
    _, bundle = redacted_bundle(tmp_path)
    found = members(bundle)
    for name, data in found.items():
        for secret in SECRETS:
            assert secret.encode() not in data, (secret, name)
            assert secret not in name, (secret, name)


def test_the_redacted_bundle_replays_to_the_same_stack(tmp_path: Path) -> None:
    original, bundle = redacted_bundle(tmp_path)
    before, after = (json.loads(run_cli("devices", "--json", "--sysroot", str(p)).out)["devices"]
                     for p in (original, bundle))
    points_before: list[str] = []
    points_after: list[str] = []
    assert shape(before, points_before) == shape(after, points_after)
    assert "/srv/acme-alice-payroll" in points_before and "/mnt/acme images" in points_before
    mapping = dict(zip(points_before, points_after, strict=True))
    assert len(set(mapping.values())) == len(mapping)  # one stand-in per mountpoint, none merged
    assert mapping["/"] == "/" and mapping["/srv/acme-alice-payroll"].startswith("/srv/dir-")
    trims = [json.loads(run_cli("trim", "--json", "--sysroot", str(p)).out)["filesystems"]
             for p in (original, bundle)]
    assert [(mapping[fs["mountpoint"]], fs["verdict"], fs["blocked_at"]) for fs in trims[0]] == \
        [(fs["mountpoint"], fs["verdict"], fs["blocked_at"]) for fs in trims[1]]


def test_same_original_same_stand_in_across_files(tmp_path: Path) -> None:
    _, bundle = redacted_bundle(tmp_path)
    found = {name.removeprefix("diskdoctor-capture/"): data.decode()
             for name, data in members(bundle).items()}
    mountinfo = [line.split()[4] for line in found["proc/self/mountinfo"].splitlines()]
    fstab = [line.split()[1] for line in found["etc/fstab"].splitlines() if line and line[0] != "#"]
    data_dir = next(point for point in mountinfo if point.startswith("/srv/dir-"))
    assert data_dir in fstab and data_dir in json.loads(found["fs-usage.json"])
    image_mount = next(point for point in mountinfo if point.startswith("/mnt/dir-"))
    assert image_mount in fstab  # the space-holding path, octal-escaped in both, maps the same way
    backing = found["sys/devices/virtual/block/loop0/loop/backing_file"].strip()
    assert backing.startswith("/home/user-") and backing.endswith(".img")
    crontabs = [name for name in found if name.startswith("var/spool/cron/crontabs/")]
    user = backing.split("/")[2]
    assert crontabs == [] or all(name.rsplit("/", 1)[1].startswith("user-") for name in crontabs)
    cmdline = found["proc/cmdline"]
    assert "rd.luks.options=discard" in cmdline and "ip=value-" in cmdline and "quiet" in cmdline
    assert user not in ("alice", "bob")


def test_the_bundle_reports_what_each_rule_replaced_per_file(tmp_path: Path) -> None:
    _, bundle = redacted_bundle(tmp_path)
    report = json.loads(members(bundle)[f"diskdoctor-capture/{REPORT_FILE}"])
    files = report["files"]
    assert files["proc/self/mountinfo"]["mountpoint"] >= 2 and files["etc/fstab"]["mountpoint"] >= 2
    assert files["sys/devices/virtual/block/loop0/loop/backing_file"] == {"loop-backing-file": 1}
    assert files["proc/cmdline"]["kernel-cmdline"] >= 2
    assert files["etc/fstab"]["user:project"] == 1 and files["etc/fstab"]["user:ticket"] == 1
    assert files["etc/fstab"]["label"] == 1
    names = {rule["name"] for rule in report["rules"]}
    assert {"mountpoint", "loop-backing-file", "kernel-cmdline", "ip-address", "hostname", "username",
            "user:project", "user:ticket"} <= names
    assert all(count > 0 for count in report["totals"].values())
    assert report["files_renamed"] == 3  # bob's crontab, the mount unit and its link


@pytest.mark.parametrize(("text", "needle"), [
    (None, "cannot read redaction rules"),
    ("literal\n", "line 1: a rule is KIND NAME VALUE"),
    ("glob x *.txt\n", "line 1: unknown kind 'glob'"),
    ("# ok\nregex bad (unclosed\n", "line 2: the regex does not compile"),
    ("regex empty x*\n", "line 1: the regex matches an empty string"),
    ("literal short ab\n", "line 1: a literal needs at least 3 characters"),
    ("literal a.b ACME\nliteral a.b OTHER\n", "line 2: rule name 'a.b' is used twice"),
    ("literal mountpoint ACME\n", "line 1: bad rule name 'mountpoint'"),
    ("# nothing\n\n", "no rules in it"),
    (b"\xff\xfe", "not UTF-8 text"),
])
def test_a_bad_rules_file_is_one_line_and_exit_2(tmp_path: Path, text: str | bytes | None,
                                                 needle: str) -> None:
    rules = tmp_path / "rules.txt"
    if isinstance(text, bytes):
        rules.write_bytes(text)
    elif text is not None:
        rules.write_text(text)
    output = tmp_path / "bundle.tar.gz"
    result = run_cli("capture", "--redact", "--redact-rules", str(rules), "-o", str(output))
    assert_one_line_error(result, needle)
    assert not output.exists() and sorted(p.name for p in tmp_path.iterdir()) == \
        (["rules.txt"] if text is not None else [])


def _node(nodes: list[dict], kname: str) -> dict | None:
    for node in nodes:
        if node["kname"] == kname:
            return node
        found = _node(node.get("children") or [], kname)
        if found:
            return found
    return None


@pytest.mark.live
def test_a_live_redacted_capture_hides_the_customer_and_replays(tmp_path: Path) -> None:
    why = live_prerequisites()
    if why:
        pytest.skip(why)
    images = tmp_path / "acme-images"
    images.mkdir()
    stack = LoopStack(images)
    try:
        device = attach(stack, "disk", 64)
        sh("mkfs.ext4", "-q", "-F", "-L", "acme-lbl", device)
        point = tmp_path / "acme-alice-payroll"
        point.mkdir()
        sh("mount", device, str(point))
        stack.mountpoints["disk"] = point
        kname = stack.kname("disk")
        fs_uuid = sh("blkid", "-s", "UUID", "-o", "value", device)
        rules = tmp_path / "rules.txt"
        rules.write_text("literal project ACME-Project-X\n")
        bundle = tmp_path / "bundle.tar.gz"
        made = run_cli("capture", "--redact-rules", str(rules), "-o", str(bundle))
        assert made.code == 0, made.err
        assert "redactions.json" in made.out
        live = json.loads(run_cli("devices", "--json").out)["devices"]
        replayed = json.loads(run_cli("devices", "--json", "--sysroot", str(bundle)).out)["devices"]
        trims = [{fs["verdict"] for fs in json.loads(run_cli("trim", "--json", *extra).out)["filesystems"]
                  if fs["layers"] and fs["layers"][0]["kname"] == kname}
                 for extra in ([], ["--sysroot", str(bundle)])]
    finally:
        stack.teardown()
    points_live: list[str] = []
    points_replayed: list[str] = []
    assert shape([_node(live, kname)], points_live) == shape([_node(replayed, kname)], points_replayed)
    assert points_live == [str(point)] and points_replayed[0].count("/dir-") >= 2
    assert trims[0] and trims[0] == trims[1]
    hostname = Path("/proc/sys/kernel/hostname").read_text().strip()
    secrets = ["acme-alice-payroll", "acme-images", "acme-lbl", fs_uuid, tmp_path.name]
    as_word = re.compile(rb"(?<![A-Za-z0-9_-])" + re.escape(hostname.encode()) + rb"(?![A-Za-z0-9_-])")
    for name, data in members(bundle).items():
        for secret in secrets:
            assert secret.encode() not in data and secret not in name, (secret, name)
        assert not as_word.search(data), name  # a short hostname ("vm") stays inside "nvme"
    report = json.loads(members(bundle)[f"diskdoctor-capture/{REPORT_FILE}"])
    assert report["totals"]["mountpoint"] >= 2 and report["totals"]["loop-backing-file"] >= 1


def test_generic_labels_and_user_names_keep_the_stacks_own_words(tmp_path: Path) -> None:
    files = {"run/udev/data/b8:1": "E:ID_FS_LABEL=data\nE:DEVTYPE=disk\nE:ID_FS_LABEL=acme-vol\n",
             "proc/cmdline": "root=LABEL=root ro\n", "etc/fstab": "LABEL=root / ext4 defaults 0 1\n"}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    redact_tree(str(tmp_path), None, usernames=["disk"])
    udev = (tmp_path / "run/udev/data/b8:1").read_text()
    assert "E:DEVTYPE=disk" in udev and "E:ID_FS_LABEL=data" in udev and "acme-vol" not in udev
    assert (tmp_path / "proc/cmdline").read_text() == "root=LABEL=root ro\n"
    assert (tmp_path / "etc/fstab").read_text() == "LABEL=root / ext4 defaults 0 1\n"
