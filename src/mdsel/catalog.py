"""The index of many documents — a documentation tree — within the answer budget.

`mdsel index docs/` on a few files prints every document's whole outline (render_text). When
that would pass the answer budget, this module prints a map of the tree instead, as detailed as
fits: every document on one line under its directory (file, title, lines, words), with its
headings down to the deepest outline level that fits in all of them; when not even one line per
document fits, one line per directory (documents, words, the largest ones), merged into their
parents until they fit. A closing line says what was left out and how to go deeper.
Each document's own line and headings are its Entry (catalog_entries).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from mdsel.budget import LINE_COST, UNITS_PER_TOKEN, lines_cost
from mdsel.catalog_entries import INDENT, MAX_DEPTH, Entry
from mdsel.names import heading_selector
from mdsel.titles import shown_title
from mdsel.tree import Source

MIN_CAP = 3
"""Headings shown per document at least, when any are (then `… +N more`)."""
LARGEST = 3
MAX_LARGEST = 12
"""Largest documents named on a directory line: at least, at most."""
NAMED_COST = 26 * UNITS_PER_TOKEN
"""A document named on a directory line: its name, words and title, roughly."""
EXAMPLE_DIRS = 2


def common_root(paths: Sequence[str]) -> str | None:
    """The deepest directory holding every path (as the paths are written), '' for the current
    one; None when absolute and relative paths are mixed (no folder, as written, holds them)."""
    directories = [os.path.dirname(p) for p in paths]
    try:
        return os.path.commonpath(directories) if directories else ""
    except ValueError:
        return None


def catalog(
    sources: Sequence[Source], budget: int, room_taken: int, max_headings: int
) -> list[str] | None:
    """Lines of the map of these documents within `budget` (a cost, mdsel.budget; `room_taken`
    already used by lines printed before it); None when even the coarsest map does not fit."""
    found = common_root([s.path for s in sources])
    root = found or ""
    docs = [Entry(source, root) for source in sources]
    lines_total = sum(d.document.line_count for d in docs)
    words_total = sum(d.document.word_count for d in docs)
    # Absolute and relative paths mixed: no folder is named as holding them all.
    shown_root = "" if found is None else _joined(root, "", "") if root else "./"
    head = (
        (f"{shown_root} " if shown_root else "")
        + f"{len(docs)} documents {lines_total} lines {words_total} words "
        "(document: file: title, lines, words; heading: selector, title, line, words, "
        "+N hidden inside)"
    )
    room = budget - room_taken - lines_cost([head])
    # The closing line is kept room for at its longest (the longest description of the map).
    longest = (
        "every document with its title and headings 6 levels deep (at most 99999 each); 99999 "
        "documents also with their headings 6 levels deep, largest first"
    )
    closing_room = lines_cost([_closing(longest + " " * 40, docs, shown_root, root, True)])
    body = _with_outlines(docs, room - closing_room, max_headings)
    if body is not None:
        lines, depth, deeper, cap, docs_shown, shown_outlines = body
        # Whether a document shown with headings had its top-level ones cut to the share.
        share = ""
        if any(
            lines_of and doc.column.count(doc.base) > cap
            for doc, lines_of in zip(docs_shown, shown_outlines, strict=True)
        ):
            share = f" (at most {cap} each)"
        what = "every document with its title"
        if depth >= 0:
            what += " and " + _levels(depth) + share
        if deeper:
            # Not "the largest": those whose deeper outline the cap would not change (a long
            # changelog) are passed over for the next largest.
            several = "documents also with their" if deeper > 1 else "document also with its"
            what += f"; {deeper} {several} {_levels(depth + 1)}"
            what += (share if depth < 0 else "") + ", largest first"
        closing = _closing(what, docs, shown_root, root, by_file=True)
        return [head, *lines, closing]
    summary = _by_directory(docs, room - closing_room)
    if summary is None:
        return None
    lines, merged = summary
    what = "documents counted by directory"
    if merged < 0:
        what = "documents counted by top-level directory, those holding the most first"
    elif merged:
        levels = "level" if merged == 1 else "levels"
        what += f", merged to {merged} {levels}" + (" below the root" if shown_root else "")
    closing = _closing(what, docs, shown_root, root, by_file=False)
    return [head, *lines, closing]


def _levels(depth: int) -> str:
    return "top-level headings" if depth == 0 else f"headings {depth + 1} levels deep"


def _with_outlines(
    docs: list[Entry], room: int, max_headings: int
) -> tuple[list[str], int, int, int, list[Entry], list[list[str]]] | None:
    """File lines grouped under directory lines, with headings to the deepest outline depth
    whose lines all fit in `room`: (lines, depth, documents shown one level deeper,
    headings shown per document at most, the documents in the order shown, each one's
    heading lines), depth -1 for titles only; None when not even the titles fit."""
    # Each directory once, its documents under it: sorted by directory, then in given order.
    docs = sorted(docs, key=lambda d: d.directory)
    groups: list[tuple[str, list[Entry]]] = []
    for doc in docs:
        if groups and groups[-1][0] == doc.directory:
            groups[-1][1].append(doc)
        else:
            groups.append((doc.directory, [doc]))
    used = lines_cost([f"{directory}/" for directory, _ in groups])
    file_lines = [doc.line(INDENT) for doc in docs]
    used += lines_cost(file_lines)
    if used > room:
        return None
    # The deepest outline depth whose lines all fit, each document's at most `cap` headings
    # (a changelog of 900 entries does not crowd out the other documents); then one level
    # more for the largest documents, as many as the room left holds.
    cap = max(MIN_CAP, min(max_headings, room // (len(docs) * LINE_COST)))
    depth = -1
    deeper = 0
    kept: list[list[str]] = [[] for _ in docs]
    while depth < MAX_DEPTH:
        outlines = [d.outline_lines(depth + 1, cap, INDENT) for d in docs]
        if outlines == kept:
            break  # one level more shows nothing more
        size = _size(outlines)
        if used + size > room:
            deeper = _largest_deeper(docs, kept, outlines, room - used)
            break
        kept, used = outlines, used + size
        depth += 1
    lines: list[str] = []
    number = 0
    for directory, members in groups:
        lines.append(f"{directory}/" if directory else "./")
        for _doc in members:
            lines.append(file_lines[number])
            lines.extend(kept[number])
            number += 1
    return lines, depth, deeper, cap, docs, kept


def _largest_deeper(
    docs: list[Entry], kept: list[list[str]], outlines: list[list[str]], room: int
) -> int:
    """Give the largest documents their `outlines` (one level deeper than `kept`) while they
    fit in `room`, passing over those it does not change; how many got them."""
    order = sorted(range(len(docs)), key=lambda n: -docs[n].document.word_count)
    upgraded = 0
    for number in order:
        if outlines[number] == kept[number]:
            continue
        extra = _size([outlines[number]]) - _size([kept[number]])
        if extra > room:
            break
        kept[number] = outlines[number]
        room -= extra
        upgraded += 1
    return upgraded


def _size(outlines: list[list[str]]) -> int:
    return sum(map(lines_cost, outlines))


def _by_directory(docs: list[Entry], room: int) -> tuple[list[str], int] | None:
    """One line per directory (documents, words, the largest documents), directories merged
    into their ancestors at the deepest level that fits: (lines, level merged to, 0 for none).
    When even the top-level directories do not all fit, the largest are listed and one line
    counts the rest."""
    deepest = max(len(_parts(d.directory)) for d in docs)
    groups: dict[str, list[Entry]] = {}
    for keep in range(deepest, 0 if deepest else -1, -1):
        groups = {}
        for doc in docs:
            groups.setdefault("/".join(_parts(doc.directory)[:keep]), []).append(doc)
        groups = dict(sorted(groups.items()))
        # As many of the largest documents named per directory as the room holds, 3 at least.
        largest = max(LARGEST, min(MAX_LARGEST, room // (len(groups) * NAMED_COST) - 2))
        lines = [_directory_line(name, members, largest) for name, members in groups.items()]
        if lines_cost(lines) <= room:
            return lines, (0 if keep == deepest else keep)
    # Top-level directories, the ones holding the most documents first, while they fit.
    ranked = sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))
    shown: list[str] = []
    used = 80 * UNITS_PER_TOKEN  # the line counting the rest
    for name, members in ranked:
        line = _directory_line(name, members, LARGEST)
        cost = lines_cost([line])
        if used + cost > room:
            break
        shown.append(line)
        used += cost
    if not shown:
        return None
    rest = ranked[len(shown) :]
    if rest:
        count = sum(len(members) for _name, members in rest)
        words = sum(d.document.word_count for _name, members in rest for d in members)
        shown.append(
            f"… +{len(rest)} more directories: {count} documents {words} words (index one of "
            "them to see it)"
        )
    return shown, -1


def _parts(directory: str) -> list[str]:
    """A directory's components; an absolute one (the call named absolute and relative paths)
    keeps its `/` on the first, so that it is merged into `/srv`, never into the current
    folder's `./`."""
    if not directory.startswith("/"):
        return directory.split("/") if directory else []
    first, *rest = directory[1:].split("/")
    return ["/" + first, *rest]


