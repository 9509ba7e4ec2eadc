"""Search on real documentation trees: how often a search answers "where is this discussed?"
with the right section, on questions labelled by the trees' own cross-page links.

    .venv/bin/python bench/bench_search.py                 # vite-docs, vue-docs
    .venv/bin/python bench/bench_search.py --pypi          # + docs trees of pinned PyPI sdists
    .venv/bin/python bench/bench_search.py --pypi --more   # + seven more, never tuned on
    .venv/bin/python bench/bench_search.py --tree DIR      # that folder instead of the defaults
    .venv/bin/python bench/bench_search.py --json          # one JSON object instead of text
    .venv/bin/python bench/bench_search.py --peers         # + the peers from PyPI (slow)
    (--routes mdsel,grep,fts,titles: which, in report order; --limit N: the first N questions
    of each tree; --show N: up to N questions per tree whose first mdsel hit is wrong, with
    mdsel's first three hits; --mdsel-cmd PATH: another mdsel executable)

Method, per tree (a folder of Markdown files; its root is where site-absolute links start):

1. Questions. Every Markdown file is parsed with markdown-it-py as bench/bench_links.py does
   (its parser, front matter blanked, nothing inside code counts). Every link with a fragment
   is taken with its text — the plain text of the link's inline children: text and code
   spans, a line break a space, images none; inline links, uses of reference links
   (`[text][ref]`) and `<a href>` in inline HTML and HTML blocks. Its target is resolved by
   bench_links' rule (`.html` → `.md`, a folder → index.md, `/x/y` from the tree root, …).
   A link to ANOTHER page whose fragment is the id of a heading of the target (bench_links'
   reference ids: github, explicit `{#id}` and the tree's generator slugs) is a question:
   question = the link text, mkdocs-material icon shortcodes (`:octicons-…:`) dropped and
   whitespace collapsed; answer = (target relative to the tree root,
   the 1-based line of that heading). Texts that cannot ask anything are left out: shorter than
   3 characters; only punctuation, digits and symbols; case-insensitively one of "here",
   "this", "docs", "documentation", "link", "guide", "see", "more", "read more", "this page",
   "this section", "above", "below" (trailing punctuation ignored); a bare URL (a scheme,
   `www.`), path (no space, starting `/`, `./`, `../`, `~/` or ending `/`) or file name (no
   space, ending in a file suffix such as `.md`, `.js`, `.json`). Identical (question, file,
   line) triples count once per tree. All questions are written to
   bench/out/search_questions.json (`[{tree, question, file, line}]`) before any route runs.

2. Right answer. The answer's section is the innermost one: from the heading's line up to the
   next heading of ANY level in the target (markdown-it-py's heading tokens, those in lists and
   block quotes included), or the end of the file. A hit (file, line) is right when it is in
   the answer's file and heading line <= line < that next heading's line. top-1: the first hit
   is right; top-3: one of the first three is.

3. Routes, each giving ranked (file, line) hits for the question:
   - mdsel: `mdsel select --json '?q=QUESTION' TREE` (any `"` dropped from the question), two
     commands at a time; hits = `data.matches` in order, at `line_start`, their file from
     `file_path` (or, lacking it, the namespace before `::` in the match's selector, named by
     `mdsel index --json TREE`). Tokens: the text output of `mdsel select '?q=QUESTION' TREE`,
     what an agent reads. When mdsel does not know `?q=` (a probe query is an invalid
     selector) the route gives no hit for the tree and says so once.
   - grep: what an agent's `grep -rn -i -F` over the tree yields. The question's words are
     its runs of letters, digits, `_` and `-` (lower-cased, `-` trimmed at both ends),
     without the function words of STOPWORDS (unless nothing else is left), each once. Each
     line of every Markdown file (raw source, code included, as grep reads it) counts how many
     of the words it contains case-insensitively as substrings; a file's score is the sum over
     its lines. Files are ranked by score (ties: tree order); the hits are, file by file in that
     order, its lines with at least one word, most words first, then by line. No tokens (grep
     prints lines, not an answer).
   - fts: SQLite FTS5 BM25 over sections. Each document is split into innermost heading
     sections (markdown-it-py headings; the text before the first heading is one section of its
     own); each section is a row (title = the heading's text without an attribute block, body =
     its source lines after the heading) of an FTS5 table with tokenize 'porter unicode61'. The
     query is the question's words (all of them, function words included: BM25 weighs them),
     each an FTS5 string, OR-ed; rows ranked by bm25() (ties: tree order); hit = the section's
     first line.
   - titles: sections ranked by how many of the question's words (as for grep) are words of
     their heading's title (same split); ties: fewer title words first, then tree order;
     sections sharing no word are no hits.
   - peers (--peers): Markdown search tools from PyPI, pinned in PEERS below, each installed
     into a venv of its own, bench/.cache/search-peers/venv/NAME (their pins of `mcp` clash),
     and asked through its own search command, two at a time; the (file, line) pairs its text
     output names are the hits, in order, and that output is the answer counted for tokens:
     docgraphical: `docgraphical search TREE QUESTION` (lines holding the whole question as a
     substring, `- **file** [Lnn]: …`; it skips folders under any dot-folder, so the tree is
     passed as a symlink in a temporary folder); agents-docs: `agents-docs ingest NAME TREE`
     once, then `agents-docs search --docset NAME QUESTION` (its BM25 over header sections,
     top 3; `[NAME] file#Lnn -- Title > …`), with HOME in bench/.cache/search-peers/home;
     markdown-memory is skipped (why: PEERS).

4. Tokens: the median, over the questions, of Claude tokens of the route's answer text, counted
   with the tokenizer tests/tokens.py loads (the anthropic 0.34.2 wheel's, from .wheelhouse);
   without it UTF-8 bytes / 2.5, labelled as an estimate.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Protocol

from markdown_it.token import Token

from bench_links import (
    GENERATORS,
    Anchor,
    Link,
    TreeSpec,
    as_written,
    decoded,
    explicit_id,
    heading_text,
    html_tags,
    inline_lines,
    markdown_files,
    parse,
    pypi_trees,
    read_text,
    reference_ids,
    resolve_target,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.tokens import _tokenizer  # noqa: E402  (the tokenizer the tests count with)

OUT = ROOT / "bench" / "out"
QUESTIONS = OUT / "search_questions.json"

MORE_SOURCES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    # Docs folders of more projects, kept out of the tuning of the ranking's weights: what the
    # figures are on trees the weights never saw. Their fragments are resolved by every slug
    # rule bench_links knows, as for a folder given with --tree.
    "griffe==2.4.1": ("griffe", "docs", GENERATORS),
    "black==26.10.1": ("black", "docs", GENERATORS),
    "starlette==1.10.0": ("starlette", "docs", GENERATORS),
    "cibuildwheel==4.3.5": ("cibuildwheel", "docs", GENERATORS),
    "mkdocstrings==1.0.8": ("mkdocstrings", "docs", GENERATORS),
    "copier==9.19.1": ("copier", "docs", GENERATORS),
    "scikit-build-core==1.1.2": ("scikit-build-core", "docs", GENERATORS),
}

DEFAULT_TREES = (
    TreeSpec("vite-docs", ROOT / "tests" / "trees" / "vite-docs", ("vitepress",)),
    TreeSpec("vue-docs", ROOT / "tests" / "trees" / "vue-docs", ("vitepress",)),
)


# --- Questions from links -------------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    tree: str
    question: str
    file: str
    """The answer's file, relative to the tree root (`/`-separated)."""
    line: int
    """The 1-based line of the answer's heading."""


