"""The server's reader: judged by the opened descriptor, bounded by the call's byte budget."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mdsel import Problem, run_command
from mdsel_claude.server import access
from mdsel_claude.server.reader import Cancelled, CheckedReader


def reader(
    tmp_path: Path, budget: int = 1000, max_bytes: int = 500, **kwargs: object
) -> CheckedReader:
    policy = access.Policy(roots=kwargs.get("roots"), max_bytes=max_bytes)  # type: ignore[arg-type]
    return CheckedReader(policy, budget, str(tmp_path))


def problem(result: bytes | Problem) -> Problem:
    assert isinstance(result, Problem), result
    return result


def test_reads_a_checked_file_and_charges_the_budget(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_bytes(b"# A\n")
    read = reader(tmp_path)
    assert read("a.md") == b"# A\n"
    assert read.remaining == 1000 - 4


def test_a_link_to_a_markdown_file_inside_the_roots_is_read(tmp_path: Path) -> None:
    (tmp_path / "real.md").write_bytes(b"# Real\n")
    (tmp_path / "alias.md").symlink_to("real.md")
    assert reader(tmp_path, roots=(str(tmp_path),))("alias.md") == b"# Real\n"


def test_a_name_that_now_leads_outside_the_roots_is_refused(tmp_path: Path) -> None:
    inside, outside = tmp_path / "in", tmp_path / "out"
    (outside / "d").mkdir(parents=True)
    inside.mkdir()
    (outside / "d" / "z.md").write_text("secret")
    (inside / "d").symlink_to(outside / "d")  # a directory above the file, not the file
    found = problem(reader(inside, roots=(str(inside),))("d/z.md"))
    assert (found.code, found.file) == ("OUTSIDE_ROOTS", "d/z.md")
    assert "secret" not in found.message


def test_a_file_become_a_link_to_a_non_markdown_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("secret")
    (tmp_path / "x.md").symlink_to("secret.txt")
    assert problem(reader(tmp_path)("x.md")).code == "NOT_MARKDOWN"


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.md")
    assert problem(reader(tmp_path)("pipe.md")).code == "NOT_REGULAR"


def test_dash_is_a_name_refused_never_standard_input(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n")
    (tmp_path / "-").symlink_to("a.md")  # even a `-` that leads to a Markdown file
    found = problem(reader(tmp_path)("-"))
    assert (found.code, found.file) == ("NOT_MARKDOWN", "-")
    assert "not a Markdown file name" in found.message


def test_missing_and_too_large(tmp_path: Path) -> None:
    (tmp_path / "big.md").write_bytes(b"x" * 501)
    assert problem(reader(tmp_path)("gone.md")).type == "FILE_NOT_FOUND"
    assert problem(reader(tmp_path)("big.md")).code == "TOO_LARGE"


def test_the_call_budget_bounds_what_is_read(tmp_path: Path) -> None:
    for name in ("a.md", "b.md", "c.md"):
        (tmp_path / name).write_bytes(b"y" * 400)
    read = reader(tmp_path, budget=1000)
    assert read("a.md") == b"y" * 400
    assert read("b.md") == b"y" * 400
    found = problem(read("c.md"))
    assert found.code == "TOO_LARGE" and "MDSEL_MAX_TOTAL_BYTES" in found.message
    assert read.remaining < 0 and 1000 - read.remaining <= 1000 + 1


def test_a_cancelled_call_reads_nothing_more(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("a")
    policy = access.Policy(max_bytes=100)
    with pytest.raises(Cancelled):
        CheckedReader(policy, 100, str(tmp_path), cancelled=lambda: True)("a.md")


def test_the_engine_reports_what_the_reader_refuses_and_parses_what_it_returns(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.md").write_text("# From disk\n")

    def read(path: str) -> bytes | Problem:
        if path == "a.md":
            return b"# Handed over\n"
        return Problem("PROCESSING_ERROR", "REFUSED", "refused by the caller", file=path)

    outcome = run_command("index", None, ["a.md", "b.md"], read=read, cwd=str(tmp_path))
    assert "Handed over" in outcome.stdout and "From disk" not in outcome.stdout
    assert "!b.md PROCESSING_ERROR: refused by the caller" in outcome.stderr


def test_a_file_replaced_by_an_editor_save_after_it_was_opened_is_still_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An atomic save (write a new file, rename it over the name) between the open and the
    # kernel's naming of the descriptor: the old file is complete Markdown, named
    # `<path> (deleted)` by the kernel, and must not be refused as "not a Markdown file now".
    from mdsel_claude.server import reader as reader_module

    (tmp_path / "notes.md").write_bytes(b"# Old\n")
    from mdsel_claude.server.where import opened_path as real_opened_path

    def save_then_name(fd: int) -> str | None:
        (tmp_path / "new.md").write_bytes(b"# New\n")
        os.replace(tmp_path / "new.md", tmp_path / "notes.md")
        return real_opened_path(fd)

    monkeypatch.setattr(reader_module, "opened_path", save_then_name)
    assert reader(tmp_path, roots=(str(tmp_path),))("notes.md") == b"# Old\n"


def test_a_file_really_named_deleted_is_not_taken_for_an_unlinked_one(tmp_path: Path) -> None:
    (tmp_path / "x.md (deleted)").write_text("secret")
    (tmp_path / "x.md").symlink_to("x.md (deleted)")
    assert problem(reader(tmp_path)("x.md")).code == "NOT_MARKDOWN"


def test_a_file_really_named_deleted_and_removed_while_read_keeps_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The file is removed between the kernel's first answer and the link count: the name asked
    # again carries the kernel's suffix after its own, and only that one is dropped.
    from mdsel_claude.server import reader as reader_module

    (tmp_path / "x.md (deleted)").write_text("secret")
    (tmp_path / "x.md").symlink_to("x.md (deleted)")
    from mdsel_claude.server.where import opened_path as real_opened_path

    asked: list[str | None] = []

    def name_then_remove(fd: int) -> str | None:
        asked.append(real_opened_path(fd))
        if len(asked) == 1:
            os.unlink(tmp_path / "x.md (deleted)")
        return asked[-1]

    monkeypatch.setattr(reader_module, "opened_path", name_then_remove)
    found = problem(reader(tmp_path)("x.md"))
    assert found.code == "NOT_MARKDOWN" and "secret" not in found.message


def test_a_name_swapped_while_it_is_resolved_reads_as_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_bytes(b"# A\n")
    (tmp_path / "link").symlink_to(tmp_path / "docs")

    def swapped(path: object, *args: object, **kwargs: object) -> str:
        raise OSError(22, "Invalid argument", path)  # a directory where `lstat` saw a link

    monkeypatch.setattr(os, "readlink", swapped)
    refused = problem(reader(tmp_path)("link/a.md"))
    assert (refused.type, refused.code) == ("FILE_NOT_FOUND", "ENOENT")
