"""Link fragments on real documentation trees: the share of resolvable `#fragment` links that
`mdsel select '#fragment'` resolves to the right place.

    .venv/bin/python bench/bench_links.py                    # tests/trees, tests/corpus
    .venv/bin/python bench/bench_links.py --pypi             # + docs trees of pinned PyPI sdists
    .venv/bin/python bench/bench_links.py --tree DIR [--generators vitepress,python-markdown]
    .venv/bin/python bench/bench_links.py --json             # one JSON object instead of text
    (--show N: unresolved links listed per tree, default 30; --broken: list broken links too)

Method, per tree (a folder of Markdown files; its root is where site-absolute links start):

1. Links. Every Markdown file (.md, .markdown) is parsed with markdown-it-py (CommonMark + GFM
   tables, raw HTML on). The links are read from its tokens, so nothing inside code blocks or
   code spans counts: inline links (`[x](page.md#frag)`), reference definitions
   (`[ref]: page.md#frag`; uses of a reference are not counted again) and `<a href="…#frag">`
   in HTML blocks and inline HTML (read with the standard library's html.parser). Links with a
   scheme (`https:`, `mailto:`) or starting with `//` are external and skipped, as are empty
   fragments (`page.md#`). The target file: an empty path is the linking file; `/x/y` starts at
   the tree root, anything else at the linking file's folder; the path is percent-decoded and a
   query dropped; `.html` becomes `.md`; no Markdown suffix tries `x.md`, then `x/index.md`
   (a folder or a path ending in `/`: `index.md`, Hugo's `_index.md`, `README.md`, then the
   page served there, `x.md`, as MkDocs and Hugo serve `/x/`). Targets that do not exist, lie
   outside the tree or are not Markdown are counted apart.

2. Reference (independent: no mdsel code). Each target is rendered with markdown-it-py — not
   the pulldown-cmark parser mdsel uses — after blanking YAML front matter, and every id a
   reader could land on is collected with the 1-based line of the element carrying it:
   - github: every heading, those inside lists and block quotes included, under github-slugger's
     rule on the heading's rendered text (text and code spans; HTML tags and images give no
     text; a trailing `{#id}` is text for GitHub): lower-case; drop what is not a letter, mark,
     digit, connector punctuation, `-` or space; spaces become `-`; repeats get `-1`, `-2`…
     counted over all headings;
   - explicit: a trailing attribute block on a heading, `{#id}` / `{: #id .class key=value}` /
     `{id="x"}` (markdown-it-attrs in VitePress, Python-Markdown attr_list, Pandoc, kramdown);
   - vitepress: @mdit-vue/shared's slugify (what VitePress passes to markdown-it-anchor):
     NFKD, drop U+0300–U+036F and control characters, runs of whitespace and
     ~`!@#$%^&*()-_+=[]{}|\\;:"'“”‘’<>,.?/ become one `-`, `-` trimmed at both ends, `_`
     before a leading digit, lower-cased; on the heading text without its attribute block;
     repeats `-1`, `-2`… shared with explicit ids (markdown-it-anchor's uniqueSlug);
   - python-markdown: Python-Markdown toc's default slugify (NFKD folded to ASCII, drop what is
     not `\\w`, space or `-`, strip, lower, runs of `-` and spaces become `-`), repeats `_1`,
     `_2`… after the explicit ids (MkDocs' default);
   - pymdownx: pymdownx.slugs.slugify(case="lower") (NFC, lower, drop what is not `\\w`, space
     or `-`, each space a `-`), repeats as Python-Markdown (pymdown-extensions' own site);
   - hugo: Hugo's ids (Goldmark, `autoIDType = "github"`, `autoDefinitionTermID = true`, as
     Hugo's own docs set them): every heading without an explicit id and every term of a
     top-level definition list (each line of the paragraph above a line starting with `: `,
     in it or after a blank line; its text as markdown-it renders it inline), in document order,
     slugged (letters, decimal digits and `_` lower-cased, `-`, space and tab as `-`, the rest
     dropped) and numbered `-1`, `-2`… in one sequence around the explicit ids;
   - html: `id="x"` on any HTML element and `<a name="x">`, in HTML blocks and inline HTML;
   - explicit ids in running text: an attribute block made only of attributes, one an id, after
     an inline element or ending a paragraph (`**opt**{ #opt }`, `{: #para }`; attr_list,
     markdown-it-attrs, Pandoc spans).
   Which generator slugs apply depends on the tree (its site generator); github, explicit and
   html ids always apply. A link is *resolvable* when its fragment — entity-decoded (as the
   Markdown source holds it) then percent-decoded once — is one of the target's ids.

3. mdsel, in process: `sources, problems = load([target])`, then
   `select('#' + fragment as written in the source, sources, Options(full=True))` (full: the
   whole section, unpaginated, so its span is the section's). Resolved when a match comes
   back with no problem; correct when, for a heading id, the first match starts on that
   heading's line (or a definition term's), or, for an HTML anchor or an id in text, its span
   holds that line. Wrong places are listed in full (the worst defect: a reader is taken
   elsewhere), unresolved links up to --show of them, each with a category from the reference
   (github slug, nested heading, explicit id, html anchor, attribute id in text, definition
   term, generator slug; `+encoded` when the
   fragment is percent- or entity-encoded or not ASCII). Broken links (no such id in the
   reference) are asked too, and those mdsel still matches are counted (a match the reader's
   browser would not give).

4. The link as written, in a call of the whole tree: for each resolvable link to another page
   (a path before `#`, no query), `select(path + '#' + fragment as written, every document of
   the tree)`, as an agent passes a link it read along with the folder. Right when the match is
   in the link's target at the right place; a match in any other document is counted apart
   (the worst outcome); so are links that name several documents (relative links to a name the
   tree has several times: the engine does not know the linking page) and misses.

Share = resolved correctly / resolvable. Target (the issue): at least 99.5 %.

--pypi adds the docs folders of pinned sdists (fetched once with `pip download` into
bench/.cache/links/, never committed): MkDocs/Zensical sites whose pages link `page.md#frag`.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
import tarfile
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.token import Token

from mdsel.api import load, select
from mdsel.errors import Problem
from mdsel.results import Options
from mdsel.tree import Source
from token_economy import fetch, normalized  # the same pinned-sdist cache and name rule

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "bench" / ".cache" / "links"
MARKDOWN_SUFFIXES = (".md", ".markdown")
TARGET_SHARE = 99.5

GENERATORS = ("vitepress", "python-markdown", "pymdownx", "hugo")
ALWAYS = ("github", "explicit", "html")


@dataclass(frozen=True)
class TreeSpec:
    name: str
    root: Path
    generators: tuple[str, ...]
    origin: str = ""


DEFAULT_TREES = (
    TreeSpec("vite-docs", ROOT / "tests" / "trees" / "vite-docs", ("vitepress",)),
    TreeSpec("vue-docs", ROOT / "tests" / "trees" / "vue-docs", ("vitepress",)),
    # Hugo's own docs (part of them), site-absolute links to `/section/page/#frag`; the site
    # sets autoDefinitionTermID, so definition terms have ids.
    TreeSpec("hugo-docs", ROOT / "tests" / "trees" / "hugo-docs" / "content" / "en", ("hugo",)),
    # Single files from many sites: every generator's slugs count.
    TreeSpec("corpus", ROOT / "tests" / "corpus", GENERATORS),
)

# Pinned sdists whose docs folders are Markdown sites linking `page.md#fragment`.
# requirement → (tree name, docs folder inside the sdist, the site generator's slugs).
PYPI_SOURCES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    # MkDocs, toc with the default slugify (mkdocs.yml in the sdist).
    "hatch==1.18.2": ("hatch", "docs", ("python-markdown",)),
    # MkDocs-style config, toc with the default slugify (mkdocs.yml in the sdist).
    "markdown==3.11.3": ("markdown", "docs", ("python-markdown",)),
    # Zensical, toc slugify = pymdownx.slugs.slugify(case="lower") (zensical.yml in the sdist).
    "pymdown-extensions==13.1": ("pymdownx", "docs/src/markdown", ("pymdownx",)),
}


# --- Reading Markdown with markdown-it-py ---------------------------------------------------


class Parser(MarkdownIt):
    """CommonMark + GFM tables and strikethrough, raw HTML on; destinations kept as written
    (no percent-encoding: entities and backslash escapes are decoded, as for any reader);
    reference uses labelled and definitions kept as tokens."""

    def __init__(self) -> None:
        super().__init__(
            "commonmark",
            {"html": True, "store_labels": True, "inline_definitions": True},
        )
        self.enable(["table", "strikethrough"])

    def normalizeLink(self, url: str) -> str:
        return url


PARSER = Parser()


def read_text(path: Path) -> str:
    text = path.read_bytes().decode("utf-8", errors="replace").removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def without_front_matter(text: str) -> str:
    """YAML front matter replaced by blank lines, so line numbers stay the source's."""
    lines = text.split("\n")
    if not lines or lines[0].rstrip() != "---":
        return text
    for end in range(1, len(lines)):
        if lines[end].rstrip() in ("---", "..."):
            return "\n" * (end + 1) + "\n".join(lines[end + 1 :])
    return text


