"""The CLI as users run it: JSON schema, the printed tree, help/version, and every bad input."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import pytest
from conftest import FIXTURES
from support.cli_runner import assert_one_line_error, run_cli

GOLDEN = Path(__file__).parent / "golden"
NODE_KEYS = {"name", "kname", "path", "maj_min", "type", "size_bytes", "rotational", "scheduler",
             "read_only", "removable", "model", "serial", "transport", "discard", "fstype",
             "mountpoints", "children"}


def walk(nodes: list[dict]) -> list[dict]:
    out = []
    for node in nodes:
        out.append(node)
        out += walk(node["children"])
    return out


@pytest.mark.parametrize("name", ["etcd-raid0-lvm-luks", "multipath", "captured-loops"])
def test_devices_json_matches_golden(name: str) -> None:
    result = run_cli("devices", "--json", "--sysroot", str(FIXTURES / name))
    assert result.code == 0, result.err
    assert json.loads(result.out) == json.loads((GOLDEN / f"{name}.devices.json").read_text())


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.iterdir() if (p / "sys").is_dir()))
def test_devices_json_schema_on_every_fixture(name: str) -> None:
    document = json.loads(run_cli("devices", "--json", "--sysroot", str(FIXTURES / name)).out)
    assert list(document) == ["devices"]
    for node in walk(document["devices"]):
        assert set(node) == NODE_KEYS
        assert set(node["discard"]) == {"granularity_bytes", "max_bytes", "max_hw_bytes",
                                        "alignment_bytes"}
        assert node["type"] in {"disk", "part", "lvm", "crypt", "raid0", "raid1", "raid5",
                                "raid6", "raid10", "linear", "mpath", "dm", "loop", "rom"}


def test_device_with_two_parents_appears_under_both() -> None:
    document = json.loads(run_cli("devices", "--json", "--sysroot",
                                  str(FIXTURES / "etcd-raid0-lvm-luks")).out)
    md_under = [node["name"] for node in walk(document["devices"])
                if any(child["name"] == "md0" for child in node["children"])]
    assert md_under == ["nvme0n1p1", "nvme1n1p1"]


def test_devices_table_shows_tree_trim_and_blocking_layer() -> None:
    result = run_cli("devices", "--sysroot", str(FIXTURES / "etcd-raid0-lvm-luks"))
    assert result.code == 0
    assert "│ └─md0" in result.out and "luks-etcd  crypt" in result.out
    assert "/var/lib/etcd (xfs on luks-etcd): BLOCKED at luks-etcd (dm-crypt without " \
           "allow_discards)" in result.out


def test_sysroot_accepted_before_or_after_the_command() -> None:
    before = run_cli("--sysroot", str(FIXTURES / "multipath"), "devices", "--json")
    after = run_cli("devices", "--json", "--sysroot", str(FIXTURES / "multipath"))
    assert before.code == after.code == 0 and before.out == after.out


def test_help_and_version() -> None:
    help_text = run_cli("--help")
    assert help_text.code == 0 and "devices" in help_text.out and "capture" in help_text.out
    assert run_cli("devices", "--help").code == 0
    version = run_cli("--version")
    assert version.code == 0 and version.out.startswith("diskdoctor ")


def test_bad_arguments_are_one_line_exit_2() -> None:
    assert_one_line_error(run_cli("devices", "--bogus"), "unrecognized arguments")
    assert_one_line_error(run_cli("frobnicate"), "invalid choice")
    assert_one_line_error(run_cli("capture"), "required: -o/--output")


def test_tui_without_a_terminal_says_so() -> None:
    assert_one_line_error(run_cli("--sysroot", str(FIXTURES / "multipath")), "needs a terminal")


def test_smoke_starts_the_tui_headless_without_a_terminal() -> None:
    result = run_cli("--smoke", "--sysroot", str(FIXTURES / "etcd-raid0-lvm-luks"))
    assert (result.code, result.err) == (0, "")
    assert result.out == ("diskdoctor: smoke ok: first screen drew 11 tree rows for 8 devices "
                          "(first row: nvme0n1)\n")
    assert_one_line_error(run_cli("--smoke", "devices"), "--smoke starts the TUI")
    assert_one_line_error(run_cli("--smoke", "--sysroot", "/nowhere"), "does not exist")


def _tar_with(path: Path, members: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def test_bad_sysroots_are_one_line_exit_2(tmp_path: Path) -> None:
    assert_one_line_error(run_cli("devices", "--sysroot", str(tmp_path / "nope")), "does not exist")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert_one_line_error(run_cli("devices", "--sysroot", str(empty)), "is not a capture")
    no_devices = tmp_path / "no-devices"
    (no_devices / "sys/class/block").mkdir(parents=True)
    assert_one_line_error(run_cli("devices", "--sysroot", str(no_devices)), "it has no block devices")
    junk = tmp_path / "junk.tar.gz"
    junk.write_bytes(b"this is not a tarball")
    assert_one_line_error(run_cli("devices", "--sysroot", str(junk)), "cannot read capture")
    evil = _tar_with(tmp_path / "evil.tar.gz", {"../escape": b"x"})
    assert_one_line_error(run_cli("devices", "--sysroot", str(evil)), "unsafe entry")
    assert not (tmp_path / "escape").exists()
    wrong = _tar_with(tmp_path / "wrong.tar.gz", {"hello.txt": b"hi"})
    assert_one_line_error(run_cli("devices", "--sysroot", str(wrong)), "is not a capture")


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to drop to another user")
def test_unreadable_sysroot_is_one_line_exit_2() -> None:
    base = Path(tempfile.mkdtemp(prefix="dd-unreadable-"))
    base.chmod(0o755)
    locked = base / "locked"
    (locked / "sys/class/block").mkdir(parents=True)
    (locked / "proc/self").mkdir(parents=True)
    (locked / "proc/self/mountinfo").write_text("")
    (locked / "sys/class/block").chmod(0o000)
    try:
        result = run_cli("devices", "--sysroot", str(locked), user=65534)
        assert_one_line_error(result, "permission denied")
        (locked / "sys/class/block").chmod(0o755)
        shutil.rmtree(locked / "sys")
        shutil.copytree(FIXTURES / "sata-ext4" / "sys", locked / "sys", symlinks=True)
        (locked / "proc/self/mountinfo").chmod(0o000)
        result = run_cli("devices", "--sysroot", str(locked), user=65534)
        assert result.code == 0 and "sda" in result.out
        assert "mountpoints unknown: cannot read /proc/self/mountinfo (permission denied" in result.err
    finally:
        shutil.rmtree(base)


def test_sysroot_tarball_leaves_no_scratch(tmp_path: Path) -> None:
    bundle = tmp_path / "fixture.tar.gz"
    with tarfile.open(bundle, "w:gz") as tar:
        tar.add(FIXTURES / "multipath", arcname="diskdoctor-capture")
    before = set(os.listdir("/tmp"))
    result = run_cli("devices", "--json", "--sysroot", str(bundle))
    assert result.code == 0
    direct = run_cli("devices", "--json", "--sysroot", str(FIXTURES / "multipath"))
    assert result.out == direct.out
    assert {n for n in set(os.listdir("/tmp")) - before if n.startswith("diskdoctor")} == set()


def test_piping_into_head_is_quiet() -> None:
    fixture = FIXTURES / "captured-loops"
    command = f"set -o pipefail; {sys.executable} -m diskdoctor.app devices --json --pretty " \
              f"--sysroot {fixture} | head -c 10"
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stderr == "" and done.stdout == '{\n  "devic'


def test_output_errors_are_one_line() -> None:
    with open("/dev/full", "w") as device_full:
        full = subprocess.run([sys.executable, "-m", "diskdoctor.app", "devices", "--sysroot",
                               str(FIXTURES / "multipath")], stdout=device_full,
                              stderr=subprocess.PIPE, text=True, check=False)
    assert full.returncode == 2 and full.stderr.strip() == \
        "diskdoctor: error: cannot write output: No space left on device"
    closed = subprocess.run(["bash", "-c", f"{sys.executable} -m diskdoctor.app devices >&-"],
                            capture_output=True, text=True, check=False)
    assert closed.returncode == 2 and closed.stderr.strip() == \
        "diskdoctor: error: standard output is closed"


def test_a_file_where_a_folder_belongs(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("")
    assert_one_line_error(run_cli("capture", "-o", str(afile / "x.tar.gz")), "is a file, not a folder")
    bundle = _tar_with(tmp_path / "notcapture.tar.gz", {"etc/hostname": b"x"})
    result = run_cli("devices", "--sysroot", str(bundle))
    assert_one_line_error(result, f"sysroot {bundle} is not a capture")


def test_smoke_failure_is_one_line_exit_1(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from conftest import fixture_root
    from diskdoctor.app.tui.smoke import run_smoke
    from diskdoctor.probes import host

    def broken_probe(_root: object) -> None:
        raise RuntimeError("sysfs exploded")

    monkeypatch.setattr(host, "read_host", broken_probe)
    assert run_smoke(fixture_root("multipath")) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ("diskdoctor: smoke failed: the host was not read: "
                            "could not read the host: sysfs exploded\n")


def test_ctrl_c_while_python_is_still_importing_is_one_line_and_130() -> None:
    # A finder that raises KeyboardInterrupt when the CLI module is imported: the moment a Ctrl-C
    # lands just after `diskdoctor` is typed.
    code = ("import sys\n"
            "class Interrupt:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'diskdoctor.app.cli.main':\n"
            "            raise KeyboardInterrupt\n"
            "sys.meta_path.insert(0, Interrupt())\n"
            "from diskdoctor.app.launcher import main\n"
            "sys.exit(main())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          check=False)
    assert (done.returncode, done.stderr) == (130, "diskdoctor: interrupted\n")


def test_devices_text_has_no_trailing_spaces_when_piped() -> None:
    result = run_cli("devices", "--sysroot", str(FIXTURES / "etcd-raid0-lvm-luks"))
    assert result.code == 0 and "NAME" in result.out
    assert [line for line in result.out.splitlines() if line != line.rstrip()] == []
