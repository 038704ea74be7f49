"""The runs directory: one JSON file per run, written atomically and never over another, read back safely;
and saving a run just measured (fingerprinting the live host and the target's stack)."""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import json
import os
import stat
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from diskdoctor.probes.host import read_host
from diskdoctor.probes.host_text import visible
from diskdoctor.probes.root import Root, describe_write_error, live_root

from .host_fingerprint import host_fingerprint
from .record import RunFormatError, SavedRun, new_run_id, run_from_json
from .stack_fingerprint import stack_fingerprint

if TYPE_CHECKING:
    from ..bench.record import BenchRecord

STATE_SUBDIR = ("diskdoctor", "runs")
MAX_RUN_BYTES = 16 << 20
"""A WAL run file is a few tens of KiB; anything this big is not one of ours."""
SAVE_ATTEMPTS = 8
TEMP_PREFIX = ".saving-"
LATEST, PREVIOUS = "latest", "previous"


class RunStoreError(Exception):
    """A run could not be saved or found; the message is one line for the user."""


def default_runs_dir(environ: dict[str, str] | os._Environ[str] = os.environ) -> Path:
    """$XDG_STATE_HOME/diskdoctor/runs, or ~/.local/state/diskdoctor/runs (the XDG default);
    RunStoreError when neither is known (no HOME, no passwd entry: a bare chroot or container)."""
    state = environ.get("XDG_STATE_HOME", "")
    if os.path.isabs(state):
        return Path(state).joinpath(*STATE_SUBDIR)
    try:
        home = Path.home()
    except (RuntimeError, KeyError) as err:
        raise RunStoreError("no folder for saved runs: neither XDG_STATE_HOME nor HOME is set") from err
    return home.joinpath(".local", "state", *STATE_SUBDIR)


@dataclass
class RunListing:
    """Every readable run (oldest first) and one warning per file that was skipped."""

    runs: list[SavedRun] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    damaged: set[str] = field(default_factory=set)
    """Names of the skipped files that say they are diskdoctor runs but have a field of the wrong type."""

    def newest_first(self) -> list[SavedRun]:
        """The runs as every list shows them (`runs list`, the Runs screen): the newest first, as in
        `git log` or `docker ps`, where the run just made is the one looked for."""
        return self.runs[::-1]

    def warnings(self) -> list[str]:
        """One line per skipped file: "skipped notes.txt: not a diskdoctor run file (left as it is)"."""
        return [skip_warning(name, why) for name, why in self.skipped]

    def damaged_warnings(self) -> list[str]:
        """The warnings of damaged run files only (a run the user expects to see, so the TUI says so)."""
        return [skip_warning(name, why) for name, why in self.skipped if name in self.damaged]

    def skipped_like(self, reference: str) -> tuple[str, str] | None:
        """The skipped file whose name holds `reference` (a run id or part of one), if exactly one does."""
        found = [(name, why) for name, why in self.skipped if reference and reference in name]
        return found[0] if len(found) == 1 else None


def skip_warning(name: str, why: str) -> str:
    """"skipped X.json: damaged run file (record.host.steal must be a number, not null) (left as it is)"."""
    return f"skipped {name}: {why} (left as it is)"


