"""Build and always tear down real loop devices with real filesystems for live tests."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

MIB = 1 << 20


def sh(*argv: str, stdin: str | None = None) -> str:
    """Run a command, fail loudly with its stderr."""
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {done.stderr.strip()}")
    return done.stdout.strip()


@dataclass
class LoopStack:
    """Loop devices (by role), their mountpoints, and everything to undo."""

    workdir: Path
    devices: dict[str, str] = field(default_factory=dict)
    mountpoints: dict[str, Path] = field(default_factory=dict)
    partitioned: list[str] = field(default_factory=list)

    def kname(self, role: str) -> str:
        """Kernel name (loopN) of a role."""
        return Path(self.devices[role]).name

    def teardown(self) -> None:
        """Unmount, drop partitions, detach loops and remove images, ignoring what is gone."""
        for mountpoint in reversed(list(self.mountpoints.values())):
            subprocess.run(["umount", "-l", str(mountpoint)], capture_output=True, check=False)
        for device in self.partitioned:
            subprocess.run(["partx", "-d", device], capture_output=True, check=False)
        for device in self.devices.values():
            subprocess.run(["losetup", "-d", device], capture_output=True, check=False)
        for image in self.workdir.glob("*.img"):
            image.unlink(missing_ok=True)


def _attach(stack: LoopStack, role: str, size_mib: int) -> str:
    image = stack.workdir / f"{role}.img"
    with open(image, "wb") as handle:
        handle.truncate(size_mib * MIB)
    device = sh("losetup", "--find", "--show", str(image))
    stack.devices[role] = device
    return device


def _mount(stack: LoopStack, role: str, device: str, options: str | None = None) -> None:
    mountpoint = stack.workdir / f"mnt-{role}"
    mountpoint.mkdir()
    sh("mount", *(["-o", options] if options else []), device, str(mountpoint))
    stack.mountpoints[role] = mountpoint


def build_loop_stack(workdir: Path) -> LoopStack:
    """ext4 -o discard, xfs, btrfs compress-force=zstd, ext4 on a loop with discard_max_bytes=0,
    and a GPT-partitioned loop with two partitions."""
    stack = LoopStack(workdir)
    try:
        device = _attach(stack, "ext4-discard", 64)
        sh("mkfs.ext4", "-q", "-F", device)
        _mount(stack, "ext4-discard", device, "discard")
        device = _attach(stack, "xfs", 320)
        sh("mkfs.xfs", "-q", "-f", device)
        _mount(stack, "xfs", device)
        device = _attach(stack, "btrfs", 160)
        sh("mkfs.btrfs", "-q", "-f", device)
        _mount(stack, "btrfs", device, "compress-force=zstd")
        device = _attach(stack, "no-discard", 64)
        sh("mkfs.ext4", "-q", "-F", device)
        Path(f"/sys/block/{Path(device).name}/queue/discard_max_bytes").write_text("0")
        _mount(stack, "no-discard", device)
        device = _attach(stack, "gpt", 64)
        sh("sfdisk", "-q", device, stdin="label: gpt\n,20M\n,20M\n")
        subprocess.run(["partx", "-a", device], capture_output=True, check=False)
        stack.partitioned.append(device)
        sh("mkfs.ext4", "-q", "-F", f"{device}p1")
        _mount(stack, "gpt-p1", f"{device}p1")
    except BaseException:
        stack.teardown()
        raise
    return stack
