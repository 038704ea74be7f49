"""The catalog rules that need evidence beyond sysfs: a drive's own cache state, ALPM, fio's version, etcd's
metrics and trims during a benchmark; each fires where it should and stays silent where it should not."""

from __future__ import annotations

import http.server
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from diskdoctor.app.core.findings.vocabulary import Severity
from diskdoctor.probes.etcd_metrics import COMMIT, parse_metrics
from support import advice_scenarios as scenarios
from support.cli_runner import assert_one_line_error, run_cli
from test_advisor_rules import findings, one, only, wal

# --- WCACHE-SYSFS-TOGGLED ------------------------------------------------------------------------


def test_sata_cache_on_but_sysfs_write_through_is_critical(tmp_path: Path) -> None:
    found = findings(scenarios.sata_host(tmp_path, write_cache="write through", identify_cache=True))
    toggled = one(found, "WCACHE-SYSFS-TOGGLED")
    assert toggled.severity is Severity.CRIT and toggled.subject == "sda"
    assert toggled.fix[0] == "echo 'write back' > /sys/block/sda/queue/write_cache"
    evidence = {e.what: (e.value, e.source) for e in toggled.evidence}
    assert evidence["write_cache of sda (the kernel's view)"] == ("write through",
                                                                  "/sys/block/sda/queue/write_cache")
    assert evidence["ATA IDENTIFY word 85 (write cache enabled) of sda"] == (
        "yes", "/sys/class/ata_device/dev1.0/id")
    assert not only(found, "WCACHE-OFF")  # not "no cache": a cache the kernel no longer flushes


def test_sata_cache_really_off_is_not_toggled(tmp_path: Path) -> None:
    found = findings(scenarios.sata_host(tmp_path, write_cache="write through", identify_cache=False))
    assert not only(found, "WCACHE-SYSFS-TOGGLED") and one(found, "WCACHE-OFF")
    write_back = scenarios.sata_host(tmp_path / "wb", identify_cache=True)
    assert not only(findings(write_back), "WCACHE-SYSFS-TOGGLED")


@pytest.mark.parametrize("feature,fires", [("0x00000001", True), ("0x00000000", False)])
def test_nvme_volatile_write_cache_feature_decides(tmp_path: Path, feature: str, fires: bool) -> None:
    host = scenarios.nvme_host(tmp_path, queue={"write_cache": "write through"})
    host.command_output("nvme-id-ctrl-nvme0",
                        "NVME Identify Controller:\nvid       : 0x1344\nvwc       : 0x7\n")
    host.command_output("nvme-get-feature-6-nvme0n1",
                        f"get-feature:0x06 (Volatile Write Cache), Current value:{feature}\n")
    found = only(findings(host), "WCACHE-SYSFS-TOGGLED")
    assert bool(found) is fires
    if fires:
        sources = [e.source for e in found[0].evidence]
        assert "command: nvme get-feature -f 6 /dev/nvme0n1" in sources
        assert "command: nvme id-ctrl /dev/nvme0" in sources


# --- SATA-ALPM -----------------------------------------------------------------------------------

def test_sata_alpm_power_saving_under_data(tmp_path: Path) -> None:
    found = one(findings(scenarios.sata_host(tmp_path, alpm="min_power")), "SATA-ALPM")
    assert found.severity is Severity.WARN and found.subject == "sda"
    assert found.fix[0] == "echo max_performance > /sys/class/scsi_host/host0/link_power_management_policy"
    assert found.fix[1].endswith("> /etc/udev/rules.d/60-diskdoctor-alpm.rules   # at every boot")
    assert found.evidence[0].source == "/sys/class/scsi_host/host0/link_power_management_policy"
    milder = one(findings(scenarios.sata_host(tmp_path / "dipm", alpm="med_power_with_dipm")), "SATA-ALPM")
    assert milder.severity is Severity.INFO


def test_sata_alpm_max_performance_or_nvme_is_silent(tmp_path: Path) -> None:
    assert not only(findings(scenarios.sata_host(tmp_path, alpm="max_performance")), "SATA-ALPM")
    assert not only(findings(scenarios.nvme_host(tmp_path / "nvme")), "SATA-ALPM")


# --- FIO-VERSION ---------------------------------------------------------------------------------

@pytest.mark.parametrize("version,severity", [("fio-3.1", Severity.WARN), ("fio-2.2.10", Severity.WARN),
                                              ("fio-3.4", Severity.INFO)])
def test_old_fio(tmp_path: Path, version: str, severity: Severity) -> None:
    host = scenarios.nvme_host(tmp_path)
    host.command_output("fio-version", version + "\n")
    found = one(findings(host), "FIO-VERSION")
    assert found.severity is severity and found.evidence[0].source == "command: fio --version"


def test_current_or_missing_fio_is_silent(tmp_path: Path) -> None:
    host = scenarios.nvme_host(tmp_path)
    host.command_output("fio-version", "fio-3.33\n")
    assert not only(findings(host), "FIO-VERSION")
    assert not only(findings(scenarios.nvme_host(tmp_path / "none")), "FIO-VERSION")  # not installed


