"""A run sized to the free space it has: compaction's file size, randwrite's file size, or the compaction
model beside the WAL, shrunk until the files and the margin fit, with the flag that does it and the
trade-off said in words."""

from __future__ import annotations

from dataclasses import dataclass, replace

from diskdoctor.probes.engine.workloads.compaction import CompactionParams
from diskdoctor.probes.engine.workloads.interference import InterferenceParams
from diskdoctor.probes.engine.workloads.randwrite import RandwriteParams
from diskdoctor.probes.wal_target import SPACE_MARGIN, free_bytes, space_needed

MIB = 1 << 20
MIN_RANDWRITE = 16 * MIB
"""Below this a randwrite file sits in the drive's own cache: the figures would say nothing."""
FIT_SEGMENT = 16 * MIB
"""etcd's WAL segments when an interference run must fit: 16 MiB, not 64 MB (a 20 s phase at 500/s
writes 23 MB, so the WAL cuts a segment, as etcd does)."""


@dataclass(frozen=True)
class Fitted:
    """Parameters that fit, the CLI flags and form size that ask for them, and what they cost."""

    params: object
    flags: str
    """e.g. "--file-size 24m": what to add to `diskdoctor bench KIND` (or use --fit)."""
    size_field: str | None
    """The Benchmark screen's size field that makes them ("24m"), None when the form cannot."""
    sized: str
    """What the run writes now, e.g. "128 MiB"."""
    free: str
    cost: str
    """The trade-off, with what adds up to `sized`: "a smaller compaction (4 input files of 16 MiB, not
    64 MiB, and as much output, written before the inputs are deleted: 2 × 4 × 16 MiB = 128 MiB): …"."""
    brief: str
    """The trade-off in a few words, for a status line ("figures less stable")."""

    @property
    def said(self) -> str:
        """e.g. "sized to 128 MiB to fit 150 MiB free: a smaller compaction …"."""
        return f"sized to {self.sized} to fit {self.free} free: {self.cost}"


def room_for(free: int) -> int:
    """The largest run (bytes of files) whose files and margin fit in `free` bytes."""
    room = max(0, (free - SPACE_MARGIN) * 10 // 11)  # within a few bytes: step to the exact largest
    while space_needed(room + 1) <= free:
        room += 1
    while room and space_needed(room) > free:
        room -= 1
    return room


def _mib(value: int) -> str:
    return f"{value / MIB:.0f} MiB" if value >= MIB else f"{value / 1024:.0f} KiB"


def _compaction_file(params: CompactionParams, room: int, jobs: int | None = None) -> int:
    """The largest file size (a whole number of reads, at least one) whose inputs and outputs fit."""
    per_file = 2 * params.inputs * (jobs or params.jobs)
    size = room // per_file // params.read_bs * params.read_bs
    return size if size >= params.read_bs else 0


def compaction_space(params: CompactionParams, was: int | None = None) -> tuple[str, str]:
    """What a compaction writes and the sum it adds up to, e.g. ("4 input files of 56 MiB, not 64 MiB, and
    as much output, written before the inputs are deleted", "2 × 4 × 56 MiB"); "2 jobs, each with …" and
    "2 × 2 × 4 × 56 MiB" for several jobs."""
    plural = "s" if params.inputs != 1 else ""
    instead = f", not {_mib(was)}," if was is not None else ""
    each = (f"{params.inputs} input file{plural} of {_mib(params.file_size)}{instead} and as much output, "
            f"written before the input{plural} {'are' if plural else 'is'} deleted")
    sum_ = f"2 × {params.inputs} × {_mib(params.file_size)}"
    if params.jobs > 1:
        return f"{params.jobs} jobs, each with {each}", f"{params.jobs} × {sum_}"
    return each, sum_


def _smaller_compaction(fitted: CompactionParams, was: int) -> str:
    """The trade-off of a compaction sized down, with the sum of what it writes."""
    what, sum_ = compaction_space(fitted, was)
    return (f"a smaller compaction ({what}: {sum_} = {_mib(fitted.scratch_bytes)}): figures less stable, "
            "more of it stays in the drive's cache")


def _lighter_load(fitted: InterferenceParams, model: str) -> str:
    """The trade-off of an interference run sized down, with the sum of the WAL's and the model's files."""
    what, sum_ = compaction_space(fitted.compaction)
    wal = _mib(fitted.wal.scratch_bytes)
    return (f"the WAL's {wal} beside {model} with {what}: {wal} + {sum_} = {_mib(fitted.scratch_bytes)}; a "
            "lighter load beside the WAL, so the slowdown it shows is a lower bound")


def fit_to_free(params: object, free: int) -> Fitted | None:
    """Smaller parameters that fit `free` bytes, or None when these already fit or nothing sensible does."""
    needed = params.scratch_bytes  # type: ignore[attr-defined]
    if space_needed(needed) <= free:
        return None
    room, have = room_for(free), _mib(free)
    if isinstance(params, CompactionParams):
        size = _compaction_file(params, room)
        if not size:
            return None
        fitted = replace(params, file_size=size)
        return Fitted(fitted, f"--file-size {size // MIB}m", f"{size // MIB}m", _mib(fitted.scratch_bytes),
                      have, _smaller_compaction(fitted, params.file_size), "figures less stable")
    if isinstance(params, RandwriteParams):
        size = room // MIB * MIB // params.bs * params.bs
        if size < max(MIN_RANDWRITE, params.bs):
            return None
        return Fitted(replace(params, size=size), f"--size {size // MIB}m", f"{size // MIB}m", _mib(size),
                      have, f"random writes over a smaller file ({_mib(size)}, not {_mib(params.size)}): "
                      "figures flatter the device, the drive's cache holds more of it",
                      "figures flatter the device")
    if isinstance(params, InterferenceParams):
        wal = params.wal
        if wal.format == "etcd" and wal.segment_bytes > FIT_SEGMENT:  # etcd's 64 MB segments, smaller
            wal = replace(wal, segment_bytes=FIT_SEGMENT)
        beside = room - wal.scratch_bytes
        size = _compaction_file(params.compaction, beside) if beside > 0 else 0
        if not size:
            return None
        fitted = replace(params, wal=wal, compaction=replace(params.compaction, file_size=size),
                         aggressor="model")
        model = "the compaction model" if params.aggressor == "model" else \
            "the compaction model (not real RocksDB: its store needs more room)"
        flags = f"--file-size {size // MIB}m" + (" --aggressor model" if params.aggressor != "model" else "")
        flags += f" --segment-size {FIT_SEGMENT // MIB}m" if wal is not params.wal else ""
        return Fitted(fitted, flags, None, _mib(fitted.scratch_bytes), have,
                      _lighter_load(fitted, model), "a lighter load")
    return None


def fit_for(reason: str, params: object, directory: str) -> Fitted | None:
    """For a run refused with `reason`: when it was for lack of space, the parameters that fit the space
    `directory` has (None: another reason, or nothing sensible fits)."""
    free = free_bytes(directory) if reason.startswith("not enough free space") else None
    return fit_to_free(params, free) if free is not None else None