GENERIC = frozenset(
    {
        "here",
        "this",
        "docs",
        "documentation",
        "link",
        "guide",
        "see",
        "more",
        "read more",
        "this page",
        "this section",
        "above",
        "below",
    }
)
# mkdocs-material icons (`:octicons-arrow-right-24: Setup`): drawn, never read as words.
ICON = re.compile(r":(?:octicons|material|fontawesome|simple)-[\w-]+:")
NO_WORDS = re.compile(r"[\W\d_]+")
URL = re.compile(r"(?i)^(?:[a-z][a-z0-9+.\-]*://|www\.|mailto:)")
PATH = re.compile(r"^(?:\.{0,2}/|~/)\S*$|^\S+/$")
FILE_NAME = re.compile(
    r"(?i)^\S+\.(?:md|markdown|mdx|html?|[cm]?[jt]sx?|vue|svelte|json5?|jsonc|ya?ml|toml|"
    r"css|scss|sass|less|txt|py|cfg|ini|svg|png|jpe?g|gif|webp|lock|sh|wasm)$"
)


def uninformative(text: str) -> bool:
    """A link text that asks nothing a reader could search for."""
    if len(text) < 3 or NO_WORDS.fullmatch(text):
        return True
    if text.lower().rstrip(" .:;,!?") in GENERIC:
        return True
    return " " not in text and bool(URL.match(text) or PATH.match(text) or FILE_NAME.match(text))


