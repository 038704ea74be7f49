"""Build and always tear down real loop devices with real filesystems for live tests."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

MIB = 1 << 20
MAX_LOOP_TRIES = 16


def sh(*argv: str, stdin: str | None = None) -> str:
    """Run a command, fail loudly with its stderr."""
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {done.stderr.strip()}")
    return done.stdout.strip()


def forget_stale_partitions(device: str) -> None:
    """Drop partitions the kernel still lists for a loop device we just attached: a partition busy when an
    earlier user detached the same loop number outlives it, and `partx -a` then fails (or, worse, a new
    table's partition 1 is read at the old one's offset)."""
    subprocess.run(["partx", "-d", device], capture_output=True, check=False)


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


def _discard_max(device: str) -> int:
    return int(Path(f"/sys/block/{Path(device).name}/queue/discard_max_bytes").read_text())


def _free_loops_without_discard() -> list[str]:
    """Detached loops whose discard was switched off earlier: the kernel cannot undo that (with
    discard_granularity at 0 it rejects any non-zero discard_max_bytes until reboot)."""
    found = []
    for queue in sorted(Path("/sys/block").glob("loop*/queue")):
        size = (queue.parent / "size").read_text().strip()
        if size == "0" and (queue / "discard_max_bytes").read_text().strip() == "0":
            found.append(f"/dev/{queue.parent.name}")
    return found


def _switch_discard_off(device: str) -> bool:
    """Write 0 to the loop's discard_max_bytes and say whether the kernel now reports no discard."""
    try:
        Path(f"/sys/block/{Path(device).name}/queue/discard_max_bytes").write_text("0")
    except OSError:
        return False
    return _discard_max(device) == 0


def _has_wanted_discard(device: str, discard: bool) -> bool:
    """Check (and for `discard=False` set) the property after the attach: kernels differ on what a
    reattached loop keeps (6.18 turns discard back on), so nothing is assumed."""
    if discard:
        return _discard_max(device) > 0
    return _discard_max(device) == 0 or _switch_discard_off(device)


def _attach(stack: LoopStack, role: str, size_mib: int, *, discard: bool = True) -> str:
    """Attach a new image on a loop whose discard support is checked after the attach to be `discard`."""
    image = stack.workdir / f"{role}.img"
    with open(image, "wb") as handle:
        handle.truncate(size_mib * MIB)
    spares = []
    try:
        candidates = [] if discard else _free_loops_without_discard()
        for device in candidates:
            if subprocess.run(["losetup", device, str(image)], capture_output=True).returncode != 0:
                continue
            if _has_wanted_discard(device, discard):
                stack.devices[role] = device
                return device
            spares.append(device)
        for _ in range(MAX_LOOP_TRIES):
            device = sh("losetup", "--find", "--show", str(image))
            if _has_wanted_discard(device, discard):
                stack.devices[role] = device
                return device
            spares.append(device)
        wanted = "with" if discard else "without"
        raise RuntimeError(f"no loop device {wanted} discard among {spares}")
    finally:
        for spare in spares:
            subprocess.run(["losetup", "-d", spare], capture_output=True, check=False)


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
        device = _attach(stack, "no-discard", 64, discard=False)
        sh("mkfs.ext4", "-q", "-F", device)
        _mount(stack, "no-discard", device)
        device = _attach(stack, "gpt", 64)
        sh("sfdisk", "-q", device, stdin="label: gpt\n,20M\n,20M\n")
        forget_stale_partitions(device)
        subprocess.run(["partx", "-a", device], capture_output=True, check=False)
        stack.partitioned.append(device)
        sh("mkfs.ext4", "-q", "-F", f"{device}p1")
        _mount(stack, "gpt-p1", f"{device}p1")
    except BaseException:
        stack.teardown()
        raise
    return stack


def build_one_loop(workdir: Path, fstype: str = "ext4", size_mib: int = 128) -> LoopStack:
    """One loop device with one filesystem, mounted (role "data"): the disk a small traced writer syncs to."""
    stack = LoopStack(workdir)
    try:
        device = _attach(stack, "data", size_mib)
        sh(f"mkfs.{fstype}", "-q", "-F" if fstype.startswith("ext") else "-f", device)
        _mount(stack, "data", device)
    except BaseException:
        stack.teardown()
        raise
    return stack
