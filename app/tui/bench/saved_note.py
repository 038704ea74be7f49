"""The Benchmark status line's word that a finished run was saved, and where to find it, in shorter forms."""

from __future__ import annotations

from diskdoctor.app.core.runs.compare import short_id

SAVED_PREFIX = "saved as run "


def saved_forms(note: str | None) -> tuple[str, ...]:
    """The note's forms, longest first: `saved as run 20261127-005046-wal-97cb (key 5)`, then the run's
    short id as the Runs screen lists it (`saved as run 97cb (key 5)`, `run 97cb saved (5)`), so a narrow
    status line keeps that the run was saved and where (newuser21 #12 saw it dropped at 80); a note saying
    why a run was not saved is kept as it is; none for no note."""
    if not note:
        return ("",)
    if not note.startswith(SAVED_PREFIX):
        return (note,)
    run_id = note.removeprefix(SAVED_PREFIX).split(" ", 1)[0]
    short = short_id(run_id)
    return (f"{note} (key 5)", f"{SAVED_PREFIX}{short} (key 5)", f"run {short} saved (5)")
