"""Tests for server.access: what the server may read, and that refusals never open a file."""

from __future__ import annotations

import os
import socket
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from mdsel_claude.server.access import (
    Policy,
    check,
    check_argument,
    glob_refusal,
    refusals,
    shown,
)


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    (tmp_path / "a.md").write_text("# A\n")
    (tmp_path / "notes.txt").write_text("plain\n")
    return tmp_path


def test_a_markdown_file_is_accepted(docs: Path) -> None:
    assert check("a.md", Policy(), cwd=str(docs)) is None
    assert check(str(docs / "a.md"), Policy()) is None


def test_a_non_markdown_name_is_refused(docs: Path) -> None:
    refusal = check("notes.txt", Policy(), cwd=str(docs))
    assert refusal is not None
    assert (refusal.file, refusal.type, refusal.code) == (
        "notes.txt",
        "PROCESSING_ERROR",
        "NOT_MARKDOWN",
    )


def test_a_markdown_symlink_to_a_non_markdown_file_is_refused(docs: Path) -> None:
    (docs / "link.md").symlink_to(docs / "notes.txt")
    refusal = check("link.md", Policy(), cwd=str(docs))
    assert refusal is not None and refusal.code == "NOT_MARKDOWN"
    assert "notes.txt" in refusal.message


def test_a_markdown_symlink_to_a_markdown_file_is_accepted(docs: Path) -> None:
    (docs / "alias.markdown").symlink_to(docs / "a.md")
    assert check("alias.markdown", Policy(), cwd=str(docs)) is None


def test_a_chain_of_symlinks_is_judged_by_its_final_target(docs: Path) -> None:
    (docs / "hop.md").symlink_to(docs / "notes.txt")
    (docs / "start.md").symlink_to(docs / "hop.md")
    refusal = check("start.md", Policy(), cwd=str(docs))
    assert refusal is not None and refusal.code == "NOT_MARKDOWN"


def test_a_dangling_symlink_is_not_found(docs: Path) -> None:
    (docs / "gone.md").symlink_to(docs / "missing.md")
    refusal = check("gone.md", Policy(), cwd=str(docs))
    assert refusal is not None
    assert (refusal.type, refusal.code) == ("FILE_NOT_FOUND", "ENOENT")


def test_a_fifo_is_refused_without_being_opened(docs: Path) -> None:
    # Opening a FIFO with no writer blocks forever; the test's timeout would catch that.
    os.mkfifo(docs / "x.md")
    refusal = check("x.md", Policy(), cwd=str(docs))
    assert refusal is not None and refusal.code == "NOT_REGULAR"
    assert "FIFO" in refusal.message


def test_a_directory_named_like_markdown_is_refused(docs: Path) -> None:
    (docs / "folder.md").mkdir()
    refusal = check("folder.md", Policy(), cwd=str(docs))
    assert refusal is not None and refusal.code == "EISDIR"
    assert "directory" in refusal.message


@pytest.fixture
def short_dir() -> Iterator[Path]:
    # Unix socket paths are limited to about 100 bytes; pytest's tmp_path can be longer.
    with tempfile.TemporaryDirectory(prefix="mds") as name:
        yield Path(name)


def test_a_socket_is_refused(short_dir: Path) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(str(short_dir / "s.md"))
        refusal = check("s.md", Policy(), cwd=str(short_dir))
    assert refusal is not None and "socket" in refusal.message


