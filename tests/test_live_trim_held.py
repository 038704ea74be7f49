"""Trim now trims what was confirmed: the mount is held open across the prompt and checked before fstrim."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import live_prerequisites
from diskdoctor.probes.fstrim_run import hold_mount, run_fstrim

pytestmark = pytest.mark.live


@pytest.fixture
def own_mount(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A fresh ext4 on its own loop device, mounted under tmp_path (unmounted and detached after)."""
    why = live_prerequisites()
    if why:
        pytest.skip(why)
    image, point = tmp_path / "held.img", tmp_path / "mnt"
    subprocess.run(["truncate", "-s", "64M", str(image)], check=True)
    device = subprocess.run(["losetup", "-f", "--show", str(image)], capture_output=True, text=True,
                            check=True).stdout.strip()
    try:
        subprocess.run(["mkfs.ext4", "-q", device], check=True)
        point.mkdir()
        subprocess.run(["mount", device, str(point)], check=True)
        yield point, device
    finally:
        subprocess.run(["umount", "-l", str(point)], capture_output=True, check=False)
        subprocess.run(["losetup", "-d", device], check=False)


def test_a_mount_gone_after_confirmation_is_not_trimmed(own_mount: tuple[Path, str]) -> None:
    point, _ = own_mount
    held = hold_mount(str(point))
    try:
        subprocess.run(["umount", "-l", str(point)], check=True)  # unmounted while the prompt waits
        result = run_fstrim(str(point), held=held)
    finally:
        held.close()
    assert not result.ok and result.kind == "changed"
    assert "no longer the filesystem you confirmed" in result.message
    assert "nothing was trimmed" in result.message


def test_the_held_mount_is_what_fstrim_trims(own_mount: tuple[Path, str]) -> None:
    point, device = own_mount
    held = hold_mount(str(point))
    try:
        result = run_fstrim(str(point), held=held, watch=(Path(device).name,))
    finally:
        held.close()
    assert result.mountpoint == str(point)
    if Path(f"/sys/block/{Path(device).name}/queue/discard_max_bytes").read_text().strip() == "0":
        assert result.kind == "unsupported", result.message  # a loop this kernel left without discard
    else:
        assert result.ok, result.message
        assert (result.reported_bytes or 0) > 0
