"""What a benchmark verdict cannot see in its own figures, stated beside it everywhere it is shown: the
host's contention during the run, a target where fdatasync is not durable, and a WAL run made by the
closed-loop model (saved before the open-loop test). One reader of a result document, one wording."""

from __future__ import annotations

from dataclasses import dataclass

from diskdoctor.probes.host_load import HostLoad
from diskdoctor.probes.host_text import visible

RAM_FILESYSTEMS = frozenset({"tmpfs", "ramfs"})
OPEN_LOOP = "open loop"
CLOSED_LOOP = "closed loop"
CLOSED_LOOP_NOTE = ("closed-loop model (saved before diskdoctor's open-loop WAL test): its figures are not "
                    "comparable with open-loop figures and are milder than what etcd waits")
NOT_DURABLE_CONSEQUENCE = "this figure is not what a durable write costs"
LABEL = "{:<9} "
HOST_LOAD = "host load"
"""The label of the host's load during a run: not `host`, which a saved run's details give the machine
(`host      vm · Debian …`) two rows above (newuser22 #10)."""


@dataclass(frozen=True)
class Caveats:
    """The caveats of one result: the host's load (None when not recorded), why fdatasync was not durable
    there, and the WAL model that made it (None for workloads without one)."""

    host: HostLoad | None
    not_durable: tuple[str, ...]
    model: str | None
    records_host: bool = True
    """Whether the workload records the host's load at all (a plug-in kind may not): else no host line."""
    superseded: bool = False
    """A `bench wal` or `bench interference` result of the closed-loop model: saved before the open-loop
    WAL replaced it."""

    @property
    def busy(self) -> bool | None:
        """Whether other processes kept the host busy (None: the load was not recorded)."""
        return None if self.host is None else self.host.busy_reason is not None

    @property
    def durable(self) -> bool:
        """Whether the target made fdatasync durable, as far as the run could tell."""
        return not self.not_durable

    @property
    def closed_loop(self) -> bool:
        """A WAL figure of the closed-loop model (a run saved before the open-loop test)."""
        return self.superseded

    def contention_text(self) -> str:
        """"BUSY during the run: other processes used 85% of the CPUs: the figures include their
        interference ...", "quiet during the run (other processes 2% CPU, 0.1 MiB/s I/O; steal 0%)", or
        "load during the run not recorded" (under the `host load` label)."""
        load = self.host
        if load is None:
            return "load during the run not recorded"
        if load.busy_reason:
            return (f"BUSY during the run: {visible(load.busy_reason)}: the figures include their "
                    "interference (run again at a quieter moment to judge the disk alone)")
        rate = (load.other_read_bytes + load.other_write_bytes) / load.seconds if load.seconds > 0 else 0.0
        return (f"quiet during the run (other processes {load.other_cpu:.0%} CPU, "
                f"{rate / (1 << 20):,.1f} MiB/s I/O; steal {load.steal:.0%})")

    def contention_phrase(self) -> str:
        """The contention where no `host` label precedes it: "host BUSY during the run: ..."."""
        return "host " + self.contention_text()

    def durability_text(self) -> str | None:
        """"NOT DURABLE: mounted nobarrier: ...: this figure is not what a durable write costs", or None."""
        if not self.not_durable:
            return None
        return f"NOT DURABLE: {'; '.join(self.not_durable)}: {NOT_DURABLE_CONSEQUENCE}"

    def model_text(self) -> str | None:
        """The closed-loop model's note, or None for an open-loop run or a workload without a model."""
        return CLOSED_LOOP_NOTE if self.closed_loop else None

    def tags(self) -> str:
        """A short suffix for one-line verdicts ("[not durable] [host busy] [closed-loop model]"); empty
        when nothing needs saying."""
        parts = [word for flag, word in ((not self.durable, "[not durable]"), (self.busy, "[host busy]"),
                                         (self.closed_loop, "[closed-loop model]")) if flag]
        return " ".join(parts)

    def suffix(self) -> str:
        """The tags after a verdict on one line, with their leading space ("" when there is none)."""
        tags = self.tags()
        return f" {tags}" if tags else ""

    def lines(self) -> list[str]:
        """Labelled lines to print right under a verdict: durability, model, then the host's load."""
        lines = []
        if text := self.durability_text():
            lines.append(LABEL.format("durable") + text)
        if text := self.model_text():
            lines.append(LABEL.format("model") + text)
        if self.records_host:
            text = "not recorded" if self.host is None else self.contention_text()  # "host load not recorded"
            lines.append(LABEL.format(HOST_LOAD) + text)
        return lines

    def rows(self) -> list[tuple[str, str]]:
        """(label, text) rows for a report's table."""
        return [("contention" if line[:9].strip() == HOST_LOAD else line[:9].strip(), line[10:])
                for line in self.lines()]

    def to_json(self) -> dict[str, object]:
        """The `caveats` object of a result document (docs/schemas/bench-common.schema.json)."""
        return {"durable": self.durable, "not_durable": list(self.not_durable),
                "not_durable_text": self.durability_text(),
                "host_busy": self.busy, "contention": self.contention_text(),
                "model": self.model, "model_note": self.model_text()}


