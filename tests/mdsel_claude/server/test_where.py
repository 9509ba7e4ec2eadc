"""Kernel-resolved paths: the same answers as os.path.realpath, in fewer system calls."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

from mdsel_claude.server.where import opened_path, real_path


def test_opened_path_names_the_file_behind_the_descriptor(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("a")
    fd = os.open(tmp_path / "a.md", os.O_RDONLY)
    try:
        assert opened_path(fd) in (str(tmp_path / "a.md"), None)
    finally:
        os.close(fd)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """Files, links to files and directories, links that dangle or loop, a FIFO."""
    root = tmp_path.resolve()
    (root / "docs" / "deep").mkdir(parents=True)
    (root / "docs" / "deep" / "a.md").write_text("a")
    (root / "docs" / "b.md").write_text("b")
    (root / "link.md").symlink_to(root / "docs" / "b.md")
    (root / "relative.md").symlink_to("docs/deep/a.md")
    (root / "dirlink").symlink_to(root / "docs" / "deep")
    (root / "chain.md").symlink_to("link.md")
    (root / "dangling.md").symlink_to("nowhere.md")
    (root / "loop.md").symlink_to("loop.md")
    (root / "odd (deleted)").write_text("a file whose name ends as a removed one reads back")
    if hasattr(os, "mkfifo"):
        os.mkfifo(root / "pipe.md")
    return root


NAMES = [
    "docs/b.md", "docs/deep/a.md", "link.md", "relative.md", "dirlink/a.md", "dirlink/../b.md",
    "chain.md", "dangling.md", "loop.md", "missing.md", "missing/dir/x.md", "docs/./deep//a.md",
    "docs/b.md/", "docs", "dirlink", "odd (deleted)", "pipe.md", ".", "..",
]  # fmt: skip


@pytest.mark.parametrize("name", NAMES)
def test_real_path_answers_as_realpath_does(tree: Path, name: str) -> None:
    path = os.path.join(str(tree), name)
    assert real_path(path) == os.path.realpath(path)


def test_a_fifo_is_resolved_without_blocking(tree: Path) -> None:
    if not (tree / "pipe.md").exists():
        pytest.skip("no FIFOs here")
    answers: list[str] = []
    worker = threading.Thread(target=lambda: answers.append(real_path(str(tree / "pipe.md"))))
    worker.start()
    worker.join(5)
    assert answers == [str(tree / "pipe.md")]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="asks the kernel on Linux only")
def test_on_linux_the_kernel_answers_without_walking(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    walked: list[str] = []
    walk = os.path.realpath

    def counted(path: str) -> str:
        walked.append(path)
        return walk(path)

    monkeypatch.setattr(os.path, "realpath", counted)
    assert real_path(str(tree / "link.md")) == str(tree / "docs" / "b.md")
    assert walked == []
    assert real_path(str(tree / "dangling.md")) == str(tree / "nowhere.md")
    assert walked == [str(tree / "dangling.md")]


def _swapped_during_the_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    """`readlink` failing after `lstat` saw a link: the link was swapped for a directory
    between the two calls (EINVAL), as a process renaming names in a loop makes it happen."""

    def swapped(path: object, *args: object, **kwargs: object) -> str:
        raise OSError(22, "Invalid argument", path)

    monkeypatch.setattr(os, "readlink", swapped)


def test_a_path_swapped_while_it_is_walked_answers_as_missing(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _swapped_during_the_walk(monkeypatch)
    with pytest.raises(FileNotFoundError):
        real_path(str(tree / "dirlink" / "a.md"))
