"""`devices [--json] [--pretty] [--all] [--sysroot DIR]` is read without argparse; every list the quick path
takes gives argparse's own namespace, and every other list (errors included) reaches argparse unchanged."""

from __future__ import annotations

import itertools

import pytest
from conftest import FIXTURES
from diskdoctor.app.cli import main as cli
from diskdoctor.app.cli.parser import parse_arguments
from diskdoctor.app.cli.quick_args import quick_arguments
from hypothesis import given, settings
from hypothesis import strategies as st
from test_speed import heavy, loaded_modules

ROOT = str(FIXTURES / "etcd-raid0-lvm-luks")

QUICK = [
    ["devices"],
    ["devices", "--json"],
    ["devices", "--json", "--pretty"],
    ["devices", "--pretty", "--all", "--json"],
    ["devices", "--all"],
    ["--sysroot", ROOT, "devices", "--json"],
    ["devices", "--sysroot", ROOT, "--json"],
    ["devices", "--json", "--sysroot", ROOT],
    ["devices", "--all", "--sysroot", "devices", "--pretty"],  # a folder named like the command
    ["--sysroot", "a dir with spaces=and equals", "devices"],
]
"""Lists the quick path takes."""

ARGPARSE = [
    [], ["--smoke"], ["--version"], ["-h"], ["--help"], ["devices", "-h"], ["devices", "--help"],
    ["devices", "--js"], ["devices", "--j"], ["devices", "--pre"], ["devices", "--al"],  # abbreviations
    ["devices", "--sysroot=" + ROOT], ["--sysroot=" + ROOT, "devices"], ["devices", "--sys", ROOT],
    ["--sys", ROOT, "devices"], ["devices", "--sysroot"], ["--sysroot", "devices"],
    ["devices", "--sysroot", ""],
    ["devices", "--sysroot", "-x"], ["devices", "--sysroot", "--json"], ["devices", "--sysroot", "-1"],
    ["--sysroot", ROOT, "devices", "--sysroot", ROOT], ["devices", "--json", "--json"],
    ["devices", "devices"], ["devices", "extra"], ["devices", "--bogus"], ["devices", "-j"],
    ["devices", "--"], ["--", "devices"], ["--json", "devices"], ["--all", "devices"], ["Devices"],
    ["device"], ["trim", "--json"], ["--smoke", "devices"], ["devices", "--smoke"], ["devices", "--version"],
    ["--version", "devices"], ["devices", "--man"], ["devices", "--print-completion", "bash"],
    ["devices", "--json=1"], ["devices", "--all", "--sysroot", ROOT, "--sysroot", ROOT],
]
"""Lists that must go to argparse: its abbreviations, `=` values, help, errors, other commands."""


def argparse_outcome(argv: list[str]) -> dict[str, object] | str:
    """argparse's namespace for `argv` as a dict, or how it stopped (help, version, an error)."""
    try:
        return vars(parse_arguments(list(argv)))
    except SystemExit as stop:
        return f"exit {stop.code}"


@pytest.mark.parametrize("argv", QUICK, ids=" ".join)
def test_the_quick_path_gives_argparses_namespace(argv: list[str]) -> None:
    quick = quick_arguments(list(argv))
    assert quick is not None
    assert vars(quick) == argparse_outcome(argv)


@pytest.mark.parametrize("argv", ARGPARSE, ids=" ".join)
def test_every_other_list_goes_to_argparse(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert quick_arguments(list(argv)) is None
    capsys.readouterr()


SYSROOT_VALUES = [ROOT, "devices", "a b", "", "-", "--json", "-1", "--", "--sysroot", "-h", "--sysroot=x"]
"""Values after `--sysroot`: three plain ones and the rest option-like or empty (argparse's to judge)."""
WORDS = st.sampled_from(["devices", "--json", "--pretty", "--all", "--sysroot", ROOT, "dir", "", "-",
                         "--", "-h", "--js", "--sys", "--sysroot=x", "trim", "--smoke", "-1", "a b", "--x"])


@settings(max_examples=400, deadline=None)
@given(st.lists(WORDS, max_size=7))
def test_the_quick_path_never_takes_what_argparse_would_not_give_the_same(argv: list[str]) -> None:
    quick = quick_arguments(list(argv))
    if quick is not None:
        assert vars(quick) == argparse_outcome(argv)


def test_every_order_of_the_quick_words_is_read_as_argparse_reads_it() -> None:
    """Every ordered choice of the four words, with no `--sysroot` or one anywhere with any of the values."""
    words = ["devices", "--json", "--pretty", "--all"]
    taken = 0
    for size in range(len(words) + 1):
        for chosen in itertools.permutations(words, size):
            lists = [list(chosen)] + [[*chosen[:at], "--sysroot", value, *chosen[at:]]
                                      for at in range(size + 1) for value in SYSROOT_VALUES]
            for argv in lists:
                quick = quick_arguments(list(argv))
                if quick is not None:
                    taken += 1
                    assert vars(quick) == argparse_outcome(argv), argv
    # `devices` first (1, 3, 6, 6 lists of 1-4 words), then no --sysroot or a plain value in any of
    # the size + 1 places: 7 + 30 + 78 + 96
    assert taken == 211


@pytest.mark.parametrize("argv", [["devices", "--json"], ["devices", "--all", "--pretty", "--json"],
                                  ["devices"], ["devices", "--all"]])
def test_a_quick_command_prints_what_the_argparse_one_prints(
        argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    argv = [*argv, "--sysroot", ROOT]
    outcomes = []
    for quick in (True, False):
        if not quick:
            monkeypatch.setattr(cli, "quick_arguments", lambda _argv: None)
        code = cli.main(argv)
        outcomes.append((code, *capsys.readouterr()))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] == 0 and outcomes[0][1]


@pytest.mark.parametrize(("argv", "message"), [
    (["devices", "--sysroot"], "diskdoctor devices: error: argument --sysroot: expected one argument "
                               "(see diskdoctor devices --help)\n"),
    (["devices", "--json", "--bogus"], "diskdoctor: error: unrecognized arguments: --bogus "
                                       "(see diskdoctor devices --help)\n"),
    (["--s", ROOT, "devices"], "diskdoctor: error: ambiguous option: --s could match --smoke, "
                               "--sysroot (see diskdoctor --help)\n"),
])
def test_errors_near_the_quick_path_are_still_argparses(argv: list[str], message: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    assert (stop.value.code, capsys.readouterr().err) == (2, message)


def test_devices_json_loads_no_argparse() -> None:
    modules = loaded_modules("devices", "--json", "--sysroot", ROOT)
    assert "diskdoctor.app.core.stack.devices_json" in modules
    assert heavy(modules, "argparse", "gettext", "diskdoctor.app.cli.parser") == []
