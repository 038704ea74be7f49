"""Reports as a support engineer attaches them: JSON against its schema, HTML parsed and opened in Chromium,
Markdown rendered, host strings escaped everywhere, and atomic writing with one-line errors."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import jsonschema
import pytest
from conftest import FIXTURES, fixture_root
from diskdoctor.app.core.runs.store import RunStore
from diskdoctor.app.report.html_report import html_report
from diskdoctor.app.report.json_report import report_document
from diskdoctor.app.report.markdown_report import markdown_report, md_text
from diskdoctor.app.report.model import build_report
from markdown_it import MarkdownIt
from support.cli_runner import assert_one_line_error, run_cli
from support.doc_schemas import validate, validator
from support.report_support import HOSTILE, fixture_report, hostile_report
from support.runs_support import saved_run

VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "source", "wbr"}


class StrictParser(HTMLParser):
    """Collects tags, attributes and text, and checks every element is closed in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.open[-1:] or 'nothing'}")
        else:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(html: str) -> StrictParser:
    parser = StrictParser()
    parser.feed(html)
    parser.close()
    assert parser.errors == [] and parser.open == [], (parser.errors, parser.open)
    return parser


def test_json_report_matches_its_schema() -> None:
    document = report_document(fixture_report())
    validate("report", json.loads(json.dumps(document)))
    assert document["host"] == {"hostname": "etcd-2", "kernel": "6.1.0-26-amd64", "distribution": None,
                                "tool_version": document["host"]["tool_version"],  # type: ignore[index]
                                "source": "capture etcd-raid0-lvm-luks"}
    assert [v["verdict"] for v in document["trim"]] == ["unscheduled", "blocked"]  # type: ignore[union-attr]
    assert "TRIM-CRYPT-OFF" in [f["id"] for f in document["findings"]]  # type: ignore[union-attr]
    [run] = document["runs"]  # type: ignore[misc]
    assert run["params"]["bs"] == 2300 and run["verdict"]["pass"] is True
    assert run["result"]["samples"] == 10_029 and run["result"]["verdict"]["threshold_ms"] == 10.0
    assert document["devices"][0]["name"] == "nvme0n1"  # type: ignore[index]


def test_a_failing_run_is_a_finding_in_the_report() -> None:
    report = build_report(fixture_root("etcd-raid0-lvm-luks"), [saved_run(20, slow_ms=14)])
    first = report.findings[0]  # the most severe first
    assert (first.id, first.severity.value, first.subject) == ("ETCD-FSYNC-P99", "crit", "/var/lib/etcd")
    assert "14.0 ms" in first.title
    html = html_report(report)  # the count says which findings come from the runs, not the host
    assert re.search(r"Findings \(1 crit, \d+ warn, \d+ info; 1 of them judge the saved runs below\)", html)


def test_schema_rejects_what_it_should() -> None:
    document = json.loads(json.dumps(report_document(fixture_report())))
    document["findings"][0]["severity"] = "fatal"
    with pytest.raises(jsonschema.ValidationError):
        validator("report").validate(document)


