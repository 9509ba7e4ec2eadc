"""Definition-list terms: the ids Hugo gives them (autoDefinitionTermID), numbered with the
headings' ids, and what a link to one selects (the term and its definitions); the block model
is CommonMark's all the same."""

from __future__ import annotations

from pathlib import Path

import pytest

import mdsel

HUGO_TREE = Path(__file__).resolve().parents[1] / "trees" / "hugo-docs" / "content" / "en"


def call(markdown: str, request: str) -> mdsel.SelectResult:
    source = mdsel.Source("doc", "doc.md", mdsel.parse_document(markdown.encode()))
    return mdsel.select(request, [source], mdsel.Options(full=True))


def lines(markdown: str, request: str) -> list[tuple[int, int]]:
    """(first line, last line) of each match."""
    return [(m.line_start, m.line_end) for m in call(markdown, request).matches]


SETTINGS = """\
---
title: All settings
---

## Settings

archetypeDir
: (`string`) The designated directory for archetypes.

languageCode
: (`string`) The site's language tag. Hugo uses it for:

  - The `language` element
  - The `lang` attribute

  When present in the root, it is ignored.

cascade
: See [configure cascade][].

Base Name
Other Name

: Shared definition.
: A second one.

`--chmod=D755,F644`
: Makes files readable.

[foo](/x) *bar*
: Linked.

Base Name
: Again.

## Cascade

text

```text
inCode
: not a definition
```

a
:b is no definition (no space after the colon)
"""


@pytest.mark.parametrize(
    ("fragment", "span"),
    [
        ("archetypedir", (7, 8)),
        ("languagecode", (10, 16)),  # its definition's list and paragraph too
        ("cascade", (36, 46)),  # GitHub's anchor of the heading comes first
        ("cascade-1", (36, 46)),  # the heading's id on the Hugo page: the term took `cascade`
        ("base-name", (21, 25)),  # a blank line between terms and definitions
        ("other-name", (22, 25)),
        ("--chmodd755f644", (27, 28)),  # the text as rendered: code span kept, markup not
        ("foo-bar", (30, 31)),
        ("base-name-1", (33, 34)),  # a repeat, numbered
    ],
)
def test_a_term_has_hugos_id_and_selects_its_definitions(
    fragment: str, span: tuple[int, int]
) -> None:
    assert lines(SETTINGS, "#" + fragment) == [span]


@pytest.mark.parametrize("fragment", ["incode", "a", "b-is-no-definition"])
def test_lines_in_code_or_without_a_space_after_the_colon_are_no_terms(fragment: str) -> None:
    result = call(SETTINGS, "#" + fragment)
    assert not result.matches
    assert [p.type for p in result.problems] == ["SELECTOR_NOT_FOUND"]


def test_the_blocks_stay_commonmarks() -> None:
    # `Term` / `: definition` is one paragraph to every other selector.
    first = call(SETTINGS, "para.0").matches[0]
    assert first.content == "archetypeDir\n: (`string`) The designated directory for archetypes.\n"


def test_explicit_ids_are_kept_and_terms_numbered_around_them() -> None:
    doc = "## Title {#base-name}\n\nBase Name\n: A term whose id an explicit one took.\n"
    assert lines(doc, "#base-name") == [(1, 4)]  # the explicit id: the heading's section
    assert lines(doc, "#base-name-1") == [(3, 4)]


def test_a_site_link_to_a_term_in_hugos_docs() -> None:
    # The link as Hugo's docs write it, asked over the site's folder.
    files = sorted(str(path) for path in HUGO_TREE.rglob("*.md"))
    sources, problems = mdsel.load(files)
    assert not problems
    result = mdsel.select("/configuration/all/#publishdir", sources, mdsel.Options(full=True))
    assert [m.content for m in result.matches] == [
        "publishDir\n"
        ": (`string`) The designated directory for publishing the site. Default is `public`.\n"
    ]
    rsync = mdsel.select("#--cleandestinationdir", sources, mdsel.Options(full=True))
    assert [m.content.split("\n")[0] for m in rsync.matches] == ["`--cleanDestinationDir`"]


def test_a_hugo_sections_index_page(tmp_path: Path) -> None:
    (tmp_path / "functions").mkdir()
    (tmp_path / "functions" / "_index.md").write_text("# Functions\n\n## Use\n\ntext\n")
    (tmp_path / "other.md").write_text("# Other\n")
    files = [str(tmp_path / "functions" / "_index.md"), str(tmp_path / "other.md")]
    sources, problems = mdsel.load(files)
    assert not problems
    result = mdsel.select("/functions/#use", sources, mdsel.Options(full=True))
    assert [m.content.split("\n")[0] for m in result.matches] == ["## Use"]


def test_a_missed_fragment_suggests_the_terms_it_is_close_to() -> None:
    result = call(SETTINGS, "#archetypedirs")
    suggested = [(s.selector, s.title) for p in result.problems for s in p.suggestions]
    assert suggested[0] == ("#archetypedir", "archetypeDir")
    assert ("#base-name-1", "Base Name") in [
        (s.selector, s.title)
        for p in call(SETTINGS, "#base-name-2").problems
        for s in p.suggestions
    ]


def test_a_heading_by_hugos_rule_where_githubs_differs() -> None:
    # GitHub keeps a combining mark, Goldmark drops it; `_` and each space kept: no other
    # generator's rule gives this id.
    doc = "# Übe\u0301r_x  y\n\ntext\n"
    assert lines(doc, "#über_x--y") == [(1, 3)]