def parse(text: str) -> list[Token]:
    return PARSER.parse(without_front_matter(text), {})


class Tags(HTMLParser):
    """Ids (`id=` anywhere, `<a name=>`) and `<a href=>` in a piece of HTML, with the 1-based
    line within it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: list[tuple[str, int, str]] = []
        self.hrefs: list[tuple[str, int]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (name == "name" and tag == "a"):
                self.ids.append((value, line, f"<{tag} {name}>"))
            elif name == "href" and tag == "a":
                self.hrefs.append((value, line))


def html_tags(fragment: str) -> Tags:
    tags = Tags()
    tags.feed(fragment)
    tags.close()
    return tags


def inline_lines(inline: Token) -> Iterator[tuple[Token, int]]:
    """Each child of an inline token with its 1-based line."""
    line = (inline.map[0] if inline.map else 0) + 1
    for child in inline.children or []:
        yield child, line
        if child.type in ("softbreak", "hardbreak"):
            line += 1


# --- The reference: which ids a file has -----------------------------------------------------

ATTR_BLOCK = re.compile(r"[ \t]*\{:?[ \t]*([^{}\n]*?)[ \t]*\}[ \t]*$")
ATTR_ID = re.compile(r"""(?:^|\s)#([^\s"'#.{}=]+)|(?:^|\s)id=(?:"([^"]*)"|'([^']*)'|(\S+))""")
INLINE_ATTR_BLOCK = re.compile(r"\{:?[ \t]*([^{}\n]*?)[ \t]*\}")
ATTR_PART = (
    r"""(?:[#.][^\s"'#.{}=]+"""  # #id, .class
    r"""|[A-Za-z_:][\w:.-]*(?:=(?:"[^"]*"|'[^']*'|[^\s"'{}]+))?)"""  # key, key=value
)
ATTR_BODY = re.compile(rf"{ATTR_PART}(?:\s+{ATTR_PART})*")


