"""The directory all passive probes read through: live "/" or an extracted capture (like lsblk --sysroot)."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field

from .facts import Fact

COMMAND_TIMEOUT_S = 15.0
CAPTURED_COMMANDS_DIR = "commands"
READ_CHUNK = 65536
MAX_LINK_HOPS = 40


@dataclass(frozen=True, slots=True)
class CommandOutput:
    """Text printed by a read-only command, live or as captured; `text` None means unavailable."""

    text: str | None
    source: str
    why_unknown: str | None = None
    exit_code: int | None = None


def describe_write_error(err: OSError) -> str:
    """A short human reason for an OSError met while writing the user's output."""
    if err.errno == errno.ENOENT:
        return "cannot create files there (missing folder, or a pseudo-filesystem like /proc)"
    if err.errno == errno.EROFS:
        return "read-only filesystem"
    if err.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if err.errno == errno.ENOTDIR:
        return "a path component is a file, not a folder"
    return str(err.strerror or err)


def describe_os_error(err: OSError) -> str:
    """A short human reason for an OSError met while reading a probe file."""
    if isinstance(err, FileNotFoundError):
        return "file missing (this kernel or device does not provide it)"
    if isinstance(err, PermissionError):
        return "permission denied (run as root to read it)"
    if isinstance(err, IsADirectoryError):
        return "is a directory, expected a file"
    if err.errno == errno.ENODEV or err.errno == errno.ENXIO:
        return "device vanished while reading"
    return str(err.strerror or err)


