"""The search index of a call's documents: every section's words in an SQLite FTS5 table, ranked
by BM25 with per-field weights (titles, the titles above, prose, code).

A row is a section's own text: a heading's lines up to the next heading of any level, or a
document's text before its first heading (`root`); so a hit is the innermost section holding
the evidence. Built in memory, once per set of documents (the server keeps it while they are
unchanged: see SearchCache); nothing is written to disk.

FTS5 tokenizes: unicode61 splits on what is not a letter or digit (`dependency_overrides` is
the words dependency and overrides, `CORSMiddleware` one word), folds case and diacritics, and
porter stems English words. CJK characters are spaced apart before indexing and querying, so
that a CJK word is a phrase of its characters rather than part of one unbroken run.
"""

from __future__ import annotations

import difflib
import os
import re
import sqlite3
import threading
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Sequence

from mdsel._record import NamedTuple
from mdsel.columns import CODE, KINDS
from mdsel.provenance import document_title
from mdsel.search_query import BREAK_CHARACTER
from mdsel.tree import Document, Source

_CODE = KINDS.index(CODE)
_LINE_END_BYTES = re.compile(rb"\r\n?|\n")

WEIGHTS = (8.0, 2.0, 1.0, 0.5, 0.0)
"""bm25() weights of the fields: the section's title, the titles above it (the document's
title and path included), its prose, its code, and its links' texts (already in its prose: a
field only for the second ranking to ask whether the words are a link to elsewhere)."""

TOKENIZER = "porter unicode61 remove_diacritics 2"

TEXT = "{title context body code} : "
"""The column filter of a search's own words: every field but `links`, whose texts repeat the
prose's in another order (a phrase must not run from one link's text into the next)."""

_CJK = re.compile(
    "([\u1100-\u11ff\u2e80-\u2fdf\u3040-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    "\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\uff66-\uff9f])"
)
# Link targets and HTML tags are markup, not words a reader sees: `[text](url)` keeps its text.
# One pattern for both: one pass over each section's text. A target stops at a bracket or at a
# parenthesis it does not close (`wiki/Foo_(bar)` is one), a tag at a `<`, a title at the line's
# end: each try then ends where the next could start, so an unclosed `[a](b[a](b…` or `<a<a…`
# is read in linear time (a target running on to the next `)` made it quadratic: minutes for
# 200 KB).
_TARGET = r"\]\((?:[^()\[\]\s]|\([^()\[\]\s]*\))*(?:\s+\"[^\"\n]*\")?\)"
_TAG = r"</?[A-Za-z][^<>\n]{0,500}>"
_MARKUP = re.compile(_TARGET + "|" + _TAG)
"""Markup to drop: link targets and HTML tags."""
_MARKUP_OR_SPAN = re.compile(r"`[^`\n]*`|" + _TARGET + "|" + _TAG)
"""The same, and code spans, kept: a tag inside one is code a reader sees (`` `<KeepAlive>` ``,
`` `app.use(<Plugin>)` ``). A try from a backtick ends at the next one or at the line's end.
Only for text holding both a backtick and a `<`: a Python call per span costs."""
_LINK_TEXT = re.compile(r"(?<![!\\])\[([^\[\]]{1,300})" + _TARGET)
"""An inline link's text (not an image's): `[text](url "title")`."""


BREAK = f" {BREAK_CHARACTER} "
"""Put between texts that are not one run of words (the parts of a section's prose around its
code blocks, its paragraphs, its code blocks, its titles, its path): so no phrase runs across
them."""


def paragraphs_apart(text: str) -> str:
    """`text` with BREAK at its empty lines (inside an HTML block, which is no block of ours)."""
    # str.replace, not a pattern: a pass over every section's text, several times faster.
    text = text.replace("\n\n", BREAK)
    if "\r" in text:
        text = text.replace("\n\r\n", BREAK).replace("\r\r", BREAK)
    return text


def spaced(text: str) -> str:
    """`text` with each CJK character between spaces (see the module's docstring)."""
    return text if text.isascii() else _CJK.sub(r" \1 ", text)