def inline_attribute_ids(text: str) -> list[str]:
    """Ids from attribute blocks in running text (`**x**{ #id }`, a paragraph's `{: #id}`:
    markdown-it-attrs, Python-Markdown attr_list, Pandoc spans): blocks made only of
    attributes, one of them an id."""
    found = []
    for block in INLINE_ATTR_BLOCK.finditer(text):
        body = block.group(1)
        if not ATTR_BODY.fullmatch(body):
            continue
        identifier = ATTR_ID.search(body)
        if identifier:
            found.append(next(g for g in identifier.groups() if g))
    return found


def explicit_id(text: str) -> tuple[str, str | None]:
    """The heading text without a trailing attribute block, and the block's id if any."""
    match = ATTR_BLOCK.search(text)
    if match is None:
        return text, None
    found = ATTR_ID.search(match.group(1))
    identifier = next((g for g in found.groups() if g), None) if found else None
    return text[: match.start()], identifier


def github_slug(text: str) -> str:
    kept: list[str] = []
    for char in text.lower():
        category = unicodedata.category(char)
        if char == " ":
            kept.append("-")
        elif char == "-" or category[0] in "LMN" or category == "Pc":
            kept.append(char)
    return "".join(kept)


VP_SPECIAL = re.compile(r"[\s~`!@#$%^&*()\-_+=\[\]{}|\\;:\"'“”‘’<>,.?/]+")
VP_COMBINING = re.compile("[\u0300-\u036f]")
VP_CONTROL = re.compile("[\u0000-\u001f]")


def vitepress_slug(text: str) -> str:
    slug = unicodedata.normalize("NFKD", text)
    slug = VP_CONTROL.sub("", VP_COMBINING.sub("", slug))
    slug = re.sub(r"-{2,}", "-", VP_SPECIAL.sub("-", slug)).strip("-")
    if slug[:1].isdigit() and slug[:1].isascii():
        slug = "_" + slug
    return slug.lower()


def python_markdown_slug(text: str) -> str:
    value = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"[^\w\s-]", "", value).strip().lower()
    return re.sub(r"[-\s]+", "-", value)


def pymdownx_slug(text: str) -> str:
    value = re.sub(r"</?[^>]*>", "", unicodedata.normalize("NFC", text)).strip().lower()
    return re.sub(r"[^\w\- ]", "", value).replace(" ", "-")


def python_markdown_unique(identifier: str, taken: set[str]) -> str:
    while identifier in taken or not identifier:
        counted = re.match(r"^(.*)_([0-9]+)$", identifier)
        if counted:
            identifier = f"{counted.group(1)}_{int(counted.group(2)) + 1}"
        else:
            identifier = f"{identifier}_1"
    taken.add(identifier)
    return identifier


@dataclass
class Anchor:
    """An element a fragment can land on."""

    line: int
    kind: str
    """heading, html (an HTML id or name) or attr (an attribute block in running text)"""
    label: str
    """`h2 Title` or `<a name>`"""
    nested: bool
    schemes: list[str] = field(default_factory=list)

    def describe(self) -> str:
        where = " (nested)" if self.nested else ""
        return f"L{self.line} {self.label}{where} [{', '.join(self.schemes)}]"


def heading_text(inline: Token) -> str:
    """The rendered text of a heading: text and code spans; tags and images give none."""
    parts: list[str] = []
    for child in inline.children or []:
        if child.type in ("text", "code_inline", "text_special"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts)


