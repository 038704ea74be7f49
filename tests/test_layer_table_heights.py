"""The details pane sizes each row from Rich's own line breaking: no value or caveat is cut off."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.stack_view import detail_groups, trim_group
from diskdoctor.probes.host import read_host
from diskdoctor.probes.layer_details import read_layer_details
from diskdoctor.widgets.layer_table import wrapped_height
from rich.console import Console
from rich.text import Text

FIXTURES = ("lab-ssd", "etcd-raid0-lvm-luks", "long-names", "multipath", "lab-4kn")
WIDTHS = (1, 5, 12, 20, 22, 33, 47, 80)


def rich_lines(text: str, width: int) -> int:
    """How many lines Rich draws `text` in, folded into `width` cells (as the table does)."""
    return len(Text(text, overflow="fold").wrap(Console(width=200), width))


@pytest.mark.parametrize("fixture", FIXTURES)
def test_every_detail_cell_height_matches_richs_wrapping(fixture: str) -> None:
    root = fixture_root(fixture)
    host = read_host(root)
    texts: set[str] = set()
    for kname in host.devices:
        groups = [*detail_groups(read_layer_details(root, host, kname)), trim_group(host, kname)]
        for group in groups:
            for row in group.rows:
                texts.update({row.label, row.value, f"{row.value}\n{row.note}",
                              f"{row.value}\nfrom {row.source}"})
    assert len(texts) > 20
    for text in texts:
        for width in WIDTHS:
            assert wrapped_height(text, width) == rich_lines(text, width), (text, width)


@pytest.mark.parametrize("text", ["", "a", "a\n", "\n\n", "word " * 30, "x" * 95, "tab\there and\tthere",
                                  "wide 日本語の文字列 " * 5, "  leading and trailing  ", "a-b/c_d" * 20])
def test_edge_cases_match_richs_wrapping(text: str) -> None:
    for width in WIDTHS:
        assert wrapped_height(text, width) == rich_lines(text, width), (text, width)