class AnchorTexts(HTMLParser):
    """`<a href>` elements of a piece of HTML with their text and 1-based line within it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str, str]] = []
        self.open: tuple[int, str, list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href is not None:
            self.open = (self.getpos()[0], href, [])

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self.open is not None:
            line, href, parts = self.open
            self.found.append((line, href, "".join(parts)))
            self.open = None

    def handle_data(self, data: str) -> None:
        if self.open is not None:
            self.open[2].append(data)


def texted_links(tokens: Sequence[Token]) -> Iterator[tuple[int, str, str, bool]]:
    """Every link of a document as (1-based line, href, text, whether the text is all code
    spans)."""
    for token in tokens:
        if token.type == "html_block" and token.map:
            parser = AnchorTexts()
            parser.feed(token.content)
            parser.close()
            for line, href, text in parser.found:
                yield token.map[0] + line, href, text, False
        if token.type != "inline":
            continue
        # A link's text runs from its opening to its closing child; links do not nest.
        opened: tuple[int, str, list[str], str] | None = None
        code = True
        for child, line in inline_lines(token):
            if child.type == "link_open":
                opened = (line, str(child.attrGet("href") or ""), [], "link_close")
                code = True
            elif child.type == "html_inline" and re.match(r"(?i)<a\s", child.content):
                hrefs = html_tags(child.content).hrefs
                if hrefs:
                    opened = (line, hrefs[0][0], [], "</a>")
                    code = True
            elif opened is not None:
                closing = opened[3]
                if child.type == closing or (
                    closing == "</a>"
                    and child.type == "html_inline"
                    and child.content.lower().startswith("</a")
                ):
                    text = "".join(opened[2])
                    yield opened[0], opened[1], text, code and bool(text.strip())
                    opened = None
                elif child.type in ("text", "code_inline", "text_special"):
                    opened[2].append(child.content)
                    code = code and (child.type == "code_inline" or not child.content.strip())
                elif child.type in ("softbreak", "hardbreak"):
                    opened[2].append(" ")


def heading_line(anchors: Sequence[Anchor]) -> int | None:
    return next((anchor.line for anchor in anchors if anchor.kind == "heading"), None)


@dataclass
class Asked:
    """A tree's questions and how they were found."""

    questions: list[Question] = field(default_factory=list)
    files: int = 0
    links: int = 0
    """links with a fragment"""
    to_heading: int = 0
    """to a heading of another page"""
    uninformative: int = 0
    repeated: int = 0
    code: int = 0
    """questions whose link text is all code spans (`defineConfig`, `server.proxy`)"""


def questions_of(tree: TreeSpec) -> Asked:
    root = tree.root.resolve()
    ids: dict[Path, dict[str, list[Anchor]]] = {}
    seen: set[Question] = set()
    asked = Asked()
    files = markdown_files(root)
    asked.files = len(files)
    for path in files:
        text = read_text(path)
        lines = text.split("\n")
        for line, href, raw_text, code in texted_links(parse(text)):
            if "#" not in href:
                continue
            asked.links += 1
            question = " ".join(ICON.sub("", raw_text).split())
            fragment = href.split("#", 1)[1]
            link = Link(path, line, "text", href, as_written(lines, line, fragment))
            target, _ = resolve_target(link, root)
            if target is None or target == path:
                continue
            if target not in ids:
                ids[target] = reference_ids(read_text(target), tree.generators)
            heading = heading_line(ids[target].get(decoded(link.raw_fragment), []))
            if heading is None:
                continue
            asked.to_heading += 1
            if uninformative(question):
                asked.uninformative += 1
                continue
            one = Question(tree.name, question, target.relative_to(root).as_posix(), heading)
            if one in seen:
                asked.repeated += 1
                continue
            seen.add(one)
            asked.questions.append(one)
            asked.code += code
    return asked


def write_questions(questions: Sequence[Question], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [asdict(question) for question in questions]
    path.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


# --- Sections -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Section:
    file: str
    start: int
    """Its first line: the heading's, or 1 for the text before the first heading."""
    end: int
    """The line after it: the next heading's of any level, or the file's line count + 1."""
    title: str
    body: str


def sections_of(file: str, text: str) -> list[Section]:
    """The innermost heading sections of a document, in order."""
    lines = text.split("\n")
    tokens = parse(text)
    headings: list[tuple[int, int, str]] = []
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.map:
            title, _ = explicit_id(heading_text(tokens[index + 1]))
            headings.append((token.map[0] + 1, token.map[1] + 1, " ".join(title.split())))
    found = []
    first = headings[0][0] if headings else len(lines) + 1
    before = "\n".join(lines[: first - 1])
    if before.strip():
        found.append(Section(file, 1, first, "", before))
    for number, (start, body_start, title) in enumerate(headings):
        end = headings[number + 1][0] if number + 1 < len(headings) else len(lines) + 1
        body = "\n".join(lines[body_start - 1 : end - 1])
        found.append(Section(file, start, end, title, body))
    return found


Hit = tuple[str, int]
"""(file relative to the tree root, 1-based line)"""


class Corpus:
    """A tree's documents, read once: their lines (lower-cased for grep) and sections."""

    def __init__(self, tree: TreeSpec) -> None:
        self.tree = tree
        self.root = tree.root.resolve()
        self.files: list[str] = []
        self.lower: dict[str, str] = {}
        self.line_starts: dict[str, list[int]] = {}
        self.sections: list[Section] = []
        self.by_file: dict[str, list[Section]] = {}
        for path in markdown_files(self.root):
            file = path.relative_to(self.root).as_posix()
            text = read_text(path)
            self.files.append(file)
            self.lower[file] = text.lower()
            self.line_starts[file] = [0, *(m.end() for m in re.finditer("\n", text))]
            self.by_file[file] = sections_of(file, text)
            self.sections += self.by_file[file]

    def section_at(self, file: str, line: int) -> Section | None:
        for section in self.by_file.get(file, []):
            if section.start <= line < section.end:
                return section
        return None

    def right(self, question: Question, hit: Hit) -> bool:
        """The hit lies in the answer's innermost section."""
        file, line = hit
        if file != question.file:
            return False
        section = self.section_at(file, line)
        return section is not None and section.start == question.line


@dataclass
class Answer:
    hits: list[Hit]
    tokens: int | None = None
    error: str = ""


# --- Words ----------------------------------------------------------------------------------------

WORD = re.compile(r"[\w-]+")
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "how",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "the",
        "to",
        "vs",
        "via",
        "with",
    ]
)


