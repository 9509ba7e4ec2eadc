"""Name rules shared by the engine, the read policy and the hook."""

from __future__ import annotations

import pytest

from mdsel.names import (
    MARKDOWN_SUFFIXES,
    heading_selector,
    is_glob,
    is_markdown_name,
    namespace_of,
    namespaces,
)


def test_the_suffixes_are_the_spec_list() -> None:
    assert MARKDOWN_SUFFIXES == (".md", ".markdown", ".mdx", ".mdown", ".mkd", ".mkdn")


@pytest.mark.parametrize(
    "name",
    [
        *("a.md", "A.MD", "x.Markdown", "x.mdx", "x.mdown", "x.MKD", "x.mkdn", "dir/x.md"),
        *("x.md/", "a..md", "a.b.md", "/abs/path/notes.md", ".hidden.md", "dir.d/x.md"),
    ],
)
def test_markdown_names(name: str) -> None:
    assert is_markdown_name(name)


@pytest.mark.parametrize(
    "name",
    ["a.txt", "a.md.txt", ".md", "a", "amd", "a.m d", "a.rst", "dir.md/x", "x/.md", "..md", ""],
)
def test_other_names(name: str) -> None:
    assert not is_markdown_name(name)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        *(("*.md", True), ("docs/**/x.md", True), ("a?.md", True), ("[ab].md", True)),
        *(("a.md", False), ("docs/a b.md", False), ("a{b}.md", False)),
    ],
)
def test_globs(path: str, expected: bool) -> None:
    assert is_glob(path) is expected


def test_heading_selector() -> None:
    assert heading_selector(2, 0) == "h2.0"
    assert heading_selector(6, 41) == "h6.41"


def test_namespace_of_a_path_with_a_trailing_separator() -> None:
    assert namespace_of("docs/Guide.md/") == "guide"
    assert namespace_of("notes") == "notes"


@pytest.mark.parametrize(
    ("paths", "expected"),
    [
        (["README.md"], ["readme"]),
        (["API Guide.md"], ["api_guide"]),
        (["docs/README.md", "README.md", "x/readme.markdown"], ["readme", "readme-2", "readme-3"]),
        (["a.b.md"], ["a_b"]),
        (["Übersicht.md"], ["_bersicht"]),
        ([".md"], ["doc"]),
        (["readme-2.md", "readme.md", "README.md"], ["readme-2", "readme", "readme-3"]),
        (["2024.md"], ["2024"]),
    ],
)
def test_namespaces(paths: list[str], expected: list[str]) -> None:
    assert namespaces(paths) == expected
