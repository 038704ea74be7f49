"""Captures made by the storage lab on a real 6.1 kernel (tests/fixtures/lab-*), replayed in the normal
suite: verdicts must match what fstrim and the discard counters showed there (lab-truth.json), and the
device tree must match the lsblk output captured beside them."""

from __future__ import annotations

import json

import pytest
from conftest import FIXTURES
from diskdoctor.app.core.stack.devices_json import devices_document
from diskdoctor.app.core.trim.doctor import TrimVerdict, diagnose
from diskdoctor.probes.host import read_host
from diskdoctor.probes.root import Root
from diskdoctor.probes.trim_facts import read_trim_facts

LAB_FIXTURES = ("lab-ssd", "lab-disks", "lab-4kn")
REACHES = ("ok", "unscheduled")


def lab_verdicts(name: str) -> dict[str, TrimVerdict]:
    """The TRIM doctor's verdicts on a lab capture, by mountpoint."""
    root = Root(str(FIXTURES / name), live=False)
    host = read_host(root)
    return {v.mountpoint: v for v in diagnose(host, read_trim_facts(root, host))}


def truth(name: str) -> dict:  # type: ignore[type-arg]
    """What the kernel did in the lab guest when this capture was made."""
    return json.loads((FIXTURES / name / "lab-truth.json").read_text())


def flatten(nodes: list[dict], parent: str | None, out: dict) -> dict:  # type: ignore[type-arg]
    """kname -> (name, type, size, parents) over a forest; lsblk and diskdoctor name keys differently."""
    for node in nodes:
        size = node.get("size_bytes", node.get("size"))
        entry = out.setdefault(node["kname"], (node["name"], node["type"], size, set()))
        if parent:
            entry[3].add(parent)
        flatten(node.get("children", []), node["kname"], out)
    return out


@pytest.mark.parametrize("name", LAB_FIXTURES)
def test_every_verdict_matches_what_the_kernel_did(name: str) -> None:
    verdicts, mounts = lab_verdicts(name), truth(name)["mounts"]
    assert set(verdicts) == set(mounts)
    for mountpoint, kernel in mounts.items():
        verdict = verdicts[mountpoint]
        assert (verdict.verdict in REACHES) == kernel["reached_disks"], (mountpoint, verdict.summary, kernel)
        if kernel["fstrim_rc"] != 0:
            assert verdict.verdict in ("blocked", "unsupported"), (mountpoint, verdict.summary)


@pytest.mark.parametrize("name", LAB_FIXTURES)
def test_device_tree_matches_the_captured_lsblk(name: str) -> None:
    lsblk = json.loads((FIXTURES / name / "commands/lsblk.txt").read_text())["blockdevices"]
    ours = devices_document(read_host(Root(str(FIXTURES / name), live=False)))["devices"]
    assert flatten(ours, None, {}) == flatten(lsblk, None, {})


def test_real_thin_pools_in_each_discard_mode() -> None:
    verdicts, kernel = lab_verdicts("lab-ssd"), truth("lab-ssd")
    nopass, ignore, passdown = (verdicts[f"/lab/thin_{m}"] for m in ("nopassdown", "ignore", "passdown"))
    assert kernel["mounts"]["/lab/thin_nopassdown"]["trimmed_bytes"] > 0
    assert nopass.verdict == "blocked" and nopass.blocked_at == "vg0/pool_nopassdown"
    assert [f.id for f in nopass.findings if f.id.startswith("TRIM-THIN")] == ["TRIM-THIN-NOPASSDOWN"]
    assert ignore.verdict == "blocked" and ignore.blocked_at == "vg0/pool_ignore"
    assert [f.id for f in ignore.findings if f.id.startswith("TRIM-THIN")] == ["TRIM-THIN-IGNORE"]
    fix = next(f for f in ignore.findings if f.id == "TRIM-THIN-IGNORE").fix
    assert fix[1:] == ("lvchange -an vg0/thin_ignore", "lvchange -an vg0/pool_ignore",
                       "lvchange --discards passdown vg0/pool_ignore", "lvchange -ay vg0/thin_ignore")
    assert passdown.verdict in REACHES
    for mountpoint in ("/lab/data", "/lab/span", "/lab/luks2on", "/lab/luks2off", "/lab/slow"):
        assert not any(f.id.startswith("TRIM-THIN") for f in verdicts[mountpoint].findings), mountpoint
    assert verdicts["/lab/luks2off"].blocked_at == "luks2off"


def test_real_4kn_and_no_discard_disks() -> None:
    assert lab_verdicts("lab-disks")["/lab/nodiscard"].verdict == "unsupported"
    host = read_host(Root(str(FIXTURES / "lab-4kn"), live=False))
    disk = next(d for d in host.devices.values() if d.kind == "disk")
    assert disk.discard_granularity.value == 4096
