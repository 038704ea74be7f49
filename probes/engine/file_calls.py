"""The file calls Python's os module lacks, through libc: sync_file_range, fallocate with KEEP_SIZE, and
mincore to check eviction."""

from __future__ import annotations

import ctypes
import errno
import mmap
import os

SYNC_FILE_RANGE_WRITE = 2
"""Start writeback of the dirty pages in the range without waiting (RocksDB's bytes_per_sync)."""
FALLOC_FL_KEEP_SIZE = 1
"""Allocate blocks, keep the size (RocksDB: fallocate_with_keep_size; fio: fallocate=keep)."""
PAGE = mmap.PAGESIZE

_libc = ctypes.CDLL(None, use_errno=True)
_libc.sync_file_range.argtypes = (ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_uint)
_libc.fallocate.argtypes = (ctypes.c_int, ctypes.c_int, ctypes.c_int64, ctypes.c_int64)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                       ctypes.c_long)
_libc.munmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t)
_libc.mincore.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p)
MAP_FAILED = ctypes.c_void_p(-1).value


def _raise_errno() -> None:
    number = ctypes.get_errno()
    raise OSError(number, os.strerror(number))


def sync_file_range_write(fd: int, offset: int, nbytes: int) -> None:
    """sync_file_range(fd, offset, nbytes, SYNC_FILE_RANGE_WRITE): queue the range for writeback."""
    if _libc.sync_file_range(fd, offset, nbytes, SYNC_FILE_RANGE_WRITE) != 0:
        _raise_errno()


def preallocate(fd: int, nbytes: int) -> bool:
    """fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, nbytes) as RocksDB does for a new SST (allow_fallocate, on by
    default); False where the filesystem cannot (EOPNOTSUPP), so the writes allocate as they go."""
    if _libc.fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, nbytes) == 0:
        return True
    if ctypes.get_errno() in (errno.EOPNOTSUPP, errno.ENOSYS):
        return False
    _raise_errno()
    return False


def evict(fd: int) -> None:
    """Drop a file's clean pages from the page cache (posix_fadvise DONTNEED), so reads hit the device."""
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)


def resident_fraction(fd: int, size: int) -> float:
    """The share of a file's pages in the page cache now (mincore on a read-only mapping), 0-1."""
    if size <= 0:
        return 0.0
    address = _libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
    if address in (None, MAP_FAILED):
        _raise_errno()
    try:
        pages = (size + PAGE - 1) // PAGE
        vector = ctypes.create_string_buffer(pages)
        if _libc.mincore(address, size, vector) != 0:
            _raise_errno()
        return sum(byte & 1 for byte in vector.raw) / pages
    finally:
        _libc.munmap(address, size)
