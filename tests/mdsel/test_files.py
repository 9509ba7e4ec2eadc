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


def deep_tree(root: Path, levels: int) -> Path:
    """`root/d/d/…/d` with a Markdown file at the top and one at the bottom; made level by
    level through directory descriptors (pathlib's recursive mkdir stops near 1,000 levels)."""
    root.mkdir()
    (root / "top.md").write_text("# Top\n")
    fd = os.open(root, os.O_RDONLY)
    for _ in range(levels):
        os.mkdir("d", dir_fd=fd)
        below = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = below
    done = os.open("bottom.md", os.O_WRONLY | os.O_CREAT, dir_fd=fd)
    os.write(done, b"# Bottom\n")
    os.close(done)
    os.close(fd)
    return root.joinpath(*["d"] * levels)


def remove_deep_tree(root: Path, levels: int) -> None:
    """Bottom up, without recursion: shutil.rmtree recurses once per level."""
    for level in range(levels, -1, -1):
        directory = root.joinpath(*["d"] * level)
        for entry in os.scandir(directory):
            if not entry.is_dir(follow_symlinks=False):
                os.unlink(entry.path)
        if level:
            os.rmdir(directory)


@pytest.mark.parametrize("argument", ["tree", "tree/**/*.md"])
def test_a_tree_deeper_than_the_limit_ends_in_a_warning_not_a_recursion_error(
    tmp_path: Path, argument: str
) -> None:
    deep_tree(tmp_path / "tree", 1100)
    try:
        expansion = expand_paths([argument], FileLimits(max_depth=64), cwd=str(tmp_path))
    finally:
        remove_deep_tree(tmp_path / "tree", 1100)
    assert expansion.paths == (os.path.join("tree", "top.md"),)
    assert len(expansion.warnings) == 1
    warning = expansion.warnings[0]
    assert "more than 64 levels below" in warning and argument in warning
    assert "MDSEL_MAX_DEPTH" in warning


def test_files_within_the_depth_limit_are_found(tmp_path: Path) -> None:
    deepest = deep_tree(tmp_path / "tree", 5)
    found = expand_paths(["tree"], FileLimits(max_depth=5), cwd=str(tmp_path))
    assert found.paths[-1] == os.path.relpath(deepest / "bottom.md", tmp_path)
    assert found.warnings == ()


def test_thousands_of_double_star_segments_match_like_one(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "c.md").write_text("# C\n")
    pattern = "/".join(["**"] * 3000 + ["*.md"])
    assert expand_paths([pattern], cwd=str(tmp_path)).paths == (os.path.join("a", "b", "c.md"),)