def words(text: str) -> list[str]:
    """Runs of letters, digits, `_` and `-`, lower-cased, `-` trimmed; each once, in order."""
    found = (word.strip("-") for word in WORD.findall(text.lower()))
    return list(dict.fromkeys(word for word in found if word))


def content_words(text: str) -> list[str]:
    every = words(text)
    return [word for word in every if word not in STOPWORDS] or every


# --- Routes: grep, fts, titles --------------------------------------------------------------------

MAX_HITS = 10


class Grep:
    """Lines holding the question's words as substrings, files ranked by their sum."""

    name = "grep"

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.lines_with: dict[str, dict[str, set[int]]] = {}

    def lines_of(self, word: str) -> dict[str, set[int]]:
        """file → the 0-based lines holding `word` (found once per word: questions repeat)."""
        if word not in self.lines_with:
            found: dict[str, set[int]] = {}
            for file in self.corpus.files:
                text, starts = self.corpus.lower[file], self.corpus.line_starts[file]
                at = text.find(word)
                while at >= 0:
                    number = bisect_right(starts, at) - 1
                    found.setdefault(file, set()).add(number)
                    at = text.find(
                        word, starts[number + 1] if number + 1 < len(starts) else len(text)
                    )
            self.lines_with[word] = found
        return self.lines_with[word]

    def answer(self, question: Question) -> Answer:
        counts: dict[str, dict[int, int]] = {}
        for word in content_words(question.question):
            for file, numbers in self.lines_of(word).items():
                per_line = counts.setdefault(file, {})
                for number in numbers:
                    per_line[number] = per_line.get(number, 0) + 1
        order = {file: index for index, file in enumerate(self.corpus.files)}
        ranked = sorted(counts, key=lambda file: (-sum(counts[file].values()), order[file]))
        hits: list[Hit] = []
        for file in ranked:
            lines = sorted(counts[file].items(), key=lambda item: (-item[1], item[0]))
            hits += [(file, number + 1) for number, _ in lines]
            if len(hits) >= MAX_HITS:
                break
        return Answer(hits[:MAX_HITS])


class Fts:
    """SQLite FTS5 (porter unicode61) over sections, ranked by bm25()."""

    name = "fts"

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.db = sqlite3.connect(":memory:")
        self.db.execute(
            "CREATE VIRTUAL TABLE sections USING fts5(title, body, tokenize='porter unicode61')"
        )
        self.db.executemany(
            "INSERT INTO sections (rowid, title, body) VALUES (?, ?, ?)",
            ((index, s.title, s.body) for index, s in enumerate(corpus.sections)),
        )

    def answer(self, question: Question) -> Answer:
        terms = words(question.question)
        if not terms:
            return Answer([])
        query = " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)
        rows = self.db.execute(
            "SELECT rowid FROM sections WHERE sections MATCH ? ORDER BY bm25(sections), rowid "
            "LIMIT ?",
            (query, MAX_HITS),
        ).fetchall()
        found = [self.corpus.sections[row[0]] for row in rows]
        return Answer([(section.file, section.start) for section in found])


class Titles:
    """Sections by how many of the question's words their heading's title has."""

    name = "titles"

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.titled = [
            (index, section, set(words(section.title)))
            for index, section in enumerate(corpus.sections)
            if section.title
        ]

    def answer(self, question: Question) -> Answer:
        asked = set(content_words(question.question))
        scored = [
            (-len(asked & title), len(title), index, section)
            for index, section, title in self.titled
            if asked & title
        ]
        scored.sort(key=lambda item: item[:3])
        return Answer([(section.file, section.start) for *_, section in scored[:MAX_HITS]])


