"""A Stack key as a user sees it (issue 23, keys under 50 ms): the cursor and the details of its row arrive
together; new details repaint the details, not the whole screen, and still scroll to their end; G/g jump;
a key typed in the filter lays the screen out at most twice; a screen switch leaves the footer as it is
when its keys are the same. (The speed itself is measured by bench/tui_keys.py, not here.)"""

from __future__ import annotations

from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from diskdoctor.app.tui.stack_screen import PANE_CHROME_LINES, TREE_SHARE
from diskdoctor.widgets import LayerTable, StackTree
from diskdoctor.widgets.fitted_footer import FittedFooter
from textual.widgets import Static
from textual.widgets._footer import FooterKey

LAB = "lab-ssd"


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


def shown(app: DiskDoctorApp) -> tuple[str, str]:
    """The cursor row's name and the details pane's title, as the screen holds them now."""
    screen = app.screen
    node = screen.query_one(StackTree).cursor_node
    title = str(screen.query_one("#details-title", Static).content)
    return (node.data.name if node is not None and node.data is not None else "", title)


async def test_every_frame_shows_the_details_of_the_row_under_the_cursor() -> None:
    """A frame drawn between the cursor's move and its details showed the new row beside the last row's
    details (and the details then needed a second frame): each key now paints both at once. (The rows
    beside the cursor are read ahead; a jump to a row never read waits for its read, off the UI thread.)"""
    app = DiskDoctorApp(fixture_root(LAB))
    frames: list[tuple[str, str]] = []
    display = app._display

    def recording_display(screen, renderable) -> None:  # type: ignore[no-untyped-def]
        if renderable is not None and screen is app.screen:
            frames.append(shown(app))
        display(screen, renderable)

    app._display = recording_display  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        moves = 0
        for key in ["down"] * 8 + ["up"] * 3 + ["j", "k"]:
            frames.clear()
            await pilot.press(key)
            await settle(pilot)
            name, title = shown(app)
            assert title.startswith(f"Details: {name}"), (key, name, title)
            assert frames, key  # the move was painted
            wrong = [frame for frame in frames if not frame[1].startswith(f"Details: {frame[0]}")]
            assert not wrong, (key, wrong)
            moves += 1
        assert moves == 13


async def test_new_details_repaint_only_the_details_and_still_scroll_to_their_end() -> None:
    """Details with other rows than the last (a disk after a partition) no longer lay out and repaint the
    whole screen; the table's scrollbar still follows the new height, so its last row can be reached."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        layouts = 0
        refresh_layout = screen._refresh_layout

        def counting_layout(*args, **kwargs):  # type: ignore[no-untyped-def]
            nonlocal layouts
            layouts += 1
            return refresh_layout(*args, **kwargs)

        screen._refresh_layout = counting_layout  # type: ignore[method-assign]
        table = screen.query_one(LayerTable)
        heights = set()
        for _ in range(6):
            await pilot.press("down")
            await settle(pilot)
            content = table.header_height + sum(row.height for row in table.ordered_rows)
            assert table.virtual_size.height == content
            assert table.max_scroll_y == max(0, content - table.scrollable_content_region.height)
            heights.add(content)
        assert len(heights) > 1  # the moves crossed layers with other details (the table was rebuilt)
        assert layouts == 0
        table.scroll_end(animate=False)
        await settle(pilot)
        assert table.scroll_y == table.max_scroll_y > 0  # the last rows can be scrolled to


def footer_keys(app: DiskDoctorApp) -> list[tuple[str, str]]:
    """The footer's keys as shown on the current screen: (key shown, label)."""
    footer = app.screen.query_one(FittedFooter)
    return [(key.key_display, key.description) for key in footer.query(FooterKey)]


async def test_switching_back_to_a_screen_keeps_its_footer_and_a_change_of_keys_still_shows() -> None:
    """A screen switch composed every footer key widget again (several times) for the same keys: most of a
    switch's CPU. The footer now stays as it is when its keys are the same, and still follows a change
    (the `/` filter's own keys while it is typed, the screen's keys once it is closed)."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        footer = app.screen.query_one(FittedFooter)
        widgets = list(footer.query(FooterKey))
        keys = footer_keys(app)
        assert ("/", "Filter") in keys and ("v", "Direction") in keys
        for screen in ("2", "1", "4", "1"):
            await pilot.press(screen)
            await settle(pilot)
        assert list(footer.query(FooterKey)) == widgets  # the same key widgets, not composed again
        assert footer_keys(app) == keys
        await pilot.press("slash")
        await settle(pilot)
        typing = footer_keys(app)
        assert ("enter", "Keep filter") in typing or ("⏎", "Keep filter") in typing, typing
        await pilot.press("escape")
        await settle(pilot)
        assert footer_keys(app) == keys


async def test_last_and_first_row_keys_show_the_row_at_once() -> None:
    """G and g put the cursor on the last / first row and the view there in the first frame (as less and
    htop do): the tree slid there over ~9 frames, each drawing every line of the tree again."""
    app = DiskDoctorApp(fixture_root(LAB))
    scrolled: list[float] = []
    display = app._display

    def recording_display(screen, renderable) -> None:  # type: ignore[no-untyped-def]
        if renderable is not None and screen is app.screen:
            scrolled.append(screen.query_one(StackTree).scroll_y)
        display(screen, renderable)

    app._display = recording_display  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(StackTree)
        assert tree.max_scroll_y > 0  # the lab's tree is taller than its pane
        for key, line, scroll in (("G", tree.last_line, tree.max_scroll_y), ("g", 0, 0)):
            scrolled.clear()
            await pilot.press(key)
            await pilot.pause(0.5)  # Textual's slide took ~0.3 s
            assert tree.cursor_line == line
            assert scrolled and all(value == scroll for value in scrolled), (key, scrolled)
            await settle(pilot)
            assert shown(app)[1].startswith(f"Details: {tree.cursor_node.data.name}")


async def test_each_key_typed_in_the_filter_lays_out_the_screen_at_most_twice() -> None:
    """Typing in the `/` filter: the line typed in and the tree's new rows take a layout each; the pane's
    title and its size set again to the same values took two more. The title still says the count and
    the pane still follows the rows it holds."""
    app = DiskDoctorApp(fixture_root(LAB))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("slash")
        await settle(pilot)
        layouts = 0
        refresh_layout = screen._refresh_layout

        def counting_layout(*args, **kwargs):  # type: ignore[no-untyped-def]
            nonlocal layouts
            layouts += 1
            return refresh_layout(*args, **kwargs)

        screen._refresh_layout = counting_layout  # type: ignore[method-assign]
        tree = screen.query_one(StackTree)
        titles = []
        for key in ("s", "d", "a", "3"):
            layouts = 0
            await pilot.press(key)
            await settle(pilot)
            assert layouts <= 2, key
            titles.append(str(screen.query_one("#stack-title", Static).content))
            kept, total = screen.view.shown_devices(), len(screen.host.devices)
            count = f"· all {total} devices" if kept == total else f"· {kept} of {total} devices"
            assert titles[-1].endswith(count), (titles[-1], count)
            body = screen.query_one("#stack-body").size.height
            rows = tree.last_line + 1 + PANE_CHROME_LINES
            assert screen.query_one("#stack-pane").region.height == min(rows, int(body * TREE_SHARE)), key
        assert len(set(titles)) > 1  # the count changed as the filter narrowed