# --- ETCD-COMMIT-P99 -----------------------------------------------------------------------------

BOUNDS = ["0.001", "0.002", "0.004", "0.008", "0.016", "0.032", "0.064", "0.128", "0.256", "0.512", "1.024",
          "2.048", "4.096", "8.192", "+Inf"]


def metrics_text(commit_counts: list[int], wal_counts: list[int] | None = None) -> str:
    """An etcd /metrics page with the two disk histograms (cumulative counts per bucket)."""
    lines = ["# HELP etcd_disk_backend_commit_duration_seconds The latency distributions of commit "
             "called by backend.", "# TYPE etcd_disk_backend_commit_duration_seconds histogram"]
    for name, counts in ((COMMIT, commit_counts),
                         ("etcd_disk_wal_fsync_duration_seconds", wal_counts or [])):
        lines += [f'{name}_bucket{{le="{bound}"}} {count}'
                  for bound, count in zip(BOUNDS, counts, strict=False)]
        if counts:
            lines += [f"{name}_sum 12.5", f"{name}_count {counts[-1]}"]
    return "\n".join(lines) + "\nprocess_open_fds 42\n"


SLOW = [100, 300, 500, 700, 800, 900, 960, 990, 1000, 1000, 1000, 1000, 1000, 1000, 1000]
FAST = [900, 980, 995, 999, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000]


def test_histogram_quantile_interpolates_in_the_bucket_like_prometheus() -> None:
    commit = parse_metrics(metrics_text(SLOW), "m").histograms[COMMIT]
    # rank 990 lies at the top of the 0.064-0.128 bucket (960 -> 990): 0.128 s
    assert commit.quantile(0.99) == pytest.approx(0.128)
    assert commit.quantile(0.5) == pytest.approx(0.004)  # rank 500: the top of the 0.004 bucket
    assert commit.quantile(0.2) == pytest.approx(0.0015)  # rank 200: half way through 0.001-0.002
    fast = parse_metrics(metrics_text(FAST), "m").histograms[COMMIT]
    assert fast.quantile(0.99) == pytest.approx(0.002 + 0.002 * 10 / 15)  # rank 990 in 980 -> 995


def test_etcd_commit_p99_over_25_ms(tmp_path: Path) -> None:
    page = tmp_path / "metrics.txt"
    page.write_text(metrics_text(SLOW, FAST))
    result = run_cli("advise", "--sysroot", str(scenarios.nvme_host(tmp_path / "root").finish()),
                     "--etcd-metrics", str(page), "--json")
    assert result.code == 1, result.err
    [found] = [f for f in json.loads(result.out)["findings"] if f["id"] == "ETCD-COMMIT-P99"]
    assert found["severity"] == "warn" and found["subject"] == "etcd"
    assert found["title"] == "etcd's backend commit p99 is 128 ms, over the FAQ's 25 ms"
    assert found["evidence"][0]["source"] == f"{page}: {COMMIT}_bucket"
    assert found["evidence"][1]["value"] == "1,000" and found["evidence"][2]["value"] == "25.0 ms"
    assert found["evidence"][3]["what"].startswith("WAL fsync p99")
    assert found["evidence"][3]["value"] == "3.33 ms"


def test_fast_commits_are_silent_and_a_foreign_file_is_one_line(tmp_path: Path) -> None:
    page = tmp_path / "metrics.txt"
    page.write_text(metrics_text(FAST))
    root = str(scenarios.nvme_host(tmp_path / "root").finish())
    result = run_cli("advise", "--sysroot", root, "--etcd-metrics", str(page), "--json")
    assert "ETCD-COMMIT-P99" not in {f["id"] for f in json.loads(result.out)["findings"]}
    other = tmp_path / "node.txt"
    other.write_text("node_load1 0.5\n")
    assert_one_line_error(run_cli("advise", "--sysroot", root, "--etcd-metrics", str(other)),
                          "no etcd_disk_backend_commit_duration_seconds or etcd_disk_wal_fsync")


@pytest.fixture
def metrics_url() -> Iterator[str]:
    """etcd's /metrics served over HTTP on localhost."""
    body = metrics_text(SLOW).encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200 if self.path == "/metrics" else 404)
            self.end_headers()
            self.wfile.write(body if self.path == "/metrics" else b"")

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def test_etcd_metrics_from_a_url(tmp_path: Path, metrics_url: str) -> None:
    root = str(scenarios.nvme_host(tmp_path).finish())
    result = run_cli("advise", "--sysroot", root, "--etcd-metrics", metrics_url + "/metrics")
    assert result.code == 1 and "ETCD-COMMIT-P99" in result.out, result.err
    assert_one_line_error(run_cli("advise", "--sysroot", root, "--etcd-metrics", metrics_url + "/nope"),
                          "cannot read " + metrics_url + "/nope: Not Found")


# --- TRIM-LONG -----------------------------------------------------------------------------------

def with_layers(document: dict[str, object], discards: int, discard_ms: int) -> dict[str, object]:
    """A WAL result whose layers counted `discards` during the run."""
    layers = [{"kname": kname, "writes": 20000, "flushes": 15000, "discards": discards,
               "discard_ms": discard_ms} for kname in ("nvme0n1p1", "nvme0n1")]
    return {**document, "layers": layers}


