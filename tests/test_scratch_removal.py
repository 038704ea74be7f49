"""Removing scratch: only this user's folders, by descriptor at any depth, never through a link."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import pytest
from diskdoctor.probes.scratch import NotPrivate, owner_tag, private_temp_dir, remove_stale, remove_tree
from support.dead_owner import dead_tag
from support.wal_support import tmpfs_dir

__all__ = ["tmpfs_dir"]

NOBODY = pwd.getpwnam("nobody").pw_uid
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give a folder to another user")


def nested(top: Path, depth: int) -> None:
    """`top`/d/d/d/... `depth` folders deep, each with a file: far past PATH_MAX (4096 bytes)."""
    top.mkdir(mode=0o700)
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(depth):
            os.close(os.open("file", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd))
            os.mkdir("d", dir_fd=fd)
            inner = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = inner
    finally:
        os.close(fd)


def test_a_tree_deeper_than_any_path_is_removed(tmpfs_dir: str) -> None:
    nested(Path(tmpfs_dir) / "scratch", 3000)
    assert remove_tree(os.path.join(tmpfs_dir, "scratch"))
    assert os.listdir(tmpfs_dir) == []


def test_links_inside_are_removed_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    (outside / "sub").mkdir(parents=True)
    (outside / "sub" / "keep").write_text("mine\n")
    scratch = tmp_path / "scratch"
    (scratch / "a" / "b").mkdir(parents=True)
    (scratch / "a" / "b" / "to-dir").symlink_to(outside)
    (scratch / "a" / "to-sub").symlink_to(outside / "sub")
    (scratch / "to-file").symlink_to(outside / "sub" / "keep")
    assert remove_tree(str(scratch))
    assert not scratch.exists()
    assert (outside / "sub" / "keep").read_text() == "mine\n"


def test_a_link_in_place_of_the_scratch_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "victim").mkdir()
    (tmp_path / "victim" / "keep").write_text("x")
    (tmp_path / "scratch").symlink_to(tmp_path / "victim")
    assert not remove_tree(str(tmp_path / "scratch"))
    assert (tmp_path / "victim" / "keep").exists() and (tmp_path / "scratch").is_symlink()


@as_root
def test_another_users_folder_is_never_removed(tmp_path: Path) -> None:
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o700)
    (theirs / "keep").write_text("x")
    os.chown(theirs, NOBODY, NOBODY)
    assert not remove_tree(str(theirs))
    assert (theirs / "keep").exists()


@as_root
def test_the_sweep_takes_only_this_users_private_folders_of_dead_owners(tmp_path: Path) -> None:
    prefix = ".diskdoctor-bench-"
    tag = dead_tag()
    mine = tmp_path / f"{prefix}{tag}mine"
    theirs = tmp_path / f"{prefix}{tag}theirs"
    loose = tmp_path / f"{prefix}{tag}loose"  # not made by mkdtemp (0700): not ours to judge
    alive = tmp_path / f"{prefix}{owner_tag()}alive"
    for folder in (mine, theirs, loose, alive):
        folder.mkdir(mode=0o700)
        (folder / "wal.0").write_text("x")
    os.chown(theirs, NOBODY, NOBODY)
    os.chmod(loose, 0o755)
    assert remove_stale(str(tmp_path), prefix) == [str(mine)]
    assert sorted(os.listdir(tmp_path)) == sorted(p.name for p in (theirs, loose, alive))


@as_root
def test_the_private_temp_folder_is_made_tightened_or_refused(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    path = Path(private_temp_dir())
    assert path == tmp_path / f"diskdoctor-{os.geteuid()}"
    assert path.stat().st_mode & 0o777 == 0o700 and path.stat().st_uid == os.geteuid()
    path.chmod(0o755)
    assert private_temp_dir() == str(path) and path.stat().st_mode & 0o777 == 0o700
    os.chown(path, NOBODY, NOBODY)
    with pytest.raises(NotPrivate, match="owned by uid 65534"):
        private_temp_dir()
    path.rmdir()
    path.symlink_to(tmp_path)
    with pytest.raises(NotPrivate, match="something else has its name"):
        private_temp_dir()


def test_the_private_temp_folder_goes_with_the_last_scratch_in_it(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """/tmp is left as it was found, also while two runs share the folder."""
    import tempfile

    from diskdoctor.probes.scratch import make_owned_dir

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    first, second = make_owned_dir("diskdoctor-sysroot-"), make_owned_dir("diskdoctor-sysroot-")
    private = tmp_path / f"diskdoctor-{os.geteuid()}"
    assert {Path(first).parent, Path(second).parent} == {private}
    assert Path(first).stat().st_mode & 0o777 == 0o700
    assert remove_tree(first) and private.is_dir()
    assert remove_tree(second) and os.listdir(tmp_path) == []