def link_texts(text: str) -> str:
    """The texts of the inline links in Markdown prose, one per line."""
    if "](" not in text:
        return ""
    return spaced("\n".join(match.group(1) for match in _LINK_TEXT.finditer(text)))


def prose(text: str) -> str:
    """What the index reads of Markdown prose: link targets and HTML tags dropped."""
    if "<" in text and "`" in text:
        text = _MARKUP_OR_SPAN.sub(_unmarked, text)
    elif "](" in text or "<" in text:  # a plain search is many times faster than the pattern's
        text = _MARKUP.sub(" ", text)
    return spaced(text)


def _unmarked(match: re.Match[str]) -> str:
    found = match.group()
    return found if found[0] == "`" else " "


class Section(NamedTuple):
    """One row of the index: a section's own lines in one document of the call."""

    doc: int
    """Index of its document in the call's sources."""
    heading: int
    """Index in the document's headings; -1 for the text before the first heading (root)."""
    start: int
    """Byte offset of its first line."""
    end: int
    """Byte offset just past its own text (the next heading's start, or the document's end)."""
    titles: tuple[str, ...]
    """The titles from the document's down to the section's own (root: the document's)."""


class SearchIndex:
    """The sections of some documents in an FTS5 table (in memory); `sections[rowid - 1]`."""

    __slots__ = ("_lock", "connection", "documents", "paths", "sections")

    def __init__(self, sources: Sequence[Source]) -> None:
        self.documents = tuple(source.document for source in sources)
        self.paths = tuple(source.path for source in sources)
        self.sections: list[Section] = []
        # One connection, shared by the server's calls in their threads: one query at a time.
        self._lock = threading.Lock()
        self.connection = sqlite3.connect(":memory:", check_same_thread=False)
        self.connection.execute(
            "CREATE VIRTUAL TABLE sections USING fts5(title, context, body, code, links, "
            f"tokenize = '{TOKENIZER}', content = '', columnsize = 1)"
        )
        rows = []
        below = _below_common_folder(self.paths)
        for number, source in enumerate(sources):
            for section, fields in _document_sections(number, source, below[number]):
                self.sections.append(section)
                rows.append((len(self.sections), *fields))
        self.connection.executemany(
            "INSERT INTO sections (rowid, title, context, body, code, links) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            rows,
        )

    def ranked(
        self, expression: str, limit: int, allowed: Sequence[int] | None = None
    ) -> tuple[list[tuple[int, float]], int]:
        """(rowid, BM25 score; higher is better) of the best `limit` rows matching the FTS5
        `expression` in their TEXT fields (only `allowed` rowids, when given), and how many
        rows match."""
        scope = ""
        arguments: tuple[str, ...] = ()
        if allowed is not None:
            scope = " AND rowid IN (SELECT value FROM json_each(?))"
            arguments = (_json_list(allowed),)
        with self._lock:
            rows = self.connection.execute(
                "SELECT rowid, -bm25(sections, ?, ?, ?, ?, ?) AS score FROM sections "
                f"WHERE sections MATCH ?{scope} ORDER BY score DESC LIMIT ?",
                (*WEIGHTS, f"{TEXT}({expression})", *arguments, limit),
            ).fetchall()
            if len(rows) < limit:
                total = len(rows)
            else:
                (total,) = self.connection.execute(
                    f"SELECT count(*) FROM sections WHERE sections MATCH ?{scope}",
                    (f"{TEXT}({expression})", *arguments),
                ).fetchone()
        return [(int(rowid), float(score)) for rowid, score in rows], int(total)

    def matching(self, expression: str, rowids: Sequence[int]) -> set[int]:
        """Which of `rowids` match the FTS5 `expression`."""
        if not rowids:
            return set()
        # Every matching row, then the intersection: FTS5 reads a term's whole list either
        # way, and a `rowid IN (…)` constraint makes it look each rowid up again (3x slower).
        with self._lock:
            cursor = self.connection.execute(
                "SELECT rowid FROM sections WHERE sections MATCH ?", (expression,)
            )
            found = {rowid for (rowid,) in cursor}
        return found.intersection(rowids)

    def nearest_words(self, units: Sequence[str], allowed: Sequence[int] | None) -> list[str]:
        """Words of the searched sections' titles closest to the query's, best first (at most
        five): what a miss suggests instead."""
        rows = range(len(self.sections)) if allowed is None else [r - 1 for r in allowed]
        vocabulary: set[str] = set()
        for row in rows:
            for title in self.sections[row].titles[-1:]:
                vocabulary.update(re.findall(r"\w{3,}", title.lower()))
            if len(vocabulary) > 20_000:  # bounded: enough words to find the near ones
                break
        found: list[str] = []
        for unit in units:
            for word in difflib.get_close_matches(unit, vocabulary, n=3, cutoff=0.6):
                if word not in found:
                    found.append(word)
        return found[:5]

    def resident_bytes(self) -> int:
        """What the index's tables take in memory."""
        with self._lock:
            (pages,) = self.connection.execute("PRAGMA page_count").fetchone()
            (size,) = self.connection.execute("PRAGMA page_size").fetchone()
        return int(pages) * int(size) + 200 * len(self.sections)

    def close(self) -> None:
        self.connection.close()


