"""A throwaway filesystem on a real loop device for the bench scripts: image under /var/tmp, always torn down.

With direct I/O the loop driver reads and writes its image with O_DIRECT, so this VM's page cache does not
serve the filesystem's reads twice (a buffered loop device makes evicted files still come from RAM)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
from collections.abc import Iterator

MKFS = {"ext4": ["mkfs.ext4", "-q", "-F"], "xfs": ["mkfs.xfs", "-q", "-f"]}


@contextlib.contextmanager
def loop_fs(fstype: str, size_mib: int, *, direct_io: bool = False, prefix: str = "bench-",
            parent: str = "/var/tmp") -> Iterator[str]:
    """Yield the mountpoint of a fresh `fstype` (ext4 or xfs) on a loop device (its image in `parent`:
    /dev/shm makes a disk whose flushes cost no device time); with `direct_io`, check the kernel took it."""
    workdir = tempfile.mkdtemp(prefix=prefix, dir=parent)
    image, mountpoint = os.path.join(workdir, f"{fstype}.img"), os.path.join(workdir, "mnt")
    with open(image, "wb") as handle:
        handle.truncate(size_mib << 20)
    argv = ["losetup", "--find", "--show"] + (["--direct-io=on"] if direct_io else []) + [image]
    device = subprocess.run(argv, capture_output=True, text=True, check=True).stdout.strip()
    try:
        if direct_io:
            with open(f"/sys/block/{os.path.basename(device)}/loop/dio") as flag:
                dio = flag.read().strip()
            if dio != "1":
                raise SystemExit(f"{device}: the kernel did not turn on direct I/O (loop/dio is {dio})")
        subprocess.run([*MKFS[fstype], device], check=True)
        os.mkdir(mountpoint)
        subprocess.run(["mount", device, mountpoint], check=True)
        print(f"# {fstype} on {device} (image {image}{', direct I/O' if direct_io else ''})", flush=True)
        yield mountpoint
    finally:
        subprocess.run(["umount", mountpoint], capture_output=True, check=False)
        subprocess.run(["losetup", "-d", device], capture_output=True, check=False)
        subprocess.run(["rm", "-rf", workdir], check=False)


def loop_ext4(size_mib: int, *, direct_io: bool = False, prefix: str = "bench-",
              parent: str = "/var/tmp") -> contextlib.AbstractContextManager[str]:
    """A fresh ext4 on a loop device (see loop_fs)."""
    return loop_fs("ext4", size_mib, direct_io=direct_io, prefix=prefix, parent=parent)
