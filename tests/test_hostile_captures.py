"""A customer's capture is untrusted: reads stay inside it, host strings never reach a terminal raw,
every cost is bounded, and a damaged bundle is refused with one line."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import pytest
from diskdoctor.app.core.capture import sysroot
from diskdoctor.app.core.stack.devices_json import devices_document
from diskdoctor.app.core.trim.doctor import diagnose
from diskdoctor.probes.host import read_host
from diskdoctor.probes.layer_details import read_layer_details
from diskdoctor.probes.root import MAX_ATTR_BYTES, Root
from diskdoctor.probes.trim_facts import read_trim_facts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.cli_runner import assert_one_line_error, run_cli
from support.hostile_roots import (
    EVIL_NAME,
    RAW_CONTROLS,
    add_device,
    audited_opens,
    bare_capture,
    copy_fixture,
    diamond_capture,
    evil_capture,
    leftovers,
    private_tmpdir,
    replace_everywhere,
    tar_gz,
    tar_with,
)

FIXTURES = Path(__file__).parent / "fixtures"
LIVE_BLOCK = sorted(os.listdir("/sys/class/block"))


def read_everything(root: Root) -> str:
    """Every probe a screen or command uses, as one JSON text."""
    host = read_host(root)
    facts = read_trim_facts(root, host)
    details = [read_layer_details(root, host, kname) for kname in host.devices]
    return json.dumps([devices_document(host), [v.summary for v in diagnose(host, facts, None)],
                       repr(details), host.warnings])


def assert_inside(paths: list[str], root: Path) -> None:
    base = os.path.realpath(root)
    outside = [p for p in paths if os.path.commonpath([base, p]) != base]
    assert not outside, outside[:5]


def limited(megabytes: int) -> None:
    """preexec_fn: cap the child's address space, so unbounded memory growth fails the run."""
    resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))


def run_limited(*args: str, megabytes: int = 1024, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "diskdoctor.app", *args], capture_output=True, text=True,
                          timeout=timeout, preexec_fn=lambda: limited(megabytes), check=False,
                          stdin=subprocess.DEVNULL)


# 1. Reads follow the bundle's links out to the engineer's machine.

def test_climbing_link_is_not_followed_to_this_machine(tmp_path: Path) -> None:
    root = copy_fixture("etcd-raid0-lvm-luks", tmp_path)
    live = LIVE_BLOCK[0]
    (root / "sys/class/block/sdz").symlink_to("../" * 20 + f"sys/class/block/{live}")
    (root / "sys/class/block/nvme0n1").unlink()
    (root / "sys/class/block/nvme0n1").symlink_to("/" + "../" * 12 + "sys/block/" + live)
    with audited_opens() as opened:
        text = read_everything(Root(str(root), live=False))
    assert_inside(opened, root)
    live_size = Path(f"/sys/class/block/{live}/size").read_text().strip()
    assert f'"size_bytes": {int(live_size) * 512},' not in text or live_size == "0"
    assert "points outside" in text


@pytest.mark.parametrize("link_first", [True, False])
def test_a_link_read_first_is_still_confined_when_walked(tmp_path: Path, link_first: bool) -> None:
    """A capture remembers a link it read; walking through it afterwards still refuses to climb out."""
    root = copy_fixture("etcd-raid0-lvm-luks", tmp_path)
    live = LIVE_BLOCK[0]
    climbing = "../" * 20 + f"sys/class/block/{live}"
    (root / "sys/class/block/sdz").symlink_to(climbing)
    reader = Root(str(root), live=False)
    if link_first:
        assert reader.readlink("sys/class/block/sdz") == climbing
    with audited_opens() as opened:
        assert reader.read_attr("sys/class/block/sdz/size") == (
            None, "a link in the capture points outside it (not followed)")
        assert reader.listdir("sys/class/block/sdz") is None
    assert_inside(opened, root)
    assert reader.readlink("sys/class/block/sdz") == climbing


