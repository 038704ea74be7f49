"""Dataclass methods compiled ahead (probes/record_code.py): current, the same code, the same output."""

from __future__ import annotations

import builtins
import json
import subprocess
import sys
import types
from dataclasses import dataclass
from pathlib import Path

import pytest
from diskdoctor.probes import (
    record_code,
    record_code_devices,
    record_code_other,
    record_code_trim,
    record_code_tui,
)

REPO = Path(__file__).resolve().parent.parent
CHUNKS = (record_code_devices, record_code_trim, record_code_tui, record_code_other)
LAB = str(REPO / "tests" / "fixtures" / "lab-ssd")


def test_the_generated_methods_are_those_this_python_writes() -> None:
    """A dataclass changed without refreshing them would be compiled at every start again."""
    if any(tuple(sys.version_info[:2]) != chunk.PYTHON for chunk in CHUNKS):
        return  # generated with another Python: its texts are never used here, nothing to compare
    done = subprocess.run([sys.executable, str(REPO / "tests" / "support" / "record_code.py"), "--check"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{done.stdout.strip()}: run python tests/support/record_code.py"


def _same_code(ours: types.CodeType, theirs: types.CodeType) -> bool:
    """Equal bytecode, names and constants (nested functions too); file names and lines may differ."""
    fields = ("co_code", "co_names", "co_varnames", "co_freevars", "co_cellvars", "co_argcount",
              "co_kwonlyargcount", "co_posonlyargcount", "co_flags", "co_name", "co_qualname")
    if any(getattr(ours, name) != getattr(theirs, name) for name in fields):
        return False
    if len(ours.co_consts) != len(theirs.co_consts):
        return False
    for mine, other in zip(ours.co_consts, theirs.co_consts, strict=True):
        if isinstance(mine, types.CodeType) and isinstance(other, types.CodeType):
            if not _same_code(mine, other):
                return False
        elif mine != other or type(mine) is not type(other):
            return False
    return True


@pytest.mark.parametrize("chunk", CHUNKS, ids=lambda chunk: chunk.__name__.rsplit("_", 1)[-1])
def test_each_method_is_what_compiling_its_text_gives(chunk: types.ModuleType) -> None:
    """The generated modules hold nothing but the compiled texts (a reviewer reads the texts)."""
    for text, code in chunk.codes().items():
        namespace: dict = {}
        builtins.exec(compile(text, "<string>", "exec", dont_inherit=True), {}, namespace)
        assert _same_code(code, namespace["__create_fn__"].__code__), text[:80]


def test_a_class_not_generated_ahead_is_compiled_as_before() -> None:
    """A text the modules do not hold (a class changed since) is given to `exec`: nothing breaks."""
    module = types.ModuleType("diskdoctor.not_generated_ahead")
    sys.modules[module.__name__] = module
    try:
        namespace = {"__name__": module.__name__, "dataclass": dataclass}
        source = "@dataclass(frozen=True)\nclass Odd:\n    'x'\n    unheard_of_field: int = 3\n"
        exec(compile(source, "<test>", "exec", dont_inherit=True), namespace)
        odd = namespace["Odd"]
        assert odd() == odd(3) and repr(odd(4)) == "Odd(unheard_of_field=4)"
        assert odd.__init__.__annotations__ == {"unheard_of_field": int, "return": None}  # not strings
        with pytest.raises(AttributeError):
            odd().unheard_of_field = 5  # type: ignore[misc]
    finally:
        del sys.modules[module.__name__]
    assert record_code.cached_exec.__module__ == "diskdoctor.probes.record_code"


def _cli_output(argv: list[str], *, cached: bool) -> str:
    """A command's output in a fresh interpreter, with the methods from the modules or compiled."""
    switch = "" if cached else "import dataclasses, builtins; dataclasses.exec = builtins.exec; "
    code = (f"import sys, diskdoctor.probes; {switch}from diskdoctor.app.cli.main import main; "
            f"sys.exit(main({argv!r}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


COMMANDS = [["devices", "--json"], ["devices"], ["trim", "--json"], ["advise", "--json"]]


@pytest.mark.parametrize("argv", COMMANDS)
def test_commands_print_the_same_with_the_methods_compiled_ahead(argv: list[str]) -> None:
    """What a user sees does not depend on where the methods' bytecode came from."""
    outputs = [_cli_output([*argv, "--sysroot", LAB], cached=cached) for cached in (True, False)]
    if "--json" in argv:
        documents = [json.loads(text) for text in outputs]
        for document in documents:
            document.pop("now", None)
        assert documents[0] == documents[1]
    else:
        assert outputs[0] == outputs[1]


def test_under_another_python_the_cache_loads_one_module_at_most(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another Python's dataclasses write other texts: every class misses, so loading the other modules
    (thousands of lines) for each miss would make its start slower than no cache at all."""
    monkeypatch.setattr(record_code, "_loaded", [])
    monkeypatch.setattr(record_code, "_codes", {})
    monkeypatch.setattr(record_code_devices, "PYTHON", (2, 7))
    assert record_code._load_next() is False
    assert record_code._codes == {} and record_code._load_next() is False

    @dataclass(frozen=True)
    class Probe:
        """Made while the cache stands aside."""

        value: int

    assert Probe(3) == Probe(3) and Probe(3).value == 3


def test_the_tuis_first_screen_loads_only_the_chunks_it_needs() -> None:
    """The TUI's modules up to the Stack screen find their methods without the ~700 of the other screens."""
    script = ("import sys\n"
              "import diskdoctor.app.tui.launch, diskdoctor.app.tui.app, diskdoctor.app.tui.stack_screen\n"
              "print(' '.join(m for m in sys.modules if m.startswith('diskdoctor.probes.record_code_')))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert "diskdoctor.probes.record_code_other" not in done.stdout.split()