def hugo_slug(text: str) -> str:
    """Hugo's `github` autoIDType: letters, decimal digits and `_` lower-cased, `-`, space and
    tab as `-`, the rest dropped."""
    out = ""
    for char in text:
        if char in " \t-":
            out += "-"
        elif char == "_" or char.isdecimal() or unicodedata.category(char).startswith("L"):
            out += char.lower()
    return out


DEFINITION_LINE = re.compile(r":[ \t]")


def inline_text(source: str) -> str:
    """A line's rendered text as markdown-it reads it inline (text and code spans)."""
    parts = []
    for token in PARSER.parseInline(source.strip(), {}):
        for child in token.children or []:
            if child.type in ("text", "code_inline", "text_special"):
                parts.append(child.content)
    return "".join(parts)


def definition_terms(tokens: Sequence[Token], lines: Sequence[str]) -> list[tuple[int, str]]:
    """(1-based line, rendered text) of each term of a top-level definition list (Goldmark's
    PHP Markdown Extra syntax): each line of a paragraph above a line that starts with `: `,
    in the paragraph itself or in the next one after blank lines."""
    found: list[tuple[int, str]] = []
    depth = 0
    above: tuple[int, int] | None = None  # the top-level paragraph above, if it had no `: `
    for token in tokens:
        top_level = depth == 0 and token.block and token.nesting >= 0
        depth += token.nesting
        if not top_level:
            continue
        if token.type != "paragraph_open" or not token.map:
            above = None  # a list, a fence, a heading…: no paragraph right above
            continue
        first, end = token.map
        opening = next((n for n in range(first, end) if DEFINITION_LINE.match(lines[n])), None)
        if opening is None:
            above = (first, end)
            continue
        span = (first, opening) if opening > first else above
        above = None
        if span is not None:
            found += [(n + 1, inline_text(lines[n])) for n in range(*span)]
    return found


def reference_ids(text: str, generators: Sequence[str]) -> dict[str, list[Anchor]]:
    """Every id of the document, each with the elements carrying it."""
    tokens = parse(text)
    found: dict[str, list[Anchor]] = {}

    def add(identifier: str, element: Anchor, scheme: str) -> None:
        """`element` carries `identifier` under `scheme` (one Anchor per id and element)."""
        if not identifier:
            return
        anchors = found.setdefault(identifier, [])
        for known in anchors:
            if known.line == element.line and known.kind == element.kind:
                if scheme not in known.schemes:
                    known.schemes.append(scheme)
                return
        anchors.append(replace(element, schemes=[scheme]))

    headings: list[tuple[Anchor, str, str, str | None]] = []
    depth = 0
    for index, token in enumerate(tokens):
        if token.type in ("bullet_list_open", "ordered_list_open", "blockquote_open"):
            depth += 1
        elif token.type in ("bullet_list_close", "ordered_list_close", "blockquote_close"):
            depth -= 1
        elif token.type == "heading_open" and token.map:
            inline = tokens[index + 1]
            rendered = heading_text(inline)
            bare, explicit = explicit_id(rendered)
            anchor = Anchor(token.map[0] + 1, "heading", f"{token.tag} {rendered}", depth > 0)
            headings.append((anchor, rendered, bare, explicit))
        elif token.type == "html_block" and token.map:
            for identifier, line, label in html_tags(token.content).ids:
                add(identifier, Anchor(token.map[0] + line, "html", label, depth > 0), "html")
        elif token.type == "inline":
            in_heading = index > 0 and tokens[index - 1].type == "heading_open"
            for child, line in inline_lines(token):
                if child.type == "html_inline":
                    for identifier, _, label in html_tags(child.content).ids:
                        add(identifier, Anchor(line, "html", label, depth > 0), "html")
                elif child.type == "text" and not in_heading:
                    for identifier in inline_attribute_ids(child.content):
                        label = f"{{#{identifier}}} in text"
                        add(identifier, Anchor(line, "attr", label, depth > 0), "explicit")

    occurrences: dict[str, int] = {}
    for anchor, rendered, _, _ in headings:
        base = github_slug(rendered)
        slug = base
        while slug in occurrences:
            occurrences[base] += 1
            slug = f"{base}-{occurrences[base]}"
        occurrences[slug] = 0
        add(slug, anchor, "github")
    for anchor, _, _, explicit in headings:
        if explicit:
            add(explicit, anchor, "explicit")
    if "vitepress" in generators:
        slugs: set[str] = set()
        for anchor, _, bare, explicit in headings:
            if explicit:
                slugs.add(explicit)
                continue
            base = vitepress_slug(bare)
            slug, number = base, 1
            while slug in slugs:
                slug, number = f"{base}-{number}", number + 1
            slugs.add(slug)
            add(slug, anchor, "vitepress")
    for name, slugify in (
        ("python-markdown", python_markdown_slug),
        ("pymdownx", pymdownx_slug),
    ):
        if name not in generators:
            continue
        taken = {explicit for _, _, _, explicit in headings if explicit}
        for anchor, _, bare, explicit in headings:
            if not explicit:
                add(python_markdown_unique(slugify(bare), taken), anchor, name)
    if "hugo" in generators:
        # Headings and definition terms share one sequence of ids, in document order; the
        # explicit ids are set aside first and numbered around.
        items: list[tuple[int, str, Anchor]] = [
            (anchor.line, bare, anchor) for anchor, _, bare, explicit in headings if not explicit
        ]
        for line, term in definition_terms(tokens, without_front_matter(text).split("\n")):
            items.append((line, term, Anchor(line, "term", f"term {term}", False)))
        items.sort(key=lambda item: item[0])
        used = {explicit for _, _, _, explicit in headings if explicit}
        for _, shown, anchor in items:
            base = hugo_slug(shown)
            if not base:
                continue
            slug, number = base, 1
            while slug in used:
                slug, number = f"{base}-{number}", number + 1
            used.add(slug)
            add(slug, anchor, "hugo")
    return found