# --- Tokens ---------------------------------------------------------------------------------------


def token_counter() -> tuple[Callable[[str], int], str]:
    """The project's Claude token count (tests/tokens.py's tokenizer), or the labelled
    estimate."""
    tokenizer, reason = _tokenizer()
    if tokenizer is None:
        print(f"warning: {reason}; tokens are estimated as UTF-8 bytes / 2.5", file=sys.stderr)
        return (lambda text: round(len(text.encode()) / 2.5)), "estimate: UTF-8 bytes / 2.5"
    return (lambda text: len(tokenizer.encode(text).ids)), "Claude tokenizer (tests/tokens.py)"


# --- Routes that run a command: mdsel and the peers -----------------------------------------------

WORKERS = 2
TIMEOUT = 120
INSTALL_TIMEOUT = 900


def run(
    command: Sequence[str], env: dict[str, str] | None = None, timeout: float = TIMEOUT
) -> tuple[int, str, str]:
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, env=env, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return -1, "", str(error)
    return done.returncode, done.stdout, done.stderr


class Mdsel:
    """`mdsel select '?q=…' TREE`, JSON for the hits and text for the tokens."""

    name = "mdsel"

    def __init__(self, corpus: Corpus, command: str, count: Callable[[str], int]) -> None:
        self.corpus = corpus
        self.command = command
        self.count = count
        self.namespaces: dict[str, str] | None = None
        self.unsupported = ""
        probe = self.ask_json("probe")
        # A syntax error on a one-word query: this mdsel has no `?q=` (yet); nothing to ask.
        if isinstance(probe, str) and probe.startswith(("SYNTAX:", "INVALID_SELECTOR:")):
            self.unsupported = probe

    def ask_json(self, query: str) -> list[dict[str, Any]] | str:
        """The matches of `?q=query`, or what went wrong."""
        code, out, err = run(
            [self.command, "select", "--json", "?q=" + query, str(self.corpus.root)]
        )
        try:
            body = json.loads(out)
        except ValueError:
            # A traceback's last line names the exception.
            return f"exit {code}, no JSON: {' '.join((err or out).split())[-300:]}"
        data = body.get("data") or {}
        matches = data.get("matches") or []
        if not matches and body.get("errors"):
            first = body["errors"][0]
            # Nothing found is an answer (no hit), not a failure of the route.
            if "NOT_FOUND" in str(first.get("code")):
                return []
            return f"{first.get('code')}: {first.get('message')}"
        return list(matches)

    def file_of(self, match: dict[str, Any]) -> str:
        if "file_path" in match:
            return Path(os.path.relpath(match["file_path"], self.corpus.root)).as_posix()
        # Until matches name their file, their namespace does, as the index lists it.
        if self.namespaces is None:
            _, out, _ = run([self.command, "index", "--json", str(self.corpus.root)])
            try:
                documents = (json.loads(out).get("data") or {}).get("documents") or []
            except ValueError:
                documents = []
            self.namespaces = {
                d["namespace"]: Path(os.path.relpath(d["file_path"], self.corpus.root)).as_posix()
                for d in documents
            }
        return self.namespaces.get(str(match.get("selector", "")).split("::", 1)[0], "?")

    def answer(self, question: Question) -> Answer:
        if self.unsupported:
            return Answer([], error=self.unsupported)
        query = question.question.replace('"', "")
        matches = self.ask_json(query)
        if isinstance(matches, str):
            return Answer([], error=matches)
        hits = [(self.file_of(match), int(match["line_start"])) for match in matches]
        _, text, _ = run([self.command, "select", "?q=" + query, str(self.corpus.root)])
        return Answer(hits, self.count(text))


PEER_HOME = ROOT / "bench" / ".cache" / "search-peers"


@dataclass(frozen=True)
class Peer:
    name: str
    requirement: str
    command: str
    """What the route runs, for the report."""
    skip: str = ""
    """Why the peer is not run at all, if it is not."""

    @property
    def venv(self) -> Path:
        return PEER_HOME / "venv" / self.name

    def executable(self, name: str) -> Path:
        return self.venv / "bin" / name


