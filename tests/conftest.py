"""Shared fixtures: fixture sysroots, the real loop-device stack, and the CI live-test rule."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from diskdoctor.probes.host import Host, read_host
from diskdoctor.probes.root import Root
from support.loop_stack import LoopStack, build_loop_stack

FIXTURES = Path(__file__).parent / "fixtures"
LIVE_TOOLS = ("losetup", "mkfs.ext4", "mkfs.xfs", "mkfs.btrfs", "sfdisk", "partx", "fstrim")


def fixture_root(name: str) -> Root:
    """A committed fixture sysroot as a Root."""
    return Root(str(FIXTURES / name), live=False)


def fixture_host(name: str) -> Host:
    """The Host snapshot of a committed fixture sysroot."""
    return read_host(fixture_root(name))


@pytest.fixture(autouse=True)
def private_state_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test (and every CLI it starts) saves benchmark runs in its own state dir, never in ~."""
    state = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    return state


@pytest.fixture(autouse=True)
def workers_replaced_count_as_done(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pilot test's `workers.wait_for_complete()` treats a worker that a newer one of its exclusive group
    cancelled (the details of a row the cursor left) as done, as the app does, instead of raising."""
    from textual.worker import WorkerCancelled
    from textual.worker_manager import WorkerManager

    original = WorkerManager.wait_for_complete

    async def wait_for_complete(self: WorkerManager, workers=None) -> None:  # type: ignore[no-untyped-def]
        for worker in list(workers or self):
            try:
                await original(self, [worker])
            except WorkerCancelled:
                continue

    monkeypatch.setattr(WorkerManager, "wait_for_complete", wait_for_complete)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):  # type: ignore[no-untyped-def]
    """Under CI=true a skipped live or lab test is a failure: CI must exercise real devices and kernels."""
    outcome = yield
    report = outcome.get_result()
    marker = next((m for m in ("live", "lab") if item.get_closest_marker(m)), None)
    if report.skipped and marker and os.environ.get("CI") == "true":
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.longrepr = f"{marker} test skipped under CI=true (skips count as failures): {reason}"


def live_prerequisites() -> str | None:
    """Why live loop-device tests cannot run here, or None when they can."""
    if os.geteuid() != 0:
        return "live tests need root (loop devices, mkfs, mount)"
    missing = [tool for tool in LIVE_TOOLS if shutil.which(tool) is None]
    if missing:
        return "missing tools: " + ", ".join(missing)
    if not os.path.exists("/dev/loop-control"):
        return "this kernel has no loop devices"
    return None


@pytest.fixture(scope="session")
def loop_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoopStack]:
    """Real loop devices with ext4 (discard), xfs, btrfs (zstd) and a no-discard device."""
    why = live_prerequisites()
    if why:
        pytest.skip(why)
    stack = build_loop_stack(tmp_path_factory.mktemp("loops"))
    try:
        yield stack
    finally:
        stack.teardown()
