"""The TRIM doctor on real loop devices: discard modes the kernel reports, and a real "trim now"."""

from __future__ import annotations

import json

import pytest
from support.cli_runner import assert_one_line_error, run_cli
from support.loop_stack import LoopStack

pytestmark = pytest.mark.live
NOBODY = 65534


def live_verdicts(loop_stack: LoopStack) -> dict[str, dict]:
    result = run_cli("trim", "--json")
    assert result.code in (0, 1), result.err
    by_point = {fs["mountpoint"]: fs for fs in json.loads(result.out)["filesystems"]}
    return {role: by_point[str(point)] for role, point in loop_stack.mountpoints.items()
            if str(point) in by_point}


def test_continuous_discard_on_ext4_is_ok_but_flagged(loop_stack: LoopStack) -> None:
    ext4 = live_verdicts(loop_stack)["ext4-discard"]
    assert ext4["verdict"] == "ok" and ext4["discard_mode"] == "continuous"
    assert ext4["layers"][0]["kname"] == loop_stack.kname("ext4-discard")
    assert ext4["layers"][0]["discard_max_bytes"] > 0
    assert "DISCARD-ONLINE" in [p["id"] for p in ext4["problems"]]


def test_xfs_without_discard_needs_a_schedule(loop_stack: LoopStack) -> None:
    xfs = live_verdicts(loop_stack)["xfs"]
    assert xfs["discard_mode"] == "off"
    ids = [p["id"] for p in xfs["problems"]]
    if xfs["schedule"]["kind"] == "none":
        assert xfs["verdict"] == "unscheduled"
        assert {"TRIM-NO-SCHEDULE", "TRIM-FSTAB-ONLY"} & set(ids)
    else:
        assert xfs["verdict"] == "ok"


def test_btrfs_turns_async_discard_on_by_itself(loop_stack: LoopStack) -> None:
    btrfs = live_verdicts(loop_stack)["btrfs"]
    assert btrfs["discard_mode"] == "async" and btrfs["discard_mode_automatic"] is True
    assert btrfs["verdict"] == "ok"
    assert "BTRFS-ASYNC-DEFAULT" in [p["id"] for p in btrfs["problems"]]


def test_device_without_discard_is_unsupported(loop_stack: LoopStack) -> None:
    no_discard = live_verdicts(loop_stack)["no-discard"]
    assert no_discard["verdict"] == "unsupported"
    assert no_discard["blocked_at"] is None
    assert "does not accept discard" in no_discard["summary"]


def test_trim_now_runs_fstrim_for_real(loop_stack: LoopStack) -> None:
    result = run_cli("trim", "--run", str(loop_stack.mountpoints["xfs"]), "--yes")
    assert result.code == 0, result.err
    assert "fstrim reported" in result.out and "bytes) in" in result.out
    disk = loop_stack.kname("xfs")
    assert f"{disk} completed " in result.out and f"(/sys/block/{disk}/stat)" in result.out
    assert "not what the device discarded" in result.out


def test_trim_now_on_a_device_without_discard_says_so(loop_stack: LoopStack) -> None:
    result = run_cli("trim", "--run", str(loop_stack.mountpoints["no-discard"]), "--yes")
    assert_one_line_error(result, "does not accept discard")


def test_trim_now_as_non_root_says_it_needs_root(loop_stack: LoopStack) -> None:
    result = run_cli("trim", "--run", str(loop_stack.mountpoints["xfs"]), "--yes", user=NOBODY)
    assert_one_line_error(result, "needs root")


def test_capture_replays_the_same_trim_verdicts(loop_stack: LoopStack, tmp_path) -> None:  # type: ignore[no-untyped-def]
    bundle = tmp_path / "bundle.tar.gz"
    assert run_cli("capture", "-o", str(bundle)).code == 0
    live = json.loads(run_cli("trim", "--json").out)
    replay = json.loads(run_cli("--sysroot", str(bundle), "trim", "--json").out)

    def essence(document: dict) -> list[tuple]:
        return [(fs["mountpoint"], fs["verdict"], fs["discard_mode"], fs["schedule"]["kind"],
                 [p["id"] for p in fs["problems"]]) for fs in document["filesystems"]]

    assert essence(replay) == essence(live)
    assert replay["timer"] == live["timer"]
