"""GitHub's heading anchors: the slug rules, the numbering of repeats, and the nearest anchors
to a missed one."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mdsel
from mdsel.anchors import HEADING, NESTED, Target, anchors, closest, find, github_anchors, slug
from tests.conftest import FIXTURES


def document(text: str) -> mdsel.Document:
    return mdsel.parse_document(text.encode())


@pytest.mark.parametrize(
    ("title", "anchor"),
    [
        ("Installation", "installation"),
        ("Getting Started", "getting-started"),
        ("API Reference (v2)", "api-reference-v2"),
        ("What's new?", "whats-new"),
        ("A – B", "a--b"),  # the en dash goes, both spaces stay
        ("snake_case and kebab-case", "snake_case-and-kebab-case"),
        ("C++ & Rust!", "c--rust"),
        ("Café Über", "café-über"),
        ("日本語 テスト", "日本語-テスト"),
        ("Version 1.2.3", "version-123"),
        ("🎉 Party", "-party"),
        ("", ""),
    ],
)
def test_slug_follows_github(title: str, anchor: str) -> None:
    assert slug(title) == anchor


def test_markup_is_not_part_of_the_anchor() -> None:
    doc = document("# Using `mdsel` with *style* and [links](http://x)\n")
    assert anchors(doc) == ["using-mdsel-with-style-and-links"]


def test_the_anchor_is_made_from_the_text_github_shows() -> None:
    # GitHub slugs the heading's rendered text: the spaces beside inline HTML stay (a trailing
    # `<!-- omit in toc -->` gives `setup-`), an image's alt text is not text, and a line
    # break is a newline, which the slug drops.
    doc = document(
        "## Setup <!-- omit in toc -->\n\nold\n\n## Setup\n\nnew\n\n"
        '## <a name="use"></a> Usage\n\n## ![logo](logo.png) Logo Setup\n\n'
        "## hello ![img ![in](x)](i.png)\n\nTwo\nlines  \nbroken\n---\n\n"
        "## ![x](y) Intro {#intro}\n"
    )
    assert anchors(doc) == [
        "setup-", "setup", "-usage", "-logo-setup", "hello-", "twolinesbroken", "intro",
    ]  # fmt: skip
    assert github_anchors(doc)[(HEADING, 6)] == "-intro-intro"
    # Shown titles keep the alt text and read a break as a space.
    assert [doc.headings.title(i) for i in (3, 4, 5)] == [
        "logo Logo Setup", "hello img in", "Two lines broken",
    ]  # fmt: skip


def test_the_link_to_a_repeated_heading_lands_where_github_does() -> None:
    text = "## Setup <!-- omit in toc -->\n\nold\n\n## Setup\n\nnew\n"
    sources = [mdsel.Source("doc", "doc.md", mdsel.parse_document(text.encode()))]
    assert mdsel.select("#setup", sources).matches[0].content.endswith("new\n")
    assert mdsel.select("#setup-", sources).matches[0].content.endswith("old\n")
    image = "## ![logo](l.png) Setup\n\nimage\n\n## Logo Setup\n\ntext\n"
    sources = [mdsel.Source("doc", "doc.md", mdsel.parse_document(image.encode()))]
    assert mdsel.select("#logo-setup", sources).matches[0].content.endswith("text\n")
    assert mdsel.select("#-setup", sources).matches[0].content.endswith("image\n")


def test_a_nested_headings_anchor_leaves_its_images_out() -> None:
    doc = document("- ## ![badge](b.svg) Listed\n")
    assert find(doc, "-listed") == Target(NESTED, 0)
    assert doc.nested[0].title == "badge Listed"


def test_repeats_are_numbered_like_github() -> None:
    doc = document("# Intro\n\n# Intro\n\n# Intro 1\n\n# Intro\n\n## a\n\n## a\n\n## a-1\n")
    # `Intro 1` slugs to intro-1, already taken by the second Intro, so it becomes intro-1-1;
    # the third Intro takes the next free number of intro: intro-2.
    assert anchors(doc) == ["intro", "intro-1", "intro-1-1", "intro-2", "a", "a-1", "a-1-1"]


def test_fixture_anchors_number_every_heading_as_github_does() -> None:
    doc = mdsel.parse_document((FIXTURES / "structure.md").read_bytes())
    assert anchors(doc) == [
        "guide", "install", "usage", "details", "deep", "setext-title", "install-1", "appendix",
    ]  # fmt: skip
    assert find(doc, "install-1") == Target(HEADING, 6)
    # Inside a list: not a section, but GitHub anchors it, so a link reaches it.
    inside = find(doc, "heading-inside-a-list")
    assert inside is not None and inside.kind == NESTED
    assert doc.nested[inside.ref].title == "heading inside a list"


def test_closest_anchors_prefer_containment_then_spelling() -> None:
    doc = document("# Installation\n\n# Install on Windows\n\n# Usage\n\n# Uninstall\n")
    assert [name for name, _title in closest(doc, "install")] == [
        "installation", "install-on-windows", "uninstall",
    ]  # fmt: skip
    assert closest(doc, "usgae") == [("usage", "Usage")]
    assert closest(doc, "zzzz") == []


# -- fragments through select: every place GitHub or a site generator takes a reader ----------


def picked(markdown: str, request: str) -> list[tuple[str, str]]:
    """(selector, first line) of each match of `request` in a one-document call."""
    source = mdsel.Source("doc", "doc.md", mdsel.parse_document(markdown.encode()))
    result = mdsel.select(request, [source], mdsel.Options(full=True))
    return [(match.selector, match.content.split("\n", 1)[0]) for match in result.matches]


def content(markdown: str, request: str) -> str:
    """The text of the one match of `request`."""
    source = mdsel.Source("doc", "doc.md", mdsel.parse_document(markdown.encode()))
    (match,) = mdsel.select(request, [source], mdsel.Options(full=True)).matches
    return match.content


def missed(markdown: str, request: str) -> bool:
    source = mdsel.Source("doc", "doc.md", mdsel.parse_document(markdown.encode()))
    result = mdsel.select(request, [source], mdsel.Options(full=True))
    return not result.matches and [p.type for p in result.problems] == ["SELECTOR_NOT_FOUND"]


@pytest.mark.parametrize(
    ("markdown", "fragment", "github"),
    [
        ("# Top\n\n## Intro {#intro}\n\ntext\n", "#intro", "#intro-intro"),
        ("# Top\n\n## Intro { #intro }\n\ntext\n", "#intro", "#intro--intro-"),
        ("# Top\n\n## Intro {: #intro }\n\ntext\n", "#intro", "#intro--intro-"),
        ("# Top\n\n## Intro { #intro .c k=v }\n\ntext\n", "#intro", "#intro--intro-c-kv-"),
        ("# Top\n\nIntro {#intro}\n-----\n\ntext\n", "#intro", "#intro-intro"),
        ("# Top\n\n## Intro {#a.b}\n\ntext\n", "#a.b", "#intro-ab"),
        # After `{:` a bare word is an attribute too (attr_list, kramdown), as cibuildwheel's
        # option headings write them.
        (
            "# Top\n\n## archs {: #archs cmd-line toml }\n\ntext\n",
            "#archs",
            "#archs--archs-cmd-line-toml-",
        ),
    ],
)
def test_an_explicit_id_and_githubs_slug_of_the_whole_line_both_select(
    markdown: str, fragment: str, github: str
) -> None:
    heading_line = markdown.split("\n")[2]
    assert picked(markdown, fragment) == [("h2.0", heading_line)]
    assert content(markdown, fragment).endswith("text\n")
    assert picked(markdown, github) == [("h2.0", heading_line)]


def test_explicit_ids_compare_exactly_and_github_slugs_in_any_case() -> None:
    markdown = "# Top\n\n## Getting started {#setup}\n\ntext\n"
    assert missed(markdown, "#Setup")  # an id is case-sensitive
    assert picked(markdown, "#setup") == [("h2.0", "## Getting started {#setup}")]
    assert picked(markdown, "#Getting-Started-Setup") == [("h2.0", "## Getting started {#setup}")]
    # The shown title's slug, as the generator gives it when the id is not used.
    assert picked(markdown, "#getting-started") == [("h2.0", "## Getting started {#setup}")]


def test_anchors_of_headings_with_ids_are_their_ids() -> None:
    doc = document("# Top\n\n## Intro {#intro}\n\n## Intro\n\n## Notes {.unnumbered}\n")
    # A class-only block gives no id: GitHub's anchor, block and all, stays.
    assert anchors(doc)[0] == "top"
    assert anchors(doc)[1] == "intro"
    assert anchors(doc)[3] == "notes-unnumbered"


def test_bare_words_make_a_block_only_after_a_colon() -> None:
    """`{: #id word}` is an attribute block and leaves the shown title; `{word}` and
    `{#id word}` without the colon stay text, as `## Using {braces}` does."""
    doc = document("# Top\n\n## archs {: #archs toml}\n\n## Using {braces}\n\n## B {#b toml}\n")
    assert doc.headings.title(1) == "archs"
    assert anchors(doc)[1] == "archs"
    assert doc.headings.title(2) == "Using {braces}"
    assert doc.headings.title(3) == "B {#b toml}"


def test_a_closing_sequence_before_the_block_leaves_with_it() -> None:
    """`### Dependencies ### {: #deps }` is `Dependencies` (Python-Markdown drops both); GitHub,
    which reads no block, shows the whole line as text; `C#` keeps its `#`."""
    doc = document("# Top\n\n### Dependencies ### {: #deps }\n\n## Using C# {#cs}\n")
    assert doc.headings.title(1) == "Dependencies"
    assert anchors(doc)[1] == "deps"
    assert doc.headings.title(2) == "Using C#"
    # `#`s that are not a closing sequence in the source stay: a code span's, escaped ones,
    # entities.
    for written, shown in [
        ("## Use `foo ##` {#x}", "Use foo ##"),
        ("## Foo \\## {#x}", "Foo ##"),
        ("## Foo &#35;&#35; {#x}", "Foo ##"),
    ]:
        assert document(f"{written}\n").headings.title(0) == shown, written
    markdown = "# Top\n\n## Intro ## {#intro}\n\ntext\n"
    assert picked(markdown, "#intro") == [("h2.0", "## Intro ## {#intro}")]
    assert picked(markdown, "#intro--intro") == [("h2.0", "## Intro ## {#intro}")]


def test_a_class_only_block_is_no_id() -> None:
    markdown = "# Top\n\n## Intro {.unnumbered}\n\ntext\n"
    assert picked(markdown, "#intro-unnumbered") == [("h2.0", "## Intro {.unnumbered}")]
    assert missed(markdown, "#unnumbered")
    # MkDocs and the other generators slug the title without the block.
    assert picked(markdown, "#intro") == [("h2.0", "## Intro {.unnumbered}")]


def test_an_explicit_id_wins_over_githubs_slug_of_another_heading() -> None:
    markdown = "# Top\n\n## First {#second}\n\none\n\n## Second\n\ntwo\n"
    assert picked(markdown, "#second") == [("h2.0", "## First {#second}")]
    assert picked(markdown, "#first-second") == [("h2.0", "## First {#second}")]


def test_an_escaped_or_entity_brace_is_text_not_an_id() -> None:
    escaped = "# Top\n\n## Intro \\{#x}\n\ntext\n"
    assert picked(escaped, "#intro-x") == [("h2.0", "## Intro \\{#x}")]
    assert missed(escaped, "#x")
    entity = "# Top\n\n## Intro &#123;#x}\n\ntext\n"
    assert picked(entity, "#intro-x") == [("h2.0", "## Intro &#123;#x}")]
    assert missed(entity, "#x")


def test_an_entity_inside_the_block_leaves_it_text() -> None:
    markdown = "# Top\n\n## Intro {#caf&eacute;}\n\ntext\n"
    assert picked(markdown, "#intro-caf%C3%A9") == [("h2.0", "## Intro {#caf&eacute;}")]
    assert missed(markdown, "#café")


def test_a_code_span_ending_a_heading_is_no_attribute_block() -> None:
    markdown = "# Top\n\n## Custom anchors `{#my-anchor}`\n\ntext\n"
    assert picked(markdown, "#custom-anchors-my-anchor") == [
        ("h2.0", "## Custom anchors `{#my-anchor}`")
    ]
    assert missed(markdown, "#my-anchor")


# -- headings inside lists and quotes ---------------------------------------------------------

NESTED_DOC = """\
# Top