@pytest.mark.parametrize("link", ["sys/class/block", "proc/self/mountinfo", "sys/devices"])
def test_absolute_links_read_the_capture_not_the_live_host(tmp_path: Path, link: str) -> None:
    root = copy_fixture("etcd-raid0-lvm-luks", tmp_path)
    target = root / link
    if target.is_dir() and not target.is_symlink():
        os.rename(target, str(target) + ".orig")
    else:
        target.unlink()
    target.symlink_to("/" + link)
    with audited_opens() as opened:
        text = read_everything(Root(str(root), live=False))
    assert_inside(opened, root)
    for kname in LIVE_BLOCK[:20]:
        assert f'"kname": "{kname}"' not in text
    result = run_cli("devices", "--json", "--sysroot", str(root))
    assert "Traceback" not in result.err
    for kname in LIVE_BLOCK[:20]:
        assert f'"kname": "{kname}"' not in result.out


def test_device_nodes_fifos_and_giant_files_are_never_read(tmp_path: Path) -> None:
    root = copy_fixture("etcd-raid0-lvm-luks", tmp_path)
    base = root / "sys/devices/virtual/block/dm-1"
    (base / "size").unlink()
    os.mknod(base / "size", 0o644 | 0o020000, os.makedev(1, 5))  # a /dev/zero character device
    (base / "queue/scheduler").unlink()
    os.mkfifo(base / "queue/scheduler")
    (base / "ro").write_text("0" * (20 << 20))
    (base / "removable").unlink()
    (base / "removable").symlink_to("/dev/zero")
    result = run_limited("devices", "--json", "--sysroot", str(root), megabytes=400, timeout=60)
    assert result.returncode == 0, result.stderr
    crypt = next(d for d in json.loads(result.stdout)["devices"][0]["children"][0]["children"][0]
                 ["children"][0]["children"])
    assert crypt["kname"] == "dm-1"
    assert crypt["size_bytes"] is None and crypt["scheduler"] is None and crypt["read_only"] is None
    root_obj = Root(str(root), live=False)
    assert "not a regular file" in (root_obj.read_attr("sys/class/block/dm-1/size")[1] or "")
    assert "larger than" in (root_obj.read_attr("sys/class/block/dm-1/ro")[1] or "")
    assert MAX_ATTR_BYTES < 20 << 20


def test_fifo_mountinfo_in_a_folder_sysroot_does_not_hang(tmp_path: Path) -> None:
    root = copy_fixture("etcd-raid0-lvm-luks", tmp_path)
    (root / "proc/self/mountinfo").unlink()
    os.mkfifo(root / "proc/self/mountinfo")
    result = run_cli("devices", "--sysroot", str(root), timeout=60)
    assert result.code == 0 and "nvme0n1" in result.out  # the stack still shows; mountpoints unknown
    assert "not a regular file" in result.err


# 2. Terminal escapes and markup from the bundle.

def test_control_characters_never_reach_stdout(tmp_path: Path) -> None:
    root = evil_capture(tmp_path)
    for args in (["devices"], ["devices", "--json"], ["trim"], ["trim", "--json"]):
        result = run_cli(*args, "--sysroot", str(root))
        assert result.code in (0, 1), result.err
        for char in RAW_CONTROLS:
            assert char not in result.out + result.err, (args, char)
        shown = "luks\\x1b]52;c;"
        assert (json.dumps(shown)[1:-1] if "--json" in args else shown) in result.out, args
    table = run_cli("devices", "--sysroot", str(root)).out
    assert "[red]X[/red]" in table  # markup shown as typed, never interpreted


