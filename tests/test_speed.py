"""What keeps the tool fast that a user can see: the modules a command loads, JSON into a pipe, workers."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from conftest import fixture_root
from diskdoctor.app.tui.app import DiskDoctorApp
from textual.worker import Worker

SIZE = (150, 40)


async def test_workers_never_describe_themselves_with_the_host(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker named from repr() of its arguments repr()s the whole Host on every cursor move."""
    seen: list[str] = []
    original = Worker.__init__

    def recording(self: Worker[Any], *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        seen.append(f"{self.name} {self.description}")

    monkeypatch.setattr(Worker, "__init__", recording)
    app = DiskDoctorApp(fixture_root("etcd-raid0-lvm-luks"))
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        for _ in range(3):
            await pilot.press("down")
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert any("device's details" in text for text in seen), seen
    assert all(len(text) < 200 and "Host(" not in text for text in seen), [text[:200] for text in seen]


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "diskdoctor.app", *argv], capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.mark.parametrize("command", ["devices", "trim"])
def test_json_into_a_pipe_is_compact_and_pretty_on_request(command: str) -> None:
    root = str(fixture_root("etcd-raid0-lvm-luks").path)
    compact = _cli(command, "--json", "--sysroot", root)
    pretty = _cli(command, "--json", "--pretty", "--sysroot", root)
    assert compact.stdout.count("\n") == 1 and ": " not in compact.stdout.split('"')[0]
    assert pretty.stdout.count("\n") > 20 and pretty.stdout.startswith("{\n  ")
    first, second = json.loads(compact.stdout), json.loads(pretty.stdout)
    first.pop("now", None), second.pop("now", None)  # trim's clock reading
    assert first == second


LOADED = """
import sys
sys.argv = ["diskdoctor", *sys.argv[1:]]
from diskdoctor.app.launcher import main
try:
    main()
finally:
    sys.stdout.flush()
    sys.stderr.write("\\nMODULES " + " ".join(sys.modules) + "\\n")
"""


def loaded_modules(*argv: str) -> set[str]:
    """The modules a command has imported by its end, in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", LOADED, *argv], capture_output=True, text=True, timeout=120,
                          check=False)
    line = done.stderr.rsplit("MODULES ", 1)[-1]
    return set(line.split())


def heavy(modules: set[str], *prefixes: str) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in prefixes or m.startswith(prefixes))


@pytest.mark.parametrize("argv", [("trim", "--json"), ("trim",), ("devices", "--json")])
def test_trim_and_devices_load_no_benchmark_psutil_or_http(argv: tuple[str, ...]) -> None:
    modules = loaded_modules(*argv, "--sysroot", str(fixture_root("etcd-raid0-lvm-luks").path))
    assert "diskdoctor.app.core.snapshot" in modules or argv[0] == "devices"
    assert heavy(modules, "diskdoctor.probes.engine.", "diskdoctor.app.core.bench", "psutil", "pyudev",
                 "http", "urllib.request", "textual", "email", "importlib.metadata", "tarfile",
                 "diskdoctor.probes.scratch", "diskdoctor.probes.child_guard") == []
    if argv == ("devices", "--json"):
        assert heavy(modules, "rich", "subprocess", "shutil", "diskdoctor.app.core.trim") == []


def test_version_loads_neither_the_cli_nor_package_metadata() -> None:
    modules = loaded_modules("--version")
    assert heavy(modules, "argparse", "typing", "importlib.metadata", "email", "diskdoctor.app.cli") == []


def test_version_is_the_installed_distributions() -> None:
    from importlib.metadata import version

    assert _cli("--version").stdout == f"diskdoctor {version('diskdoctor')}\n"
