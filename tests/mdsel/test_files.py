"""Path expansion: literal paths, directories, globs, and the per-call limits."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from mdsel.files import FileLimits, expand_paths
from mdsel.names import namespaces
from mdsel.read import FileReadError, read_bytes


def test_literal_existing_path_wins_over_glob(tmp_path: Path) -> None:
    (tmp_path / "[x].md").write_text("# literal\n")
    (tmp_path / "x.md").write_text("# glob hit\n")
    assert expand_paths(["[x].md"], cwd=str(tmp_path)).paths == ("[x].md",)


def test_directory_symlinks_are_not_followed(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "a.md").write_text("# A\n")
    (tmp_path / "top").mkdir()
    (tmp_path / "top" / "link").symlink_to(tmp_path / "real")
    (tmp_path / "top" / "b.md").write_text("# B\n")
    assert expand_paths(["top"], cwd=str(tmp_path)).paths == (os.path.join("top", "b.md"),)


def test_total_bytes_cap_leaves_files_out_with_a_warning(tmp_path: Path) -> None:
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.md").write_text("x" * 100)
    expansion = expand_paths(
        ["a.md", "b.md", "c.md"], FileLimits(max_total_bytes=250), cwd=str(tmp_path)
    )
    assert expansion.paths == ("a.md", "b.md")
    (warning,) = expansion.warnings
    assert "MDSEL_MAX_TOTAL_BYTES" in warning and "c.md" in warning


def test_duplicates_are_read_once(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n")
    assert expand_paths(["a.md", "a.md", "*.md"], cwd=str(tmp_path)).paths == ("a.md",)


def test_glob_semantics(tmp_path: Path) -> None:
    for name in ("a.md", "d/b.md", "d/e/c.md", "d/.hidden/h.md", "d/node_modules/n.md", "x.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("# T\n")
    (tmp_path / "d" / "loop").symlink_to(".")

    def expand(pattern: str) -> list[str]:
        return [p.replace(os.sep, "/") for p in expand_paths([pattern], cwd=str(tmp_path)).paths]

    assert expand("*.md") == ["a.md"]
    assert expand("d/*.md") == ["d/b.md"]
    assert expand("d/**/*.md") == ["d/b.md", "d/e/c.md"]
    assert expand("**/c.md") == ["d/e/c.md"]
    assert expand("d/*") == ["d/b.md", "d/e/c.md"]  # a matched directory expands
    assert expand("?.md") == ["a.md"]
    assert expand(str(tmp_path / "d" / "*.md")) == [str(tmp_path / "d" / "b.md")]


def test_a_directory_without_markdown_is_reported(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("x")
    expansion = expand_paths(["empty"], cwd=str(tmp_path))
    assert expansion.paths == ()
    (problem,) = expansion.problems
    assert (problem.file, problem.type, problem.code) == ("empty", "FILE_NOT_FOUND", "NO_MARKDOWN")


def test_left_out_names_are_escaped(tmp_path: Path) -> None:
    for name in ("a.md", "b\nc.md"):
        (tmp_path / name).write_text("# T\n")
    (warning,) = expand_paths(["."], FileLimits(max_files=1), cwd=str(tmp_path)).warnings
    assert "\n" not in warning and "b\\nc.md" in warning


# --- `-`: standard input -------------------------------------------------------------------------


class _Stdin:
    """Stands in for sys.stdin: what read_bytes touches is `.buffer`."""

    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def test_dash_is_standard_input_even_beside_a_file_called_dash(tmp_path: Path) -> None:
    (tmp_path / "-").write_text("# a file called dash\n")
    expansion = expand_paths(["-", "-"], cwd=str(tmp_path))
    assert expansion == (("-",), (), ())
    assert namespaces(["README.md", "-", "stdin.md"]) == ["readme", "stdin", "stdin-2"]
    assert expand_paths(["./-"], cwd=str(tmp_path)).paths == ("./-",)


def test_standard_input_is_read_whole_and_under_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", _Stdin(b"# Piped\n\ntext\n"))
    assert read_bytes("-", 100) == b"# Piped\n\ntext\n"
    monkeypatch.setattr("sys.stdin", _Stdin(b"x" * 11))
    with pytest.raises(FileReadError) as caught:
        read_bytes("-", 10)
    problem = caught.value.problem
    assert (problem.file, problem.code) == ("-", "TOO_LARGE")
    assert "standard input" in problem.message and "MDSEL_MAX_BYTES" in problem.message
    monkeypatch.setattr("sys.stdin", _Stdin(b"x" * 10))
    assert read_bytes("-", 10) == b"x" * 10


def test_closed_standard_input_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", None)
    with pytest.raises(FileReadError) as caught:
        read_bytes("-", 10)
    assert caught.value.problem.code == "NO_STDIN"
    assert "standard input is closed" in caught.value.problem.message
