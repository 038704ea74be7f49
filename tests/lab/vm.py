"""The storage lab: boot Debian's kernel in qemu (TCG) on this machine's root, build real stacks, collect."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

LAB_DIR = Path(__file__).resolve().parent
REPO = LAB_DIR.parent.parent
GROUPS = ("ssd", "disks", "4kn")
# Seconds each group's guest gets. Under TCG here, with helpers' tests beside it: ssd 308 s, disks 52 s,
# 4kn 39 s. A guest past these has hung (4kn did once in CI, after two groups had passed), and a second
# boot is cheaper than a failed run.
GROUP_TIMEOUT_S = {"ssd": 900, "disks": 600, "4kn": 600}
BOOT_ATTEMPTS = 2
GUEST_MEMORY_MB = 3072


def cache_dir() -> Path:
    """Where the kernel and initramfs are kept between runs (outside git)."""
    default = Path.home() / ".cache" / "diskdoctor-lab"
    return Path(os.environ.get("DISKDOCTOR_LAB_CACHE", default))


def prepare() -> Path:
    """Install qemu and the storage tools when missing, fetch the kernel, build the initramfs."""
    done = subprocess.run(["bash", str(LAB_DIR / "prepare.sh")], capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise RuntimeError(f"lab prepare failed: {done.stderr.strip()[-2000:]}")
    return Path(done.stdout.strip().splitlines()[-1])


def default_diskdoctor() -> Path:
    """The diskdoctor of the interpreter running this (the test venv), else the repo's .venv."""
    beside = Path(sys.executable).with_name("diskdoctor")
    return beside if beside.exists() else REPO / ".venv" / "bin" / "diskdoctor"


def console_tail(path: Path, lines: int = 25) -> str:
    """The last lines a guest printed, so a hang says where it stopped."""
    text = path.read_bytes()[-8192:].decode("utf-8", "replace")
    return "\n".join(text.splitlines()[-lines:])


def qemu_argv(cache: Path, out: Path) -> list[str]:
    """qemu under TCG (KVM guests hang here after decompression), root shared read-only over 9p."""
    return ["qemu-system-x86_64", "-accel", "tcg", "-m", str(GUEST_MEMORY_MB), "-smp", "2",
            "-nodefaults", "-display", "none", "-serial", "stdio", "-no-reboot",
            "-kernel", str(cache / "vmlinuz"), "-initrd", str(cache / "initrd.img"),
            "-append", "console=ttyS0 panic=-1 quiet",
            "-virtfs", "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap",
            "-virtfs", f"local,path={out},mount_tag=labout,security_model=none"]


def run_group(group: str, out: Path, cache: Path | None = None, diskdoctor: Path | None = None) -> Path:
    """Boot one guest that builds `group`'s stacks; return the folder holding its outputs."""
    if group not in GROUPS:
        raise ValueError(f"unknown lab group {group!r} (known: {', '.join(GROUPS)})")
    cache = cache or prepare()
    diskdoctor = diskdoctor or default_diskdoctor()
    out.mkdir(parents=True, exist_ok=True)
    (out / "job.sh").write_text(
        f"export LAB_CACHE={cache} PATH=/usr/sbin:/usr/bin:/sbin:/bin\n"
        f"/usr/bin/bash {REPO}/tests/lab/guest.sh {REPO} {group} {diskdoctor}\n"
        "echo o > /proc/sysrq-trigger\nsleep 60\n")
    started, limit = time.monotonic(), GROUP_TIMEOUT_S[group]
    for attempt in range(1, BOOT_ATTEMPTS + 1):
        shutil.rmtree(out / group, ignore_errors=True)
        console_path = out / f"{group}-console.log"
        with open(console_path, "wb") as console:
            try:
                subprocess.run(qemu_argv(cache, out), stdin=subprocess.DEVNULL, stdout=console,
                               stderr=subprocess.STDOUT, timeout=limit, check=False)
                break
            except subprocess.TimeoutExpired as exc:
                kept = console_path.with_name(f"{group}-console.attempt{attempt}.log")
                console_path.replace(kept)
                hung = f"lab group {group}: boot {attempt} of {BOOT_ATTEMPTS} ran past {limit} s"
                if attempt == BOOT_ATTEMPTS:
                    raise RuntimeError(f"{hung}; its console ended:\n{console_tail(kept)}") from exc
                print(f"{hung}, booting again; its console ended:\n{console_tail(kept)}", file=sys.stderr)
    (out / group).mkdir(exist_ok=True)
    (out / group / "seconds").write_text(f"{time.monotonic() - started:.1f}\n")
    if not (out / group / "done").exists():
        raise RuntimeError(f"lab group {group} stopped early (console: {out / f'{group}-console.log'})")
    return out / group


def main(argv: list[str]) -> int:
    """`python3 tests/lab/vm.py GROUP... [--out DIR]`: run groups by hand and keep their outputs."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("groups", nargs="*", default=list(GROUPS), help=f"any of {', '.join(GROUPS)}")
    parser.add_argument("--out", type=Path, default=Path("/tmp/diskdoctor-lab"))
    args = parser.parse_args(argv)
    try:
        cache = prepare()
        for group in args.groups:
            folder = run_group(group, args.out.resolve(), cache)
            print(f"{group}: {folder} ({(folder / 'seconds').read_text().strip()} s)")
    except (RuntimeError, ValueError) as exc:
        print(f"lab: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
