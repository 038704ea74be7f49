"""Measure the CPU the TUI's Monitor screen costs while nothing happens, against a minimal Textual app.

Each run starts a fresh process in a pseudo-terminal (120x40 unless --size says otherwise, as a user's
terminal: the frames are really written and read), waits for its first paint, presses 6 (the Monitor
screen) for the TUI, lets it settle, then reads the process's CPU time (user + system of every thread,
/proc/PID/stat) over --seconds. The baseline is a minimal Textual app (a header, one line, a footer)
idling the same time in the same way. With --versus PYTHON the TUI of another install (the code before
a change) runs too. The runs rotate (each round starts with the next one), and the medians are printed
with the bytes each wrote to the terminal per second. The target is under 1% of one core on ~10 live devices.
Usage: .venv/bin/python bench/monitor_idle.py [--seconds 30] [--rounds 3] [--sysroot DIR]
       [--screen 6] [--size 200x60] [--versus OTHER/.venv/bin/python]
       (run under `flock -x /work/wt/measure.lock`).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import pty
import select
import signal
import statistics
import struct
import sys
import termios
import time

SETTLE_S = 4.0
"""After the Monitor key: the first reading, the first rates and the screen's first draws are not idle."""
FIRST_PAINT_S = 20.0
FLOOR_APP = """
from textual.app import App
from textual.widgets import Footer, Header, Static

class Floor(App):
    BINDINGS = [("q", "quit", "Quit")]

    def compose(self):
        yield Header()
        yield Static("idle")
        yield Footer()

Floor().run()
"""


def _cpu_s(pid: int) -> float:
    """User + system seconds of every thread of `pid` so far."""
    with open(f"/proc/{pid}/stat", "rb") as stat:
        fields = stat.read().rsplit(b")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _drain(fd: int, seconds: float) -> int:
    """Read (and drop) what the child writes for `seconds`; returns the byte count."""
    total, end = 0, time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            total += len(chunk)
    return total


def run_once(argv: list[str], keys: bytes, seconds: float,
             size: tuple[int, int] = (120, 40)) -> tuple[float, float]:
    """(percent of one core, bytes written per second) of `argv` idling in a pty of `size` after `keys`."""
    columns, lines = size
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update({"TERM": "xterm-256color", "COLUMNS": str(columns), "LINES": str(lines)})
        os.execv(argv[0], argv)
    try:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        _drain(fd, 1.0)
        deadline = time.monotonic() + FIRST_PAINT_S
        while time.monotonic() < deadline and _drain(fd, 0.5):  # until the first screen stops changing
            pass
        if keys:
            os.write(fd, keys)
        _drain(fd, SETTLE_S)
        start, cpu = time.monotonic(), _cpu_s(pid)
        written = _drain(fd, seconds)
        elapsed = time.monotonic() - start
        used = _cpu_s(pid) - cpu
        return used / elapsed * 100, written / elapsed
    finally:
        with contextlib.suppress(OSError):
            os.write(fd, b"q")
            _drain(fd, 1.0)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)
        os.close(fd)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of runs (each TUI and the floor)")
    parser.add_argument("--sysroot", default="", help="a capture ('' for the live host)")
    parser.add_argument("--screen", default="6", help="the key that opens the screen measured (6: Monitor)")
    parser.add_argument("--size", default="120x40", help="the terminal, COLUMNSxLINES (200x60: room for the "
                        "Monitor's trend pane under a short table)")
    parser.add_argument("--versus", metavar="PYTHON", help="also run the TUI from this interpreter's install "
                        "(another checkout's venv: the code before a change), in the same rotation")
    args = parser.parse_args()
    size = tuple(int(part) for part in args.size.lower().split("x", 1))
    tui = ["-m", "diskdoctor.app"] + (["--sysroot", args.sysroot] if args.sysroot else [])
    arms = [("diskdoctor", [sys.executable, *tui], args.screen.encode())]
    if args.versus:
        arms.append(("versus", [args.versus, *tui], args.screen.encode()))
    arms.append(("minimal app", [sys.executable, "-c", FLOOR_APP], b""))
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name, _, _ in arms}
    for index in range(args.rounds):
        shift = index % len(arms)
        for name, argv, keys in arms[shift:] + arms[:shift]:
            percent, rate = run_once(argv, keys, args.seconds, (size[0], size[1]))
            runs[name].append((percent, rate))
            print(f"  {name}: {percent:.2f}% of one core, {rate:,.0f} B/s to the terminal", flush=True)
    print(f"idle {args.seconds:.0f} s on screen {args.screen} at {args.size}, {args.rounds} rounds, medians:")
    for name, found in runs.items():
        print(f"  {name:<12} {statistics.median(p for p, _ in found):5.2f}% of one core "
              f"({statistics.median(r for _, r in found):,.0f} B/s written to the terminal)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
