"""The Textual application: a thin shell that opens the stack screen on a Root."""

from __future__ import annotations

from diskdoctor.probes.root import Root
from textual.app import App
from textual.binding import Binding

from .stack_screen import StackScreen

EXIT_INTERRUPTED = 130
NARROW_BELOW = 120


class DiskDoctorApp(App[None]):
    """diskdoctor's interactive UI."""

    CSS_PATH = "../assets/app.tcss"
    TITLE = "diskdoctor"
    BINDINGS = [
        Binding("ctrl+c", "interrupt", "Quit", show=False, priority=True),
    ]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW_BELOW, "-wide")]
    """Below NARROW_BELOW columns (an 80-column SSH session) the details go under the tree."""

    def __init__(self, root: Root) -> None:
        super().__init__()
        self.root_to_read = root

    def get_default_screen(self) -> StackScreen:
        return StackScreen(self.root_to_read)

    def action_interrupt(self) -> None:
        """Ctrl-C quits at once, with the shell's exit code for an interrupt."""
        self.exit(return_code=EXIT_INTERRUPTED)
