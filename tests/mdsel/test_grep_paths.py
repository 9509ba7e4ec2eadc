"""`docs/a.md:23` as `grep -n` prints it: which documents of a call the path names, the selector
it parses to, and the answer: `L23` in that document, or a miss naming the candidates."""

from __future__ import annotations

from pathlib import Path

import pytest

from mdsel.cli import run
from mdsel.grep_paths import grep_paths
from mdsel.selector import LINE, Item, Segment, parse_request

NAMED = ["docs/a.md", "docs/sub/a.md", "other/b.md", "/repo/docs/c.md", "-"]


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("docs/a.md", [0]),  # the same path first, though docs/sub/a.md ends with a.md too
        ("./docs/a.md", [0]),
        ("docs/x/../a.md", [0]),
        ("/repo/docs/a.md", [0]),  # grep from the folder above
        ("a.md", [0, 1]),  # from inside docs/ or docs/sub/: both, never one guessed
        ("sub/a.md", [1]),
        ("b.md", [2]),
        ("../other/b.md", [2]),
        ("c.md", [3]),
        ("docs/c.md", [3]),
        ("/elsewhere/docs/c.md", []),  # two absolute paths: only the same one
        ("/repo/docs/c.md", [3]),
        ("other/a.md", []),
        ("A.md", []),  # in its letter case, as the file system names it
        ("-", []),
    ],
)
def test_which_documents_a_grep_path_names(written: str, expected: list[int]) -> None:
    assert grep_paths(written, NAMED) == expected


@pytest.mark.parametrize(
    ("text", "file", "rest"),
    [
        ("docs/a.md:23", "docs/a.md", ()),
        ("docs/a.md:23:", "docs/a.md", ()),  # with grep's colon before the text
        ("docs/a.md:23/code.0", "docs/a.md", (Segment("code", (Item(0, 0),)),)),
        ("./a b/x.md:23", None, None),  # a space: not a path (it is no selector either)
    ],
)
def test_path_line_parses_to_that_line_of_that_file(
    text: str, file: str | None, rest: tuple[Segment, ...] | None
) -> None:
    if file is None:
        with pytest.raises(Exception, match="column"):
            parse_request(text)
        return
    (selector,) = parse_request(text)
    assert selector.file == file and selector.namespace is None
    assert selector.segments == (Segment(LINE, (Item(23, 23),)), *(rest or ()))


def test_path_line_keeps_its_params_and_a_list_of_selectors() -> None:
    first, second = parse_request("docs/a.md:5?head=2,h2.0")
    assert first.file == "docs/a.md" and first.params.head == 2
    assert second.file == "" and second.segments == (Segment("h2", (Item(0, 0),)),)


def tree(tmp_path: Path) -> Path:
    (tmp_path / "docs" / "sub").mkdir(parents=True)
    (tmp_path / "docs" / "a.md").write_text("# A\n\none\n\n## B\n\ntwo\n")
    (tmp_path / "docs" / "sub" / "a.md").write_text("# Sub\n\nthree\n")
    return tmp_path


def test_a_grep_line_selects_the_section_holding_it(tmp_path: Path) -> None:
    cwd = str(tree(tmp_path))
    outcome = run(["select", "docs/a.md:7", "docs/"], {}, cwd)
    assert outcome.exit_code == 0
    assert outcome.stdout == "==> docs/a.md a::h2.0 A › B L5-7 <==\n## B\n\ntwo\n"
    # From inside docs/, grep prints sub/a.md; the call may still name the folder above.
    inside = run(["select", "sub/a.md:1", "docs/"], {}, cwd)
    assert inside.stdout.startswith("==> docs/sub/a.md a-2::h1.0 Sub L1-3 <==\n")
    # One document named: its path by as much as both give.
    alone = run(["select", f"{cwd}/docs/a.md:3", "docs/a.md"], {}, cwd)
    assert alone.stdout.startswith("==> docs/a.md h1.0 A L1-7 <==\n")


def test_a_grep_path_naming_several_or_none_is_a_miss_that_says_so(tmp_path: Path) -> None:
    cwd = str(tree(tmp_path))
    several = run(["select", "a.md:1", "docs/"], {}, cwd)
    assert several.exit_code == 1 and several.stdout == ""
    assert several.stderr.startswith(
        "!a.md:1 NAMESPACE_NOT_FOUND: a.md may be any of 2 documents of this call "
        "(docs/a.md, docs/sub/a.md); write more of its path"
    )
    none = run(["select", "docs/z.md:1", "docs/"], {}, cwd)
    assert none.stderr.startswith(
        "!docs/z.md:1 NAMESPACE_NOT_FOUND: no document of this call is at docs/z.md (read as "
        "path:line, as grep -n prints it)"
    )
    past = run(["select", "docs/a.md:99", "docs/"], {}, cwd)
    assert past.stderr.startswith("!docs/a.md:99 SELECTOR_NOT_FOUND: line 99 is past the end")


def test_a_grep_path_a_limit_left_out_is_named(tmp_path: Path) -> None:
    cwd = str(tree(tmp_path))
    outcome = run(["select", "docs/sub/a.md:1", "docs/"], {"MDSEL_MAX_FILES": "1"}, cwd)
    assert outcome.exit_code == 1
    assert "docs/sub/a.md is docs/sub/a.md, which this call did not read" in outcome.stderr


def test_a_search_inside_a_grep_line_pages_in_that_file(tmp_path: Path) -> None:
    cwd = tmp_path
    body = "".join(f"## S{n}\n\nneedle {n}\n\n" for n in range(20))
    (cwd / "a.md").write_text("# A\n\n" + body)
    (cwd / "b.md").write_text("# B\n\nneedle\n")
    outcome = run(["select", "a.md:1?q=needle", "a.md", "b.md"], {}, str(cwd))
    assert "next hits: a.md:1?q=needle&page=2" in outcome.stdout