def test_a_device_is_refused(docs: Path) -> None:
    try:
        os.mknod(docs / "null.md", stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except (PermissionError, OSError):
        (docs / "null.md").symlink_to("/dev/null")
        # Without mknod rights the device is reached through a link, judged by its target name.
        refusal = check("null.md", Policy(), cwd=str(docs))
        assert refusal is not None and refusal.code == "NOT_MARKDOWN"
        return
    refusal = check("null.md", Policy(), cwd=str(docs))
    assert refusal is not None and "character device" in refusal.message


def test_size_limit(docs: Path) -> None:
    (docs / "big.md").write_bytes(b"x" * 101)
    assert check("big.md", Policy(max_bytes=101), cwd=str(docs)) is None
    refusal = check("big.md", Policy(max_bytes=100), cwd=str(docs))
    assert refusal is not None and refusal.code == "TOO_LARGE"
    assert "MDSEL_MAX_BYTES" in refusal.message


def test_roots_confine_reads(tmp_path: Path) -> None:
    inside = tmp_path / "docs"
    outside = tmp_path / "docs-private"
    inside.mkdir()
    outside.mkdir()
    (inside / "a.md").write_text("# A\n")
    (outside / "b.md").write_text("# B\n")
    (inside / "escape.md").symlink_to(outside / "b.md")
    policy = Policy(roots=(os.path.realpath(inside),))
    assert check(str(inside / "a.md"), policy) is None
    # A sibling whose name merely starts with the root's name is outside it.
    refusal = check(str(outside / "b.md"), policy)
    assert refusal is not None and refusal.code == "OUTSIDE_ROOTS"
    # A link inside the root pointing out of it is judged by its target.
    refusal = check(str(inside / "escape.md"), policy)
    assert refusal is not None and refusal.code == "OUTSIDE_ROOTS"
    relative = check("../docs-private/b.md", policy, cwd=str(inside))
    assert relative is not None and relative.code == "OUTSIDE_ROOTS"


def test_a_root_spelled_in_another_case_holds_its_files_where_names_ignore_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As on macOS's and Windows' default file systems (simulated here: this one tells case
    apart), `/x/Proj` and `/x/proj` are one directory, and a file in it is inside the root."""
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "a.md").write_text("# A\n")
    policy = Policy(roots=(str(tmp_path / "Proj"),))
    refusal = check(str(tmp_path / "proj" / "a.md"), policy)
    assert refusal is not None and refusal.code == "OUTSIDE_ROOTS"  # here, Proj is not proj
    real_stat = os.stat

    def any_case(path: str | os.PathLike[str], *args: object, **kwargs: object) -> os.stat_result:
        return real_stat(str(path).replace("Proj", "proj"), *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", any_case)
    assert check(str(tmp_path / "proj" / "a.md"), policy) is None


def test_names_alike_but_for_case_are_two_directories_where_the_system_says_so(
    tmp_path: Path,
) -> None:
    for name in ("Proj", "proj"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "a.md").write_text("# A\n")
    policy = Policy(roots=(str(tmp_path / "Proj"),))
    assert check(str(tmp_path / "Proj" / "a.md"), policy) is None
    refusal = check(str(tmp_path / "proj" / "a.md"), policy)
    assert refusal is not None and refusal.code == "OUTSIDE_ROOTS"


def test_outside_roots_says_nothing_about_the_target(tmp_path: Path) -> None:
    (tmp_path / "root").mkdir()
    policy = Policy(roots=(os.path.realpath(tmp_path / "root"),))
    missing = check(str(tmp_path / "missing.md"), policy)
    present = tmp_path / "present.md"
    present.write_text("x")
    existing = check(str(present), policy)
    assert missing is not None and existing is not None
    assert (missing.code, missing.message) == (existing.code, existing.message)


def test_refusals_keep_order_and_do_not_stop_at_one(docs: Path) -> None:
    (docs / "b.md").write_text("# B\n")
    refused = refusals(["a.md", "notes.txt", "b.md", "nope.md"], Policy(), cwd=str(docs))
    assert list(refused) == ["notes.txt", "nope.md"]
    assert [refusal.file for refusal in refused.values()] == ["notes.txt", "nope.md"]


def test_a_glob_with_too_many_segments_is_refused_before_it_is_expanded(tmp_path: Path) -> None:
    pattern = "/".join(["**"] * 40 + ["*.md"])
    refusal = glob_refusal(pattern, 32, str(tmp_path))
    assert refusal is not None and refusal.code == "GLOB_TOO_LONG"
    assert "41 path segments; the limit is 32 (MDSEL_MAX_GLOB_SEGMENTS)" in refusal.message
    assert glob_refusal("docs/**/*.md", 32, str(tmp_path)) is None
    assert glob_refusal("/".join(["d"] * 40) + ".md", 32, str(tmp_path)) is None  # not a glob
    literal = tmp_path.joinpath(*["[x]"] * 33)
    literal.mkdir(parents=True)
    assert glob_refusal(os.path.relpath(literal, tmp_path), 32, str(tmp_path)) is None


def test_shown_escapes_every_line_separator() -> None:
    assert shown("a\nb\x85c\x9bd\u2028e\u2029f\x7f") == "a\\x0ab\\x85c\\x9bd\\u2028e\\u2029f\\x7f"
    assert shown("plain é ü.md") == "plain é ü.md"


def _swapped(path: object, *args: object, **kwargs: object) -> str:
    # `lstat` saw a link, and a directory stood there by the time `readlink` read it
    raise OSError(22, "Invalid argument", path)


@pytest.mark.parametrize("roots", [None, "tmp"])
def test_a_name_swapped_during_the_root_check_is_a_missing_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, roots: str | None
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n")
    (tmp_path / "link").symlink_to(tmp_path / "docs")
    policy = Policy(roots=None if roots is None else (str(tmp_path.resolve()),))
    monkeypatch.setattr(os, "readlink", _swapped)
    refusal = check("link/a.md", policy, cwd=str(tmp_path))
    assert refusal is not None
    assert (refusal.type, refusal.code, refusal.file) == ("FILE_NOT_FOUND", "ENOENT", "link/a.md")


def test_a_directory_swapped_while_its_argument_is_checked_is_a_missing_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "docs")
    monkeypatch.setattr(os, "readlink", _swapped)
    refusal = check_argument("link", Policy(roots=(str(tmp_path.resolve()),)), cwd=str(tmp_path))
    assert refusal is not None
    assert (refusal.code, refusal.file) == ("ENOENT", "link")
