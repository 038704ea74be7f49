"""Defence in depth behind the run file schema: one run that still fails to render is shown as damaged,
with the reason, and the list, report, comparison or screen around it carries on."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from diskdoctor.probes.host_text import visible

DEBUG_ENV = "DISKDOCTOR_DEBUG"
"""Set, a rendering failure raises with its traceback (as the CLI's internal errors do)."""
MAX_REASON_CHARS = 160


class RunRenderError(Exception):
    """A loaded run could not be rendered; `reason` is short, `str()` one line naming the run."""

    def __init__(self, what: str, reason: str) -> None:
        super().__init__(f"{what} cannot be shown, its run file is damaged ({reason}; left as it is)")
        self.reason = reason


def failure_reason(err: BaseException) -> str:
    """"TypeError: '>=' not supported ...", made visible and cut to one short line."""
    text = visible(f"{type(err).__name__}: {err}")
    return text if len(text) <= MAX_REASON_CHARS else text[:MAX_REASON_CHARS] + "…"


@contextmanager
def rendering(what: str) -> Iterator[None]:
    """Turn any failure while rendering `what` ("run 2026...-wal-3fa9") into RunRenderError."""
    try:
        yield
    except RunRenderError:
        raise
    except Exception as err:  # a run file is untrusted input: no failure of one may escape as a crash
        if os.environ.get(DEBUG_ENV):
            raise
        raise RunRenderError(what, failure_reason(err)) from err


def damaged_text(reason: str) -> str:
    """What a list or table shows in place of a run it cannot show: "DAMAGED (TypeError: ...)"."""
    return f"DAMAGED ({reason})"
