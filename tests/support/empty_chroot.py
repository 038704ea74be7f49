"""An empty chroot for the binary smoke test: the binary, fresh /proc, /sys, a tiny /dev and a tmpfs /tmp."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from support.cli_runner import Result

DEV_NODES = {"null": (1, 3), "zero": (1, 5), "full": (1, 7), "random": (1, 8), "urandom": (1, 9)}
TMPFS_SIZE = "size=256m"


def _run(*argv: str) -> None:
    """Run a mount command; a failure raises with its output."""
    subprocess.run(argv, check=True, capture_output=True, text=True)


def mounts_under(path: Path) -> list[str]:
    """Mountpoints at or below `path`, deepest first (from /proc/self/mountinfo)."""
    prefix = str(path)
    points = []
    with open("/proc/self/mountinfo", encoding="utf-8") as info:
        for line in info:
            point = line.split()[4].replace("\\040", " ")
            if point == prefix or point.startswith(prefix + "/"):
                points.append(point)
    return sorted(points, key=len, reverse=True)


@dataclass
class EmptyChroot:
    """A root folder holding only the binary and minimal mounts; fresh mounts, so none leaks host files."""

    root: Path
    binary_name: str = "diskdoctor"
    mounted: list[Path] = field(default_factory=list)

    def setup(self, binary: Path) -> None:
        """Copy the binary in and mount proc, sysfs, a tmpfs /dev with the basic nodes, and a tmpfs /tmp."""
        shutil.copy2(binary, self.root / self.binary_name)
        self.mount("proc", "proc")
        self.mount("sys", "sysfs")
        self.mount("dev", "tmpfs", "mode=755,size=64k")
        for name, (major, minor) in DEV_NODES.items():
            node = self.root / "dev" / name
            os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(major, minor))
            os.chmod(node, 0o666)
        self.mount("tmp", "tmpfs", f"mode=1777,{TMPFS_SIZE}")

    def mount(self, where: str, fstype: str, options: str = "") -> Path:
        """Mount a fresh `fstype` at root/`where` (created if needed)."""
        target = self.root / where
        target.mkdir(parents=True, exist_ok=True)
        _run("mount", "-t", fstype, *(["-o", options] if options else []), fstype, str(target))
        self.mounted.append(target)
        return target

    def unmount(self, target: Path) -> None:
        """Unmount one of our mounts (lazily if it is busy)."""
        done = subprocess.run(["umount", str(target)], capture_output=True, check=False)
        if done.returncode:
            subprocess.run(["umount", "-l", str(target)], capture_output=True, check=False)
        if target in self.mounted:
            self.mounted.remove(target)

    def teardown(self) -> None:
        """Unmount everything under the root, then delete it; never delete while anything is mounted."""
        for target in reversed(list(self.mounted)):
            self.unmount(target)
        for point in mounts_under(self.root):
            self.unmount(Path(point))
        left = mounts_under(self.root)
        if left:
            raise RuntimeError(f"still mounted after teardown: {left}")
        shutil.rmtree(self.root)

    def run(self, *args: str, env: dict[str, str] | None = None, timeout: float = 120) -> Result:
        """Run `/diskdoctor ARGS` chrooted, with an empty environment unless `env` is given."""
        root = str(self.root)

        def enter() -> None:
            os.chroot(root)
            os.chdir("/")

        done = subprocess.run([f"/{self.binary_name}", *args], preexec_fn=enter, env=env or {},
                              capture_output=True, text=True, timeout=timeout, check=False,
                              stdin=subprocess.DEVNULL)
        return Result(done.returncode, done.stdout, done.stderr)
