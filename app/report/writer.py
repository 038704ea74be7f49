"""Write a report file atomically: a temp file in the target folder, renamed over; nothing partial is left."""

from __future__ import annotations

import contextlib
import os
import tempfile

from diskdoctor.probes.host_text import visible
from diskdoctor.probes.root import describe_write_error

REPORTS_SUBDIR = "reports"


def default_report_dir() -> str | None:
    """$XDG_STATE_HOME/diskdoctor/reports (beside the saved runs), or None where no state folder is known
    (no HOME: a bare chroot or container)."""
    from ..core.runs.store import RunStoreError, default_runs_dir

    try:
        return str(default_runs_dir().parent / REPORTS_SUBDIR)
    except RunStoreError:
        return None


def make_report_dir(folder: str) -> None:
    """Create the default reports folder (private, as the runs folder) on first use; ReportWriteError."""
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError as err:
        raise ReportWriteError(f"cannot create the reports folder {visible(folder)}: "
                               f"{describe_write_error(err)}") from err


FORMATS = {".md": "markdown", ".markdown": "markdown", ".html": "html", ".htm": "html", ".json": "json"}


class ReportWriteError(Exception):
    """The report cannot be written there; the message is one line for the user."""


def report_format(path: str) -> str:
    """"markdown", "html" or "json" from the file name, or ReportWriteError."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in FORMATS:
        raise ReportWriteError(f"report file must end in .md, .html or .json (the format follows the name): "
                               f"{visible(path)}")
    return FORMATS[suffix]


def check_report_path(path: str, force: bool) -> None:
    """Refuse a missing folder, a folder given as the file, or replacing a file without `force`."""
    folder = os.path.dirname(os.path.abspath(path))
    shown = visible(path)
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise ReportWriteError(f"cannot write report {shown}: {visible(folder)} is a file, not a folder")
    if not os.path.isdir(folder):
        raise ReportWriteError(f"cannot write report {shown}: folder {visible(folder)} does not exist")
    if os.path.isdir(path):
        raise ReportWriteError(f"cannot write report {shown}: it is a directory")
    if os.path.lexists(path) and not force:
        raise ReportWriteError(f"{shown} already exists (use --force to replace it)")


def write_report_file(path: str, text: str, *, force: bool = False) -> None:
    """Write `text` to `path` via a temp file in the same folder (fsync, then rename); on any error the
    temp file is removed and the old file, if any, is untouched."""
    check_report_path(path, force)
    folder = os.path.dirname(os.path.abspath(path))
    temp = None
    try:
        handle, temp = tempfile.mkstemp(prefix=".diskdoctor-report-", suffix=".partial", dir=folder)
        with os.fdopen(handle, "wb") as out:
            out.write(text.encode("utf-8"))
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, 0o644)
        if force:
            os.replace(temp, path)
        else:
            os.link(temp, path)  # fails if the name appeared meanwhile: never replaces without --force
        temp_done = temp
        temp = None
        if not force:
            os.unlink(temp_done)
    except FileExistsError as err:
        raise ReportWriteError(f"{visible(path)} already exists (use --force to replace it)") from err
    except OSError as err:
        raise ReportWriteError(f"cannot write report {visible(path)}: {describe_write_error(err)}") from err
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)
