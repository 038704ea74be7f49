"""What changes when diskdoctor runs as the frozen binary (tested in the venv by faking sys.frozen)."""

from __future__ import annotations

import sys

import pytest
from diskdoctor.probes.root import host_command_env


def test_host_commands_get_the_users_library_path_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setenv("LD_LIBRARY_PATH", "/tmp/_MEIabc:/opt/site/lib")
    monkeypatch.setenv("LD_LIBRARY_PATH_ORIG", "/opt/site/lib")
    env = host_command_env()
    assert env["LD_LIBRARY_PATH"] == "/opt/site/lib"
    assert "LD_LIBRARY_PATH_ORIG" not in env
    assert (env["LC_ALL"], env["LANG"]) == ("C", "C")


def test_host_commands_get_no_bundled_library_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setenv("LD_LIBRARY_PATH", "/tmp/_MEIabc")
    monkeypatch.delenv("LD_LIBRARY_PATH_ORIG", raising=False)
    assert "LD_LIBRARY_PATH" not in host_command_env()


def test_outside_the_binary_the_library_path_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(sys, "frozen", raising=False)
    monkeypatch.setenv("LD_LIBRARY_PATH", "/opt/site/lib")
    assert host_command_env()["LD_LIBRARY_PATH"] == "/opt/site/lib"