def test_fix_commands_quote_every_host_name(tmp_path: Path) -> None:
    root = evil_capture(tmp_path)
    data = json.loads(run_cli("trim", "--json", "--sysroot", str(root)).out)
    findings = [f for fs in data["filesystems"] for f in fs["problems"] if f["id"] == "TRIM-CRYPT-OFF"]
    assert findings
    refresh = next(line for line in findings[0]["fix"] if line.startswith("cryptsetup refresh"))
    assert all(char not in refresh for char in RAW_CONTROLS)  # $'...' spells them as printable escapes
    words = subprocess.run(["bash", "-c", "printf '%s\\0' " + refresh], capture_output=True,
                           check=True).stdout.split(b"\0")[:-1]
    # cryptsetup refresh --allow-discards --persistent NAME: one word, no expansion, the real dm name
    assert words == [b"cryptsetup", b"refresh", b"--allow-discards", b"--persistent", EVIL_NAME.encode()]
    assert "holds control or invisible characters" in findings[0]["fix"][-1]


async def test_tui_shows_host_strings_visibly_and_never_as_markup(tmp_path: Path) -> None:
    from diskdoctor.app.tui.app import DiskDoctorApp
    from test_tui import settled

    app = DiskDoctorApp(Root(str(evil_capture(tmp_path)), live=False))
    async with app.run_test(size=(160, 40)) as pilot:
        await settled(app, pilot)
        for _ in range(4):
            await pilot.press("down")
        await pilot.pause()
        screens = [app.export_screenshot()]
        await pilot.press("2")
        await settled(app, pilot)
        await pilot.press("down")
        await pilot.pause()
        screens.append(app.export_screenshot())
    for svg in screens:
        for char in RAW_CONTROLS:
            assert char not in svg
    assert "luks\\x1b]52;c;" in screens[0].replace("&#160;", " ")
    assert "[red]X[/red]" in "".join(screens).replace("&#160;", " ")


# 3. Unbounded costs.

def test_sparse_giant_entry_is_refused_before_writing(tmp_path: Path) -> None:
    info = tarfile.TarInfo("diskdoctor-capture/sys/class/block/big")
    info.size = 10 << 30
    info.type = tarfile.GNUTYPE_SPARSE
    bundle = tmp_path / "sparse.tar.gz"
    with tarfile.open(bundle, "w:gz", format=tarfile.GNU_FORMAT) as tar:
        header = info.tobuf(tarfile.GNU_FORMAT)
        tar.fileobj.write(header)  # header only: the data would be 10 GiB of holes
        tar.offset += len(header)
    with private_tmpdir(tmp_path / "tmp"):
        result = run_cli("devices", "--sysroot", str(bundle))
        assert result.code == 2 and "Traceback" not in result.err
        assert leftovers() == []