def test_trim_long_when_the_p99_rose_tenfold_while_discards_ran(tmp_path: Path) -> None:
    quiet, during = with_layers(wal(900), 0, 0), with_layers(wal(48_000), 412, 9_870)
    found = one(findings(scenarios.nvme_host(tmp_path), bench=(quiet, during)), "TRIM-LONG")
    assert found.severity is Severity.WARN and found.subject == "/var/lib/etcd"
    assert found.title == "fdatasync p99 on /var/lib/etcd rose 53x (900 µs to 48.0 ms) while discards ran"
    assert found.evidence[2].value == "412 in 9,870 ms"
    assert found.evidence[2].source == "result.json: layers[nvme0n1p1] (diskstats fields 12-15)"
    assert found.fix[0] == ("echo 67108864 > /sys/block/nvme0n1/queue/discard_max_bytes   # 64 MiB discard "
                            "requests")
    assert "fstrim --minimum 1M -v /var/lib/etcd   # skips free extents under 1 MiB" in found.fix


def test_trim_long_needs_discards_a_quiet_run_and_a_tenfold_rise(tmp_path: Path) -> None:
    host = scenarios.nvme_host(tmp_path)
    for bench in [(with_layers(wal(48_000), 412, 9_870),),  # no quiet run to compare with
                  (with_layers(wal(900), 0, 0), with_layers(wal(5_000), 412, 9_870)),  # 5.6x
                  (with_layers(wal(900), 0, 0), with_layers(wal(48_000), 0, 0))]:  # slow, but no trim
        assert not only(findings(host, bench=bench), "TRIM-LONG")


@pytest.mark.live
def test_a_running_etcd_with_plain_http_metrics_is_read_without_the_flag(metrics_url: str) -> None:
    """kubeadm's etcd serves /metrics on http://127.0.0.1:2381: advise finds it on etcd's command line."""
    port = metrics_url.rsplit(":", 1)[1]
    code = "import time; time.sleep(60)"
    etcd = subprocess.Popen(["bash", "-c", f'exec -a etcd {sys.executable} -c "{code}" '
                             f"--listen-metrics-urls=http://0.0.0.0:{port},https://127.0.0.1:2379"])
    try:
        result = run_cli("advise", "--json")
        [found] = [f for f in json.loads(result.out)["findings"] if f["id"] == "ETCD-COMMIT-P99"]
        assert found["evidence"][0]["source"] == f"http://127.0.0.1:{port}/metrics: {COMMIT}_bucket"
    finally:
        etcd.kill()
        etcd.wait()
    refused = subprocess.Popen(["bash", "-c", f'exec -a etcd {sys.executable} -c "{code}" '
                                "--listen-metrics-urls=http://127.0.0.1:1"])
    try:
        result = run_cli("advise", "--json")
        assert "ETCD-COMMIT-P99" not in {f["id"] for f in json.loads(result.out)["findings"]}
        assert f"etcd (pid {refused.pid}): cannot read http://127.0.0.1:1/metrics" in result.err
    finally:
        refused.kill()
        refused.wait()


def test_healthy_metrics_are_said_to_be_read_and_decreasing_buckets_refused(tmp_path: Path) -> None:
    page = tmp_path / "metrics.txt"
    page.write_text(metrics_text(FAST, FAST))
    root = str(scenarios.nvme_host(tmp_path / "root").finish())
    result = run_cli("advise", "--sysroot", root, "--etcd-metrics", str(page), "--json")
    assert f"advise: etcd metrics from {page}: backend commit p99 3.33 ms over 1,000 commits" in result.err
    decreasing = tmp_path / "decreasing.txt"
    decreasing.write_text(metrics_text([100, 50, 1000]))
    assert_one_line_error(run_cli("advise", "--sysroot", root, "--etcd-metrics", str(decreasing)),
                          "buckets decrease")


@pytest.mark.live
async def test_the_advice_screen_reads_a_running_etcd_s_metrics_too(metrics_url: str) -> None:
    """The Advice screen (and a report) judge the same etcd metrics `advise` finds by itself."""
    from diskdoctor.app.tui.advice_screen import AdviceScreen
    from diskdoctor.app.tui.app import DiskDoctorApp
    from diskdoctor.probes.root import live_root

    port = metrics_url.rsplit(":", 1)[1]
    etcd = subprocess.Popen(["bash", "-c", f'exec -a etcd {sys.executable} -c "import time; time.sleep(60)" '
                             f"--listen-metrics-urls=http://127.0.0.1:{port}"])
    try:
        app = DiskDoctorApp(live_root())
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("4")
            for _ in range(300):
                screen = app.screen
                if isinstance(screen, AdviceScreen) and screen.findings:
                    break
                await pilot.pause(0.05)
            assert isinstance(app.screen, AdviceScreen)
            assert "ETCD-COMMIT-P99" in {finding.id for finding in app.screen.findings}
    finally:
        etcd.kill()
        etcd.wait()