def test_html_report_is_self_contained_and_parses() -> None:
    html = html_report(fixture_report())
    parser = parse(html)
    tags = [tag for tag, _ in parser.tags]
    assert "script" not in tags and "iframe" not in tags and "object" not in tags
    for tag, attrs in parser.tags:  # nothing fetched: no src/href to anywhere, no external stylesheet
        assert not (attrs.keys() & {"src", "href", "srcset", "action"}) or tag == "svg", (tag, attrs)
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
    csp = next(a for t, a in parser.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy")
    assert "default-src 'none'" in (csp["content"] or "")
    text = "".join(parser.text)
    assert "diskdoctor report: etcd-2" in text and "TRIM-CRYPT-OFF" in text
    assert "cryptsetup refresh --allow-discards --persistent luks-etcd" in text
    assert "PASS p99 fdatasync 899 µs < 10 ms: etcd docs threshold; 10,029 samples" in text
    assert tags.count("svg") == 2 and tags.count("polyline") == 2  # percentiles (sync, write), histogram
    assert "limit 10 ms" in text and "9,673" in text  # the limit line and the biggest band's count


def test_every_host_string_is_escaped_in_html() -> None:
    html = html_report(hostile_report())
    parser = parse(html)
    assert "script" not in [tag for tag, _ in parser.tags]
    assert not any(attrs.get("href") for _, attrs in parser.tags)
    text = "".join(parser.text)
    assert f"diskdoctor report: {HOSTILE}" in text and text.count(HOSTILE) >= 5


def test_markdown_report_renders() -> None:
    markdown = markdown_report(fixture_report())
    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings[:3] == ["diskdoctor report: etcd-2", "Findings (0 crit, 2 warn, 1 info)", "/"]
    assert {"TRIM", "Storage stack", "Benchmark runs"} <= set(headings)
    fences = [t for t in tokens if t.type == "fence"]
    assert any(t.info == "sh" and "cryptsetup refresh" in t.content for t in fences)
    charts = [t.content for t in fences if t.info == "text"]
    assert "fdatasync latency in ms, log scale, limit 10 ms" in charts[0] and "p99.9" in charts[0]
    assert "fdatasync latency histogram (samples, log scale)" in charts[1] and "320µs" in charts[1]
    assert all("\x1b" not in chart for chart in charts)
    html = MarkdownIt("commonmark").enable("table").render(markdown)
    assert "│ └─md0" in html and "<td>raid0</td>" in html  # the stack tree survives as table cells


def test_markdown_keeps_host_strings_literal() -> None:
    markdown = markdown_report(hostile_report())
    renderer = MarkdownIt("commonmark").enable("table")
    html = renderer.render(markdown)
    assert "<script>" not in html and "<a " not in html and "<strong>b</strong>" not in html
    parser = parse(f"<div>{html}</div>")
    assert HOSTILE in "".join(parser.text)
    tokens = renderer.parse(markdown)
    for open_index, token in enumerate(tokens):  # a | in a cell never adds a column
        if token.type == "tr_open":
            close = next(i for i in range(open_index, len(tokens)) if tokens[i].type == "tr_close")
            cells = [t for t in tokens[open_index:close] if t.type in ("td_open", "th_open")]
            assert len(cells) in (2, 3, 4, 9)
    assert md_text("1. item") == "1\\. item" and md_text("# x") == "\\# x"


def _console_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def _chromium(page: Path, screenshot: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--enable-logging=stderr", "--v=0", f"--user-data-dir={page.parent / 'profile'}",
         "--window-size=1200,3000", f"--screenshot={screenshot}", page.as_uri()],
        capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture
def chromium() -> Iterator[None]:
    """Debian's chromium (tests/run.sh installs it); under CI=true its absence fails instead of skipping."""
    if shutil.which("chromium") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is not installed (tests/run.sh installs it); the report must be opened")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    yield


def test_html_report_opens_in_chromium_without_console_errors(tmp_path: Path, chromium: None) -> None:
    broken = tmp_path / "broken.html"  # the check itself works: a page with errors is caught
    broken.write_text('<html><body><img src="http://example.invalid/x.png"><script>nope()</script>'
                      "</body></html>")
    assert _console_lines(_chromium(broken, tmp_path / "broken.png").stderr)
    for name, report in (("report", fixture_report()), ("hostile", hostile_report())):
        page, shot = tmp_path / f"{name}.html", tmp_path / f"{name}.png"
        page.write_text(html_report(report))
        done = _chromium(page, shot)
        assert done.returncode == 0, done.stderr[-2000:]
        assert _console_lines(done.stderr) == []
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
    keep = os.environ.get("DISKDOCTOR_KEEP_SCREENSHOT")
    if keep:
        shutil.copy(tmp_path / "report.png", keep)


def test_report_cli_writes_each_format(tmp_path: Path) -> None:
    RunStore().save(saved_run(20))
    for name in ("r.md", "r.html", "r.json"):
        out = tmp_path / name
        result = run_cli("report", "-o", str(out), "--sysroot", str(FIXTURES / "etcd-raid0-lvm-luks"),
                         "--run", "latest")
        assert result.code == 0, result.err
        assert result.out.startswith(f"wrote {out}: ") and "report of etcd-2 (4 findings, 2 TRIM verdicts, " \
            "1 run)" in result.out
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    validate("report", json.loads((tmp_path / "r.json").read_text()))
    default = run_cli("report", "-o", str(tmp_path / "default.json"), "--sysroot",
                      str(FIXTURES / "etcd-raid0-lvm-luks"))
    assert "(4 findings, 2 TRIM verdicts, 1 run)" in default.out  # etcd-2's newest run is picked by itself
    other = run_cli("report", "-o", str(tmp_path / "other.json"), "--sysroot", str(FIXTURES / "lab-ssd"))
    assert other.code == 0 and ", 0 runs)" in other.out  # runs of another host are not mixed in


def test_report_cli_errors_are_one_line_and_leave_nothing(tmp_path: Path) -> None:
    fixture = str(FIXTURES / "etcd-raid0-lvm-luks")
    assert_one_line_error(run_cli("report", "-o", str(tmp_path / "r.txt"), "--sysroot", fixture),
                          "report file must end in .md, .html or .json")
    assert_one_line_error(run_cli("report", "-o", str(tmp_path / "no" / "r.md"), "--sysroot", fixture),
                          f"folder {tmp_path / 'no'} does not exist")
    existing = tmp_path / "old.html"
    existing.write_text("keep me")
    assert_one_line_error(run_cli("report", "-o", str(existing), "--sysroot", fixture),
                          "already exists (use --force to replace it)")
    assert existing.read_text() == "keep me"
    assert_one_line_error(run_cli("report", "-o", str(tmp_path / "r.md"), "--sysroot", fixture, "--run", "x"),
                          "no saved run 'x'")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.html"]
    assert run_cli("report", "-o", str(existing), "--sysroot", fixture, "--force").code == 0
    assert existing.read_text().startswith("<!DOCTYPE html>")


@pytest.fixture
def tiny_mount(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs (root only) with every byte taken by a filler file, unmounted afterwards."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mountpoint = tmp_path / "tiny"
    mountpoint.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mountpoint)], check=True)
    try:
        with open(mountpoint / "filler", "wb", buffering=0) as filler, contextlib.suppress(OSError):
            while True:
                filler.write(b"\0" * 4096)
        yield mountpoint
    finally:
        subprocess.run(["umount", str(mountpoint)], check=False)


