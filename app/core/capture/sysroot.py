"""Turn --sysroot into a Root: a captured directory or a capture .tar.gz, validated up front."""

from __future__ import annotations

import os
from contextlib import contextmanager

from diskdoctor.app.base.errors import UsageError
from diskdoctor.probes.root import MAX_FILE_BYTES, Root, describe_os_error, live_root

TYPE_CHECKING = False  # not typing's: importing typing costs every start-up ~2 ms
if TYPE_CHECKING:
    import tarfile
    from collections.abc import Iterator
    from typing import IO

# A capture archive's modules (tarfile, gzip, the scratch folder's secrets) load only when one is opened:
# they cost a folder or the live host ~10 ms of start-up.

BLOCK_INDEXES = ("sys/block", "sys/class/block", "sys/dev/block")
"""Any of these listing a device makes a root usable, like `lsblk --sysroot` (mountinfo is optional)."""


def _capture_dir(path: str) -> str:
    """The capture root inside `path`: itself, or its single sub-folder (a bundle's top folder)."""
    if os.path.isdir(os.path.join(path, "sys")):
        return path
    try:
        entries = [e for e in os.scandir(path) if e.is_dir(follow_symlinks=False)]
    except OSError as err:
        raise UsageError(f"cannot read sysroot {path}: {describe_os_error(err)}") from err
    if len(entries) == 1 and os.path.isdir(os.path.join(entries[0].path, "sys")):
        return entries[0].path
    return path


def _has_block_devices(base: str) -> bool:
    """Whether any sysfs block index under `base` lists a device; an unreadable index is an error.
    The indexes are found through the capture's own links only (a Root confined to it)."""
    capture = Root(base, live=False)
    for index in BLOCK_INDEXES:
        if not capture.is_dir(index):
            continue
        folder = capture.full(capture.resolve(index) or index)
        try:
            if os.listdir(folder):
                return True
        except OSError as err:
            raise UsageError(f"cannot read {folder}: {describe_os_error(err)}") from err
    return False


def validate_capture_dir(path: str, shown_as: str | None = None) -> str:
    """Check that `path` looks like a captured root and is readable; return the root folder.

    Errors name `shown_as` (what the user typed, e.g. the .tar.gz) instead of a temp folder."""
    name = shown_as or path
    try:
        os.stat(path)
    except FileNotFoundError as err:
        raise UsageError(f"sysroot {path} does not exist") from err
    except OSError as err:
        raise UsageError(f"cannot read sysroot {path}: {describe_os_error(err)}") from err
    if not os.path.isdir(path):
        raise UsageError(f"sysroot {path} is not a directory or a .tar.gz capture")
    base = _capture_dir(path)
    if not _has_block_devices(base):
        raise UsageError(f"sysroot {name} is not a capture: it has no block devices (no entries in "
                         f"{', '.join(d + '/' for d in BLOCK_INDEXES)}; "
                         "make one with: diskdoctor capture -o host.tar.gz)")
    return base


def _is_inside(base: str, path: str) -> bool:
    return os.path.commonpath([base, path]) == base


MAX_MEMBERS = 250_000
"""A real host's capture holds a few thousand files (about 45 per block device)."""
MAX_MEMBER_BYTES = MAX_FILE_BYTES
"""Larger files could not be read anyway (the Root refuses them)."""
MAX_TOTAL_BYTES = 512 * 1024 * 1024
MAX_DEPTH = 48
"""sysfs device paths are about 15 folders deep; a bundle nested far deeper is hostile."""
SYSROOT_PREFIX = "diskdoctor-sysroot-"
GZIP_MAGIC = b"\x1f\x8b"


class _Limits:
    """Counts what an archive has unpacked so far and refuses it past any limit."""

    def __init__(self, archive: str) -> None:
        self.archive = archive
        self.members = 0
        self.total = 0

    def check(self, name: str, member: tarfile.TarInfo) -> None:
        self.members += 1
        if self.members > MAX_MEMBERS:
            raise UsageError(f"capture {self.archive} has more than {MAX_MEMBERS:,} entries (not a capture)")
        if name.count("/") + 1 > MAX_DEPTH:
            raise UsageError(f"capture {self.archive} nests folders more than {MAX_DEPTH} deep "
                             "(not a capture)")
        if member.size > MAX_MEMBER_BYTES:
            raise UsageError(f"capture {self.archive} has a {member.size:,}-byte entry {name!r}; "
                             f"no captured file is over {MAX_MEMBER_BYTES:,} bytes")
        self.total += member.size
        if self.total > MAX_TOTAL_BYTES:
            raise UsageError(f"capture {self.archive} unpacks to more than {MAX_TOTAL_BYTES:,} bytes "
                             "(not a capture)")