def test_the_same_argument_many_times_is_expanded_once(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n")
    expansion = expand_paths(["docs"] * 500 + ["docs/."], cwd=str(tmp_path))
    assert expansion.paths == (os.path.join("docs", "a.md"),)  # `docs/./a.md` is that file


def test_directory_links_are_not_walked_and_unreadable_directories_are_empty(
    tmp_path: Path,
) -> None:
    (tmp_path / "docs" / "locked").mkdir(parents=True)
    (tmp_path / "docs" / "a.md").write_text("# A\n")
    (tmp_path / "docs" / "locked" / "b.md").write_text("# B\n")
    (tmp_path / "docs" / "loop").symlink_to(tmp_path / "docs")
    (tmp_path / "docs" / "locked").chmod(0)
    try:
        found = expand_paths(["docs", "docs/**/*.md"], cwd=str(tmp_path)).paths
    finally:
        (tmp_path / "docs" / "locked").chmod(0o755)
    if os.geteuid() == 0:  # root reads anything
        return
    assert found == (os.path.join("docs", "a.md"),)


def test_the_names_budget_stops_walks_with_a_warning(tmp_path: Path) -> None:
    for folder in ("a", "b", "c"):
        (tmp_path / "docs" / folder).mkdir(parents=True)
        for number in range(10):
            (tmp_path / "docs" / folder / f"n{number}.md").write_text("# N\n")
    everything = expand_paths(["docs", "docs/**/*.md"], cwd=str(tmp_path))
    assert len(everything.paths) == 30 and everything.warnings == ()
    limited = expand_paths(["docs", "docs/**/*.md"], FileLimits(max_names=15), cwd=str(tmp_path))
    assert 0 < len(limited.paths) < 30
    assert limited.paths == everything.paths[: len(limited.paths)]  # the same order, cut short
    assert "stopped listing after examining 15 names (MDSEL_MAX_NAMES)" in limited.warnings[0]


def test_globs_match_as_before_when_segments_are_stars(tmp_path: Path) -> None:
    for path in ("x/a/b.md", "x/a/c/d.md", "x/e.md", "y/a/b.md"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("# T\n")

    def found(pattern: str) -> list[str]:
        paths = expand_paths([pattern], cwd=str(tmp_path)).paths
        return [p.replace(os.sep, "/") for p in paths]

    assert found("*/a/*.md") == ["x/a/b.md", "y/a/b.md"]
    assert found("x/*") == ["x/a/b.md", "x/a/c/d.md", "x/e.md"]  # a matched directory, expanded
    assert found("**/c/*.md") == ["x/a/c/d.md"]
    assert found("x/**/**/*.md") == ["x/a/b.md", "x/a/c/d.md", "x/e.md"]


def test_arguments_the_budget_never_reached_say_so(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    for number in range(20):
        (tmp_path / "docs" / f"n{number}.md").write_text("# N\n")
    limited = expand_paths(
        ["docs/*.txt", "docs/*.rst"], FileLimits(max_names=25), cwd=str(tmp_path)
    )
    assert [(p.file, p.code) for p in limited.problems] == [
        ("docs/*.txt", "NO_MATCH"),
        ("docs/*.rst", "NOT_SEARCHED"),
    ]


# --- `-`: standard input -------------------------------------------------------------------------


class _Stdin:
    """Stands in for sys.stdin: what read_bytes touches is `.buffer`."""

    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def test_dash_is_standard_input_even_beside_a_file_called_dash(tmp_path: Path) -> None:
    (tmp_path / "-").write_text("# a file called dash\n")
    expansion = expand_paths(["-", "-"], cwd=str(tmp_path))
    assert expansion == (("-",), (), (), ())
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


def test_one_file_named_several_ways_is_read_once(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "guide").mkdir(parents=True)
    (docs / "guide" / "a.md").write_text("# A\n")
    (docs / "b.md").write_text("# B\n")
    (docs / "guide" / "link.md").symlink_to("a.md")
    (tmp_path / "alias").symlink_to("docs")
    named = [
        "docs", "./docs/guide", str(docs / "guide" / "a.md"), "docs/guide/../guide/a.md",
        "docs/b.md", "alias/b.md", "-", "-",
    ]  # fmt: skip
    expansion = expand_paths(named, cwd=str(tmp_path))
    # The link is a file of its own (as named, it may be refused where its target is not).
    assert sorted(expansion.paths) == sorted([
        os.path.join("docs", "b.md"), os.path.join("docs", "guide", "a.md"),
        os.path.join("docs", "guide", "link.md"), "-",
    ])  # fmt: skip
    assert not expansion.problems
    # The first spelling is kept: the directory walk named them first.
    assert expansion.paths[0].startswith("docs")


def test_names_alike_but_for_case_are_one_file_only_where_they_are_one_entry(
    tmp_path: Path,
) -> None:
    """Where names ignore case (macOS, Windows) `A.md` and `a.md` are one file, read once; on
    a system that tells them apart they are two. A hard link stands in for the first here."""
    (tmp_path / "a.md").write_text("# A\n")
    os.link(tmp_path / "a.md", tmp_path / "A.md")
    (tmp_path / "b.md").write_text("# B\n")
    (tmp_path / "B.md").write_text("# other B\n")
    expansion = expand_paths(["a.md", "A.md", "b.md", "B.md"], cwd=str(tmp_path))
    assert expansion.paths == ("a.md", "b.md", "B.md")


def test_a_folder_swapped_while_it_is_resolved_keeps_its_files_as_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """realpath's lstat saw a link and its readlink then found a directory: no traceback."""
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "x.md").write_text("# X\n")

    def swapped(path: str, *args: object, **kwargs: object) -> str:
        raise OSError(22, "Invalid argument", path)

    monkeypatch.setattr(os.path, "realpath", swapped)
    expansion = expand_paths(["a/x.md", "b/x.md", "a/x.md"], cwd=str(tmp_path))
    assert expansion.paths == ("a/x.md", "b/x.md")


def test_a_removed_working_directory_refuses_relative_paths_and_reads_absolute_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = tmp_path / "kept" / "a.md"
    doc.parent.mkdir()
    doc.write_text("# A\n")
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()  # the process stands in a folder that no longer exists
    found = expand_paths(["a.md", str(doc), "*.md", str(tmp_path / "kept"), "-"])
    assert found.paths == (str(doc), "-")  # the absolute file and its folder: one file
    refused = {problem.file: problem for problem in found.problems}
    assert set(refused) == {"a.md", "*.md"}
    assert all(p.code == "NO_WORKING_DIRECTORY" for p in refused.values())
    assert "give an absolute path" in refused["a.md"].message
