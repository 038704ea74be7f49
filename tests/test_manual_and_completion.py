"""`man diskdoctor` and shell completion: the committed roff page and completion scripts are what their
sources build, the installed venv carries them where man and bash look, and bash really completes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli_runner import run_cli

REPO = Path(__file__).resolve().parent.parent
PAGE = REPO / "docs" / "man" / "diskdoctor.1"
BUILD = REPO / "packaging" / "build-docs.sh"
COMPLETIONS = REPO / "packaging" / "completions"
IN_CI = os.environ.get("CI") == "true"


def _need(tool: str, package: str) -> None:
    """Skip without `tool`; under CI=true fail instead, since tests/run.sh installs it."""
    if shutil.which(tool) is None:
        if IN_CI:
            pytest.fail(f"{tool} is missing under CI=true (tests/run.sh installs {package})")
        pytest.skip(f"{tool} is not installed (apt-get install {package})")


def _build(*args: str) -> None:
    done = subprocess.run(["bash", str(BUILD), *args], capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHON": sys.executable}, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr


def test_the_committed_manual_page_is_what_its_source_builds(tmp_path: Path) -> None:
    _need("pandoc", "pandoc")
    _build("man", str(tmp_path / "diskdoctor.1"))
    assert (tmp_path / "diskdoctor.1").read_text() == PAGE.read_text(), \
        "docs/man/diskdoctor.1 is stale: run bash packaging/build-docs.sh and commit it"


def test_the_manual_page_renders_with_every_command() -> None:
    _need("man", "man-db")
    done = subprocess.run(["man", "-l", str(PAGE)], capture_output=True, text=True, check=False,
                          env={**os.environ, "MANWIDTH": "100", "MANPAGER": "cat"})
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert text.startswith("DISKDOCTOR(1)") and "diskdoctor - why is this node" in " ".join(text.split())
    for heading in ("SYNOPSIS", "COMMANDS", "EXIT STATUS", "SHELL COMPLETION"):
        assert f"\n{heading}\n" in text
    for command in ("devices", "trim", "advise", "capture", "bench wal", "bench compaction",
                    "bench randwrite",
                    "bench interference", "runs list", "runs compare", "report", "monitor"):
        assert f"\n   {command} " in text, command
    assert "**" not in text and "\\_" not in text  # no Markdown left over


@pytest.mark.parametrize("shell,name", [("bash", "diskdoctor"), ("zsh", "_diskdoctor")])
def test_the_committed_completion_scripts_are_what_the_parser_generates(tmp_path: Path, shell: str,
                                                                        name: str) -> None:
    _build("completion", shell, str(tmp_path / name))
    assert (tmp_path / name).read_text() == (COMPLETIONS / name).read_text(), \
        f"packaging/completions/{name} is stale: run bash packaging/build-docs.sh and commit it"


def test_the_venv_holds_every_data_file_where_a_wheel_puts_it() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    data_files = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["data-files"]
    for target, sources in data_files.items():
        for source in sources:
            installed = Path(sys.prefix) / target / Path(source).name
            assert installed.resolve() == (REPO / source).resolve(), installed


def test_man_diskdoctor_finds_the_page_once_the_venv_is_on_path() -> None:
    _need("man", "man-db")
    env = {**os.environ, "PATH": f"{Path(sys.prefix) / 'bin'}:{os.environ['PATH']}"}
    env.pop("MANPATH", None)
    done = subprocess.run(["man", "-w", "diskdoctor"], capture_output=True, text=True, check=False, env=env)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()).resolve() == PAGE.resolve()


def test_dash_dash_man_prints_the_page_when_not_on_a_terminal() -> None:
    result = run_cli("--man")
    assert result.code == 0, result.err
    assert result.out == PAGE.read_text()


def test_dash_dash_man_without_an_installed_page_is_one_line(tmp_path: Path) -> None:
    code = ("import site, sys; sys.prefix = sys.argv[1]; site.getuserbase = lambda: sys.argv[1]; "
            "from diskdoctor.app.cli.manual import show_manual; sys.exit(show_manual())")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True,
                          check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "diskdoctor: error: the manual page is not installed here (its source is docs/man/diskdoctor.1.md in "
        "diskdoctor's source tree)"]


def _complete(line: str) -> list[str]:
    """What bash offers at the end of `line`, through the completion function `complete -p` names."""
    script = f"""
        source {COMPLETIONS / 'diskdoctor'}
        spec=$(complete -p diskdoctor) || exit 3
        function=${{spec##*-F }}; function=${{function%% *}}
        COMP_LINE={line!r}; COMP_POINT=${{#COMP_LINE}}
        read -r -a COMP_WORDS <<< "$COMP_LINE"
        [[ $COMP_LINE == *' ' ]] && COMP_WORDS+=('')
        COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
        "$function" diskdoctor "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
        printf '%s\\n' "${{COMPREPLY[@]}}"
    """
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], capture_output=True, text=True,
                          check=False, cwd=REPO)
    assert done.returncode == 0, done.stderr
    return sorted(word.strip() for word in done.stdout.splitlines() if word.strip())


def test_bash_completes_commands_bench_kinds_options_and_choices() -> None:
    assert _complete("diskdoctor ben") == ["bench"]
    assert _complete("diskdoctor bench w") == ["wal"]
    assert _complete("diskdoctor bench ") == ["compaction", "interference", "randwrite", "wal"]
    assert _complete("diskdoctor bench wal --pro") == ["--profile"]
    assert _complete("diskdoctor bench wal --profile ") == ["etcd", "postgres-wal"]
    assert _complete("diskdoctor --print-") == ["--print-completion"]
    assert _complete("diskdoctor bench wal --dir doc") == ["docs"]  # a path option completes directories
