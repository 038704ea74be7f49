"""A finished run set aside while the Benchmark form describes a different run: its panes are hidden (what
Start runs shows instead, as before any run) and come back as they were once the form says that run again."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

RUN_PANES = ("#bench-left", "#bench-verdict", "#bench-advice", "#bench-fio", "#bench-progress-text",
             "#bench-stats", "#bench-layers-title", "#bench-layers", "#bench-previous", "#bench-after")
"""Everything that shows the run on screen (the chart and histogram are in #bench-left)."""
PLAN = "#bench-plan"
BODY = "#bench-body"
BEFORE_RUN = "-before-run"


class ParkedRun:
    """The shown run's panes as they were when the form stopped describing it (None: the run is shown)."""

    def __init__(self, screen: Screen[Any]) -> None:
        self.screen = screen
        self.form: tuple[object, ...] | None = None
        """What the form said when the run ended: while it says that, the run is the one shown."""
        self.displays: dict[str, bool] | None = None
        self.folded = False
        """Whether the form was folded (a short terminal) when the run was set aside."""

    @property
    def parked(self) -> bool:
        """Whether the run is set aside (the form describes another run)."""
        return self.displays is not None

    def ran(self, form: tuple[object, ...] | None) -> None:
        """The run shown now was run with the form saying `form` (None: a run goes, nothing is set aside)."""
        self.form, self.displays = form, None

    def differs(self, form: tuple[object, ...]) -> bool:
        """Whether `form` describes another run than the one shown."""
        return self.form is not None and form != self.form

    def park(self, folded: bool) -> None:
        """Hide the run's panes and show what Start runs, the form unfolded (`folded`: it was folded)."""
        if self.parked:
            return
        query = self.screen.query_one
        self.displays = {selector: bool(query(selector).display) for selector in (*RUN_PANES, PLAN)}
        self.displays[BODY] = query(BODY).has_class(BEFORE_RUN)
        self.folded = folded
        for selector in RUN_PANES:
            query(selector).display = False
        query(PLAN).display = True
        query(BODY).add_class(BEFORE_RUN)  # no rule beside the hidden chart

    def unpark(self) -> bool:
        """Show the run's panes as they were; returns whether the form was folded when they were hidden."""
        if self.displays is None:
            return False
        query = self.screen.query_one
        for selector, shown in self.displays.items():
            if selector == BODY:
                query(BODY).set_class(shown, BEFORE_RUN)
            else:
                query(selector).display = shown
        self.displays = None
        return self.folded
