"""A walkthrough's footer says `q Quit` as every other screen's does, beside its own keys (newuser15 at
80x24: `n Next esc Leave` over `F1 Help ^g Guides w Report  123456 screens` (now `1-6 screens`), no Quit)."""

from __future__ import annotations

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from support.guide_pilot import open_guide, settle
from test_footer_and_fold_fit import assert_every_key_shows, footer_text


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)], ids=["80x24", "120x40", "200x60"])
@pytest.mark.parametrize("guide", ["etcd", "trim", "slow", "apps"])
async def test_a_walkthrough_footer_says_quit_and_keeps_its_own_keys(guide: str,
                                                                     size: tuple[int, int]) -> None:
    app = DiskDoctorApp(fixture_root("lab-ssd"))
    async with app.run_test(size=size) as pilot:
        screen = await open_guide(pilot, guide)
        screen.set_focus(None)  # out of a field (Esc there), where q and w are typed, not keys
        await settle(pilot)
        footer = footer_text(app)
        assert "q Quit" in footer, footer
        assert "n Next" in footer and "esc Leave" in footer, footer  # the guide's own keys stay
        assert "F1 Help ^g Guides q Quit w Report" in " ".join(footer.split()), footer
        assert_every_key_shows(app, size[0])
