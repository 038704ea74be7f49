"""A screen that draws the shared host snapshot must say how: a missing show_snapshot fails at import."""

from __future__ import annotations

import pytest
from diskdoctor.app.tui.host_snapshot import HostSnapshot, SnapshotScreen


def test_a_snapshot_screen_without_show_snapshot_is_refused_when_defined() -> None:
    with pytest.raises(TypeError, match="Blank is a SnapshotScreen but does not define show_snapshot"):
        class Blank(SnapshotScreen):
            pass

    class Drawn(SnapshotScreen):
        def show_snapshot(self, snapshot: HostSnapshot) -> None:
            self.drawn = snapshot

    assert Drawn.show_snapshot is not SnapshotScreen.show_snapshot