- item

  ## Setup

  inner

  ```sh
  nested code
  ```

  ### Deeper

  deep

  ## Other

  other

- next item

## Setup

```sh
top code
```
"""


def test_a_nested_heading_spans_to_the_next_of_its_level_in_its_container() -> None:
    assert content(NESTED_DOC, "#setup") == (
        "  ## Setup\n\n  inner\n\n  ```sh\n  nested code\n  ```\n\n  ### Deeper\n\n  deep\n"
    )
    assert content(NESTED_DOC, "#deeper") == "  ### Deeper\n\n  deep\n"


def test_repeated_slugs_count_nested_headings_in_document_order() -> None:
    # The list's Setup comes first, so GitHub gives it `setup` and the section `setup-1`.
    assert picked(NESTED_DOC, "#setup-1") == [("h2.0", "## Setup")]
    assert anchors(document(NESTED_DOC)) == ["top", "setup-1"]
    doc = "- ## Dup\n\n## Dup\n\n## Dup\n"
    assert picked(doc, "#dup") == [("L1-1", "- ## Dup")]
    assert [s for s, _ in picked(doc, "#dup-1,#dup-2")] == ["h2.0", "h2.1"]


def test_an_anchor_scopes_into_a_nested_headings_span() -> None:
    assert content(NESTED_DOC, "#setup/code.0") == "  ```sh\n  nested code\n  ```\n"
    assert content(NESTED_DOC, "#setup-1/code.0") == "```sh\ntop code\n```\n"
    assert missed(NESTED_DOC, "#deeper/code.0")  # the code is before Deeper


def test_a_heading_in_a_quote_with_an_id() -> None:
    markdown = "# Top\n\n> ## Quoted {#q}\n>\n> quoted text\n\nafter\n"
    assert content(markdown, "#q") == "> ## Quoted {#q}\n>\n> quoted text\n"
    assert content(markdown, "#quoted-q") == content(markdown, "#q")
    assert content(markdown, "#q/para.0") == "> quoted text\n"


@pytest.mark.parametrize(
    ("markdown", "shown"),
    [
        # The quote's markers four columns in, inside a list item: its last `>` line is blank.
        ("- x\n  - > ## Deep\n    > text\n    >\n\n  y\n", "  - > ## Deep\n    > text\n"),
        ("10. > ## Deep\n    > text\n    >\n\nafter\n", "10. > ## Deep\n    > text\n"),
        ("> - > ## Deep\n>   > text\n>   >\n\nafter\n", "> - > ## Deep\n>   > text\n"),
        # A `>` four spaces past the marker is code text, kept.
        (
            "- x\n  - > ## Deep\n    > text\n    >     >>> 1\n\n  y\n",
            "  - > ## Deep\n    > text\n    >     >>> 1\n",
        ),
    ],
)
def test_a_nested_headings_span_drops_its_quotes_last_marker_line(
    markdown: str, shown: str
) -> None:
    assert content(markdown, "#deep") == shown


# -- fragments decoded once -------------------------------------------------------------------


@pytest.mark.parametrize(
    "fragment",
    ["#programación", "#programaci%C3%B3n", "#programaci&#x00F3;n", "#programaci&oacute;n"],
)
def test_a_fragment_is_found_as_written_in_a_link(fragment: str) -> None:
    assert picked("# Top\n\n## Programación\n", fragment) == [("h2.0", "## Programación")]


def test_a_fragment_is_decoded_once() -> None:
    markdown = "# Top\n\n## A {#a%26b}\n\n## B {#a&b}\n"
    assert picked(markdown, "#a%2526b") == [("h2.0", "## A {#a%26b}")]
    assert picked(markdown, "#a%26b") == [("h2.1", "## B {#a&b}")]
    # An entity is decoded as the Markdown parser does, then the escapes as the browser does.
    assert picked(markdown, "#a&#37;26b") == [("h2.1", "## B {#a&b}")]


# -- the slugs of other generators ------------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "fragment"),
    [
        ("Héllo World!", "#hello-world"),  # Python-Markdown, ASCII-folded
        ("1. Numbered", "#numbered"),  # kramdown drops leading non-letters
        ("1. Numbered", "#_1-numbered"),  # VitePress: `_` before a leading digit
        ("server.port", "#server-port"),  # VitePress and Hugo: punctuation as `-`
        ("A -- B", "#a-b"),  # runs of `-` and spaces as one
        (":rocket: Launch", "#-launch"),  # the shortcode shown as an emoji, which slugs drop
        (":sparkles: New :+1: things :t-rex:", "#-new--things-"),
    ],
)
def test_a_generators_slug_selects_when_one_heading_answers(title: str, fragment: str) -> None:
    markdown = f"# Top\n\n## {title}\n\ntext\n"
    assert picked(markdown, fragment) == [("h2.0", f"## {title}")]


def test_a_generator_slug_two_headings_share_selects_nothing() -> None:
    # `#foo-bar`: Hugo's and VitePress's slug of `Foo_Bar`, Python-Markdown's of `Foo & Bar`;
    # GitHub gives them foo_bar and foo--bar.
    markdown = "# Top\n\n## Foo_Bar\n\n## Foo & Bar\n"
    assert missed(markdown, "#foo-bar")
    assert picked(markdown, "#foo_bar") == [("h2.0", "## Foo_Bar")]
    assert picked(markdown, "#foo--bar") == [("h2.1", "## Foo & Bar")]


def test_githubs_slug_wins_over_a_generator_slug_of_another_heading() -> None:
    # Hugo and VitePress slug `Foo_Bar` as foo-bar, GitHub's anchor of `foo-bar`.
    markdown = "# Top\n\n## Foo_Bar\n\n## foo-bar\n"
    assert picked(markdown, "#foo-bar") == [("h2.1", "## foo-bar")]


def test_an_emoji_shortcode_heading_answers_both_forms_and_repeats_are_numbered() -> None:
    markdown = "# Top\n\n## :rocket: Launch\n\n## :tada: Launch\n\n## Note: x:y:\n"
    assert picked(markdown, "#rocket-launch") == [("h2.0", "## :rocket: Launch")]
    assert picked(markdown, "#-launch") == [("h2.0", "## :rocket: Launch")]
    assert picked(markdown, "#-launch-1") == [("h2.1", "## :tada: Launch")]
    assert picked(markdown, "#note-xy") == [("h2.2", "## Note: x:y:")]  # GitHub's own
    # Another generator's answer comes first: kramdown's `#intro` of `1. Intro`.
    markdown = "# Doc\n\n## 1. Intro\n\nx\n\n## :x:Intro\n\ny\n"
    assert picked(markdown, "#intro") == [("h2.0", "## 1. Intro")]


def test_repeats_are_numbered_by_each_generators_rule() -> None:
    markdown = "# Top\n\n## Ünïcode\n\n## Unicode!\n"
    # GitHub: ünïcode, unicode. Python-Markdown (ASCII-folded): unicode, unicode_1.
    assert picked(markdown, "#unicode") == [("h2.1", "## Unicode!")]
    assert picked(markdown, "#unicode_1") == [("h2.1", "## Unicode!")]
    assert picked(markdown, "#ünïcode") == [("h2.0", "## Ünïcode")]


def test_a_generator_gives_a_heading_with_an_id_its_id_and_slugs_the_others() -> None:
    # Python-Markdown (MkDocs, attr_list): `ueber`, then `uber` for the heading without an id.
    markdown = "# Doc\n\n## Über {#ueber}\n\nfirst\n\n## Über\n\nsecond\n"
    assert picked(markdown, "#uber") == [("h2.1", "## Über")]
    assert picked(markdown, "#ueber") == [("h2.0", "## Über {#ueber}")]
    # kramdown: `setup-old`, then `setup` (leading non-letters dropped).
    markdown = "# Doc\n\n## 1. Setup {#setup-old}\n\nold\n\n## 2. Setup\n\nnew\n"
    assert picked(markdown, "#setup") == [("h2.1", "## 2. Setup")]
    # The ids are taken: a slug equal to one is numbered on, as Python-Markdown numbers it.
    markdown = "# Doc\n\n## Intro {#uber}\n\none\n\n## Über\n\ntwo\n"
    assert picked(markdown, "#uber_1") == [("h2.1", "## Über")]
    # With no heading without an id answering, a title's slug still names its heading.
    markdown = "# Top\n\n## Getting started {#setup}\n\ntext\n"
    assert picked(markdown, "#getting-started") == [("h2.0", "## Getting started {#setup}")]


def test_closest_names_headings_by_their_explicit_ids() -> None:
    doc = document("# Top\n\n## Installation {#install-guide}\n\n## Usage\n")
    assert closest(doc, "install") == [("install-guide", "Installation")]


def test_an_id_given_twice_and_a_shadowed_slug_are_numbered_on_in_the_index() -> None:
    doc = document(
        "# T\n\n## Alpha {#x}\n\n## Beta {#x}\n\n## Intro\n\n## Gamma {#intro}\n\n## Usage\n\n"
        '## Other\n\n<a id="Usage"></a>\n'
    )
    assert anchors(doc) == ["t", "x", "x-1", "intro-1", "intro", "usage", "other"]
    for index, anchor in enumerate(anchors(doc)):
        assert find(doc, anchor) == Target(HEADING, index), anchor
    # The nearest anchors are the ones that select: `#intro` is Gamma's.
    assert closest(doc, "intr")[:2] == [("intro", "Gamma"), ("intro-1", "Intro")]
    # An exact HTML id beats a heading whose GitHub anchor matches only in lower case.
    html = find(doc, "Usage")
    assert html is not None and html.kind == "html"


def test_an_id_a_heading_in_a_list_takes_numbers_the_top_level_heading_on() -> None:
    """`- ## Item {#setup}` takes `#setup`: the top-level `## Setup` is then `#setup-1` in the
    index, and that anchor selects it (not `## Setup – 1`, whose GitHub anchor is `setup--1`)."""
    doc = document("# Doc\n\n## Setup\n\nbody\n\n## Setup – 1\n\nother\n\n- ## Item {#setup}\n")
    assert anchors(doc) == ["doc", "setup-1", "setup--1"]
    assert find(doc, "setup") == Target(NESTED, 0)
    assert find(doc, "setup-1") == Target(HEADING, 1)


def test_an_id_given_twice_names_the_first_heading_in_document_order() -> None:
    doc = document("# Doc\n\n- ## In list {#x}\n\nbody\n\n## Section {#x}\n\n## Later {#x}\n")
    assert find(doc, "x") == Target(NESTED, 0)
    assert anchors(doc) == ["doc", "x-1", "x-2"]
    assert [find(doc, anchor) for anchor in anchors(doc)[1:]] == [
        Target(HEADING, 1),
        Target(HEADING, 2),
    ]


TITLES = [
    "Intro",
    "Intro 1",
    "Intro-1",
    "Intro – 1",
    "intro",
    "Setup",
    "A",
    "a-1",
    "INTRO",
    "Intro `1`",
]
IDS = ["intro", "intro-1", "setup", "a-1", "x"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["", "- ", "> "]),
            st.sampled_from(TITLES),
            st.sampled_from([None, *IDS]),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_every_anchor_the_index_lists_selects_its_heading(
    headings: list[tuple[str, str, str | None]],
) -> None:
    text = "# Doc\n\n" + "".join(
        f"{container}## {title}{f' {{#{ident}}}' if ident else ''}\n\nbody\n\n"
        for container, title, ident in headings
    )
    doc = document(text)
    for index, anchor in enumerate(anchors(doc)):
        assert find(doc, anchor) == Target(HEADING, index), (anchor, text)


def find_by_numbering_all(doc: mdsel.Document, fragment: str) -> Target | None:
    """`find` worked out the long way: every heading slugged and numbered under every rule."""
    from mdsel import anchors as module
    from mdsel.anchor_generators import GENERATORS
    from mdsel.html_anchors import html_anchor_line

    headings, nested = doc.headings, doc.nested
    named = [
        (headings.starts[i], i, HEADING) for i, ident in headings.ids.items() if ident == fragment
    ]
    named += [(h.start, i, NESTED) for i, h in enumerate(nested) if h.id == fragment]
    if named:
        _start, index, kind = min(named)
        return Target(kind, index)
    github = github_anchors(doc)
    for (kind, index), anchor in github.items():
        if anchor == fragment:
            return Target(kind, index)
    if headings.ids or any(heading.id for heading in nested):
        for index, anchor in enumerate(anchors(doc, github)):
            if anchor == fragment:
                return Target(HEADING, index)
    line = html_anchor_line(doc, fragment)
    if line:
        return Target(module.HTML, -1, line)
    for (kind, index), anchor in github.items():
        if anchor == fragment.lower():
            return Target(kind, index)
    order = module._all_headings(doc)
    texts = [module._text(doc, kind, index, shown=True) for kind, index in order]
    ids = [module._explicit_id(doc, kind, index) for kind, index in order]

    def answering(
        picked: list[int], rules: object, taken: frozenset[str] | set[str] = frozenset()
    ) -> set[tuple[str, int]]:
        found = set()
        for rule, separator in rules:  # type: ignore[attr-defined]
            numbered = module._numbered([rule(texts_of[p]) for p in picked], separator, taken)
            for p, anchor in zip(picked, numbered, strict=True):
                if anchor in (fragment, fragment.lower()):
                    found.add(order[p])
        return found

    texts_of = texts
    everyone = list(range(len(order)))
    result: set[tuple[str, int]] = set()
    if any(ids):
        plain = [p for p, ident in enumerate(ids) if not ident]
        result = answering(plain, GENERATORS, {ident for ident in ids if ident})
    if not result:
        result = answering(everyone, GENERATORS)
    if not result:
        texts_of = [module._text(doc, kind, index) for kind, index in order]
        if any(":" in text for text in texts_of):
            result = answering(everyone, [(module.emoji_shown_slug, "-")])
    return Target(*result.pop()) if len(result) == 1 else None


SOME_TITLES = st.sampled_from(
    [
        "h", "H", "h 1", "h-1", "Intro", "intro_1", "Intro 1", "Über", "uber", "1 intro",
        ":rocket: Launch", "Launch", "日本語", "section", "!!", "a b", "a-b", "A B {#ab}",
        "x {#h-1}", "Café", "cafe", "h_2", "2",
    ]
)  # fmt: skip
FRAGMENTS = st.sampled_from(
    [
        "h", "h-1", "h-2", "h-1-1", "h_1", "intro", "intro-1", "intro_1", "intro-1-1", "uber",
        "uber-1", "-launch", "launch", "日本語", "section", "section-1", "a-b", "ab", "ab-1",
        "cafe", "café", "h_2", "_2", "2", "H-1", "Intro", "no-such-anchor", "",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    titles=st.lists(st.tuples(st.integers(1, 3), SOME_TITLES, st.booleans()), max_size=14),
    fragment=FRAGMENTS,
)
def test_a_fragment_finds_what_numbering_every_heading_finds(
    titles: list[tuple[int, str, bool]], fragment: str
) -> None:
    """Numbering only the slugs a fragment can be numbered from, and slugging only the texts
    that can give one, finds what slugging and numbering every heading does."""
    text = "".join(
        ("- " if in_list else "") + "#" * level + f" {title}\n\n"
        for level, title, in_list in titles
    )
    doc = document(text)
    assert find(doc, fragment) == find_by_numbering_all(doc, fragment)


@pytest.mark.parametrize("title", ["h", "h {n}", "no such anchor {n}"])
def test_a_miss_slugs_only_the_texts_that_could_answer(
    monkeypatch: pytest.MonkeyPatch, title: str
) -> None:
    """A missed fragment on 100,000 headings: each text is slugged once at most (one title
    repeated is one text), and one lacking a letter of the fragment not at all; the closest
    anchors look at MAX_CANDIDATES headings."""
    from mdsel import anchors as module
    from mdsel.anchor_generators import GENERATORS

    slugged: list[str] = []

    def counted(rule: Callable[[str], str]) -> Callable[[str], str]:
        def counting(text: str) -> str:
            slugged.append(text)
            return rule(text)

        return counting

    monkeypatch.setattr(module, "slug", counted(module.slug))
    generators = [(counted(rule), separator) for rule, separator in GENERATORS]
    monkeypatch.setattr(module, "GENERATORS", generators)
    doc = document("".join(f"# {title.format(n=n)}\n" for n in range(100_000)))
    assert find(doc, "no-such-anchor") is None
    rules = 1 + len(GENERATORS)  # GitHub's and each other generator's, each text once
    assert len(slugged) <= (rules if title == "h" else 0 if title == "h {n}" else rules * 100_000)
    slugged.clear()
    closest(doc, "no-such-anchor")
    assert len(slugged) <= module.MAX_CANDIDATES