def test_limits_on_entry_count_and_depth(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def entries(count: int, depth: int):  # type: ignore[no-untyped-def]
        for index in range(count):
            info = tarfile.TarInfo("diskdoctor-capture/" + "d/" * depth + f"f{index}")
            info.size = 0
            yield info, b""

    monkeypatch.setattr(sysroot, "MAX_MEMBERS", 50)
    with pytest.raises(sysroot.UsageError, match="more than 50 entries"):
        sysroot.safe_extract(str(tar_with(tmp_path / "many.tar.gz", entries(80, 1))), str(tmp_path / "x"))
    deep = tar_with(tmp_path / "deep.tar.gz", entries(1, 1300))
    with private_tmpdir(tmp_path / "tmp"):
        assert_one_line_error(run_cli("devices", "--sysroot", str(deep)), "nests folders more than")
        assert leftovers() == []


def test_diamond_holder_graph_stays_linear(tmp_path: Path) -> None:
    root = diamond_capture(tmp_path, 16)
    result = run_limited("devices", "--json", "--sysroot", str(root), megabytes=600, timeout=120)
    assert result.returncode == 0, result.stderr
    assert len(result.stdout) < 2_000_000  # lsblk-style repetition would be 2**16 subtrees (250 MB)
    assert "children_shown_above" in result.stdout
    small = diamond_capture(tmp_path / "small", 3)
    assert "children_shown_above" not in run_cli("devices", "--json", "--sysroot", str(small)).out


def test_loops_in_the_graph_are_cut_and_reported(tmp_path: Path) -> None:
    root = bare_capture(tmp_path)
    add_device(root, "selfy", slaves=("selfy",), holders=("selfy",))
    add_device(root, "ping", slaves=("pong",), holders=("pong",))
    add_device(root, "pong", slaves=("ping",), holders=("ping",))
    host = read_host(Root(str(root), live=False))
    assert set(host.roots()) >= {"selfy", "ping"}
    assert any("closes a loop" in warning for warning in host.warnings)
    result = run_cli("devices", "--sysroot", str(root))
    assert result.code == 0
    table = result.out.split("\n\n")[0]
    assert table.count("selfy") == 1
    assert table.count("ping") == 1 and table.count("pong") == 1  # ping └─ pong, the link back cut


@pytest.mark.parametrize("text", ["-1", "1_000", "١٢", "+5", " 12 x", "0x10"])
def test_sizes_must_be_plain_decimal(tmp_path: Path, text: str) -> None:
    root = bare_capture(tmp_path)
    add_device(root, "odd", size=text)
    device = read_host(Root(str(root), live=False)).devices["odd"]
    assert device.size_bytes.value is None and "not a number" in (device.size_bytes.why_unknown or "")


# 4. Damaged bundles.

def test_corrupt_gzip_is_refused(tmp_path: Path) -> None:
    bundle = tar_gz(copy_fixture("etcd-raid0-lvm-luks", tmp_path), tmp_path / "good.tar.gz")
    assert run_cli("devices", "--sysroot", str(bundle)).code == 0
    data = bytearray(bundle.read_bytes())
    data[len(data) // 2] ^= 0xFF
    bad = tmp_path / "bad.tar.gz"
    bad.write_bytes(bytes(data))
    crc = bytearray(bundle.read_bytes())
    crc[-6] ^= 0xFF  # the gzip trailer's CRC-32
    (tmp_path / "crc.tar.gz").write_bytes(bytes(crc))
    with private_tmpdir(tmp_path / "tmp"):
        assert_one_line_error(run_cli("devices", "--sysroot", str(bad)), "corrupt")
        assert_one_line_error(run_cli("devices", "--sysroot", str(tmp_path / "crc.tar.gz")), "corrupt")
        assert not leftovers()


# 7. Leftovers of killed processes.

def test_stale_extraction_of_a_dead_process_is_removed(tmp_path: Path) -> None:
    from diskdoctor.probes.scratch import owner_tag, private_temp_dir

    dead = subprocess.Popen(["sleep", "30"])
    tag = owner_tag(dead.pid)
    dead.kill()
    dead.wait()
    tmp = Path(os.environ.get("TMPDIR", "/tmp"))
    private = Path(private_temp_dir())
    stale = private / f"diskdoctor-sysroot-{tag}abc"
    older = tmp / f"diskdoctor-sysroot-{tag}old"  # where earlier versions extracted
    for folder in (stale, older):
        folder.mkdir(mode=0o700)  # as mkdtemp makes them
        (folder / "sys").mkdir()
    alive = private / f"diskdoctor-sysroot-{owner_tag()}keep"
    alive.mkdir(mode=0o700)
    try:
        bundle = tar_gz(copy_fixture("etcd-raid0-lvm-luks", tmp_path), tmp_path / "b.tar.gz")
        assert run_cli("devices", "--sysroot", str(bundle)).code == 0
        assert not stale.exists() and not older.exists()
        assert alive.exists()
    finally:
        alive.rmdir()
        with contextlib.suppress(OSError):
            private.rmdir()


# Property: whatever links and junk a folder sysroot holds, no read leaves it.

LINK_TARGETS = st.sampled_from([
    "/", "/etc", "/sys/class/block", "/sys/block/vda", "/proc/self/mountinfo", "/dev/zero", ".", "..",
    "../../..", "../" * 12 + "etc/passwd", "../" * 6 + "outside/canary", "dm-0", "../dm-0/size",
    "../../devices/virtual/block/dm-0", "loop", "loop/../..", "/sys/devices/virtual/block/dm-0"])
PLACES = st.sampled_from([
    "sys/class/block/x", "sys/block/x", "sys/class/block", "sys/devices/virtual/block/dm-0/size",
    "sys/devices/virtual/block/dm-0/slaves/y", "sys/devices/virtual/block/dm-0/holders/z",
    "sys/devices/virtual/block/dm-0/queue", "sys/devices/virtual/block/dm-0/dm/name",
    "proc/self/mountinfo", "etc/fstab", "etc/crypttab", "run/udev/data", "commands/dmsetup-table.txt",
    "etc/systemd/system/timers.target.wants/fstrim.timer", "etc/localtime", "loop"])


def _through_link(root: Path, place: str) -> bool:
    """Whether a folder on the way to `place` is a symlink."""
    parts = Path(place).parts[:-1]
    return any((root / Path(*parts[:index + 1])).is_symlink() for index in range(len(parts)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(links=st.lists(st.tuples(PLACES, LINK_TARGETS), min_size=1, max_size=8),
       junk=st.lists(st.tuples(PLACES, st.binary(max_size=64)), max_size=4))
def test_no_read_escapes_a_folder_sysroot(links: list[tuple[str, str]],
                                          junk: list[tuple[str, bytes]]) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch)
        outside = base / "outside"
        outside.mkdir()
        (outside / "canary").write_text("CANARY-7f3a\n")
        root = bare_capture(base)
        add_device(root, "dm-0", extra={"dm/name": "plain"})
        for place, data in junk:
            path = root / place
            if not _through_link(root, place) and not path.is_symlink() and not path.is_dir():
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
        for place, target in links:
            path = root / place
            if _through_link(root, place):
                continue  # never write through a link the example planted (it may point at this host)
            if path.is_symlink() or path.exists():
                shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
            path.parent.mkdir(parents=True, exist_ok=True)
            path.symlink_to(target)
        with audited_opens() as opened:
            text = read_everything(Root(str(root), live=False))
        assert_inside(opened, root)
        assert "CANARY-7f3a" not in text


# Found by the new-user pass.

def test_markup_in_names_never_breaks_the_text_reports(tmp_path: Path) -> None:
    root = copy_fixture("etcd-trim-blocked", tmp_path)
    replace_everywhere(root, "luks-etcd", "x[/red]y")
    replace_everywhere(root, "/var/lib/etcd", "/data[/bold]q[/]")
    devices = run_cli("devices", "--sysroot", str(root))
    trim = run_cli("trim", "--sysroot", str(root))
    assert devices.code == 0 and "/data[/bold]q[/]" in devices.out and "x[/red]y" in devices.out
    assert trim.code in (0, 1) and "/data[/bold]q[/]" in trim.out and "x[/red]y" in trim.out


def test_capture_name_and_error_paths_are_shown_visibly(tmp_path: Path) -> None:
    named = tmp_path / "nu-\x1b]0;PWNED\x07"
    result = run_cli("devices", "--sysroot", str(named))
    assert result.code == 2 and "\x1b" not in result.err and "\\x1b]0;PWNED" in result.err
    root = Root(str(copy_fixture("sata-ext4", named)), live=False)
    assert "\x1b" not in read_host(root).root_label


def test_trim_refuses_to_judge_without_mountinfo(tmp_path: Path) -> None:
    root = tmp_path / "sys-only"
    shutil.copytree(FIXTURES / "sata-ext4" / "sys", root / "sys", symlinks=True)
    assert_one_line_error(run_cli("trim", "--sysroot", str(root)), "cannot judge TRIM: mountpoints unknown")


def test_attributes_padded_with_nul_bytes_read_like_lsblk(tmp_path: Path) -> None:
    root = bare_capture(tmp_path)
    base = add_device(root, "padded")
    (base / "size").write_bytes(b"2048\n" + b"\0" * 4091)  # as GNU tar stores a 4096-byte sysfs file
    assert read_host(Root(str(root), live=False)).devices["padded"].size_bytes.value == 2048 * 512


def test_a_listed_device_folder_still_never_reads_planted_nodes_fifos_or_links(tmp_path: Path) -> None:
    """After its folder was listed (as reading the host does first), a device node, FIFO or link planted as
    an attribute is still refused, and a name the folder lacks reads as missing."""
    root = copy_fixture("etcd-raid0-lvm-luks", tmp_path)
    base = root / "sys/devices/virtual/block/dm-1"
    (base / "size").unlink()
    os.mknod(base / "size", 0o644 | 0o020000, os.makedev(1, 5))  # a /dev/zero character device
    (base / "ro").unlink()
    os.mkfifo(base / "ro")
    (base / "removable").unlink()
    (base / "removable").symlink_to("/etc/hostname")
    (base / "discard_alignment").unlink()
    captured = Root(str(root), live=False)
    assert "size" in (captured.listdir("sys/block/dm-1") or [])  # the listing comes first, as in read_host
    with audited_opens() as opened:
        size, ro, removable = (captured.read_attr(f"sys/block/dm-1/{name}")
                               for name in ("size", "ro", "removable"))
        alignment = captured.read_attr("sys/block/dm-1/discard_alignment")
        dev = captured.read_attr("sys/block/dm-1/dev")
    assert_inside(opened, root)
    assert size == (None, "not a regular file (a device, FIFO or socket is never read)")
    assert ro == (None, "not a regular file (a device, FIFO or socket is never read)")
    assert removable[0] is None  # a link out of the capture: never this machine's file
    assert alignment == (None, "file missing (this kernel or device does not provide it)")
    assert dev == ("253:1", None)
    device = read_host(Root(str(root), live=False)).devices["dm-1"]
    assert device.size_bytes.value is None and device.read_only.value is None
    assert device.removable.value is None and device.discard_alignment.value is None


def test_a_listed_folder_brings_names_not_contents(tmp_path: Path) -> None:
    from diskdoctor.app.core.capture.tree_copy import TreeCopier

    units = tmp_path / "src/etc/systemd/system"
    units.mkdir(parents=True)
    (units / "fstrim.timer").write_text("[Timer]\nOnCalendar=weekly\n")
    (units / "myapp.service").write_text("[Service]\nEnvironment=DB_PASSWORD=hunter2\n")
    copier = TreeCopier(str(tmp_path / "src"), str(tmp_path / "dst"))
    copier.copy("etc/systemd/system/fstrim.timer")
    copier.copy_listing("etc/systemd/system")
    out = tmp_path / "dst/etc/systemd/system"
    assert (out / "fstrim.timer").read_text().startswith("[Timer]")
    assert (out / "myapp.service").exists() and (out / "myapp.service").read_text() == ""


def test_stale_bench_scratch_of_a_dead_engine_is_removed(tmp_path: Path) -> None:
    from diskdoctor.probes.scratch import owner_tag
    from diskdoctor.probes.wal_target import SCRATCH_PREFIX, make_scratch, remove_scratch

    dead = subprocess.Popen(["sleep", "30"])
    tag = owner_tag(dead.pid)
    dead.kill()
    dead.wait()
    stale = tmp_path / f"{SCRATCH_PREFIX}{tag}abc"
    stale.mkdir(mode=0o700)  # as mkdtemp makes them
    (stale / "deep").mkdir()
    (stale / "deep" / "wal.0").write_bytes(b"x" * 4096)
    fresh = make_scratch(str(tmp_path))
    try:
        assert not stale.exists()
        assert os.path.basename(fresh).startswith(SCRATCH_PREFIX + owner_tag())
    finally:
        remove_scratch(fresh)
    assert os.listdir(tmp_path) == []
