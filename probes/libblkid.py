"""Filesystem signatures through libblkid in this process: the calls `blkid -c /dev/null -o export` makes.

The blkid command is this library behind a fork and an exec: on a host without a udev database,
`devices` waited 2-7 ms for it and paid `subprocess`'s import (~2.5 ms); lsblk calls the library
directly too. The calls are the command's own (blkid_get_cache on /dev/null, blkid_probe_all, then
blkid_verify and the tags of every device), so the answer is the command's. Where the library cannot be
loaded (an old distribution, a static build) the caller runs the command instead."""

from __future__ import annotations

import ctypes

LIBRARY = "libblkid.so.1"
CACHE_FILE = b"/dev/null"  # the command's `-c /dev/null`: no cache file read, every device probed
SOURCE = "libblkid, as `blkid -c /dev/null -o export` calls it"

_handle = ctypes.c_void_p
_text = ctypes.c_char_p


_loaded: list[ctypes.CDLL | None] = []


def load() -> ctypes.CDLL | None:
    """libblkid with the signatures of the calls used here, loaded once; None where it cannot be."""
    if not _loaded:
        try:
            _loaded.append(_library())
        except (OSError, AttributeError):  # no such library, or one without these calls
            _loaded.append(None)
    return _loaded[0]


def _library() -> ctypes.CDLL:
    """libblkid with the signatures of the calls used here."""
    lib = ctypes.CDLL(LIBRARY)
    signatures = {
        "blkid_get_cache": ([ctypes.POINTER(_handle), _text], ctypes.c_int),
        "blkid_put_cache": ([_handle], None),
        "blkid_probe_all": ([_handle], ctypes.c_int),
        "blkid_dev_iterate_begin": ([_handle], _handle),
        "blkid_dev_next": ([_handle, ctypes.POINTER(_handle)], ctypes.c_int),
        "blkid_dev_iterate_end": ([_handle], None),
        "blkid_verify": ([_handle, _handle], _handle),
        "blkid_dev_devname": ([_handle], _text),
        "blkid_tag_iterate_begin": ([_handle], _handle),
        "blkid_tag_next": ([_handle, ctypes.POINTER(_text), ctypes.POINTER(_text)], ctypes.c_int),
        "blkid_tag_iterate_end": ([_handle], None),
    }
    for name, (argtypes, restype) in signatures.items():
        function = getattr(lib, name)
        function.argtypes, function.restype = argtypes, restype
    return lib


def _tags(lib: ctypes.CDLL, dev: int) -> list[tuple[str, str]]:
    """A verified device's NAME=value tags in libblkid's order."""
    tags = []
    name, value = _text(), _text()
    iterator = lib.blkid_tag_iterate_begin(dev)
    try:
        while lib.blkid_tag_next(iterator, ctypes.byref(name), ctypes.byref(value)) == 0:
            tags.append(((name.value or b"").decode(errors="replace"),
                         (value.value or b"").decode(errors="replace")))
    finally:
        lib.blkid_tag_iterate_end(iterator)
    return tags


def start_probe(lib: ctypes.CDLL) -> tuple[object, object] | None:
    """Open the cache and start `blkid_probe_all` on a thread of its own: one call that releases the GIL
    while it reads every device, so it runs beside the imports; `finish_probe` collects it."""
    import _thread

    cache = _handle()
    if lib.blkid_get_cache(ctypes.byref(cache), CACHE_FILE) < 0:
        return None
    done = _thread.allocate_lock()
    done.acquire()

    def probe() -> None:
        try:
            lib.blkid_probe_all(cache)
        finally:
            done.release()

    _thread.start_new_thread(probe, ())
    return cache, done


def finish_probe(lib: ctypes.CDLL, pending: tuple[object, object]) -> list[tuple[str, list[tuple[str, str]]]] | None:  # noqa: E501
    """`probe_all`'s answer for a probe `start_probe` started."""
    cache, done = pending
    done.acquire()  # type: ignore[attr-defined]
    return _verified(lib, cache)


def probe_all(lib: ctypes.CDLL) -> list[tuple[str, list[tuple[str, str]]]] | None:
    """(device path, tags) of every device the command would print, in its order; None when no device
    could be verified (the command then exits 2: not root, or no devices), so that the caller runs the
    command and reports what it reports."""
    cache = _handle()
    if lib.blkid_get_cache(ctypes.byref(cache), CACHE_FILE) < 0:
        return None
    lib.blkid_probe_all(cache)
    return _verified(lib, cache)


def _verified(lib: ctypes.CDLL, cache: object) -> list[tuple[str, list[tuple[str, str]]]] | None:
    """Every probed device the command would print, then the cache freed."""
    found: list[tuple[str, list[tuple[str, str]]]] = []
    verified = False
    try:
        iterator = lib.blkid_dev_iterate_begin(cache)
        dev = _handle()
        try:
            while lib.blkid_dev_next(iterator, ctypes.byref(dev)) == 0:
                checked = lib.blkid_verify(cache, dev)
                if not checked:
                    continue
                verified = True
                tags = _tags(lib, checked)
                if tags:  # the command prints a device only with at least one tag
                    devname = lib.blkid_dev_devname(checked) or b""
                    found.append((devname.decode(errors="replace"), tags))
        finally:
            lib.blkid_dev_iterate_end(iterator)
    finally:
        lib.blkid_put_cache(cache)
    return found if verified else None
