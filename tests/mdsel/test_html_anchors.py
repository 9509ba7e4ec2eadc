"""HTML anchors (`<a id>`, `<a name>`, any element's `id`) and ids given to text by an
attribute block (`**term**{ #term }`): each names the innermost section holding it, never when
it is inside code."""

from __future__ import annotations

import pytest

import mdsel


def picked(markdown: str, request: str) -> list[tuple[str, str]]:
    """(selector, first line) of each match of `request` in a one-document call."""
    source = mdsel.Source("doc", "doc.md", mdsel.parse_document(markdown.encode()))
    result = mdsel.select(request, [source], mdsel.Options(full=True))
    return [(match.selector, match.content.split("\n", 1)[0]) for match in result.matches]


def missed(markdown: str, request: str) -> bool:
    source = mdsel.Source("doc", "doc.md", mdsel.parse_document(markdown.encode()))
    result = mdsel.select(request, [source], mdsel.Options(full=True))
    return not result.matches and [p.type for p in result.problems] == ["SELECTOR_NOT_FOUND"]


HTML_DOC = """\
<a name="top-anchor"></a>

# Guide

## Install

<a id="here"></a>

text

### Deep

see <a name="inline">x</a> and <span id="span-id">s</span>

- a list <a id="in-list"></a>

## Use

<div id="block-div">
<p>HTML block</p>
</div>

<div name="div-name"></div>

```html
<a id="in-fence"></a>
```

    <a id="indented"></a>

`<a id="in-span"></a>`

<!-- <a id="in-comment"></a> -->
"""


@pytest.mark.parametrize(
    ("fragment", "heading"),
    [
        ("#here", ("h2.0", "## Install")),
        ("#inline", ("h3.0", "### Deep")),  # the innermost section
        ("#span-id", ("h3.0", "### Deep")),
        ("#in-list", ("h3.0", "### Deep")),
        ("#block-div", ("h2.1", "## Use")),
        # On its own line right above a heading (a blank line between): that heading.
        ("#top-anchor", ("h1.0", "# Guide")),
    ],
)
def test_an_html_anchor_names_the_section_holding_it(
    fragment: str, heading: tuple[str, str]
) -> None:
    assert picked(HTML_DOC, fragment) == [heading]


@pytest.mark.parametrize(
    "fragment",
    ["#in-fence", "#indented", "#in-span", "#in-comment", "#div-name", "#Here"],
)
def test_code_comments_and_name_off_an_anchor_name_nothing(fragment: str) -> None:
    # `name` counts on `<a>` only; an id is case-sensitive.
    assert missed(HTML_DOC, fragment)


def test_an_html_anchor_with_an_entity_in_its_id() -> None:
    markdown = '# A\n\n## B\n\n<a id="caf&eacute;"></a>\n'
    assert picked(markdown, "#caf%C3%A9") == [("h2.0", "## B")]
    assert picked(markdown, "#caf&eacute;") == [("h2.0", "## B")]


def test_a_heading_wins_over_an_html_anchor_of_the_same_name() -> None:
    markdown = '# A\n\n<a id="b"></a>\n\n## B\n'
    assert picked(markdown, "#b") == [("h2.0", "## B")]


def test_an_html_anchor_scopes_like_its_section() -> None:
    markdown = '# A\n\n## B\n\n<a id="x"></a>\n\n```sh\nrun\n```\n'
    source = mdsel.Source("doc", "doc.md", mdsel.parse_document(markdown.encode()))
    (match,) = mdsel.select("#x/code.0", [source]).matches
    assert match.content == "```sh\nrun\n```\n"


# -- ids given to text by an attribute block --------------------------------------------------

ATTRIBUTE_DOC = """\
# Glossary

## Terms

**term**{ #term } is defined here.

*other*{: #other-term .c }

## Code

`**code**{ #in-span }`

```
**fenced**{ #in-fence }
```

Escaped \\{#escaped} braces.
"""


@pytest.mark.parametrize("fragment", ["#term", "#other-term"])
def test_an_id_given_to_text_names_the_section_holding_it(fragment: str) -> None:
    assert picked(ATTRIBUTE_DOC, fragment) == [("h2.0", "## Terms")]


@pytest.mark.parametrize("fragment", ["#in-span", "#in-fence"])
def test_an_attribute_block_in_code_names_nothing(fragment: str) -> None:
    assert missed(ATTRIBUTE_DOC, fragment)


def test_an_escaped_brace_is_no_attribute_block() -> None:
    # `\{#escaped}` is text to Python-Markdown and markdown-it-attrs alike.
    assert missed(ATTRIBUTE_DOC, "#escaped")


@pytest.mark.parametrize(
    "body",
    [
        "{" * 40_000 + "\n",  # braces: each tried up to the next one
        "<div>\n" + '<a id="q"\n' * 20_000 + "</div>\n",  # tags never closed
        "<div>\n" + "<!-- x\n" * 20_000 + "</div>\n",  # comments never closed
    ],
)
@pytest.mark.timeout(300)  # a guard against a hang (the quadratic reading took minutes)
def test_a_miss_in_hostile_html_or_braces_is_answered(body: str) -> None:
    assert missed("# T\n\n" + body, "#zz")


@pytest.mark.parametrize(
    ("markdown", "heading"),
    [
        ('## Install\n\ntext\n\n<a name="ref-x"></a>\n\n## API\n\nmore\n', ("h2.1", "## API")),
        ('## Install\n\ntext\n\n<a id="ref-x"></a>\n## API\n', ("h2.1", "## API")),
        # Old ids kept above a renamed heading, with a comment, as the Rust book does.
        (
            '## A\n\ntext\n\n<!-- Old headings. Do not remove. -->\n\n<a id="x"></a>\n'
            '<a id="ref-x"></a>\n\n### Renamed\n',
            ("h3.0", "### Renamed"),
        ),
        # Text between, or the anchor inside a line of text: the section holding it.
        ('## Install\n\n<a id="ref-x"></a>\n\ntext\n\n## API\n', ("h2.0", "## Install")),
        ('## Install\n\nsee <a id="ref-x"></a>\n\n## API\n', ("h2.0", "## Install")),
        ('## Install\n\n<a id="ref-x"></a>' + "\n" * 12 + "## API\n", ("h2.0", "## Install")),
        ('<a id="ref-x"></a>\n\ntext\n\n# T\n', ("root", '<a id="ref-x"></a>')),
        # An anchor on text is that text's, even right above a heading.
        ('## Install\n\n<a id="ref-x">label</a>\n\n## API\n', ("h2.0", "## Install")),
        ("## Install\n\n**term**{ #ref-x }\n\n## API\n", ("h2.0", "## Install")),
        ('<a id="ref-x">label</a>\n\n# T\n', ("root", '<a id="ref-x">label</a>')),
    ],
)
def test_an_anchor_set_just_above_a_heading_names_that_heading(
    markdown: str, heading: tuple[str, str]
) -> None:
    assert picked(markdown, "#ref-x") == [heading]
