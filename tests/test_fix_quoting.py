"""Fix commands name the real path of a name with control characters ($'...'), say so, and stay printable
in every place they are shown: CLI text and JSON, Markdown, HTML and the TUI."""

from __future__ import annotations

import html
import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import live_prerequisites
from diskdoctor.probes.host_text import (
    CONTROL_NOTE,
    UNSAFE_MULTILINE,
    real_text,
    shell_quote,
    shown,
    visible,
)
from diskdoctor.probes.mountinfo import parse_mountinfo_line
from diskdoctor.probes.root import Root
from support.cli_runner import run_cli
from support.hostile_roots import copy_fixture, replace_everywhere
from support.loop_stack import LoopStack, sh
from support.loop_stack import _attach as attach

MOUNTPOINT = "/var/lib/etcd\ntouch \x1b]0;x\x07\t'q\u202e\u200bz\\x0a"
"""A newline, ESC and BEL, a tab, a quote, bidi and zero-width characters, and a backslash that reads
like an escape: every way a shown name could name another path."""
ANSI_C_WORD = re.compile(r"\$'(?:[^'\\]|\\.)*'")
NAMES = [MOUNTPOINT, "/plain", "/with space/and'quote", "/lit\\x1b\\u202e\\x5c", "/c1\x9b\u00ad",
         "/\ufeffbom\u2066iso", "a\\", "/d\\\\x0a"]


def printed_by_bash(word: str) -> bytes:
    """What bash makes of one shell word: the bytes a pasted command would hand to the program."""
    return subprocess.run(["bash", "-c", f"printf %s {word}"], capture_output=True, check=True).stdout


def mangled(path: str) -> str:
    """A path as the kernel writes it in mountinfo and fstab (space, tab, newline, backslash in octal)."""
    return "".join(f"\\{ord(c):03o}" if c in " \t\n\\" else c for c in path)


def hostile_mount(tmp_path: Path) -> Path:
    """The blocked-TRIM etcd capture with its data mount renamed to MOUNTPOINT."""
    root = copy_fixture("etcd-trim-blocked", tmp_path)
    replace_everywhere(root, "/var/lib/etcd", mangled(MOUNTPOINT))
    return root


@pytest.mark.parametrize("name", NAMES)
def test_a_quoted_name_gives_bash_the_exact_original_bytes(name: str) -> None:
    word = shell_quote(shown(name))
    assert visible(word) == word  # printable: no control character reaches a terminal or the clipboard
    assert printed_by_bash(word) == name.encode()
    assert real_text(shown(name)) == name and visible(shown(name)) == shown(name)


def test_mountinfo_names_are_read_exactly(tmp_path: Path) -> None:
    for name in NAMES[:4] + ["/b\\\n"]:
        line = f"30 1 8:1 / {mangled(name)} rw - ext4 /dev/sda1 rw"
        mount = parse_mountinfo_line(shown(line, multiline=True))
        assert mount is not None and real_text(mount.mountpoint) == name
    root = hostile_mount(tmp_path)
    text, _ = Root(str(root), live=False).read_text("proc/self/mountinfo")
    assert text is not None and "\x1b" not in text


def _fstrim_words(text: str) -> list[str]:
    return [ANSI_C_WORD.search(line)[0] for line in text.splitlines()  # type: ignore[index]
            if "fstrim -v $'" in line]


def _assert_names_the_real_mount(text: str, where: str) -> None:
    assert UNSAFE_MULTILINE.search(text) is None, where
    words = _fstrim_words(text)
    assert words, where
    for word in words:
        assert printed_by_bash(word) == MOUNTPOINT.encode(), (where, word)
    assert CONTROL_NOTE in text, where


def test_cli_json_and_reports_name_the_real_mount(tmp_path: Path) -> None:
    root = hostile_mount(tmp_path)
    data = json.loads(run_cli("trim", "--json", "--sysroot", str(root)).out)
    crypt = next(f for fs in data["filesystems"] for f in fs["problems"] if f["id"] == "TRIM-CRYPT-OFF")
    verify = next(line for line in crypt["verify"] if line.startswith("fstrim -v "))
    assert printed_by_bash(verify.removeprefix("fstrim -v ")) == MOUNTPOINT.encode()
    assert crypt["fix"][-1] == CONTROL_NOTE
    for args in (["trim"], ["advise"], ["advise", "--json"]):
        result = run_cli(*args, "--sysroot", str(root))
        assert result.code in (0, 1), result.err
        assert UNSAFE_MULTILINE.search(result.out) is None
        _assert_names_the_real_mount(_json_lines(result.out) if "--json" in args else result.out,
                                     " ".join(args))
    for suffix in ("md", "html", "json"):
        report = tmp_path / f"report.{suffix}"
        result = run_cli("report", "-o", str(report), "--sysroot", str(root))
        assert result.code in (0, 1), result.err
        text = report.read_text()
        assert UNSAFE_MULTILINE.search(text) is None, suffix
        shown_text = {"html": html.unescape, "json": _json_lines}.get(suffix, str)(text)
        _assert_names_the_real_mount(shown_text, suffix)


