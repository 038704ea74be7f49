"""Turn --sysroot into a Root: a captured directory or a capture .tar.gz, validated up front."""

from __future__ import annotations

import os
import shutil
import tarfile
import tempfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager

from diskdoctor.probes.root import Root, describe_os_error, live_root

from .errors import UsageError

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
    """Whether any sysfs block index under `base` lists a device; an unreadable index is an error."""
    for index in BLOCK_INDEXES:
        folder = os.path.join(base, index)
        if not os.path.isdir(folder):
            continue
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


def safe_extract(archive: str, dest: str) -> None:
    """Extract a capture archive refusing absolute names, "..", devices and writes via links."""
    base = os.path.realpath(dest)
    with tarfile.open(archive, "r:*") as tar:
        for member in tar:
            name = member.name[2:] if member.name.startswith("./") else member.name
            name = name.rstrip("/")
            if name in ("", "."):
                continue
            parts = name.split("/")
            if os.path.isabs(name) or ".." in parts:
                raise UsageError(f"capture {archive} has an unsafe entry: {member.name!r}")
            target = os.path.join(base, name)
            if not _is_inside(base, os.path.realpath(os.path.dirname(target))):
                raise UsageError(f"capture {archive} has an entry escaping the folder: {name!r}")
            if member.isdir():
                os.makedirs(target, exist_ok=True)
            elif member.issym():
                os.makedirs(os.path.dirname(target), exist_ok=True)
                os.symlink(member.linkname, target)
            elif member.isfile():
                os.makedirs(os.path.dirname(target), exist_ok=True)
                source = tar.extractfile(member)
                flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                with source, os.fdopen(os.open(target, flags, 0o644), "wb") as out:
                    shutil.copyfileobj(source, out)
                os.utime(target, (member.mtime, member.mtime), follow_symlinks=False)
            else:
                raise UsageError(f"capture {archive} has an unsupported entry type: {name!r}")


@contextmanager
def open_root(sysroot: str | None, *, record: bool = False) -> Iterator[Root]:
    """The live root, or a validated capture (a folder or a .tar.gz extracted to a temp dir)."""
    if sysroot is None:
        yield live_root(record=record)
        return
    if os.path.isfile(sysroot):
        scratch = tempfile.mkdtemp(prefix="diskdoctor-sysroot-")
        try:
            try:
                safe_extract(sysroot, scratch)
            except tarfile.TarError as err:
                raise UsageError(f"cannot read capture {sysroot}: not a .tar.gz capture "
                                 f"({str(err).splitlines()[0].rstrip(':')})") from err
            except (EOFError, zlib.error) as err:
                raise UsageError(f"cannot read capture {sysroot}: truncated or corrupt") from err
            except OSError as err:
                raise UsageError(f"cannot read capture {sysroot}: "
                                 f"{describe_os_error(err)}") from err
            yield Root(validate_capture_dir(scratch, shown_as=sysroot), live=False,
                       label="capture " + os.path.basename(sysroot))
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return
    yield Root(validate_capture_dir(sysroot), live=False,
               label="capture " + os.path.basename(os.path.abspath(sysroot)))