def _read_limited(path: Path) -> bytes:
    """A regular file's bytes (no symlink, FIFO or device; bounded), else OSError/RunFormatError."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise RunFormatError("not a regular file")
        data = handle.read(MAX_RUN_BYTES + 1)
    if len(data) > MAX_RUN_BYTES:
        raise RunFormatError(f"larger than {MAX_RUN_BYTES >> 20} MiB")
    return data


class RunStore:
    """Saved runs in one directory; reading never changes or removes a file that is there."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_runs_dir()

    def stamp(self) -> int | None:
        """When the folder last changed (a run saved or removed), None when it does not exist yet: a screen
        reads the runs again when this differs from its last reading."""
        try:
            return os.stat(self.directory).st_mtime_ns
        except OSError:
            return None

    def save(self, run: SavedRun) -> SavedRun:
        """Write `run` as a new file (temp file + link: atomic, never replacing one); returns it, id final."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, temp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=".json", dir=self.directory)
        except OSError as err:
            raise RunStoreError(self._save_error(err)) from err
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(json.dumps(run.to_json(), indent=1).encode() + b"\n")
                handle.flush()
                os.fsync(handle.fileno())
            for _ in range(SAVE_ATTEMPTS):
                try:
                    os.link(temp, self.directory / f"{run.id}.json")
                    return run
                except FileExistsError:
                    run = replace(run, id=new_run_id(run.kind, run.saved_at))
            raise RunStoreError(f"could not save the run in {self.directory}: every name tried exists")
        except OSError as err:
            raise RunStoreError(self._save_error(err)) from err
        finally:
            with contextlib.suppress(OSError):
                os.unlink(temp)

    def _save_error(self, err: OSError) -> str:
        reason = describe_write_error(err)
        if err.errno == errno.EEXIST or err.errno == errno.ENOTDIR:
            reason = "a path component is a file, not a folder"
        return f"could not save the run in {visible(str(self.directory))}: {reason}"

    def scan(self) -> RunListing:
        """Read every run file; damaged, foreign or unreadable files are listed as skipped, never touched."""
        listing = RunListing()
        try:
            entries = sorted(os.scandir(self.directory), key=lambda entry: entry.name)
        except FileNotFoundError:
            return listing
        except OSError as err:
            raise RunStoreError(f"cannot read the runs directory {visible(str(self.directory))}: "
                                f"{describe_write_error(err)}") from err
        for entry in entries:
            if entry.name.startswith(TEMP_PREFIX):
                continue  # a save in progress (or one a crash interrupted): ours, not foreign
            name = visible(entry.name)
            if not entry.name.endswith(".json"):
                listing.skipped.append((name, "not a run file (runs are *.json)"))
                continue
            try:
                document = json.loads(_read_limited(Path(entry.path)))
                listing.runs.append(run_from_json(document, visible(entry.name[: -len(".json")])))
            except RunFormatError as err:
                listing.skipped.append((name, str(err)))
                if err.damaged:
                    listing.damaged.add(name)
            except (ValueError, RecursionError):
                listing.skipped.append((name, "not valid JSON"))
            except OSError as err:
                listing.skipped.append((name, f"cannot read it: {visible(str(err.strerror or err))}"))
        listing.runs.sort(key=lambda run: (run.saved_at, run.id))
        return listing

    def previous_of(self, run: SavedRun, listing: RunListing | None = None) -> SavedRun:
        """The newest run of `run`'s kind saved before it (`runs compare X previous`); RunStoreError: none."""
        runs = (listing or self.scan()).runs
        older = [other for other in runs if other.kind == run.kind and other.id != run.id
                 and (other.saved_at, other.id) < (run.saved_at, run.id)]
        if not older:
            raise RunStoreError(f"there is no {run.kind} run before {run.id} to compare it with")
        return older[-1]

    def find(self, reference: str, listing: RunListing | None = None) -> SavedRun:
        """A run by id, any unique part of one, `latest` or `previous`; RunStoreError for none or several
        (naming the file when the run asked for was skipped as damaged)."""
        listing = listing or self.scan()
        runs = listing.runs
        if reference in (LATEST, PREVIOUS):
            wanted = 1 if reference == LATEST else 2
            if len(runs) < wanted:
                raise RunStoreError(f"there is no {reference} run: {len(runs)} saved in "
                                    f"{visible(str(self.directory))}")
            return runs[-wanted]
        exact = [run for run in runs if run.id == reference]
        matches = exact or [run for run in runs if reference in run.id]
        if len(matches) == 1:
            return matches[0]
        skipped = listing.skipped_like(reference) if not matches else None
        if skipped is not None:
            raise RunStoreError(f"run {visible(reference)!r} was not read: {skip_warning(*skipped)}")
        if not matches:
            raise RunStoreError(f"no saved run {visible(reference)!r} in {visible(str(self.directory))} "
                                "(see `diskdoctor runs list`)")
        raise RunStoreError(f"{visible(reference)!r} matches {len(matches)} runs; give more of the id")


def record_run(record: BenchRecord, root: Root | None = None) -> SavedRun:
    """A SavedRun for a record just measured on the live host (reads the host once for the fingerprints)."""
    root = root or live_root()
    host = read_host(root)
    saved_at = dt.datetime.now(dt.timezone.utc)
    return SavedRun(new_run_id(record.workload, saved_at), record.workload, saved_at,
                    host_fingerprint(root, host), stack_fingerprint(host, record.target), record)


def save_run(record: BenchRecord, store: RunStore | None = None) -> tuple[SavedRun | None, str]:
    """Save a finished run: (the saved run, "saved as run ID ...") or (None, one line saying why not)."""
    try:
        store = store or RunStore()
        run = store.save(record_run(record))
    except RunStoreError as err:
        return None, str(err)
    except OSError as err:  # reading the host for the fingerprint failed: still never lose the result
        return None, f"could not save the run: {err}"
    return run, f"saved as run {run.id} (diskdoctor runs show {run.id})"
