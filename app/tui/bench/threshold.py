"""The threshold a run is judged against: etcd docs 10 ms, vendor 20 ms or a custom value checked as typed."""

from __future__ import annotations

from typing import Any

from diskdoctor.widgets import TextField
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.validation import Function
from textual.widgets import Input, Select, Static

from . import view


def _valid_threshold(text: str) -> bool:
    """A number of milliseconds above 0."""
    return view.threshold_ms("custom", text)[0] is not None


class ThresholdRow(Horizontal):
    """The threshold menu, the custom value (editable only for "custom") and why that value is unusable."""

    class Changed(Message):
        """Another threshold was picked or typed: judge again."""

    def __init__(self) -> None:
        super().__init__(id="bench-threshold-row")

    def compose(self) -> ComposeResult:
        yield Select([(label, key) for key, label in view.THRESHOLDS], value="etcd", allow_blank=False,
                     id="bench-threshold")
        yield TextField("10", placeholder="ms", id="bench-threshold-custom", disabled=True,
                        select_on_focus=False,
                        validators=[Function(_valid_threshold, "a number of ms above 0")])
        yield Static("", id="bench-threshold-error")

    @property
    def choice(self) -> str:
        """"etcd", "vendor" or "custom"."""
        return str(self.query_one("#bench-threshold", Select).value)

    def picked(self) -> tuple[float | None, str | None]:
        """The threshold in ms, or (None, why) for an unusable custom value."""
        return view.threshold_ms(self.choice, self.query_one("#bench-threshold-custom", Input).value)

    def settings(self) -> dict[str, Any]:
        """The threshold picked now, as a saved run records it (none when the custom one is unusable)."""
        threshold, _ = self.picked()
        if threshold is None:
            return {}
        return {"threshold_ms": threshold, "threshold_source": view.threshold_source(self.choice, threshold)}

    def cycle(self) -> None:
        """Pick the next threshold profile: etcd docs, vendor, custom."""
        keys = [key for key, _ in view.THRESHOLDS]
        select = self.query_one("#bench-threshold", Select)
        select.value = keys[(keys.index(str(select.value)) + 1) % len(keys)]

    @on(Select.Changed, "#bench-threshold")
    def picked_profile(self) -> None:
        """The custom box shows the picked threshold, and is editable only for "custom"."""
        field = self.query_one("#bench-threshold-custom", Input)
        field.disabled = self.choice != "custom"
        if self.choice != "custom":
            field.value = f"{view.threshold_ms(self.choice, '')[0]:g}"
        self.post_message(self.Changed())

    @on(Input.Changed, "#bench-threshold-custom")
    def typed(self) -> None:
        self.post_message(self.Changed())

    def show_problem(self) -> None:
        """An unusable custom value is shown at the field at once."""
        _, problem = self.picked()
        error = self.query_one("#bench-threshold-error", Static)
        error.update(Text(problem or "", style="bold red"))
        error.display = problem is not None