# --- Links -----------------------------------------------------------------------------------


@dataclass
class Link:
    file: Path
    line: int
    kind: str
    """inline, definition or html"""
    href: str
    """As the parser decoded it (entities and escapes)."""
    raw_fragment: str
    """The fragment as written in the source."""


SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
RAW_FRAGMENT = re.compile(r"#([^\s()<>\"'\[\]]*)")


def unescape_backslashes(text: str) -> str:
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


def as_written(lines: Sequence[str], line: int, fragment: str) -> str:
    """The fragment as the source spells it, found on the link's line or the next few."""
    window = "\n".join(lines[max(line - 1, 0) : line + 4])
    if "#" + fragment in window:
        return fragment
    for candidate in RAW_FRAGMENT.findall(window):
        if html.unescape(unescape_backslashes(candidate)) == fragment:
            return str(candidate)
    return fragment


def links_of(path: Path) -> list[Link]:
    text = read_text(path)
    lines = text.split("\n")
    found: list[tuple[int, str, str]] = []
    for token in parse(text):
        if token.type == "definition" and token.map:
            found.append((token.map[0] + 1, "definition", str(token.meta.get("url", ""))))
        elif token.type == "html_block" and token.map:
            for href, line in html_tags(token.content).hrefs:
                found.append((token.map[0] + line, "html", href))
        elif token.type == "inline":
            for child, line in inline_lines(token):
                if child.type == "link_open" and "label" not in child.meta:
                    found.append((line, "inline", str(child.attrGet("href") or "")))
                elif child.type == "html_inline":
                    for href, _ in html_tags(child.content).hrefs:
                        found.append((line, "html", href))
    links = []
    for line, kind, href in found:
        if "#" not in href:
            continue
        fragment = href.split("#", 1)[1]
        links.append(Link(path, line, kind, href, as_written(lines, line, fragment)))
    return links


def resolve_target(link: Link, root: Path) -> tuple[Path | None, str]:
    """The linked file, or None and why not: external, empty, missing, outside, not-markdown."""
    href = link.href
    if SCHEME.match(href) or href.startswith("//"):
        return None, "external"
    path_part, fragment = href.split("#", 1)
    if not fragment:
        return None, "empty"
    path_part = unquote(path_part.split("?", 1)[0])
    if not path_part:
        return link.file, ""
    base = root if path_part.startswith("/") else link.file.parent
    target = base / path_part.lstrip("/")
    if path_part.endswith("/") or target.is_dir():
        # A folder's page (Hugo: a bundle's index.md, a section's _index.md), or the page
        # served at `page/` (MkDocs, Hugo: page.md).
        candidates = [target / name for name in ("index.md", "_index.md", "README.md")]
        candidates.append(target.with_name(target.name + ".md"))
    elif target.suffix.lower() in MARKDOWN_SUFFIXES:
        candidates = [target]
    elif target.suffix.lower() == ".html":
        candidates = [target.with_suffix(".md"), target.with_suffix("") / "index.md"]
    else:
        candidates = [target.with_name(target.name + ".md"), target / "index.md", target]
    for candidate in candidates:
        if candidate.is_file():
            resolved = candidate.resolve()
            if not resolved.is_relative_to(root.resolve()):
                return None, "outside"
            if resolved.suffix.lower() not in MARKDOWN_SUFFIXES:
                return None, "not-markdown"
            return resolved, ""
    return None, "missing"


def decoded(fragment: str) -> str:
    """Entity-decoded (what Markdown source holds), then percent-decoded once."""
    return unquote(html.unescape(fragment))


# --- Asking mdsel ----------------------------------------------------------------------------


@dataclass
class Outcome:
    file: str
    line: int
    kind: str
    href: str
    fragment: str
    target: str
    expected: list[str]
    category: str
    got: str