def _directory_line(name: str, members: list[Entry], named: int) -> str:
    words = sum(d.document.word_count for d in members)
    largest = sorted(members, key=lambda d: -d.document.word_count)[:named]
    listed = ", ".join(
        f"{_below(d, name)} {d.document.word_count}" + (f" ({d.title})" if d.title else "")
        for d in largest
    )
    count = len(members)
    label = f"{name}/" if name else "./"
    return f"{label} {count} document{'s' if count != 1 else ''} {words} words; largest: {listed}"


def _below(doc: Entry, directory: str) -> str:
    relative = f"{doc.directory}/{doc.name}" if doc.directory else doc.name
    return relative[len(directory) + 1 :] if directory else relative


def _closing(what: str, docs: list[Entry], shown_root: str, root: str, by_file: bool) -> str:
    """How to go deeper: a subdirectory or a file to index, or selecting with a file's path."""
    largest = max(docs, key=lambda d: d.document.word_count)
    example_file = _joined(root, largest.directory, largest.name)
    words_below: dict[str, int] = {}
    for doc in docs:
        # A directory shown absolute (the call named absolute and relative paths: no folder
        # holds them all) is no subdirectory to index.
        top = (_parts(doc.directory) or [""])[0]
        if top and not top.startswith("/"):
            words_below[top] = words_below.get(top, 0) + doc.document.word_count
    # The subdirectory holding the most words; ties by name, so the hint is always the same.
    directories = sorted(words_below, key=lambda top: (-words_below[top], top))[:EXAMPLE_DIRS]
    deeper = f"index one file ({example_file}) for its whole outline"
    if directories:
        deeper = f"index a subdirectory ({_joined(root, directories[0], '')}) or " + deeper[6:]
    select = (
        f"select with the file's path ({_example_selector(largest)} in {example_file})"
        if by_file
        else "select with a file's path"
    )
    return (
        "["
        + (f"{shown_root}: " if shown_root else "")
        + f"{what}, to fit MDSEL_MAX_ANSWER_TOKENS. Go deeper: {deeper}; "
        f"{select}; search with ?q=words; or --full on the command line for everything]"
    )


def _example_selector(doc: Entry) -> str:
    """A selector the document has: its first top-level heading under the title (`h2.0`), or
    the title's own, or `root` for a document without headings."""
    headings = doc.document.headings
    index = doc.column.find(doc.base)
    if index < 0 or index == doc.skip:
        index = 0
    if not len(headings):
        return "root"
    return heading_selector(headings.levels[index], headings.numbers.ordinal(index))


def _joined(root: str, directory: str, name: str) -> str:
    """The path of `name` (a directory's, ending in `/`, when empty) in `directory` below the
    map's root; the file system's root is `/`, not `//`."""
    parts = [p for p in (shown_title(root.replace(os.sep, "/")).rstrip("/"), directory) if p]
    prefix = "/".join(parts)
    if root and not prefix:  # the file system's root
        return "/" + name
    if root.startswith(("/", os.sep)) and not prefix.startswith("/"):
        prefix = "/" + prefix
    if not name:
        return prefix + "/"
    return f"{prefix}/{name}" if prefix else name


__all__ = ["catalog", "common_root"]