def _json_list(numbers: Sequence[int]) -> str:
    return "[" + ",".join(map(str, numbers)) + "]"


class SearchCache:
    """Search indexes kept for the documents they were built from, least recently used first
    out, within `budget_bytes` (what their tables take).

    The key is each document's path and the Document object itself: the server's parse cache
    hands back the same object for unchanged bytes and a new one for changed bytes, so an
    index is reused exactly while its documents are unchanged, and never serves stale text.
    The entry holds the documents, so an id is never reused while its index is kept.
    """

    def __init__(self, budget_bytes: int, entries: int = 4) -> None:
        self._budget = budget_bytes
        self._entries = entries
        self._kept: OrderedDict[tuple[tuple[str, int], ...], tuple[SearchIndex, int]] = (
            OrderedDict()
        )
        self._lock = threading.Lock()

    def get(self, sources: Sequence[Source]) -> SearchIndex:
        key = tuple((source.path, id(source.document)) for source in sources)
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
                return kept[0]
        index = SearchIndex(sources)  # built outside the lock: other calls go on meanwhile
        size = index.resident_bytes()
        with self._lock:
            self._kept[key] = (index, size)
            while len(self._kept) > 1 and (
                len(self._kept) > self._entries
                or sum(cost for _index, cost in self._kept.values()) > self._budget
            ):
                # Not closed: a call in flight may still be reading it; the collector does.
                self._kept.popitem(last=False)
        return index


def _below_common_folder(paths: Sequence[str]) -> list[str]:
    """Each path below the folder all of them are in (a file alone: its name), so that the
    words of a path are the tree's own, not those of where it lies or of how the call named it
    (`../docs/`: the word `docs` is in every path of that tree)."""
    folders = [os.path.dirname(path) for path in paths]
    try:
        common = os.path.commonpath(folders) if folders else ""
    except ValueError:  # absolute and relative ones mixed: as they are
        return list(paths)
    if not common:
        return list(paths)
    prefix = common.rstrip(os.sep) + os.sep
    return [
        path[len(prefix) :] if path.startswith(prefix) else os.path.relpath(path, common)
        for path in paths
    ]


def _path_words(path: str) -> str:
    """The words of a file's path: `guide/api-plugin.md` → `guide api plugin`."""
    stem = path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path
    return re.sub(r"[^\w]+", " ", stem)


