"""`devices --json` into a pipe starts without what its work does not need (the json package, locale, the
signal module's enums, shlex, compiled host_text patterns), and what replaces them gives the same bytes."""

from __future__ import annotations

import json
import math
import re

import pytest
from conftest import FIXTURES
from diskdoctor.app.cli.json_output import compact_json
from diskdoctor.probes import host_text
from diskdoctor.probes.root import parse_int
from hypothesis import given, settings
from hypothesis import strategies as st
from test_speed import heavy, loaded_modules

ROOT = str(FIXTURES / "etcd-raid0-lvm-luks")

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text() | st.integers() | st.booleans() | st.none()
                      | st.floats(allow_nan=False), inner, max_size=4),
    max_leaves=20)


def dumps_compact(document: object) -> str:
    return json.dumps(document, separators=(",", ":"))


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_compact_json_is_json_dumps_compact(document: object) -> None:
    assert compact_json(document) == dumps_compact(document)


@pytest.mark.parametrize("document", [
    "x\ny\u2028\x00é", -0.0, math.inf, -math.inf, math.nan, 2**80, 1e300, 5e-324, [], {}, (1, "t"),
    {7: 2, 2.5: 3, None: 4, True: 5, "\x1b": [None, False]},
])
def test_compact_json_edge_values(document: object) -> None:
    assert compact_json(document) == dumps_compact(document)


@pytest.mark.parametrize("document", [{"a": {1, 2}}, [object()], {(1, 2): 3}, [b"bytes"]])
def test_compact_json_refuses_what_json_dumps_refuses_with_its_message(document: object) -> None:
    with pytest.raises(TypeError) as ours:
        compact_json(document)
    with pytest.raises(TypeError) as theirs:
        dumps_compact(document)
    assert str(ours.value) == str(theirs.value)


def test_compact_json_detects_a_cycle_as_json_dumps_does() -> None:
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference detected"):
        compact_json(loop)


_UNSAFE = (r"\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f"
           r"\ufeff\ufff9-\ufffb")
REFERENCE = {False: re.compile(f"[{_UNSAFE}\\t\\n]"), True: re.compile(f"[{_UNSAFE}]")}
"""host_text's patterns as they were compiled at import before: the printable-ASCII shortcut must agree."""


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0x2100) | st.sampled_from("\t\n\x1b\x7f\\ ~")),
       st.booleans())
def test_shown_text_is_what_the_patterns_alone_make_it(text: str, multiline: bool) -> None:
    expected = REFERENCE[multiline].sub(lambda m: host_text.escape_char(m[0]), text)
    assert host_text.visible(text, multiline=multiline) == expected
    assert host_text.is_plain(text) == (REFERENCE[False].search(text) is None)
    assert host_text.real_text(host_text.shown(text, multiline=multiline)) == text


def test_host_text_patterns_are_still_importable() -> None:
    from diskdoctor.probes.host_text import UNSAFE_MULTILINE, UNSAFE_ONE_LINE

    assert UNSAFE_ONE_LINE.pattern == REFERENCE[False].pattern
    assert UNSAFE_MULTILINE.pattern == REFERENCE[True].pattern
    with pytest.raises(AttributeError):
        host_text.NO_SUCH_NAME  # noqa: B018


@pytest.mark.parametrize(("text", "signed", "value"), [
    ("12", False, 12), (" 7\n", False, 7), ("-1", True, -1), ("-1", False, None), ("-", True, None),
    ("--5", True, None), ("+5", True, None), ("1_000", False, None), ("١٢", False, None), ("²", False, None),
    ("-²", True, None), ("", False, None), ("0x10", False, None), ("007", False, 7),
])
def test_parse_int_takes_only_plain_ascii_decimals(text: str, signed: bool, value: int | None) -> None:
    assert parse_int(text, signed=signed) == value


@pytest.mark.parametrize("where", [["--sysroot", ROOT], []], ids=["capture", "live host"])
def test_devices_json_loads_only_what_its_work_needs(where: list[str]) -> None:
    modules = loaded_modules("devices", "--json", *where)
    assert "diskdoctor.app.core.stack.devices_json" in modules
    assert heavy(modules, "json", "locale", "signal", "shlex", "collections.abc") == []
