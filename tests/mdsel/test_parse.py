"""The parser's scan of headings: attribute blocks (`## Intro {#intro}`) give the heading an id
and are not part of its title; everything else ending in braces is title text; headings inside
lists and quotes are kept apart with their own titles and ids."""

from __future__ import annotations

import pytest

import mdsel


def heading(markdown: str) -> tuple[str, str | None, str]:
    """(shown title, explicit id, text as GitHub shows it) of the document's only section
    heading."""
    doc = mdsel.parse_document(markdown.encode())
    assert len(doc.headings) == 1
    return doc.headings.title(0), doc.headings.ids.get(0), doc.headings.github_text(0)


@pytest.mark.parametrize(
    ("markdown", "title", "ident"),
    [
        ("## Intro {#intro}\n", "Intro", "intro"),
        ("## Intro {: #intro}\n", "Intro", "intro"),  # Python-Markdown attr_list, kramdown
        ("## Intro { #intro .class key=value }\n", "Intro", "intro"),
        ('## Intro {#intro data-x="a b"}\n', "Intro", "intro"),
        ("## Intro {#a.b}\n", "Intro", "a.b"),  # a dot inside an id is part of it
        ("## Intro {#intro} ##\n", "Intro", "intro"),  # before a closing sequence
        ("Intro {#intro}\n=====\n", "Intro", "intro"),  # setext
        ("Intro {#intro}\n-----\n", "Intro", "intro"),
        ("## Intro {.unnumbered}\n", "Intro", None),  # a class only: stripped, no id
        ("## Intro {#a #b}\n", "Intro", "b"),  # the last id wins, as in attr_list
        ("## `code` title {#c}\n", "code title", "c"),
        ("## Intro {id=kv}\n", "Intro", "kv"),  # markdown-it-attrs, attr_list: id as a key
        ('## Intro {.x id="k v"}\n', "Intro", "k v"),
        ("## Intro {id=kv #z}\n", "Intro", "z"),
        ("## Intro {key=kv}\n", "Intro", None),
    ],
)
def test_an_attribute_block_gives_the_id_and_leaves_the_title(
    markdown: str, title: str, ident: str | None
) -> None:
    shown, found, github = heading(markdown)
    assert (shown, found) == (title, ident)
    # GitHub renders the block as text, so its anchor comes from the whole line.
    assert github != shown and github.endswith("}")


@pytest.mark.parametrize(
    "markdown",
    [
        "## Using {braces}\n",
        "## Set {x, y}\n",
        "## Map {}\n",
        "## Intro \\{#x}\n",  # an escaped brace is text
        "## Intro &#123;#x}\n",  # so is one made by an entity
        "## Intro {#caf&eacute;}\n",  # the block as read is not the block as written
        "## Intro {#x} more\n",  # not at the end
        "## Custom anchors `{#my-anchor}`\n",  # a code span is literal text
    ],
)
def test_other_braces_are_title_text(markdown: str) -> None:
    shown, found, github = heading(markdown)
    assert found is None
    assert shown == github
    assert shown.endswith(("}", "more"))


def test_titles_ending_in_braces_are_kept_whole() -> None:
    assert heading("## Using {braces}\n")[0] == "Using {braces}"
    assert heading("## Set {x, y}\n")[0] == "Set {x, y}"
    assert heading("## Intro \\{#x}\n")[0] == "Intro {#x}"
    assert heading("## Intro {#caf&eacute;}\n")[0] == "Intro {#café}"


def test_headings_in_lists_and_quotes_are_link_targets_not_sections() -> None:
    doc = mdsel.parse_document(
        b"# Top\n\n- item\n\n  ## In a list {#listed}\n\n> ### In a quote\n\n## After\n"
    )
    assert [doc.headings.title(i) for i in range(len(doc.headings))] == ["Top", "After"]
    assert [(h.level, h.title, h.text, h.id) for h in doc.nested] == [
        (2, "In a list", "In a list {#listed}", "listed"),
        (3, "In a quote", "In a quote", None),
    ]


def test_spaces_beside_inline_html_are_not_part_of_the_title() -> None:
    text = (
        '## <a name="use"></a> Usage\n\ntext\n\n## Install <a id="inst"></a>\n\nmore\n\n'
        '- ### <a name="n"></a> Nested\n'
    )
    sources = [mdsel.Source("doc", "doc.md", mdsel.parse_document(text.encode()))]
    headings = sources[0].document.headings
    assert [headings.title(i) for i in range(len(headings))] == ["Usage", "Install"]
    assert [h.title for h in sources[0].document.nested] == ["Nested"]
    for anchor in ("#usage", "#use", "#install", "#inst"):
        assert len(mdsel.select(anchor, sources).matches) == 1, anchor