def _document_sections(
    number: int, source: Source, path: str
) -> list[tuple[Section, tuple[str, str, str, str, str]]]:
    """The document's sections and their fields; `path`: its path below the call's common
    folder (what the path words are made of)."""
    document = source.document
    data = document.data
    headings = document.headings
    title = document_title(document)
    context_base = f"{spaced(title)}{BREAK}{_path_words(path)}"
    blocks = document.blocks
    code = [
        (blocks.starts[i], blocks.ends[i]) for i, kind in enumerate(blocks.kinds) if kind == _CODE
    ]
    cuts = _cuts(document)
    found: list[tuple[Section, tuple[str, str, str, str, str]]] = []
    # A heading indented by a few spaces starts at its line, not at its `#` or its text: the
    # section above ends before the indent.
    bounds = [_line_start(data, headings.starts[i]) for i in range(len(headings))]
    first_start = bounds[0] if bounds else len(data)
    # Front matter (title, description…) counts as the root's text.
    spans = [(-1, 0, first_start), *(
        (k, bounds[k], bounds[k + 1] if k + 1 < len(bounds) else len(data))
        for k in range(len(bounds))
    )]  # fmt: skip
    chain: dict[int, tuple[str, ...]] = {}
    at = 0  # the first code block that may overlap the next span
    for heading, start, end in spans:
        if heading < 0:
            titles: tuple[str, ...] = (title,) if title else ()
            own = ""
        else:
            parent = headings.parents[heading]
            own = headings.title(heading)
            top = parent not in chain
            above = chain.get(parent, (title,) if title else ())
            titles = (*above, own)
            # The document's title is often its first heading: not twice (a subsection's title
            # that repeats its parent's stays: `Props › Props`).
            if top and len(titles) > 1 and titles[0] == titles[1]:
                titles = titles[1:]
            chain[heading] = titles
        while at < len(code) and code[at][1] <= start:
            at += 1
        texts: list[bytes] = []
        codes: list[bytes] = []
        position = start
        index = at
        while index < len(code) and code[index][0] < end:
            block_start, block_end = code[index]
            if block_start > position:
                _runs_of(data, cuts, position, block_start, texts)
            codes.append(data[max(block_start, start) : min(block_end, end)])
            position = max(position, min(block_end, end))
            index += 1
        if position < end:
            _runs_of(data, cuts, position, end, texts)
        if heading >= 0 and texts:
            # The heading's own line is its title's field, not the body's.
            newline = _LINE_END_BYTES.search(texts[0])
            texts[0] = texts[0][newline.end() :] if newline is not None else b""
        if heading < 0 and not any(part.strip() for part in texts):
            continue
        context = BREAK.join((context_base, *(spaced(t) for t in titles[:-1])))
        # The runs are joined at a NUL (no document holds one: decoding refuses it), which
        # becomes BREAK once the prose is read: BREAK is not ASCII, and a text holding it would
        # make `spaced` look for CJK characters in every section. A run ends where a block,
        # list item or table cell starts, so no cut splits a character.
        body = b"\n\x00\n".join(texts).decode("utf-8", "replace")
        fields = (
            spaced(own),
            context,
            paragraphs_apart(prose(body).replace("\x00", BREAK_CHARACTER)),
            spaced(b"\n\x00\n".join(codes).decode("utf-8", "replace")).replace(
                "\x00", BREAK_CHARACTER
            ),
            link_texts(body),
        )
        found.append((Section(number, heading, start, end, titles), fields))
    return found


def _line_start(data: bytes, offset: int) -> int:
    """`offset` moved back over the spaces and tabs before it: a heading's line start (its
    indent is at most three spaces, or a tab)."""
    while offset and data[offset - 1] in b" \t":
        offset -= 1
    return offset


def _cuts(document: Document) -> list[int]:
    """Where a run of words may start or end, in order: every block's start and end, every list
    item's and table cell's start, every heading's in a list or quote. Between two of them the
    words are one paragraph's, or one item's or cell's: a phrase may run there, not across."""
    blocks = document.blocks
    nested = document.nested
    return sorted(
        set(blocks.starts).union(
            blocks.ends,
            document.inline_starts,
            (heading.start for heading in nested),
            (heading.end for heading in nested),
        )
    )


def _runs_of(data: bytes, cuts: list[int], start: int, end: int, into: list[bytes]) -> None:
    """Append the pieces of data[start:end] between the cuts inside it to `into`."""
    first = bisect_right(cuts, start)
    last = bisect_left(cuts, end, first)
    for cut in cuts[first:last]:
        into.append(data[start:cut])
        start = cut
    into.append(data[start:end])
