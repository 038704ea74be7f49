"""The directory all passive probes read through: live "/" or an extracted capture (like lsblk --sysroot)."""

from __future__ import annotations

import errno
import itertools
import os
import stat
import sys
from collections import deque
from dataclasses import dataclass, field

from .facts import Fact
from .host_text import shown, visible

COMMAND_TIMEOUT_S = 15.0
CAPTURED_COMMANDS_DIR = "commands"
READ_CHUNK = 65536
MAX_LINK_HOPS = 40
MAX_FILE_BYTES = 16 * 1024 * 1024
"""No file a probe reads reaches this: /proc/self/mountinfo with 10,000 mounts is about 3 MiB."""
MAX_ATTR_BYTES = 64 * 1024
"""A sysfs attribute is at most one page (4 KiB); 64 KiB leaves room and stops a planted giant."""
MAX_DIR_ENTRIES = 100_000
"""More than any real /sys/class/block; bounds the cost of a capture's planted million files."""
_READ_FLAGS = os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK


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


FILE_MISSING = "file missing (this kernel or device does not provide it)"
"""The reason a probe file that does not exist is unknown."""


def describe_os_error(err: OSError) -> str:
    """A short human reason for an OSError met while reading a probe file."""
    if isinstance(err, FileNotFoundError):
        return FILE_MISSING
    if isinstance(err, PermissionError):
        return "permission denied (run as root to read it)"
    if isinstance(err, IsADirectoryError):
        return "is a directory, expected a file"
    if err.errno == errno.ENODEV or err.errno == errno.ENXIO:
        return "device vanished while reading"
    return str(err.strerror or err)


class _Escape(Exception):
    """A path in a capture that cannot be read safely; the message is the reason shown to the user."""


_NOT_CACHED = object()
_SPECIAL_NAMES = ("", ".", "..")
"""Last components that the fast paths leave to the general walk."""


