"""State of fstrim.timer and fstrim.service: from `systemctl show` when systemd runs, else from files."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from .fstrim_args import trim_scope
from .host_clock import HostClock
from .root import Root
from .systemctl_show import (
    calendar_expressions,
    exec_command_lines,
    parse_show_timestamp,
    parse_systemctl_show,
)
from .timespan import parse_timespan
from .unit_files import UnitFile, read_unit_file

TIMER = "fstrim.timer"
SERVICE = "fstrim.service"
STAMP = "var/lib/systemd/timers/stamp-fstrim.timer"
SYSTEMD_RUNTIME = "run/systemd/system"
SHOW_KEY = "systemctl-show-fstrim"
SHOW_ARGV = ["systemctl", "show", TIMER, SERVICE]
STAMP_CAVEAT = ("systemd creates the stamp when a Persistent= timer first starts, so after a fresh "
                "enable or boot this is not proof that fstrim ran (check journalctl -u fstrim.service)")


@dataclass(frozen=True, slots=True)
class TimerState:
    """Everything known about the fstrim timer and the service it starts, each with a source."""

    read_via: str
    """'systemctl show' (systemd answered) or 'unit files' (no systemd, or a capture without it)."""
    systemd_running: bool
    installed: bool
    state: str
    """enabled, disabled, masked, static, not-installed (systemctl's vocabulary)."""
    state_source: str
    calendars: tuple[str, ...]
    calendar_source: str
    randomized_delay_s: float
    accuracy_s: float
    persistent: bool
    dropins: tuple[str, ...]
    last_trigger: dt.datetime | None
    last_trigger_source: str
    last_trigger_caveat: str | None
    next_elapse: dt.datetime | None
    next_elapse_source: str | None
    service_commands: tuple[str, ...]
    service_source: str
    skips_containers: bool

    @property
    def active(self) -> bool:
        """Whether the timer will fire on its own (installed, enabled, not masked)."""
        return self.installed and self.state in ("enabled", "enabled-runtime", "static", "alias")

    @property
    def service_scope(self) -> str:
        """'fstab' (util-linux >= 2.36 style --listed-in/--fstab/-A), 'all' (-a), or 'unknown'."""
        scopes = {trim_scope(command)[0] for command in self.service_commands}
        if "all" in scopes:
            return "all"
        if "fstab" in scopes:
            return "fstab"
        return "unknown"


def _stamp(root: Root, clock: HostClock) -> tuple[dt.datetime | None, str, str | None]:
    mtime = root.mtime(STAMP)
    if mtime is None:
        return None, f"{root.host_path(STAMP)} (missing: never triggered here)", None
    stamp = dt.datetime.fromtimestamp(mtime, clock.zone)
    return stamp, f"mtime of {root.host_path(STAMP)}", STAMP_CAVEAT


def _from_files(root: Root, clock: HostClock, timer: UnitFile, service: UnitFile,
                systemd_running: bool) -> TimerState:
    if timer.masked:
        state, state_source = "masked", f"{timer.path} -> /dev/null"
    elif not timer.installed:
        state, state_source = "not-installed", "no fstrim.timer unit in the systemd unit directories"
    elif timer.enabled_links:
        state, state_source = "enabled", timer.enabled_links[0]
    else:
        state, state_source = "disabled", "no link in /etc/systemd/system/timers.target.wants"
    settings = timer.settings
    calendars = settings.values("Timer", "OnCalendar")
    delay = settings.last("Timer", "RandomizedDelaySec")
    accuracy = settings.last("Timer", "AccuracySec")
    persistent = settings.last("Timer", "Persistent")
    condition = settings.values("Unit", "ConditionVirtualization")
    last, last_source, caveat = _stamp(root, clock)
    execs = service.settings.values("Service", "ExecStart")
    return TimerState(
        read_via="unit files", systemd_running=systemd_running, installed=timer.installed,
        state=state, state_source=state_source,
        calendars=tuple(value for value, _ in calendars),
        calendar_source=", ".join(sorted({source for _, source in calendars})) or (timer.path or "-"),
        randomized_delay_s=parse_timespan(delay[0]) or 0.0 if delay else 0.0,
        accuracy_s=parse_timespan(accuracy[0]) or 60.0 if accuracy else 60.0,
        persistent=bool(persistent and persistent[0].lower() in ("yes", "true", "1", "on")),
        dropins=timer.dropins, last_trigger=last, last_trigger_source=last_source,
        last_trigger_caveat=caveat, next_elapse=None, next_elapse_source=None,
        service_commands=tuple(value.lstrip("-@:+!") for value, _ in execs),
        service_source=", ".join(sorted({source for _, source in execs})) or (service.path or "-"),
        skips_containers=any(value == "!container" for value, _ in condition),
    )


def _from_show(root: Root, clock: HostClock, shown: dict[str, dict[str, str]], files: TimerState,
               source: str) -> TimerState:
    timer, service = shown.get(TIMER, {}), shown.get(SERVICE, {})
    load = timer.get("LoadState", "")
    state = "masked" if load == "masked" else timer.get("UnitFileState") or files.state
    if load == "not-found":
        state = "not-installed"
    last = parse_show_timestamp(timer.get("LastTriggerUSec", ""), clock.zone)
    next_elapse = parse_show_timestamp(timer.get("NextElapseUSecRealtime", ""), clock.zone)
    calendars = calendar_expressions(timer.get("TimersCalendar", ""))
    delay = parse_timespan(timer.get("RandomizedDelayUSec", ""))
    accuracy = parse_timespan(timer.get("AccuracyUSec", ""))
    commands = exec_command_lines(service.get("ExecStart", ""))
    dropins = tuple(timer.get("DropInPaths", "").split()) or files.dropins
    return TimerState(
        read_via="systemctl show", systemd_running=True, installed=load not in ("not-found", ""),
        state=state, state_source=f"{source} (UnitFileState, LoadState)",
        calendars=tuple(calendars) or files.calendars,
        calendar_source=f"{source} (TimersCalendar)" if calendars else files.calendar_source,
        randomized_delay_s=delay if delay is not None else files.randomized_delay_s,
        accuracy_s=accuracy if accuracy is not None else files.accuracy_s,
        persistent=timer.get("Persistent", "").lower() == "yes" if "Persistent" in timer
        else files.persistent,
        dropins=dropins, last_trigger=last,
        last_trigger_source=f"{source} (LastTriggerUSec)" + ("" if last else ": never triggered"),
        last_trigger_caveat=None,
        next_elapse=next_elapse,
        next_elapse_source=f"{source} (NextElapseUSecRealtime)" if next_elapse else None,
        service_commands=tuple(commands) or files.service_commands,
        service_source=f"{source} (ExecStart)" if commands else files.service_source,
        skips_containers=files.skips_containers,
    )


def read_timer_state(root: Root, clock: HostClock) -> TimerState:
    """The fstrim timer as systemd sees it, falling back to unit files and the stamp when it cannot ask."""
    systemd_running = root.listdir(SYSTEMD_RUNTIME) is not None
    if not systemd_running and not root.live:
        captured, _ = root.read_text(f"commands/{SHOW_KEY}.txt")
        systemd_running = bool(captured and captured.strip())
    files = _from_files(root, clock, read_unit_file(root, TIMER), read_unit_file(root, SERVICE),
                        systemd_running)
    if not systemd_running:
        return files
    shown = root.run(SHOW_KEY, SHOW_ARGV)
    if shown.text is None:
        return files
    units = parse_systemctl_show(shown.text)
    if TIMER not in units:
        return files
    return _from_show(root, clock, units, files, "systemctl show")