PEERS = (
    Peer(
        "docgraphical",
        "docgraphical==1.0.0",
        "docgraphical search TREE QUESTION (default --limit 30): lines holding the whole "
        "question as a substring, `- **file** [Lnn]: …`",
    ),
    Peer(
        "agents-docs",
        "agents-docs==0.45.0",
        "agents-docs ingest NAME TREE once, then agents-docs search --docset NAME QUESTION "
        "(default --top 3; header-aware BM25), `[NAME] file#Lnn -- Title > …` per section; "
        "HOME is bench/.cache/search-peers/home, so ~/.agents/docs stays untouched",
    ),
    Peer(
        "markdown-memory",
        "markdown-memory==0.7.13",
        "an MCP stdio server only (search_docs tool), no search command",
        skip="its hybrid search embeds every section and query with an ONNX model "
        "(embeddinggemma or bge-small) fetched from the Hugging Face hub on first use; this "
        "machine reaches package registries only, so it cannot run here",
    ),
)


def install(peer: Peer) -> str:
    """'' when the peer is installed (into a venv of its own: agents-docs needs mcp<2,
    markdown-memory mcp>=2.2), else why not."""
    if peer.skip:
        return peer.skip
    marker = peer.venv / "installed.txt"
    if marker.is_file() and marker.read_text().strip() == peer.requirement:
        return ""
    code, _, err = run([sys.executable, "-m", "venv", "--clear", str(peer.venv)])
    if code == 0:
        pip = [str(peer.executable("pip")), "install", "-q", peer.requirement]
        code, _, err = run(pip, timeout=INSTALL_TIMEOUT)
    if code != 0:
        return f"pip install {peer.requirement} failed: {err.strip()[-300:]}"
    marker.write_text(peer.requirement + "\n")
    return ""


DOCGRAPHICAL_HIT = re.compile(r"^- \*\*(.+?)\*\* \[L(\d+)\]:", re.MULTILINE)
AGENTS_DOCS_HIT = re.compile(r"^\[[^\]\n]*\] (.+?)#L(\d+) -- ", re.MULTILINE)


class PeerRoute:
    """A peer's search command, its text output parsed into hits."""

    def __init__(self, peer: Peer, corpus: Corpus, count: Callable[[str], int]) -> None:
        self.peer = peer
        self.name = peer.name
        self.corpus = corpus
        self.count = count
        self.env = {**os.environ, "HOME": str(PEER_HOME / "home")}
        self.docset = "bench-" + re.sub(r"[^a-z0-9-]+", "-", corpus.tree.name.lower())
        self.error = ""
        self.tree = str(corpus.root)
        if peer.name == "docgraphical":
            # It skips every folder whose path has a part starting with `.`, the tree's own
            # parents included (bench/.cache/…): it gets the tree through a plain path.
            self.plain = tempfile.TemporaryDirectory(prefix="bench-search-")
            self.tree = os.path.join(self.plain.name, "tree")
            os.symlink(corpus.root, self.tree)
        if peer.name == "agents-docs":
            code, out, err = run(
                [str(peer.executable("agents-docs")), "ingest", self.docset, str(corpus.root)],
                self.env,
            )
            if code != 0:
                self.error = f"agents-docs ingest failed: {(err or out).strip()[-300:]}"

    def answer(self, question: Question) -> Answer:
        if self.error:
            return Answer([], error=self.error)
        if self.peer.name == "docgraphical":
            command = [str(self.peer.executable("docgraphical")), "search"]
            # `--`: a question may start with `-` (`--port`), not an option of theirs.
            command += ["--", self.tree, question.question]
            pattern = DOCGRAPHICAL_HIT
        else:
            command = [str(self.peer.executable("agents-docs")), "search"]
            command += ["--docset", self.docset, "--", question.question]
            pattern = AGENTS_DOCS_HIT
        code, out, err = run(command, self.env)
        if code != 0:
            return Answer([], error=f"exit {code}: {(err or out).strip()[-300:]}")
        hits = [(Path(m.group(1)).as_posix(), int(m.group(2))) for m in pattern.finditer(out)]
        return Answer(hits, self.count(out))


# --- Measuring ------------------------------------------------------------------------------------


class Route(Protocol):
    name: str

    def answer(self, question: Question) -> Answer: ...


@dataclass
class Score:
    questions: int = 0
    top1: int = 0
    top3: int = 0
    errors: int = 0
    tokens: list[int] = field(default_factory=list)
    first_error: str = ""
    seconds: float = 0.0

    def add(self, other: Score) -> None:
        self.questions += other.questions
        self.top1 += other.top1
        self.top3 += other.top3
        self.errors += other.errors
        self.tokens += other.tokens
        self.seconds += other.seconds
        self.first_error = self.first_error or other.first_error

    def summary(self) -> dict[str, Any]:
        def share(count: int) -> float:
            return round(100.0 * count / self.questions, 1) if self.questions else 0.0

        return {
            "questions": self.questions,
            "top1": self.top1,
            "top1_share": share(self.top1),
            "top3": self.top3,
            "top3_share": share(self.top3),
            "median_tokens": statistics.median(self.tokens) if self.tokens else None,
            "errors": self.errors,
            "first_error": self.first_error,
            "seconds": round(self.seconds, 1),
        }