@dataclass
class TreeResult:
    name: str
    root: str
    generators: list[str]
    files: int = 0
    links: int = 0
    external: int = 0
    empty_fragment: int = 0
    target_missing: int = 0
    target_outside: int = 0
    target_not_markdown: int = 0
    not_resolvable: int = 0
    broken_but_matched: int = 0
    resolvable: int = 0
    correct: int = 0
    wrong: int = 0
    unresolved: int = 0
    as_written: int = 0
    as_written_right: int = 0
    as_written_other_document: int = 0
    as_written_several: int = 0
    as_written_missed: int = 0
    wrong_places: list[Outcome] = field(default_factory=list)
    unresolved_links: list[Outcome] = field(default_factory=list)
    other_documents: list[Outcome] = field(default_factory=list)
    as_written_misses: list[Outcome] = field(default_factory=list)
    not_resolvable_examples: list[str] = field(default_factory=list)

    @property
    def share(self) -> float:
        return 100.0 * self.correct / self.resolvable if self.resolvable else 100.0


def category(fragment: str, anchors: Sequence[Anchor]) -> str:
    schemes = {scheme for anchor in anchors for scheme in anchor.schemes}
    nested = any(anchor.nested for anchor in anchors if anchor.kind == "heading")
    if "github" in schemes:
        name = "nested heading" if nested else "github slug"
    elif all(anchor.kind == "attr" for anchor in anchors):
        name = "attribute id in text"
    elif "explicit" in schemes:
        name = "explicit id (nested heading)" if nested else "explicit id"
    elif "html" in schemes:
        name = "html anchor"
    elif all(anchor.kind == "term" for anchor in anchors):
        name = "definition term"
    else:
        generator = "/".join(sorted(schemes & set(GENERATORS)))
        name = f"{generator} slug" + (" (nested heading)" if nested else "")
    if decoded(fragment) != fragment or not fragment.isascii():
        name += " +encoded"
    return name


class Engine:
    """mdsel in process, each target file loaded once."""

    def __init__(self) -> None:
        self.options = Options(full=True)
        self.loaded: dict[Path, tuple[list[Source], list[Problem]]] = {}

    def ask(self, target: Path, fragment: str) -> tuple[list[tuple[int, int]], str]:
        """The spans of the matches, and the problems (codes and messages) if any."""
        if target not in self.loaded:
            self.loaded[target] = load([str(target)])
        sources, problems = self.loaded[target]
        if problems:
            return [], "; ".join(f"{p.code}: {p.message}" for p in problems)
        result = select("#" + fragment, sources, self.options)
        spans = [(match.line_start, match.line_end) for match in result.matches]
        text = "; ".join(f"{p.code}: {p.message}" for p in result.problems)
        return spans, text


class TreeCall:
    """mdsel in process on every document of a tree at once, as a call naming its folder."""

    def __init__(self, files: Sequence[Path]) -> None:
        self.options = Options(full=True)
        self.sources, problems = load([str(path) for path in files])
        self.path_of = {source.namespace: Path(source.path) for source in self.sources}
        assert not problems, problems

    def ask(self, written: str) -> tuple[set[Path], list[tuple[int, int]], str]:
        """The documents and spans of the matches, and the problems' codes and messages."""
        result = select(written, self.sources, self.options)
        documents = {self.path_of[match.namespace] for match in result.matches}
        spans = [(match.line_start, match.line_end) for match in result.matches]
        return documents, spans, "; ".join(f"{p.code}: {p.message}" for p in result.problems)


def correct_place(span: tuple[int, int], anchors: Sequence[Anchor]) -> bool:
    start, end = span
    for anchor in anchors:
        if anchor.kind in ("heading", "term") and start == anchor.line:
            return True
        if anchor.kind in ("html", "attr") and start <= anchor.line <= end:
            return True
    return False


def markdown_files(root: Path) -> list[Path]:
    return sorted(
        path.resolve()
        for path in root.rglob("*")
        if path.is_file() and path.suffix.lower() in MARKDOWN_SUFFIXES
    )