def _open_stream(archive: str) -> IO[bytes]:
    """The archive's byte stream, decompressed when it is gzip (checked to its CRC at the end)."""
    import gzip

    raw = open(archive, "rb")  # noqa: SIM115 (closed by the caller through the returned stream)
    if raw.read(2) == GZIP_MAGIC:
        raw.seek(0)
        return gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[return-value]
    raw.seek(0)
    return raw


def _check_trailer(stream: IO[bytes], archive: str) -> None:
    """After the tar's last entry only zero padding may follow, and the gzip stream must end intact;
    tarfile stops quietly at a damaged header, which would drop the rest of the capture unseen."""
    while True:
        chunk = stream.read(1 << 16)
        if not chunk:
            return
        if chunk.strip(b"\0"):
            raise UsageError(f"cannot read capture {archive}: damaged after some entries "
                             "(truncated or corrupt)")


def safe_extract(archive: str, dest: str) -> None:
    """Extract a capture archive refusing absolute names, "..", devices, writes via links, and anything
    beyond the size, count and depth limits; the whole stream is verified to its end."""
    import tarfile

    base = os.path.realpath(dest)
    limits = _Limits(archive)
    made: set[str] = {base}
    with _open_stream(archive) as stream:
        with tarfile.open(fileobj=stream, mode="r|") as tar:
            for member in tar:
                _extract_member(tar, member, archive, base, limits, made)
        _check_trailer(stream, archive)


def _extract_member(tar: tarfile.TarFile, member: tarfile.TarInfo, archive: str, base: str,
                    limits: _Limits, made: set[str]) -> None:
    name = member.name[2:] if member.name.startswith("./") else member.name
    name = name.rstrip("/")
    if name in ("", "."):
        return
    limits.check(name, member)
    parts = name.split("/")
    if os.path.isabs(name) or ".." in parts:
        raise UsageError(f"capture {archive} has an unsafe entry: {member.name!r}")
    target = os.path.join(base, name)
    folder = os.path.dirname(target)
    if folder not in made:
        if not _is_inside(base, os.path.realpath(folder)):
            raise UsageError(f"capture {archive} has an entry escaping the folder: {name!r}")
        os.makedirs(folder, exist_ok=True)
        made.add(folder)
    if member.isdir():
        if not _is_inside(base, os.path.realpath(target)):
            raise UsageError(f"capture {archive} has an entry escaping the folder: {name!r}")
        os.makedirs(target, exist_ok=True)
        made.add(target)
    elif member.issym():
        os.symlink(member.linkname, target)
    elif member.isfile():
        source = tar.extractfile(member)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
        import shutil

        with source, os.fdopen(os.open(target, flags, 0o644), "wb") as out:  # type: ignore[union-attr]
            shutil.copyfileobj(source, out)  # type: ignore[arg-type]
        os.utime(target, (member.mtime, member.mtime), follow_symlinks=False)
    else:
        raise UsageError(f"capture {archive} has an unsupported entry type: {name!r}")


def extraction_dir(sysroot: str) -> str:
    """A fresh folder to extract `sysroot` into, inside this user's private temp folder."""
    from diskdoctor.probes.scratch import NotPrivate, make_owned_dir

    try:
        return make_owned_dir(SYSROOT_PREFIX)
    except NotPrivate as err:
        raise UsageError(f"cannot open capture {sysroot}: {err}") from err
    except OSError as err:
        raise UsageError(f"cannot open capture {sysroot}: no folder to extract it into "
                         f"({describe_os_error(err)})") from err


@contextmanager
def open_root(sysroot: str | None, *, record: bool = False) -> Iterator[Root]:
    """The live root, or a validated capture (a folder or a .tar.gz extracted to a temp dir)."""
    if sysroot is None:
        root = live_root(record=record)
        try:
            yield root
        finally:
            root.stop_started()
        return
    if os.path.isfile(sysroot):
        import gzip
        import tarfile
        import zlib

        from diskdoctor.probes.scratch import remove_tree

        from ..process.hangup import forget, on_emergency_exit

        scratch = extraction_dir(sysroot)
        handle = on_emergency_exit(lambda: remove_tree(scratch))
        try:
            try:
                safe_extract(sysroot, scratch)
            except tarfile.TarError as err:
                raise UsageError(f"cannot read capture {sysroot}: not a .tar.gz capture "
                                 f"({str(err).splitlines()[0].rstrip(':')})") from err
            except (EOFError, zlib.error, gzip.BadGzipFile) as err:
                raise UsageError(f"cannot read capture {sysroot}: truncated or corrupt") from err
            except OSError as err:
                raise UsageError(f"cannot read capture {sysroot}: "
                                 f"{describe_os_error(err)}") from err
            yield Root(validate_capture_dir(scratch, shown_as=sysroot), live=False,
                       label="capture " + os.path.basename(sysroot))
        finally:
            remove_tree(scratch)
            forget(handle)
        return
    yield Root(validate_capture_dir(sysroot), live=False,
               label="capture " + os.path.basename(os.path.abspath(sysroot)))