@pytest.mark.live
def test_report_on_full_or_read_only_filesystem(tiny_mount: Path) -> None:
    fixture = str(FIXTURES / "lab-ssd")
    full = run_cli("report", "-o", str(tiny_mount / "r.html"), "--sysroot", fixture)
    assert_one_line_error(full, f"cannot write report {tiny_mount / 'r.html'}: No space left on device")
    assert os.listdir(tiny_mount) == ["filler"]  # no partial file, no temp file
    subprocess.run(["mount", "-o", "remount,ro", str(tiny_mount)], check=True)
    read_only = run_cli("report", "-o", str(tiny_mount / "r.md"), "--sysroot", fixture)
    assert_one_line_error(read_only, f"cannot write report {tiny_mount / 'r.md'}: read-only filesystem")


def test_html_chart_reads_seconds_and_keeps_its_legend_off_the_lines() -> None:
    """A run with stalls past a second reads "1 s" on the axis (not "1000 ms" or "1e+03 ms"), and the
    legend sits above the plot, where it covers no line."""
    import re

    from diskdoctor.app.report.svg_charts import TOP, percentile_svg
    from diskdoctor.app.text.chart import Series

    svg = percentile_svg(["p50", "p99", "max"], [Series("fdatasync", [0.4, 80.0, 3100.0])],
                         title="latency percentiles", threshold_ms=10)
    ticks = re.findall(r'class="tick">([^<]+)<', svg)
    assert "1 s" in ticks and "10 ms" in ticks and not any("e+" in t or "000 ms" in t for t in ticks)
    legend = re.search(r'<text x="[\d.]+" y="([\d.]+)" class="legend">fdatasync<', svg)
    assert legend is not None and float(legend.group(1)) < TOP