def measure(tree: TreeSpec, engine: Engine, show: int) -> TreeResult:
    where = tree.origin or str(tree.root)
    if not tree.origin and tree.root.resolve().is_relative_to(ROOT):
        where = str(tree.root.resolve().relative_to(ROOT))
    result = TreeResult(tree.name, where, list(tree.generators))
    ids: dict[Path, dict[str, list[Anchor]]] = {}
    files = markdown_files(tree.root)
    result.files = len(files)
    whole = TreeCall(files)
    for path in files:
        for link in links_of(path):
            result.links += 1
            target, why = resolve_target(link, tree.root)
            if target is None:
                counter = {
                    "external": "external",
                    "empty": "empty_fragment",
                    "missing": "target_missing",
                    "outside": "target_outside",
                    "not-markdown": "target_not_markdown",
                }[why]
                setattr(result, counter, getattr(result, counter) + 1)
                continue
            if target not in ids:
                ids[target] = reference_ids(read_text(target), tree.generators)
            fragment = decoded(link.raw_fragment)
            anchors = ids[target].get(fragment)
            shown_file = str(path.relative_to(tree.root.resolve()))
            shown_target = str(target.relative_to(tree.root.resolve()))
            if not anchors:
                result.not_resolvable += 1
                spans, problems = engine.ask(target, link.raw_fragment)
                matched = bool(spans) and not problems
                result.broken_but_matched += matched
                if len(result.not_resolvable_examples) < show:
                    note = f" (mdsel matched {spans[0][0]}-{spans[0][1]})" if matched else ""
                    result.not_resolvable_examples.append(
                        f"{shown_file}:{link.line} {link.href}{note}"
                    )
                continue
            result.resolvable += 1
            spans, problems = engine.ask(target, link.raw_fragment)
            outcome = Outcome(
                shown_file,
                link.line,
                link.kind,
                link.href,
                link.raw_fragment,
                shown_target,
                [anchor.describe() for anchor in anchors],
                category(link.raw_fragment, anchors),
                problems or ", ".join(f"L{start}-{end}" for start, end in spans),
            )
            if spans and not problems and correct_place(spans[0], anchors):
                result.correct += 1
            elif spans and not problems:
                result.wrong += 1
                result.wrong_places.append(outcome)
            else:
                result.unresolved += 1
                result.unresolved_links.append(outcome)
            page = link.href.split("#", 1)[0]
            if page and "?" not in page:
                ask_as_written(result, whole, target, anchors, outcome)
    return result


def ask_as_written(
    result: TreeResult, whole: TreeCall, target: Path, anchors: Sequence[Anchor], outcome: Outcome
) -> None:
    """The link as written (its path, `#`, its fragment as the source spells it) in a call of
    the whole tree: counted by where it lands."""
    result.as_written += 1
    written = outcome.href.split("#", 1)[0] + "#" + outcome.fragment
    documents, spans, problems = whole.ask(written)
    got = replace(outcome, href=written, got=problems or ", ".join(f"L{a}-{b}" for a, b in spans))
    if documents and documents != {target}:
        result.as_written_other_document += 1
        result.other_documents.append(got)
    elif spans and not problems and correct_place(spans[0], anchors):
        result.as_written_right += 1
    elif "the link names" in problems:
        result.as_written_several += 1
    else:
        result.as_written_missed += 1
        result.as_written_misses.append(got)


# --- PyPI sdists -----------------------------------------------------------------------------


def pypi_trees(
    sources: dict[str, tuple[str, str, tuple[str, ...]]] = PYPI_SOURCES,
) -> list[TreeSpec]:
    """The docs folders of pinned sdists (requirement → name, folder, generators), extracted
    once into the cache."""
    trees = []
    for requirement, (name, docs, generators) in sources.items():
        archive = fetch(requirement, CACHE / "sdists")
        target = CACHE / "trees" / normalized(requirement.replace("==", "-"))
        if not target.exists():
            with tarfile.open(archive) as tar:
                for member in tar.getmembers():
                    parts = member.name.split("/")
                    inside = "/".join(parts[1:])
                    if (
                        not member.isfile()
                        or ".." in parts
                        or member.name.startswith("/")
                        or not inside.startswith(docs + "/")
                        or not inside.lower().endswith(MARKDOWN_SUFFIXES)
                    ):
                        continue
                    handle = tar.extractfile(member)
                    if handle is None:
                        continue
                    path = target.joinpath(*inside[len(docs) + 1 :].split("/"))
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(handle.read())
        trees.append(TreeSpec(name, target, generators, f"sdist {requirement}:{docs}"))
    return trees


# --- Report ----------------------------------------------------------------------------------

COUNTS = (
    ("links", "links with a fragment"),
    ("external", "external (skipped)"),
    ("empty_fragment", "empty fragment (skipped)"),
    ("target_missing", "target file missing"),
    ("target_outside", "target outside the tree"),
    ("target_not_markdown", "target not Markdown"),
    ("not_resolvable", "fragment not in the target (broken link)"),
    ("broken_but_matched", "  of which mdsel still matched"),
    ("resolvable", "resolvable"),
    ("correct", "resolved, right place"),
    ("wrong", "resolved, WRONG place"),
    ("unresolved", "unresolved"),
    ("as_written", "to another page: asked as written, tree"),
    ("as_written_right", "  right document and place"),
    ("as_written_other_document", "  ANOTHER document"),
    ("as_written_several", "  names several documents (relative)"),
    ("as_written_missed", "  missed"),
)


def total_of(results: Sequence[TreeResult]) -> TreeResult:
    total = TreeResult("total", "", [])
    for result in results:
        for key, _ in (("files", ""), *COUNTS):
            setattr(total, key, getattr(total, key) + getattr(result, key))
    return total