def _dict(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {}


def not_durable_of(target: dict[str, object]) -> tuple[str, ...]:
    """Why fdatasync was not durable on a result's target: RAM-backed by its type (also for runs saved
    before the reasons were recorded), then what the run recorded (nobarrier, an unflushed cache)."""
    fstype = target.get("fstype")
    reasons = [f"{visible(str(fstype))} keeps files in memory, so fdatasync returns at once"] \
        if fstype in RAM_FILESYSTEMS else []
    recorded = target.get("not_durable")
    if isinstance(recorded, list):
        reasons += [visible(reason) for reason in recorded if isinstance(reason, str)]
    return tuple(dict.fromkeys(reasons))


def model_of(document: dict[str, object]) -> str | None:
    """The WAL model of a result: "open loop", "closed loop" (also for a run saved before the `model` key),
    None for workloads that have no WAL."""
    wal = document if document.get("workload") in (None, "wal") else _dict(document.get("alone"))
    if not wal or "sync_latency_us" not in wal:
        return None
    return OPEN_LOOP if wal.get("model") == OPEN_LOOP else CLOSED_LOOP


def host_of(document: dict[str, object]) -> HostLoad | None:
    """The host's load recorded with a result (None when not recorded or unreadable: a `--bench` file is
    untrusted, so its figures must also add up before anything is said of them)."""
    host = document.get("host")
    if not isinstance(host, dict):
        return None
    try:
        load = HostLoad.from_json(host)
        load.busy_reason, load.line()  # raises on a field of the wrong type
    except (TypeError, ValueError, KeyError, AttributeError, ZeroDivisionError):
        return None
    return load


def caveats_of(document: dict[str, object]) -> Caveats:
    """The caveats of one `bench KIND --json` document (a saved run's record is one)."""
    model = model_of(document)
    return Caveats(host_of(document), not_durable_of(_dict(document.get("target"))), model,
                   "host" in document,
                   model == CLOSED_LOOP and document.get("workload") in (None, "wal", "interference"))


def with_caveats(document: dict[str, object]) -> dict[str, object]:
    """The document with its `caveats` object added (what --json prints and a run file saves)."""
    return {**document, "caveats": caveats_of(document).to_json()}


def contention_change(baseline: Caveats, candidate: Caveats) -> str | None:
    """Why two runs' figures may differ beyond the disk: one ran on a busy host and the other did not, or
    both did (the load may have moved between them)."""
    if baseline.busy and candidate.busy:
        return ("contention: both runs ran on a busy host, so a change between them may be the host's "
                "load moving, not the disk (compare runs taken at quiet moments)")
    if baseline.busy is None or candidate.busy is None or baseline.busy == candidate.busy:
        return None
    busy, quiet = ("baseline", "candidate") if baseline.busy else ("candidate", "baseline")
    return (f"contention DIFFERS: the {busy} ran on a busy host and the {quiet} on a quiet one, so part of "
            "the change is the host, not the disk")


def model_change(baseline: Caveats, candidate: Caveats) -> str | None:
    """Why two WAL runs cannot be compared figure for figure: different models made them."""
    if baseline.model is None or candidate.model is None or baseline.model == candidate.model:
        return None
    return (f"model DIFFERS: the baseline is {baseline.model}, the candidate {candidate.model}: the figures "
            "are not comparable (no regression is flagged; run both with this version)")


def durability_change(baseline: Caveats, candidate: Caveats) -> str | None:
    """One run's target made fdatasync durable and the other's did not."""
    if baseline.durable == candidate.durable:
        return None
    which = "baseline" if not baseline.durable else "candidate"
    return (f"durability DIFFERS: only the {which}'s fdatasync skipped the cache flush "
            f"({NOT_DURABLE_CONSEQUENCE})")


def different_models(first_id: str, first: Caveats, second_id: str, second: Caveats) -> str | None:
    """Why two WAL runs cannot be compared at all: different models made them (None when they can)."""
    if model_change(first, second) is None:
        return None
    return (f"run {first_id} was made by the {first.model} model and run {second_id} by the {second.model} "
            "model: their figures are not comparable (the closed loop is milder); compare runs made by the "
            "same model, or run the old one again with this version")
