"""A long layer name in the details' TRIM path breaks after a "-" or "_" (stack13): at 200x60 on long-names
`vg_elasticsearch_hot-l` / `v_postgresql_write_ahe` / `ad_log (lvm)` was folded mid-word into 22 cells."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.widgets import LayerTable


def test_a_label_breaks_after_a_dash_or_underscore() -> None:
    from diskdoctor.widgets.layer_table import label_lines

    label = "vg_elasticsearch_hot-lv_postgresql_write_ahead_log (lvm)"
    assert label_lines(label, 22).split("\n") == ["vg_elasticsearch_hot-", "lv_postgresql_write_",
                                                  "ahead_log (lvm)"]
    assert label_lines("nvme1n1p1 (part)", 22) == "nvme1n1p1 (part)"
    assert label_lines("a" * 30, 22).split("\n") == ["a" * 22, "a" * 8]  # nowhere better: folded


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
async def test_the_trim_path_names_the_layer_in_whole_words(size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root("long-names"))
    async with app.run_test(size=size) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("G")  # the WAL volume, at the bottom
        await pilot.pause()
        await pilot.pause()
        table = app.screen.query_one(LayerTable)
        labels = [str(table.get_cell(key, "attribute")) for key in table.rows]
        wal = [label for label in labels if label.endswith("ahead_log (lvm)")]
        assert wal == ["vg_elasticsearch_hot-\nlv_postgresql_write_\nahead_log (lvm)"], labels