@dataclass
class Miss:
    question: Question
    title: str
    got: list[str]


@dataclass
class TreeRun:
    name: str
    root: str
    asked: Asked
    measured: int
    """questions asked (--limit)"""
    titled: int
    """of all its questions (not only the measured), those that are their heading's title"""
    scores: dict[str, Score]
    misses: list[Miss]

    def about(self) -> dict[str, Any]:
        stats = {k: v for k, v in asdict(self.asked).items() if k != "questions"}
        return {
            **stats,
            "questions": len(self.asked.questions),
            "measured": self.measured,
            "title_verbatim": self.titled,
        }


def describe(corpus: Corpus, hit: Hit) -> str:
    section = corpus.section_at(*hit)
    title = section.title if section and section.title else "(before the first heading)"
    return f"{hit[0]}:{hit[1]} {title}"


def measure(
    corpus: Corpus, questions: Sequence[Question], routes: Sequence[Route], show: int
) -> tuple[dict[str, Score], list[Miss]]:
    scores: dict[str, Score] = {}
    misses: list[Miss] = []
    for route in routes:
        score = scores[route.name] = Score(questions=len(questions))
        began = time.monotonic()
        if isinstance(route, Mdsel | PeerRoute):
            # They spend their time waiting on a child process: two at a time, one a core.
            with ThreadPoolExecutor(WORKERS) as pool:
                answers = list(pool.map(route.answer, questions))
        else:
            answers = [route.answer(question) for question in questions]
        score.seconds = time.monotonic() - began
        for question, answer in zip(questions, answers, strict=True):
            right = [corpus.right(question, hit) for hit in answer.hits[:3]]
            score.top1 += bool(right and right[0])
            score.top3 += any(right)
            if answer.tokens is not None:
                score.tokens.append(answer.tokens)
            if answer.error:
                score.errors += 1
                score.first_error = score.first_error or f"{question.question!r}: {answer.error}"
            if route.name == "mdsel" and not (right and right[0]) and len(misses) < show:
                got = [describe(corpus, hit) for hit in answer.hits[:3]] or [
                    answer.error or "no hit"
                ]
                title = describe(corpus, (question.file, question.line))
                misses.append(Miss(question, title, got))
    return scores, misses


def route_names(asked: str, peers: bool) -> list[str]:
    names = [name for name in asked.split(",") if name]
    if peers:
        names += [peer.name for peer in PEERS if peer.name not in names]
    return names


# --- Report ---------------------------------------------------------------------------------------


def print_text(
    runs: Sequence[TreeRun],
    total: dict[str, Score],
    untuned: dict[str, Score],
    counting: str,
    peer_notes: dict[str, str],
    seconds: float,
) -> None:
    ends = [
        ("total", total),
        *([("trees the weights were never tuned on", untuned)] * bool(untuned)),
    ]
    listed: list[tuple[TreeRun | str, dict[str, Score]]] = [(r, r.scores) for r in runs]
    for run_, scores in [*listed, *ends]:
        if isinstance(run_, str):
            count = next(iter(scores.values())).questions if scores else 0
            print(f"{run_} ({count} questions)")
        else:
            a = run_.asked
            print(f"{run_.name} ({run_.measured} questions, {a.files} files: {run_.root})")
            print(
                f"  {a.links} links with a fragment, {a.to_heading} to a heading of another "
                f"page: {a.uninformative} uninformative texts, {a.repeated} repeated, "
                f"{len(a.questions)} questions; {a.code} of them all code, {run_.titled} the "
                "heading's title verbatim (case aside)"
            )
        print(f"  {'route':16}{'top-1':>16}{'top-3':>16}{'median tokens':>16}{'seconds':>10}")
        for name, score in scores.items():
            data = score.summary()
            top1 = f"{data['top1']} {data['top1_share']:5.1f} %"
            top3 = f"{data['top3']} {data['top3_share']:5.1f} %"
            tokens = "–" if data["median_tokens"] is None else f"{data['median_tokens']:g}"
            print(f"  {name:16}{top1:>16}{top3:>16}{tokens:>16}{data['seconds']:>10.1f}")
        print()
    for name, note in peer_notes.items():
        print(f"peer {name}: {note}")
    print(f"tokens: {counting}; {seconds:.0f} s in all")
    for run_ in runs:
        if run_.misses:
            print(f"\n{run_.name}: mdsel's first hit wrong, up to {len(run_.misses)}")
            for miss in run_.misses:
                print(f"  {miss.question.question!r}  → {miss.title}")
                for got in miss.got:
                    print(f"      got {got}")


