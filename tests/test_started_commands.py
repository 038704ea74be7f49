"""Commands started ahead (blkid while `devices` loads its modules), and the blkid that `trim` skips."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from diskdoctor.app.core.capture.sysroot import open_root
from diskdoctor.app.core.snapshot import read_snapshot
from diskdoctor.app.core.trim.doctor import trim_document
from diskdoctor.probes import root as root_module
from diskdoctor.probes.host import read_host
from diskdoctor.probes.root import Root, live_root

FIXTURES = Path(__file__).parent / "fixtures"
SYSROOTS = sorted(p.name for p in FIXTURES.iterdir() if (p / "sys").is_dir())


def test_a_started_command_gives_what_running_it_gives() -> None:
    argv = ["uname", "-r"]
    root = live_root()
    root.start("uname", argv)
    assert root.run("uname", argv) == live_root().run("uname", argv)
    assert root.run("uname", argv).text == os.uname().release + "\n"  # collected once, then run again


def test_a_started_command_that_is_missing_is_reported_like_a_run_one() -> None:
    root = live_root()
    root.start("nope", ["diskdoctor-no-such-tool"])
    out = root.run("nope", ["diskdoctor-no-such-tool"])
    assert (out.text, out.why_unknown) == (None, "diskdoctor-no-such-tool is not installed")


def test_a_started_command_never_collected_is_ended_when_the_root_closes() -> None:
    with pytest.raises(RuntimeError), open_root(None) as root:
        root.start("sleep", ["sleep", "30"])
        process = root._started["sleep"]
        raise RuntimeError("a failure before the command's output was wanted")
    assert process.returncode is not None  # killed and reaped: no child left behind
    with pytest.raises(ChildProcessError):
        os.waitpid(process.pid, os.WNOHANG)
    assert root._started == {}


def test_a_capture_starts_nothing() -> None:
    root = Root(str(FIXTURES / SYSROOTS[0]), live=False)
    root.start("blkid", ["blkid"])
    assert root._started == {}


@pytest.mark.parametrize("name", SYSROOTS)
def test_trim_verdicts_do_not_depend_on_filesystem_signatures(name: str) -> None:
    """`trim` skips blkid: its verdicts must be the same as with blkid's answer read (LUKS, LVM, RAID
    layers below a mount carry signatures only blkid or udev knows)."""
    root = Root(str(FIXTURES / name), live=False)
    documents = []
    for signatures in (True, False):
        snapshot = read_snapshot(root, host=read_host(root, signatures=signatures))
        document = trim_document(list(snapshot.verdicts), snapshot.trim_facts, None)
        document.pop("now")
        documents.append(document)
    assert documents[0] == documents[1]


def test_a_started_command_reports_exit_code_errors_and_newlines_as_a_run_one() -> None:
    argv = ["sh", "-c", "printf 'a\\r\\nb\\rc\\n'; echo oops >&2; exit 3"]
    root = live_root()
    root.start("x", argv)
    assert root.run("x", argv) == live_root().run("x", argv)
    failing = ["sh", "-c", "echo oops >&2; exit 3"]
    root.start("y", failing)
    out = root.run("y", failing)
    assert (out.text, out.why_unknown, out.exit_code) == (None, "oops", 3)


def test_a_started_command_that_hangs_is_killed_at_the_timeout(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(root_module, "COMMAND_TIMEOUT_S", 0.3)
    root = live_root()
    root.start("sleep", ["sleep", "30"])
    process = root._started["sleep"]
    out = root.run("sleep", ["sleep", "30"])
    assert out.text is None and out.why_unknown is not None and out.why_unknown.startswith("timed out")
    with pytest.raises(ChildProcessError):  # killed and reaped
        os.waitpid(process.pid, os.WNOHANG)  # type: ignore[attr-defined]


def test_a_started_command_inherits_no_descriptor_but_its_three() -> None:
    read_end, write_end = os.pipe()
    os.set_inheritable(write_end, True)
    try:
        argv = ["sh", "-c", f"[ -e /proc/self/fd/{write_end} ] && echo open || echo closed"]
        root = live_root()
        root.start("fd", argv)
        assert root.run("fd", argv).text == live_root().run("fd", argv).text == "closed\n"
    finally:
        os.close(read_end)
        os.close(write_end)