@dataclass
class Root:
    """A host root; `live` means this machine's "/", otherwise a captured tree under `path`.

    A capture is untrusted: every path is resolved component by component inside it (a link is
    followed as if the capture were "/", like openat2's RESOLVE_IN_ROOT, and one climbing above it is
    refused), only regular files are opened, and each read is bounded, so a hostile bundle can neither
    show this machine's files as the customer's nor hang or exhaust the reader."""

    path: str = "/"
    live: bool = True
    recorded: set[tuple[str, str]] | None = field(default=None)
    label: str = ""
    _links: dict[str, object] = field(default_factory=dict, repr=False, compare=False)
    _dirs: dict[str, tuple[str, ...] | _Escape] = field(default_factory=dict, repr=False, compare=False)
    _dir_paths: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    _started: dict[str, object] = field(default_factory=dict, repr=False, compare=False)

    def describe(self) -> str:
        """How to name this root to the user: "this host (/)" or "capture NAME"."""
        if self.label:
            return visible(self.label)
        return "this host (/)" if self.live else "capture " + visible(os.path.basename(self.path.rstrip("/")))

    def host_path(self, rel: str) -> str:
        """The path as the user knows it on the host, e.g. /sys/block/sda/size."""
        return "/" + rel.lstrip("/")

    def full(self, rel: str) -> str:
        """The real path of `rel` under this root (lexical: use `_confined` before touching it)."""
        base = self.path
        if not base:
            return rel.lstrip("/")
        return (base if base.endswith("/") else base + "/") + rel.lstrip("/")  # os.path.join's answer

    def _record(self, kind: str, rel: str) -> None:
        if self.recorded is not None:
            self.recorded.add((kind, rel.lstrip("/")))

    def _link_target(self, rel: str, cache: bool) -> str | None:
        """The target of `rel` when it is a symlink (None otherwise); directory answers are memoised, and
        so are the folders a listing showed to be no link."""
        known = self._links.get(rel, _NOT_CACHED)
        if known is not _NOT_CACHED:
            return known  # type: ignore[return-value]
        try:
            target: str | None = os.readlink(self.full(rel))
        except OSError:
            target = None
        if cache:
            self._links[rel] = target
        return target

    def _walk(self, rel: str, follow_last: bool) -> str:
        """`rel` with its links followed inside this root; raises _Escape when it would leave it.

        The folder part is resolved once per folder (a device's 30 attributes share it)."""
        head, _, last = rel.strip("/").rpartition("/")
        done = self._resolved_dir(head)
        if not follow_last and last not in _SPECIAL_NAMES:
            return "/".join((*done, last))
        return "/".join(self._follow(list(done), deque([last] if last else []), follow_last))

    def _resolved_dir(self, head: str) -> tuple[str, ...]:
        """The link-free components of folder `head`; each folder on the way is resolved once (from
        its parent's answer, with one readlink of its own), not re-walked from the root for every file."""
        known = self._dirs.get(head)
        if known is None:
            known = self._plain_subfolder(head)
        if known is None:
            known = self._resolve_new_dir(head)
        if isinstance(known, _Escape):
            raise known
        return known

    def _plain_subfolder(self, head: str) -> tuple[str, ...] | None:
        """`head` resolved at once when its parent is resolved and a listing showed it is no link (a
        device's queue/, holders/, slaves/); None leaves it to the general walk."""
        parent, _, last = head.rpartition("/")
        above = self._dirs.get(parent) if parent else None
        if above is None or isinstance(above, _Escape) or last in _SPECIAL_NAMES:
            return None
        done = (*above, last)
        if self._links.get("/".join(done), _NOT_CACHED) is not None:
            return None
        self._dirs[head] = done
        return done

    def _resolve_new_dir(self, head: str) -> tuple[str, ...] | _Escape:
        parts = head.split("/") if head else []
        cut = len(parts)
        while cut and "/".join(parts[:cut]) not in self._dirs:
            cut -= 1
        done: tuple[str, ...] | _Escape = self._dirs["/".join(parts[:cut])] if cut else ()
        for index in range(cut, len(parts)):
            if not isinstance(done, _Escape):
                try:
                    done = tuple(self._follow(list(done), deque([parts[index]]), True, cache_last=True))
                except _Escape as err:
                    done = err
            self._dirs["/".join(parts[:index + 1])] = done
        return done

    def _real_dir(self, head: str) -> str:
        """The real path of `head` (a folder, or any path whose last link is followed) under a captured
        root, resolved inside it once."""
        known = self._dir_paths.get(head)
        if known is None:
            known = self._dir_paths[head] = self.full("/".join(self._resolved_dir(head)))
        return known

    def _follow(self, done: list[str], parts: deque[str], follow_last: bool,
                cache_last: bool = False) -> list[str]:
        """Append `parts` to the link-free path `done`, following links inside this root (the answer for
        the last part is memoised too when `cache_last`: it is a folder)."""
        hops = 0
        while parts:
            part = parts.popleft()
            if part in ("", "."):
                continue
            if part == "..":
                if not done:
                    if self.live:
                        continue
                    raise _Escape("a link in the capture points outside it (not followed)")
                done.pop()
                continue
            done.append(part)
            if not parts and not follow_last:
                break
            target = self._link_target("/".join(done), cache=bool(parts) or cache_last)
            if target is None:
                continue
            hops += 1
            if hops > MAX_LINK_HOPS:
                raise _Escape(f"more than {MAX_LINK_HOPS} links in a row (a link loop)")
            done.pop()
            if target.startswith("/"):
                done = []
            parts.extendleft(reversed(target.split("/")))
        return done

    def _confined(self, rel: str, follow_last: bool = True) -> str:
        """The real path to open for `rel`: itself on the live host, resolved inside a capture."""
        if self.live:
            return self.full(rel)
        if follow_last:
            return self._real_dir(rel.strip("/"))  # a folder listed or a mode asked for: resolved once
        return self.full(self._walk(rel, follow_last))

    def _open(self, rel: str) -> int:
        """A read-only descriptor for `rel`; in a capture the last component is opened without
        following it, and only when it is a link (ELOOP) is that link resolved inside the capture."""
        if self.live:
            return os.open(self.full(rel), _READ_FLAGS)
        head, _, last = rel.strip("/").rpartition("/")
        try:
            if last in _SPECIAL_NAMES:
                return os.open(self.full(self._walk(rel, follow_last=False)), _READ_FLAGS | os.O_NOFOLLOW)
            where = self._dir_paths.get(head) or self._real_dir(head)  # a folder is resolved once
            return os.open(f"{where}/{last}", _READ_FLAGS | os.O_NOFOLLOW)
        except OSError as err:
            if err.errno != errno.ELOOP:
                raise
        return os.open(self.full(self._walk(rel, follow_last=True)), _READ_FLAGS | os.O_NOFOLLOW)

    def read_bytes(self, rel: str, limit: int = MAX_FILE_BYTES) -> tuple[bytes | None, str | None]:
        """Read a small file: (data, None), or (None, reason); never a FIFO, device or huge file."""
        if self.recorded is not None:
            self._record("file", rel)
        try:
            fd = self._open(rel)
        except _Escape as err:
            return None, str(err)
        except OSError as err:
            return None, describe_os_error(err)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None, "not a regular file (a device, FIFO or socket is never read)"
            wanted = min(READ_CHUNK, limit + 1)
            data = os.read(fd, wanted)
            if len(data) < wanted and (not data or not self.live):
                chunks = [data]  # a captured file is a plain file: a short read is its end (procfs is not)
            else:
                chunks = self._read_rest(fd, data, limit)
        except OSError as err:
            return None, describe_os_error(err)
        finally:
            os.close(fd)
        data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        if len(data) > limit:
            return None, f"larger than {limit:,} bytes: not a real sysfs, procfs or /etc file"
        return data, None

    def _captured_attr(self, rel: str) -> bytes | None:
        """A captured attribute's bytes when it is a regular file (not a link) under the size limit in a
        folder that resolves inside the capture: one open, fstat, read and close, the path of most of the
        52,000 files a 5,000-device capture has; None leaves the file, and every reason, to `read_bytes`."""
        head, _, last = rel.rpartition("/")
        if last in _SPECIAL_NAMES or rel[:1] == "/":
            return None
        try:
            where = self._dir_paths.get(head) or self._real_dir(head)  # a folder is resolved once
        except _Escape:
            return None
        try:
            fd = os.open(f"{where}/{last}", _READ_FLAGS | os.O_NOFOLLOW)
        except OSError:
            return None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            data = os.read(fd, MAX_ATTR_BYTES + 1)
        except OSError:
            return None
        finally:
            os.close(fd)
        return data if len(data) <= MAX_ATTR_BYTES else None

    def _read_rest(self, fd: int, first: bytes, limit: int) -> list[bytes]:
        """The chunks of a file whose first read was full (or live): read on to its end or the limit."""
        chunks = [first]
        size = len(first)
        while size <= limit:
            wanted = min(READ_CHUNK, limit + 1 - size)
            chunk = os.read(fd, wanted)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if len(chunk) < wanted and not self.live:
                break
        return chunks

    def read_text(self, rel: str, limit: int = MAX_FILE_BYTES) -> tuple[str | None, str | None]:
        """Read a small text file: (text, None) on success, (None, reason) on failure."""
        data, why = self.read_bytes(rel, limit)
        if data is None:
            return None, why
        return shown(data.decode("utf-8", "replace"), multiline=True), None

    def read_attr(self, rel: str) -> tuple[str | None, str | None]:
        """Read a one-line sysfs attribute (at most MAX_ATTR_BYTES), stripped; trailing NULs go too
        (GNU tar pads sysfs files, which report 4096 bytes, with them; lsblk reads past them)."""
        data = self._captured_attr(rel) if self.recorded is None and not self.live else None
        if data is None:
            data, why = self.read_bytes(rel, MAX_ATTR_BYTES)
            if data is None:
                return None, why
        text = data.rstrip(b"\0").decode("utf-8", "replace").strip()
        if text.isascii() and text.isprintable() and "\\" not in text:
            return text, None  # nothing `shown` would change (most attributes: digits and names)
        return shown(text, multiline=True), None

    def fact_str(self, rel: str, *, empty_means: str | None = None) -> Fact[str]:
        """A string attribute as a Fact; an empty file is unknown when `empty_means` explains it."""
        text, why = self.read_attr(rel)
        if text == "" and empty_means:
            return Fact(None, self.host_path(rel), empty_means)
        return Fact(text, self.host_path(rel), why)

    def fact_int(self, rel: str, scale: int = 1, *, signed: bool = False) -> Fact[int]:
        """An integer attribute (multiplied by `scale`) as a Fact; only plain ASCII digits count."""
        text, why = self.read_attr(rel)
        if text is None:
            return Fact(None, self.host_path(rel), why)
        number = parse_int(text, signed=signed)
        if number is None:
            return Fact(None, self.host_path(rel), f"not a number: {text[:40]!r}")
        return Fact(number * scale, self.host_path(rel))

    def fact_bool(self, rel: str) -> Fact[bool]:
        """A 0/1 attribute as a Fact."""
        number = self.fact_int(rel)
        if number.value is None:
            return Fact(None, number.source, number.why_unknown)
        return Fact(number.value != 0, number.source)

    def listdir(self, rel: str) -> list[str] | None:
        """Names in a directory (at most MAX_DIR_ENTRIES), sorted; None when missing or unreadable."""
        self._record("dir", rel)
        try:
            if self.live:
                where = self.full(rel)
            else:
                head = rel.strip("/")
                done = self._resolved_dir(head)
                where = self._dir_paths.get(head) or self._real_dir(head)
            with os.scandir(where) as entries:
                listed = list(itertools.islice(entries, MAX_DIR_ENTRIES))
            if not listed:
                return []  # most holders/ and slaves/ folders
            if not self.live:
                self._note_subfolders("/".join(done), listed)
        except (OSError, _Escape):
            return None
        names = [entry.name for entry in listed]
        names.sort()
        joined = "".join(names)
        if joined.isascii() and joined.isprintable() and "\\" not in joined:
            return names  # every name plain: `shown` would change none (the order is the same)
        return sorted(_shown_name(name) for name in names)

    def _note_subfolders(self, where: str, listed: list[os.DirEntry[str]]) -> None:
        """Remember which entries of a listed capture folder (resolved to `where`) are folders, not links
        (the listing's own d_type says so): resolving a device's queue/, holders/ and slaves/ then reads
        no link."""
        links = self._links
        prefix = f"{where}/" if where else ""
        for entry in listed:
            if entry.is_dir(follow_symlinks=False):
                links[prefix + entry.name] = None

    def is_dir(self, rel: str) -> bool:
        """Whether `rel` is a directory (links followed inside the root)."""
        mode = self.file_mode(rel)
        return mode is not None and stat.S_ISDIR(mode)

    def file_mode(self, rel: str) -> int | None:
        """st_mode of `rel` (links followed inside the root), or None when it cannot be reached."""
        try:
            return os.stat(self._confined(rel)).st_mode
        except (OSError, _Escape):
            return None

    def readlink(self, rel: str) -> str | None:
        """The target of a symlink, or None."""
        self._record("link", rel)
        try:
            if self.live:
                return shown(os.readlink(self.full(rel)))
            target = self._link_target(self._walk(rel, follow_last=False), cache=True)
        except (OSError, _Escape):
            return None
        return None if target is None else shown(target)  # memoised: resolving its folder reads it again

    def resolve(self, rel: str) -> str | None:
        """`rel` with every symlink followed inside this root (absolute targets re-rooted), as a rel path;
        None when that would leave a capture.

        Captured systemd links point at absolute paths such as /lib/systemd/system/fstrim.timer;
        following them with the OS would read the live host instead of the capture.
        """
        try:
            return self._walk(rel, follow_last=True)
        except _Escape:
            return None

    def read_text_resolved(self, rel: str) -> tuple[str | None, str | None]:
        """Like read_text, but following symlinks inside this root (see `resolve`)."""
        self._record("link", rel)
        resolved = self.resolve(rel)
        if resolved is None:
            return None, "a link points outside the capture (not followed)"
        return self.read_text(resolved)

    def exists(self, rel: str) -> bool:
        """Whether a path exists (following links inside the root); a capture keeps only an empty stand-in."""
        self._record("exists", rel)
        resolved = self.resolve(rel)
        return resolved is not None and os.path.lexists(self.full(resolved))

    def mtime(self, rel: str) -> float | None:
        """A file's modification time (seconds since the epoch), or None when missing."""
        self._record("file", rel)
        resolved = self.resolve(rel)
        try:
            return None if resolved is None else os.lstat(self.full(resolved)).st_mtime
        except OSError:
            return None

    def start(self, key: str, argv: list[str]) -> None:
        """Start a read-only command now on the live host, so that it runs while the rest is read (and
        imported); `run` with the same key collects it. A capture reads its recorded output in `run`."""
        if not self.live or key in self._started:
            return
        from .spawn import Spawned  # not subprocess: its import cost `devices --json` ~4 ms

        try:
            self._started[key] = Spawned(argv, host_command_env())
        except OSError as err:
            self._started[key] = err  # `run` reports it as it would its own attempt

    def stop_started(self) -> None:
        """End and reap every command `start`ed and never collected (an error came first)."""
        for process in self._started.values():
            if not isinstance(process, OSError):
                process.kill()  # type: ignore[attr-defined]
                process.communicate()  # type: ignore[attr-defined]
        self._started.clear()

    def _command_result(self, key: str, argv: list[str]) -> tuple[int, str, str] | None:
        """(exit code, stdout, stderr) of the command `start`ed under `key` when it was, else run now; None
        when it did not end in time; an OSError as running it raises one (e.g. not on PATH)."""
        started = self._started.pop(key, None)
        if started is None:
            import subprocess  # only when a command runs (~4 ms of every start-up otherwise)

            try:  # subprocess searches PATH itself: shutil.which first would cost its import
                done = subprocess.run(
                    argv, capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S, env=host_command_env(),
                    stdin=subprocess.DEVNULL, errors="replace", check=False,
                )
            except subprocess.TimeoutExpired:
                return None
            return done.returncode, done.stdout, done.stderr
        if isinstance(started, OSError):
            raise started
        return started.communicate(COMMAND_TIMEOUT_S)  # type: ignore[attr-defined,no-any-return]

    def run(self, key: str, argv: list[str]) -> CommandOutput:
        """Run a read-only command live (or collect it, `start`ed earlier), or read its captured output
        in a capture."""
        source = "command: " + " ".join(argv)
        if not self.live:
            text, _ = self.read_text(f"{CAPTURED_COMMANDS_DIR}/{key}.txt")
            if text is None:
                return CommandOutput(None, source, "not recorded in this capture")
            return CommandOutput(text, source, None, 0)
        try:
            done = self._command_result(key, argv)
        except (FileNotFoundError, PermissionError):  # no executable of that name on PATH
            return CommandOutput(None, source, f"{argv[0]} is not installed")
        except OSError as err:
            return CommandOutput(None, source, describe_os_error(err))
        if done is None:
            return CommandOutput(None, source, f"timed out after {COMMAND_TIMEOUT_S:.0f} s")
        returncode, stdout, stderr = done
        if returncode != 0 and not stdout:
            first = (stderr.strip().splitlines() or [f"exit code {returncode}"])[0]
            return CommandOutput(None, source, visible(first[:160]), returncode)
        return CommandOutput(shown(stdout, multiline=True), source, None, returncode)


def _shown_name(name: str) -> str:
    """A listed name as `shown` makes it, without its regex for the usual plain ASCII name."""
    if name.isascii() and name.isprintable() and "\\" not in name:
        return name
    return shown(name)


def parse_int(text: str, *, signed: bool = False) -> int | None:
    """A plain ASCII decimal integer ("-1" only when `signed`); None for "1_000", "+5", "١٢" or junk."""
    text = text.strip()
    digits = text[1:] if signed and text.startswith("-") else text
    if digits.isdigit() and digits.isascii():  # isdigit alone takes "١٢" and "²"; ASCII digits are 0-9
        return int(text)
    return None


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