def make_route(
    name: str, corpus: Corpus, mdsel_cmd: str, count: Callable[[str], int], ran: set[str]
) -> Route | None:
    if name == "mdsel":
        return Mdsel(corpus, mdsel_cmd, count)
    if name == "grep":
        return Grep(corpus)
    if name == "fts":
        return Fts(corpus)
    if name == "titles":
        return Titles(corpus)
    peer = next((p for p in PEERS if p.name == name), None)
    if peer is not None and name in ran:
        return PeerRoute(peer, corpus, count)
    return None


def shown_root(tree: TreeSpec) -> str:
    if tree.origin:
        return tree.origin
    if tree.root.resolve().is_relative_to(ROOT):
        return str(tree.root.resolve().relative_to(ROOT))
    return str(tree.root)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tree",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder to measure instead of the default trees (repeatable)",
    )
    parser.add_argument(
        "--pypi", action="store_true", help="add the docs trees of bench_links' pinned sdists"
    )
    parser.add_argument(
        "--more",
        action="store_true",
        help="add the docs trees of further pinned sdists, kept out of the ranking's tuning",
    )
    parser.add_argument("--limit", type=int, default=0, help="the first N questions per tree")
    parser.add_argument(
        "--show", type=int, default=0, help="list up to N questions per tree mdsel missed"
    )
    parser.add_argument(
        "--routes", default="mdsel,grep,fts,titles", help="comma-separated, in report order"
    )
    parser.add_argument("--peers", action="store_true", help="add the peers' routes (slow)")
    parser.add_argument(
        "--mdsel-cmd",
        default=str(Path(sys.executable).parent / "mdsel"),
        help="the mdsel executable (default: the one beside this Python)",
    )
    parser.add_argument(
        "--questions",
        type=Path,
        default=QUESTIONS,
        help=f"where to write the questions (default {QUESTIONS.relative_to(ROOT)})",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args()
    names = route_names(args.routes, args.peers)
    known = {"mdsel", "grep", "fts", "titles", *(peer.name for peer in PEERS)}
    if set(names) - known:
        parser.error(f"unknown routes {sorted(set(names) - known)}; known: {sorted(known)}")
    started = time.monotonic()
    trees = [TreeSpec(Path(d).name, Path(d).resolve(), GENERATORS) for d in args.tree]
    trees = trees or list(DEFAULT_TREES)
    if args.pypi:
        trees += pypi_trees()
    unseen: set[str] = set()
    if args.more:
        more = pypi_trees(MORE_SOURCES)
        unseen = {tree.name for tree in more}
        trees += more

    asked = [(tree, questions_of(tree)) for tree in trees]
    write_questions([q for _, one in asked for q in one.questions], args.questions)

    count, counting = token_counter()
    peer_notes, ran = {}, set()
    for peer in PEERS:
        if peer.name in names:
            why = install(peer)
            peer_notes[peer.name] = f"skipped: {why}" if why else f"ran `{peer.command}`"
            if not why:
                ran.add(peer.name)
    runs: list[TreeRun] = []
    total: dict[str, Score] = {}
    untuned: dict[str, Score] = {}
    for tree, one in asked:
        corpus = Corpus(tree)
        questions = one.questions[: args.limit] if args.limit else one.questions
        routes = [r for n in names if (r := make_route(n, corpus, args.mdsel_cmd, count, ran))]
        scores, misses = measure(corpus, questions, routes, args.show)
        titled = sum(
            (section := corpus.section_at(q.file, q.line)) is not None
            and section.title.lower() == q.question.lower()
            for q in one.questions
        )
        runs.append(
            TreeRun(tree.name, shown_root(tree), one, len(questions), titled, scores, misses)
        )
        for name, score in scores.items():
            total.setdefault(name, Score()).add(score)
            if tree.name in unseen:
                untuned.setdefault(name, Score()).add(score)
    seconds = time.monotonic() - started
    for name, score in total.items():
        if score.errors:
            print(
                f"warning: {name}: {score.errors} of {score.questions} questions got an error, "
                f"counted as no hit; the first: {score.first_error}",
                file=sys.stderr,
            )
    if args.json:
        body = {
            "tokens": counting,
            "seconds": round(seconds, 1),
            "questions_file": str(args.questions),
            "peers": peer_notes,
            "trees": [
                {
                    "name": r.name,
                    "root": r.root,
                    "tuned_on": r.name not in unseen,
                    **r.about(),
                    "routes": {name: score.summary() for name, score in r.scores.items()},
                    "mdsel_misses": [
                        {**asdict(m.question), "title": m.title, "got": m.got} for m in r.misses
                    ],
                }
                for r in runs
            ],
            "total": {name: score.summary() for name, score in total.items()},
            "untuned": {name: score.summary() for name, score in untuned.items()},
        }
        print(json.dumps(body, indent=2, ensure_ascii=False))
    else:
        print_text(runs, total, untuned, counting, peer_notes, seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