def _json_lines(text: str) -> str:
    """Every string in a JSON document, one per line, as a reader of the JSON gets it."""
    strings: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, str):
            strings.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(json.loads(text))
    return "\n".join(strings)


async def test_tui_fix_cards_name_the_real_mount(tmp_path: Path) -> None:
    from diskdoctor.app.tui.app import DiskDoctorApp
    from diskdoctor.widgets import FindingCard
    from test_tui import settled

    app = DiskDoctorApp(Root(str(hostile_mount(tmp_path)), live=False))
    async with app.run_test(size=(200, 60)) as pilot:
        await settled(app, pilot)
        await pilot.press("2")
        await settled(app, pilot)
        for _ in range(8):  # worst first: move to the hostile mount's row, wherever the order put it
            cards = list(app.screen.query(FindingCard))
            fixes = "\n".join(line for card in cards for line in (*card.card.fix, *card.card.verify))
            if "fstrim -v $'" in fixes:
                break
            await pilot.press("down")
            await pilot.pause()
        body = "\n".join(str(card.render()) for card in cards)
        svg = app.export_screenshot()
    _assert_names_the_real_mount(fixes, "TUI cards")
    assert UNSAFE_MULTILINE.search(body) is None and UNSAFE_MULTILINE.search(svg) is None
    assert "fstrim -v $'/var/lib/etcd\\x0atouch" in html.unescape(svg).replace("\xa0", " ")


@pytest.fixture
def hostile_live_mount(tmp_path: Path) -> Iterator[Path]:
    """A real ext4 on a loop device, mounted on a directory named like MOUNTPOINT's last part."""
    why = live_prerequisites()
    if why:
        pytest.skip(why)
    stack = LoopStack(tmp_path)
    try:
        device = attach(stack, "odd", 64)
        sh("mkfs.ext4", "-q", "-F", device)
        point = tmp_path / ("etcd\ntouch \x1b]0;x\x07\t'q\u202e\u200bz\\x0a")
        point.mkdir()
        sh("mount", device, str(point))
        stack.mountpoints["odd"] = point
        yield point
    finally:
        stack.teardown()


@pytest.mark.live
def test_live_fixes_and_trim_now_use_the_real_mountpoint(hostile_live_mount: Path) -> None:
    real = str(hostile_live_mount)
    result = run_cli("advise", "--json")
    assert result.code in (0, 1), result.err
    findings = [f for f in json.loads(result.out)["findings"] if f["subject"] == shown(real)]
    lines = [line for f in findings for line in (*f["fix"], *f["verify"]) if "$'/" in line]
    assert lines and all(CONTROL_NOTE in f["fix"] for f in findings if any("$'" in x for x in f["fix"]))
    for line in lines:
        word = ANSI_C_WORD.search(line)[0]  # type: ignore[index]
        assert printed_by_bash(word) == real.encode(), line
    trim = run_cli("trim", "--run", real, "--yes")
    assert trim.code == 0, trim.err
    assert "fstrim reported" in trim.out and shown(real) in trim.out
    assert UNSAFE_MULTILINE.search(trim.out + trim.err) is None


def test_a_unit_file_drop_in_names_the_real_mountpoint() -> None:
    from diskdoctor.app.core.trim.rules import _systemd_arg

    argument = _systemd_arg(shown(MOUNTPOINT))
    assert visible(argument) == argument and argument.startswith('"') and argument.endswith('"')
    unescaped = re.sub(rb'\\x([0-9a-f]{2})|\\(["\\])',  # systemd's C escapes inside a quoted word
                       lambda m: bytes([int(m[1], 16)]) if m[1] else m[2], argument[1:-1].encode())
    assert unescaped.replace(b"%%", b"%") == MOUNTPOINT.encode()