def print_text(results: Sequence[TreeResult], show: int, broken: bool) -> None:
    total = total_of(results)
    columns = [*results, total]
    width = max(9, *(len(r.name) for r in columns)) + 2
    print(f"{'':42}" + "".join(f"{r.name:>{width}}" for r in columns))
    for key, label in (("files", "Markdown files"), *COUNTS):
        print(f"{label:42}" + "".join(f"{getattr(r, key):>{width}}" for r in columns))
    print(
        f"{'share = right place / resolvable':42}"
        + "".join(f"{f'{r.share:.1f} %':>{width}}" for r in columns)
    )
    print()
    for result in results:
        generators = ", ".join([*ALWAYS, *result.generators])
        print(f"{result.name}: {result.root} (ids: {generators})")
    verdict = "meets" if total.share >= TARGET_SHARE else "misses"
    print(f"\nTotal {total.share:.1f} % {verdict} the target of {TARGET_SHARE} %.")
    for result in results:
        if broken and result.not_resolvable_examples:
            print(f"\n{result.name}: broken links ({result.not_resolvable}, showing up to {show})")
            for example in result.not_resolvable_examples:
                print(f"  {example}")
        if result.wrong_places:
            print(f"\n{result.name}: resolved to the WRONG place ({len(result.wrong_places)})")
            for outcome in result.wrong_places:
                print_outcome(outcome)
        if result.unresolved_links:
            print(f"\n{result.name}: unresolved ({result.unresolved}, showing up to {show})")
            for outcome in result.unresolved_links[:show]:
                print_outcome(outcome)
        if result.other_documents:
            print(f"\n{result.name}: as written, ANOTHER document ({len(result.other_documents)})")
            for outcome in result.other_documents:
                print_outcome(outcome)
        if result.as_written_misses:
            count = len(result.as_written_misses)
            print(f"\n{result.name}: as written, missed ({count}, showing up to {show})")
            for outcome in result.as_written_misses[:show]:
                print_outcome(outcome)
    categories: dict[str, int] = {}
    for result in results:
        for outcome in (*result.wrong_places, *result.unresolved_links):
            verdict = "wrong" if outcome in result.wrong_places else "unresolved"
            key = f"{verdict}: {outcome.category}"
            categories[key] = categories.get(key, 0) + 1
    if categories:
        print("\nFailures by category (from the reference):")
        for key, count in sorted(categories.items(), key=lambda item: -item[1]):
            print(f"  {count:5}  {key}")


def print_outcome(outcome: Outcome) -> None:
    print(f"  {outcome.file}:{outcome.line} [{outcome.kind}] {outcome.href}")
    print(f"      {outcome.category}; target {outcome.target}: {'; '.join(outcome.expected)}")
    print(f"      mdsel: {outcome.got or 'no match'}")


def as_json(results: Sequence[TreeResult], show: int) -> dict[str, Any]:
    def one(result: TreeResult) -> dict[str, Any]:
        data = asdict(result)
        data["share"] = round(result.share, 1)
        data["unresolved_links"] = data["unresolved_links"][:show]
        data["as_written_misses"] = data["as_written_misses"][:show]
        return data

    total = total_of(results)
    summary = {key: getattr(total, key) for key, _ in (("files", ""), *COUNTS)}
    return {
        "target_share": TARGET_SHARE,
        "trees": [one(result) for result in results],
        "total": {**summary, "share": round(total.share, 1)},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tree",
        action="append",
        default=[],
        metavar="DIR",
        help="another tree (repeatable); its root starts site-absolute links",
    )
    parser.add_argument(
        "--generators",
        default=",".join(GENERATORS),
        help="generator slugs for --tree trees (comma-separated; default all: "
        + ",".join(GENERATORS)
        + ")",
    )
    parser.add_argument(
        "--no-default", action="store_true", help="leave out vite-docs, vue-docs and tests/corpus"
    )
    parser.add_argument(
        "--pypi", action="store_true", help="add the docs trees of the pinned PyPI sdists"
    )
    parser.add_argument(
        "--show", type=int, default=30, help="unresolved links listed per tree (default 30)"
    )
    parser.add_argument(
        "--broken", action="store_true", help="also list links the reference finds broken"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args()
    generators = tuple(g for g in args.generators.split(",") if g)
    unknown = set(generators) - set(GENERATORS)
    if unknown:
        parser.error(f"unknown generators {sorted(unknown)}; known: {', '.join(GENERATORS)}")
    trees = [] if args.no_default else list(DEFAULT_TREES)
    trees += [TreeSpec(Path(d).name, Path(d).resolve(), generators) for d in args.tree]
    if args.pypi:
        trees += pypi_trees()
    engine = Engine()
    results = [measure(tree, engine, args.show) for tree in trees]
    if args.json:
        print(json.dumps(as_json(results, args.show), indent=2, ensure_ascii=False))
    else:
        print_text(results, args.show, args.broken)
    return 0


if __name__ == "__main__":
    sys.exit(main())
