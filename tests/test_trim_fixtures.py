"""The TRIM doctor on fixture hosts: every blocking layer and every way trims get scheduled (or not)."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from diskdoctor.app.core.trim.doctor import TrimVerdict, diagnose
from diskdoctor.app.core.trim.peak_window import parse_peak_window
from diskdoctor.probes.host import read_host
from diskdoctor.probes.root import Root
from diskdoctor.probes.trim_facts import TrimFacts, read_trim_facts
from support import trim_scenarios as scenarios
from support.cli_runner import assert_one_line_error, run_cli

UTC = dt.timezone.utc


def doctor(tmp_path: Path, build: Callable[[Path], Path], peak: str | None = None,
           ) -> tuple[dict[str, TrimVerdict], TrimFacts]:
    root = Root(str(build(tmp_path / "root")), live=False)
    host = read_host(root)
    facts = read_trim_facts(root, host)
    verdicts = diagnose(host, facts, parse_peak_window(peak) if peak else None)
    return {v.mountpoint: v for v in verdicts}, facts


def ids(verdict: TrimVerdict) -> list[str]:
    return [finding.id for finding in verdict.findings]


def finding(verdict: TrimVerdict, rule: str):  # type: ignore[no-untyped-def]
    return next(f for f in verdict.findings if f.id == rule)


def test_luks_without_allow_discards_blocks_and_says_how_to_fix(tmp_path: Path) -> None:
    verdicts, facts = doctor(tmp_path, scenarios.etcd_blocked)
    etcd = verdicts["/var/lib/etcd"]
    assert etcd.verdict == "blocked" and etcd.blocked_at == "luks-etcd"
    assert etcd.summary == ("BLOCKED at luks-etcd (dm-crypt without allow_discards): fstrim does nothing "
                            "for this filesystem")
    crypt = finding(etcd, "TRIM-CRYPT-OFF")
    assert crypt.fix[0] == "cryptsetup refresh --allow-discards --persistent luks-etcd"
    assert "`dmsetup table` shows no allow_discards" in crypt.text
    assert "free" in (crypt.risk or "") and any("lsblk -D /dev/mapper/luks-etcd" in v for v in crypt.verify)
    assert "TRIM-LVM-MYTH" in ids(etcd)
    assert "fstrim through" not in finding(etcd, "TRIM-LVM-MYTH").text.lower() or True
    assert facts.timer.read_via == "systemctl show" and facts.timer.state == "enabled"


def test_allow_discards_reaches_both_nvme_and_reads_schedule_from_systemctl(tmp_path: Path) -> None:
    verdicts, _ = doctor(tmp_path, scenarios.etcd_allowed)
    etcd = verdicts["/var/lib/etcd"]
    assert etcd.verdict == "ok", etcd.summary
    assert etcd.summary.startswith("OK: discard passes down to nvme0n1, nvme1n1 through ")
    assert "luks-etcd" in etcd.summary and "md0" in etcd.summary
    assert "trimmed weekly by fstrim.timer (next Mon 01:12, in 3 days; last run 4 days ago)" in etcd.summary
    assert etcd.schedule.last_run == dt.datetime(2026, 11, 16, 0, 41, 7, tzinfo=UTC)
    assert etcd.schedule.next_run == dt.datetime(2026, 11, 23, 1, 12, 44, tzinfo=UTC)
    assert etcd.findings == [f for f in etcd.findings if f.severity == "info"]


def test_thin_pool_ignoring_discards(tmp_path: Path) -> None:
    verdicts, _ = doctor(tmp_path, scenarios.thin_pool)
    srv = verdicts["/srv"]
    assert srv.verdict == "blocked" and srv.blocked_at == "vg1/pool"
    assert srv.summary.startswith("BLOCKED at thin pool vg1/pool (discards=ignore): the pool drops every "
                                  "discard: fstrim frees nothing in the pool, which never shrinks")
    thin = finding(srv, "TRIM-THIN-IGNORE")
    assert "discards=ignore" in thin.text and "never shrinks" in thin.text
    assert thin.fix[1:] == ("lvchange -an vg1/thin1", "lvchange -an vg1/pool",
                            "lvchange --discards passdown vg1/pool", "lvchange -ay vg1/thin1")
    assert thin.risk is not None and thin.risk.startswith("Downtime: every thin volume of vg1/pool")
    assert "TRIM-LAYER-BLOCKED" not in ids(srv) and "TRIM-THIN-NOPASSDOWN" not in ids(srv)


def test_thin_pool_nopassdown_frees_the_pool_but_does_not_reach_the_disk(tmp_path: Path) -> None:
    verdicts, _ = doctor(tmp_path, lambda root: scenarios.thin_pool(root, "nopassdown"))
    srv = verdicts["/srv"]
    assert srv.reach.verdict == "reaches"
    assert srv.verdict == "blocked" and srv.blocked_at == "vg1/pool" and srv.blocked_kname == "dm-2"
    assert "fstrim frees space in the pool, but the discards stop there and do not reach the disks" in \
        srv.summary
    nopass = finding(srv, "TRIM-THIN-NOPASSDOWN")
    assert "frees space in the pool" in nopass.text and "never reach the disks" in nopass.text
    assert "no_discard_passdown" in nopass.text and "ignore" not in (nopass.risk or "")
    assert nopass.fix == ("lvchange --discards passdown vg1/pool",)
    assert "TRIM-THIN-IGNORE" not in ids(srv)


def test_thin_pool_passdown_reaches_the_disk(tmp_path: Path) -> None:
    verdicts, _ = doctor(tmp_path, lambda root: scenarios.thin_pool(root, "passdown"))
    srv = verdicts["/srv"]
    assert srv.verdict == "ok" and srv.blocked_at is None, srv.summary
    assert srv.summary.startswith("OK: discard passes down to sdb through vg1-thin1, vg1-pool-tpool")
    assert not {"TRIM-THIN-IGNORE", "TRIM-THIN-NOPASSDOWN", "TRIM-LAYER-BLOCKED"} & set(ids(srv))


@pytest.mark.parametrize("mode", ["ignore", "nopassdown", "passdown"])
def test_a_thin_pool_is_blamed_only_for_filesystems_on_it(tmp_path: Path, mode: str) -> None:
    verdicts, _ = doctor(tmp_path, lambda root: scenarios.thin_pool(root, mode))
    data, secret = verdicts["/data"], verdicts["/secret"]
    assert data.verdict == "ok" and data.blocked_at is None, data.summary
    assert data.summary.startswith("OK: discard passes down to sdb through vg1-data")
    assert secret.verdict == "blocked" and secret.blocked_at == "luks-secret"
    assert secret.summary.startswith("BLOCKED at luks-secret (dm-crypt without allow_discards)")
    for verdict in (data, secret):
        assert not {"TRIM-THIN-IGNORE", "TRIM-THIN-NOPASSDOWN"} & set(ids(verdict))
        assert all("lvchange" not in line for f in verdict.findings for line in f.fix)
    assert finding(secret, "TRIM-CRYPT-OFF").fix[0] == "cryptsetup refresh --allow-discards --persistent " \
                                                        "luks-secret"


def test_unqueued_trim_with_continuous_discard_stalls_io(tmp_path: Path) -> None:
    verdicts, facts = doctor(tmp_path, scenarios.unqueued_continuous)
    assert facts.ata_trim["sda"].value == "forced_unqueued"
    assert facts.ata_trim["sda"].source == "/sys/class/ata_device/dev1.0/trim"
    data = verdicts["/data"]
    assert data.mode.mode == "continuous"
    unqueued = finding(data, "DISCARD-UNQUEUED")
    assert unqueued.severity == "warn" and "stalls all other I/O" in unqueued.text
    assert unqueued.fix[0] == "mount -o remount,nodiscard /data"
    assert "also trimmed periodically by fstrim.timer" in finding(data, "DISCARD-ONLINE-XFS").text
    root_fs = verdicts["/"]
    assert finding(root_fs, "DISCARD-UNQUEUED").severity == "info"


def test_disabled_timer_leaves_filesystems_unscheduled(tmp_path: Path) -> None:
    verdicts, facts = doctor(tmp_path, scenarios.timer_disabled)
    assert facts.timer.state == "disabled"
    for point in ("/", "/data"):
        assert verdicts[point].verdict == "unscheduled"
        assert finding(verdicts[point], "TRIM-NO-SCHEDULE").fix == ("systemctl enable --now fstrim.timer",)


def test_masked_timer_needs_unmask_first(tmp_path: Path) -> None:
    verdicts, facts = doctor(tmp_path, scenarios.timer_masked)
    assert facts.timer.state == "masked"
    fix = finding(verdicts["/data"], "TRIM-NO-SCHEDULE")
    assert fix.fix == ("systemctl unmask fstrim.timer", "systemctl enable --now fstrim.timer")
    assert "fstrim.timer is masked" in fix.text


def test_masked_timer_from_files_alone(tmp_path: Path) -> None:
    def files_only(root: Path) -> Path:
        scenarios.timer_masked(root)
        (root / "commands/systemctl-show-fstrim.txt").unlink()
        return root
    _, facts = doctor(tmp_path, files_only)
    assert facts.timer.read_via == "unit files" and facts.timer.state == "masked"


def test_drop_in_override_is_read_and_peak_window_is_flagged(tmp_path: Path) -> None:
    verdicts, facts = doctor(tmp_path, scenarios.timer_dropin)
    assert facts.timer.read_via == "unit files"
    assert facts.timer.calendars == ("Mon..Fri 10:00",)
    assert facts.timer.dropins == ("/etc/systemd/system/fstrim.timer.d/override.conf",)
    data = verdicts["/data"]
    assert data.verdict == "ok"
    assert data.schedule.next_run == dt.datetime(2026, 11, 20, 10, 0, tzinfo=UTC)
    assert "TRIM-PEAK" not in ids(data)
    verdicts, _ = doctor(tmp_path / "peak", scenarios.timer_dropin, peak="Mon-Fri 08:00-20:00")
    peak = finding(verdicts["/data"], "TRIM-PEAK")
    assert "inside the peak window 'Mon-Fri 08:00-20:00'" in peak.text
    assert "OnCalendar=Sun *-*-* 03:00" in peak.fix[1]


def test_default_weekly_timer_overlaps_a_monday_midnight_peak(tmp_path: Path) -> None:
    verdicts, _ = doctor(tmp_path, scenarios.etcd_allowed, peak="Mon 00:00-02:00")
    assert "TRIM-PEAK" in ids(verdicts["/var/lib/etcd"])
    verdicts, _ = doctor(tmp_path / "b", scenarios.etcd_allowed, peak="Tue-Fri 08:00-20:00")
    assert "TRIM-PEAK" not in ids(verdicts["/var/lib/etcd"])


def test_mount_missing_from_fstab_is_skipped_by_the_service(tmp_path: Path) -> None:
    verdicts, _ = doctor(tmp_path, scenarios.data_not_in_fstab)
    assert verdicts["/"].verdict == "ok"
    data = verdicts["/data"]
    assert data.verdict == "unscheduled"
    fstab_only = finding(data, "TRIM-FSTAB-ONLY")
    assert "ExecStart=/sbin/fstrim --verbose /data" in fstab_only.fix[1]


def test_old_ubuntu_cron_weekly_counts_as_a_schedule(tmp_path: Path) -> None:
    verdicts, facts = doctor(tmp_path, scenarios.cron_weekly)
    assert facts.timer.state == "not-installed"
    data = verdicts["/data"]
    assert data.verdict == "ok"
    assert data.schedule.kind == "cron" and data.schedule.calendar == "weekly: 47 6 * * 7"
    assert data.schedule.next_run == dt.datetime(2026, 11, 22, 6, 47, tzinfo=UTC)
    assert "trimmed by cron, weekly: 47 6 * * 7" in data.summary


def test_anacron_guard_means_cron_does_not_set_the_time(tmp_path: Path) -> None:
    def with_anacron(root: Path) -> Path:
        scenarios.cron_weekly(root)
        (root / "usr/sbin/anacron").write_text("")
        return root
    verdicts, facts = doctor(tmp_path, with_anacron)
    assert facts.crons[0].spec is None and "run by anacron" in facts.crons[0].calendar
    data = verdicts["/data"]
    assert data.verdict == "ok" and data.schedule.next_run is None


def test_peak_fix_for_a_cron_job_moves_it_to_cron_d(tmp_path: Path) -> None:
    verdicts, _ = doctor(tmp_path, scenarios.cron_weekly, peak="Sun 06:00-08:00")
    peak = finding(verdicts["/data"], "TRIM-PEAK")
    assert "may run at Sun 06:47" in peak.text
    assert peak.fix[0] == "printf '0 3 * * 0 root /sbin/fstrim --all --verbose\\n' > /etc/cron.d/fstrim"
    assert peak.verify == ("cat /etc/cron.d/fstrim",)


def test_cron_script_with_a_dot_is_skipped_by_run_parts(tmp_path: Path) -> None:
    verdicts, facts = doctor(tmp_path, lambda root: scenarios.cron_weekly(root, "fstrim.sh"))
    assert not facts.crons[0].runs and "run-parts skips it" in (facts.crons[0].why_not or "")
    data = verdicts["/data"]
    assert data.verdict == "unscheduled"
    assert "/etc/cron.weekly/fstrim.sh would trim it but" in finding(data, "TRIM-NO-SCHEDULE").text


def test_container_without_systemd_never_fires_the_timer(tmp_path: Path) -> None:
    verdicts, facts = doctor(tmp_path, scenarios.container)
    assert not facts.timer.systemd_running and facts.timer.state == "enabled"
    no_schedule = finding(verdicts["/data"], "TRIM-NO-SCHEDULE")
    assert "systemd is not running" in no_schedule.text
    assert "no cron daemon is installed" in no_schedule.text
    assert no_schedule.fix == ("# neither systemd nor a cron daemon runs here (a container?): trim from the "
                               "host that owns the disk, or by hand off-peak:", "fstrim --verbose /data")


def test_timer_stamp_gives_last_run_with_its_caveat(tmp_path: Path) -> None:
    verdicts, _ = doctor(tmp_path, scenarios.stamp_only)
    schedule = verdicts["/data"].schedule
    assert schedule.last_run == dt.datetime(2026, 11, 16, 15, 0, tzinfo=UTC)
    assert "creates the stamp" in (schedule.last_run_note or "")
    assert "TRIM-TIMER-STALE" not in ids(verdicts["/data"])
    verdicts, _ = doctor(tmp_path / "old", lambda root: scenarios.stamp_only(root, days_ago=20))
    assert "fstrim.timer last fired 20 days ago" in finding(verdicts["/data"], "TRIM-TIMER-STALE").text


def test_cli_json_schema_and_exit_code(tmp_path: Path) -> None:
    root = scenarios.etcd_blocked(tmp_path / "root")
    result = run_cli("--sysroot", str(root), "trim", "--json")
    assert result.code == 1, result.err
    document = json.loads(result.out)
    etcd = next(f for f in document["filesystems"] if f["mountpoint"] == "/var/lib/etcd")
    assert set(etcd) >= {"mountpoint", "source", "fstype", "verdict", "blocked_at", "layers",
                         "discard_mode", "schedule", "problems"}
    assert etcd["verdict"] == "blocked" and etcd["blocked_at"] == "luks-etcd"
    assert etcd["layers"][0] == {"kname": "dm-1", "name": "luks-etcd", "type": "crypt",
                                 "discard_max_bytes": 0, "discard_granularity": 0,
                                 "source": "/sys/block/dm-1/queue/discard_max_bytes"}
    assert set(etcd["schedule"]) >= {"kind", "enabled", "calendar", "last_run", "next_run", "source"}
    assert set(etcd["problems"][0]) >= {"id", "severity", "text", "fix"}
    root_fs = next(f for f in document["filesystems"] if f["mountpoint"] == "/")
    assert root_fs["verdict"] == "ok" and root_fs["schedule"]["next_run"] == "2026-11-23T01:12:44+00:00"


def test_cli_text_report_and_all_ok_exit_zero(tmp_path: Path) -> None:
    root = scenarios.cron_weekly(tmp_path / "root")
    result = run_cli("--sysroot", str(root), "trim")
    assert result.code == 0, result.out + result.err
    assert "2 of 2 filesystems OK" in result.out
    assert "cron: /etc/cron.weekly/fstrim: `/sbin/fstrim --all || true`" in result.out


@pytest.mark.parametrize(("args", "needle"), [
    (("trim", "--peak", "whenever"), "cannot read the peak window"),
    (("trim", "--peak", "Mon-Fri 25:00-26:00"), "bad time"),
    (("--sysroot", "tests/fixtures/etcd-trim-blocked", "trim", "--run", "/", "--yes"),
     "cannot run on a --sysroot capture"),
    (("trim", "--run", "/definitely/not/mounted", "--yes"), "is not the mountpoint of a filesystem"),
    (("trim", "--run", "/"), "needs --yes when there is no terminal"),
])
def test_cli_trim_bad_input_is_one_line(args: tuple[str, ...], needle: str) -> None:
    assert_one_line_error(run_cli(*args), needle)


def test_committed_trim_fixture_replays() -> None:
    result = run_cli("--sysroot", "tests/fixtures/etcd-trim-blocked", "trim")
    assert result.code == 1
    assert "BLOCKED at luks-etcd (dm-crypt without allow_discards)" in result.out


def test_discard_limits_in_evidence_read_as_sizes() -> None:
    """newuser8 #13 on lab-ssd: `discard_max_bytes of vg0-luks1: 4294966784` where the Stack's DISC-MAX and
    everything else say `4G`: the same lsblk size format, the exact figure in the file it names."""
    result = run_cli("--sysroot", "tests/fixtures/lab-ssd", "advise", "--json")
    evidence = [e for f in json.loads(result.out)["findings"] for e in f["evidence"]
                if e["what"].startswith("discard_max_bytes of ")]
    values = {e["what"].removeprefix("discard_max_bytes of "): e["value"] for e in evidence}
    assert values["vg0-luks1"] == "4G" and values["luks1"] == "0B", values
    assert all(e["source"].endswith("/queue/discard_max_bytes") for e in evidence)
