"""`devices` runs with Python's cycle collector paused (its passes over the just-read host cost the JSON
document 25-65 ms at 5,000 devices), and the host's stack indexes keep their natural order when each name's
sort key is made once."""

from __future__ import annotations

import gc
import io
import json
from contextlib import redirect_stdout
from dataclasses import replace

import pytest
from conftest import FIXTURES
from diskdoctor.app.cli.main import main
from diskdoctor.app.core.stack import devices_json
from diskdoctor.probes.host import Host, natural_key, read_host
from diskdoctor.probes.root import Root

ROOT = str(FIXTURES / "etcd-raid0-lvm-luks")


@pytest.mark.parametrize("argv", [["devices", "--json"], ["devices"]])
def test_devices_runs_with_the_collector_paused_and_restores_it(monkeypatch: pytest.MonkeyPatch,
                                                                 argv: list[str]) -> None:
    seen: list[bool] = []
    document = devices_json.devices_document
    import diskdoctor.app.text.devices_table as table

    printed = table.print_devices

    def spy_document(host: Host) -> dict:
        seen.append(gc.isenabled())
        return document(host)

    def spy_print(*args: object, **kwargs: object) -> None:
        seen.append(gc.isenabled())
        printed(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(devices_json, "devices_document", spy_document)
    monkeypatch.setattr(table, "print_devices", spy_print)
    assert gc.isenabled()
    with redirect_stdout(io.StringIO()):
        assert main([*argv, "--sysroot", ROOT]) == 0
    assert seen == [False]
    assert gc.isenabled()


def test_a_failing_devices_command_restores_the_collector() -> None:
    assert main(["devices", "--json", "--sysroot", str(FIXTURES / "no-such-capture")]) != 0
    assert gc.isenabled()


def test_the_stack_indexes_are_in_natural_order() -> None:
    host = read_host(Root(ROOT, live=False))
    names = ["loop10", "loop2", "sdb", "sda10", "sda2", "sda", "dm-1", "dm-0"]
    template = next(iter(host.devices.values()))
    devices = {name: replace(template, kname=name, name=name, parents=(), holders=(),
                             kind="disk", partition_number=None, dm_uuid=None) for name in names}
    devices["sda2"] = replace(devices["sda2"], kind="part", partition_number=2, parents=("sda",))
    devices["sda10"] = replace(devices["sda10"], kind="part", partition_number=10, parents=("sda",))
    devices["sda"] = replace(devices["sda"], holders=("dm-1", "sda10", "dm-0", "dm-1"))
    devices["dm-1"] = replace(devices["dm-1"], parents=("sda",))
    devices["dm-0"] = replace(devices["dm-0"], parents=("sda",))
    built = Host("x", None, None, devices, [], [])
    assert built.roots() == ["loop2", "loop10", "sda", "sdb"]
    assert built.children("sda") == ["sda2", "sda10", "dm-0", "dm-1"]
    assert sorted(devices, key=natural_key)[:2] == ["dm-0", "dm-1"]


def test_a_loop_is_still_cut() -> None:
    host = read_host(Root(ROOT, live=False))
    template = next(iter(host.devices.values()))
    devices = {name: replace(template, kname=name, name=name, kind="disk", partition_number=None,
                             dm_uuid=None, parents=(), holders=()) for name in ("a", "b", "c")}
    devices["a"] = replace(devices["a"], holders=("b",))
    devices["b"] = replace(devices["b"], holders=("a",), parents=("a",))
    devices["a"] = replace(devices["a"], parents=("b",))
    built = Host("x", None, None, devices, [], [])
    assert any("closes a loop" in warning for warning in built.warnings)
    assert json.dumps(devices_json.devices_document(built))  # finite


def test_names_with_other_scripts_digits_sort_without_an_error() -> None:
    """A capture's device names with Arabic-Indic digits beside ASCII ones sort (they raised TypeError)."""
    names = ["sd\u0661", "sd10", "sd1", "sda", "1", "x2y"]
    assert sorted(names, key=natural_key) == ["1", "sd1", "sd10", "sda", "sd\u0661", "x2y"]