@dataclass
class Root:
    """A host root; `live` means this machine's "/", otherwise a captured tree under `path`."""

    path: str = "/"
    live: bool = True
    recorded: set[tuple[str, str]] | None = field(default=None)
    label: str = ""

    def describe(self) -> str:
        """How to name this root to the user: "this host (/)" or "capture NAME"."""
        if self.label:
            return self.label
        return "this host (/)" if self.live else "capture " + os.path.basename(self.path.rstrip("/"))

    def host_path(self, rel: str) -> str:
        """The path as the user knows it on the host, e.g. /sys/block/sda/size."""
        return "/" + rel.lstrip("/")

    def full(self, rel: str) -> str:
        """The real path of `rel` under this root."""
        return os.path.join(self.path, rel.lstrip("/"))

    def _record(self, kind: str, rel: str) -> None:
        if self.recorded is not None:
            self.recorded.add((kind, rel.lstrip("/")))

    def read_text(self, rel: str) -> tuple[str | None, str | None]:
        """Read a small text file: (text, None) on success, (None, reason) on failure."""
        self._record("file", rel)
        try:
            fd = os.open(self.full(rel), os.O_RDONLY | os.O_CLOEXEC)
        except OSError as err:
            return None, describe_os_error(err)
        try:
            chunks = []
            while True:
                chunk = os.read(fd, READ_CHUNK)
                if not chunk:
                    break
                chunks.append(chunk)
        except OSError as err:
            return None, describe_os_error(err)
        finally:
            os.close(fd)
        return b"".join(chunks).decode("utf-8", "replace"), None

    def read_attr(self, rel: str) -> tuple[str | None, str | None]:
        """Read a one-line sysfs attribute, stripped."""
        text, why = self.read_text(rel)
        return (text.strip() if text is not None else None), why

    def fact_str(self, rel: str, *, empty_means: str | None = None) -> Fact[str]:
        """A string attribute as a Fact; an empty file is unknown when `empty_means` explains it."""
        text, why = self.read_attr(rel)
        if text == "" and empty_means:
            return Fact(None, self.host_path(rel), empty_means)
        return Fact(text, self.host_path(rel), why)

    def fact_int(self, rel: str, scale: int = 1) -> Fact[int]:
        """An integer attribute (multiplied by `scale`) as a Fact."""
        text, why = self.read_attr(rel)
        if text is None:
            return Fact(None, self.host_path(rel), why)
        try:
            return Fact(int(text) * scale, self.host_path(rel))
        except ValueError:
            return Fact(None, self.host_path(rel), f"not a number: {text[:40]!r}")

    def fact_bool(self, rel: str) -> Fact[bool]:
        """A 0/1 attribute as a Fact."""
        number = self.fact_int(rel)
        if number.value is None:
            return Fact(None, number.source, number.why_unknown)
        return Fact(number.value != 0, number.source)

    def listdir(self, rel: str) -> list[str] | None:
        """Names in a directory, sorted; None when it is missing or unreadable."""
        self._record("dir", rel)
        try:
            return sorted(os.listdir(self.full(rel)))
        except OSError:
            return None

    def readlink(self, rel: str) -> str | None:
        """The target of a symlink, or None."""
        self._record("link", rel)
        try:
            return os.readlink(self.full(rel))
        except OSError:
            return None

    def resolve(self, rel: str) -> str:
        """`rel` with every symlink followed inside this root (absolute targets re-rooted), as a rel path.

        Captured systemd links point at absolute paths such as /lib/systemd/system/fstrim.timer;
        following them with the OS would read the live host instead of the capture.
        """
        parts = [p for p in rel.strip("/").split("/") if p]
        done: list[str] = []
        hops = 0
        while parts:
            part = parts.pop(0)
            if part == "..":
                if done:
                    done.pop()
                continue
            if part == ".":
                continue
            candidate = "/".join(done + [part])
            try:
                target = os.readlink(self.full(candidate))
            except OSError:
                done.append(part)
                continue
            hops += 1
            if hops > MAX_LINK_HOPS:
                return candidate
            if target.startswith("/"):
                done = []
            parts = [p for p in target.split("/") if p] + parts
        return "/".join(done)

    def read_text_resolved(self, rel: str) -> tuple[str | None, str | None]:
        """Like read_text, but following symlinks inside this root (see `resolve`)."""
        self._record("link", rel)
        return self.read_text(self.resolve(rel))

    def exists(self, rel: str) -> bool:
        """Whether a path exists (following links inside the root); a capture keeps only an empty stand-in."""
        self._record("exists", rel)
        return os.path.lexists(self.full(self.resolve(rel)))

    def mtime(self, rel: str) -> float | None:
        """A file's modification time (seconds since the epoch), or None when missing."""
        self._record("file", rel)
        try:
            return os.stat(self.full(self.resolve(rel))).st_mtime
        except OSError:
            return None

    def run(self, key: str, argv: list[str]) -> CommandOutput:
        """Run a read-only command live, or read its captured output in a capture."""
        source = "command: " + " ".join(argv)
        if not self.live:
            text, _ = self.read_text(f"{CAPTURED_COMMANDS_DIR}/{key}.txt")
            if text is None:
                return CommandOutput(None, source, "not recorded in this capture")
            return CommandOutput(text, source, None, 0)
        if shutil.which(argv[0]) is None:
            return CommandOutput(None, source, f"{argv[0]} is not installed")
        try:
            done = subprocess.run(
                argv, capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S, env=host_command_env(),
                stdin=subprocess.DEVNULL, errors="replace", check=False,
            )
        except subprocess.TimeoutExpired:
            return CommandOutput(None, source, f"timed out after {COMMAND_TIMEOUT_S:.0f} s")
        except OSError as err:
            return CommandOutput(None, source, describe_os_error(err))
        if done.returncode != 0 and not done.stdout:
            first = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[0]
            return CommandOutput(None, source, first[:160], done.returncode)
        return CommandOutput(done.stdout, source, None, done.returncode)


def host_command_env() -> dict[str, str]:
    """The environment for the host's own commands: C locale, and the user's library path.

    The frozen binary's loader points LD_LIBRARY_PATH at its bundled libraries (saving the user's value
    in LD_LIBRARY_PATH_ORIG); a host command such as lsblk must load the host's libraries instead."""
    env = dict(os.environ, LC_ALL="C", LANG="C")
    if getattr(sys, "frozen", False):
        original = env.pop("LD_LIBRARY_PATH_ORIG", None)
        if original is None:
            env.pop("LD_LIBRARY_PATH", None)
        else:
            env["LD_LIBRARY_PATH"] = original
    return env


def live_root(record: bool = False) -> Root:
    """This machine's root, optionally recording every path read (used by capture)."""
    return Root("/", live=True, recorded=set() if record else None)
