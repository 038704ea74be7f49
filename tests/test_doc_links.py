"""The documentation holds together: every relative link and #anchor in README.md and docs/**/*.md leads to
a file that exists and a heading it has (GitHub's anchors), and the README stays a short front door."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from markdown_it import MarkdownIt

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
README_MAX_LINES = 250


def _tokens(page: Path) -> list:
    return MarkdownIt("commonmark").enable("table").parse(page.read_text(encoding="utf-8"))


def _inline_text(inline: object) -> str:
    return "".join(child.content for child in inline.children or []  # type: ignore[attr-defined]
                   if child.type in ("text", "code_inline"))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    """Every heading's anchor in `page`, repeated headings numbered as GitHub does (-1, -2, ...)."""
    tokens, seen, found = _tokens(page), {}, set()
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            base = slug(_inline_text(tokens[index + 1]))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return frozenset(found)


def links(page: Path) -> list[str]:
    """Every link target in `page` (links inside code are not links)."""
    found = []
    for token in _tokens(page):
        for child in token.children or []:
            if child.type == "link_open":
                found.append(str(child.attrs["href"]))
    return found


def broken_links(page: Path) -> list[str]:
    problems = []
    for href in links(page):
        parts = urlsplit(href)
        if parts.scheme or parts.netloc:
            continue
        target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
        if not target.exists():
            problems.append(f"{href}: no file {target}")
        elif parts.fragment and target.suffix == ".md" and parts.fragment not in anchors(target):
            problems.append(f"{href}: {target.name} has no heading with that anchor")
        elif parts.fragment and target.suffix != ".md":
            problems.append(f"{href}: an anchor into a file that is not Markdown cannot be checked")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(REPO)))
def test_every_relative_link_and_anchor_resolves(page: Path) -> None:
    assert broken_links(page) == []


def test_the_checker_catches_a_missing_file_and_a_missing_anchor(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other page\n\n## Reading a capture: `--sysroot`\n")
    page = tmp_path / "page.md"
    page.write_text("[ok](other.md#reading-a-capture---sysroot) [gone](missing.md) [bad](other.md#nope) "
                    "[self](#a-heading) `[code](not-a-link.md)`\n\n# A heading\n")
    assert [problem.split(":")[0] for problem in broken_links(page)] == ["missing.md", "other.md#nope"]


def test_every_docs_page_is_reachable_from_the_readme() -> None:
    reached, queue = set(), [REPO / "README.md"]
    while queue:
        page = queue.pop()
        if page in reached:
            continue
        reached.add(page)
        for href in links(page):
            parts = urlsplit(href)
            target = (page.parent / unquote(parts.path)).resolve()
            if not parts.scheme and parts.path.endswith(".md") and target.exists():
                queue.append(target)
    assert [str(p.relative_to(REPO)) for p in PAGES if p not in reached and "incoming" not in p.parts] == []


def test_the_readme_is_a_short_front_door() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_MAX_LINES
    assert "bash packaging/run-tui.sh" in text and "bash tests/run.sh" in text
    assert "bash packaging/build-binary.sh" in text and "man diskdoctor" in text
    assert "(docs/README.md)" in text
