"""The Textual application: a thin shell that opens the stack screen on a Root."""

from __future__ import annotations

from diskdoctor.probes.root import Root
from textual.app import App

from .stack_screen import StackScreen


class DiskDoctorApp(App[None]):
    """diskdoctor's interactive UI."""

    CSS_PATH = "../assets/app.tcss"
    TITLE = "diskdoctor"

    def __init__(self, root: Root) -> None:
        super().__init__()
        self.root_to_read = root

    def get_default_screen(self) -> StackScreen:
        return StackScreen(self.root_to_read)
