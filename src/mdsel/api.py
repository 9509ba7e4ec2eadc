"""index() and select(): documents → results as values; run_command(): paths → printed output.

`run_command` is what the `mdsel` CLI prints for an already-expanded list of files; the MCP
server's embedded backend calls it too (with a parse cache), which is why both give the same text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mdsel.errors import PARSE_ERROR, NodeLimitError, ParseError, Problem
from mdsel.names import namespaces
from mdsel.read import FileReadError, not_markdown, read_bytes
from mdsel.results import DEFAULT_OPTIONS, IndexResult, Options, Outcome, SelectResult
from mdsel.settings import DEFAULT_MAX_BYTES
from mdsel.tree import Document, Source, parse_document

TYPE_CHECKING = False
if TYPE_CHECKING:
    from mdsel.search_index import SearchCache


def load(
    paths: Sequence[str],
    *,
    parse: Callable[[bytes], Document] | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    cwd: str | None = None,
    read: Callable[[str], bytes | Problem] | None = None,
) -> tuple[list[Source], list[Problem]]:
    """Read and parse each path (relative ones against `cwd`); a file that fails becomes a
    Problem and the rest go on.

    `read`, when given, replaces the engine's own reading (by name, a Markdown file name only,
    under `max_bytes`): it gets each path and returns the bytes to parse or the Problem to
    report. A caller with its own read policy hands over bytes read through the descriptor it
    checked; its exceptions pass.
    """
    parse_bytes = parse if parse is not None else parse_document
    loaded: list[tuple[str, Document]] = []
    problems: list[Problem] = []
    for path in paths:
        try:
            if read is None:
                refused = not_markdown(path, cwd)
                data = refused or read_bytes(path, max_bytes, cwd)
            else:
                data = read(path)
            if isinstance(data, Problem):
                problems.append(data)
                continue
            document = parse_bytes(data)
        except FileReadError as exc:
            problems.append(exc.problem)
            continue
        except ParseError as exc:
            code = "NUL_BYTE" if exc.reason.startswith("NUL") else "INVALID_UTF8"
            problems.append(
                Problem(
                    PARSE_ERROR,
                    code,
                    f"{exc.reason} at byte offset {exc.offset}; only UTF-8 text can be read",
                    file=path,
                )
            )
            continue
        except NodeLimitError as exc:
            message = (
                f"more than {exc.limit:,} blocks and headings (the limit, passed at byte offset "
                f"{exc.offset}); set MDSEL_MAX_BLOCKS higher to read this file"
            )
            problems.append(Problem(PARSE_ERROR, "TOO_MANY_BLOCKS", message, file=path))
            continue
        loaded.append((path, document))
    # Namespaces are numbered over every path named, in input order, so a file that fails to
    # load does not shift `readme-2` onto another document.
    names = dict(zip(paths, namespaces(paths), strict=True))
    return [Source(names[p], p, d) for p, d in loaded], problems


def index(sources: Sequence[Source], named: int | None = None) -> IndexResult:
    """The index of the documents; `named`: how many the call named (default: these)."""
    return IndexResult(tuple(sources), len(sources) if named is None else named)


def select(
    request: str,
    sources: Sequence[Source],
    options: Options | None = None,
    named: int | None = None,
    *,
    alone: bool | None = None,
    left_out: Sequence[str] = (),
    search_cache: SearchCache | None = None,
) -> SelectResult:
    """Resolve a selector request in the documents and cut what matched into shown matches;
    `named`: how many documents the call named (default: these), for qualifying selectors;
    `alone`: whether the call named its one document and nothing else, no file that failed
    or that a limit left out (default: `named` is 1). Only then does `readme-2::` or a link to
    `guide.md` mean a call's one document whatever its namespace or folder. `left_out`: files
    the call named that a limit left out (never read): a link that may name one of them is a
    miss, not an answer from another document. `search_cache`: search indexes kept between
    calls (a server's; a search builds its own without one)."""
    # Imported here: selector parsing, resolution, suggestions and paging are not needed to
    # index, and `mdsel index` start-up time is part of its budget.
    from mdsel.matches import select_matches

    count = len(sources) if named is None else named
    alone = count == 1 if alone is None else alone
    return select_matches(
        request, sources, options or DEFAULT_OPTIONS, count, alone, left_out, search_cache
    )


def run_command(
    command: str,
    selector: str | None,
    paths: Sequence[str],
    options: Options | None = None,
    *,
    parse: Callable[[bytes], Document] | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    problems: Sequence[Problem] = (),
    warnings: Sequence[str] = (),
    cwd: str | None = None,
    read: Callable[[str], bytes | Problem] | None = None,
    left_out: Sequence[str] = (),
    search_cache: SearchCache | None = None,
    loaded: Callable[[Sequence[Source]], object] | None = None,
) -> Outcome:
    """Exactly what `mdsel index|select` prints for these (already expanded) paths.

    `problems` and `warnings` found before reading (path expansion, a caller's read policy) are
    reported in their usual places; relative paths are read against `cwd` (default: the
    process's) and shown as given; `read` is as for `load`; `left_out` as for `select` (the
    files path expansion's limits left out, files.Expansion.left_out); `search_cache` as for
    `select`. `loaded`, when given, is called with the documents once every file is read and
    parsed, before the answer is built; what it raises passes through (a caller that answered
    already stops here).
    """
    from mdsel import render_text

    options = options or DEFAULT_OPTIONS
    sources, file_problems = load(paths, parse=parse, max_bytes=max_bytes, cwd=cwd, read=read)
    if loaded is not None:
        loaded(sources)
    all_file_problems = [*problems, *file_problems]
    named = len(paths)
    if command == "index":
        if options.json:
            from mdsel import render_json

            return render_json.index(index(sources, named), all_file_problems, warnings, options)
        return render_text.index(index(sources, named), all_file_problems, warnings, options)
    # Problems and warnings from before reading name files the call asked for (and a limit left
    # out): then it did not name its one document alone.
    alone = named == 1 and not problems and not warnings
    # A file that failed to load is, to a link, like one a limit left out: never read, and
    # never replaced by another document of the call.
    read_paths = {source.path for source in sources}
    unread = [*left_out, *(path for path in paths if path not in read_paths)]
    result = select(
        selector or "", sources, options, named, alone=alone, left_out=unread,
        search_cache=search_cache,
    )  # fmt: skip
    if options.json:
        from mdsel import render_json

        return render_json.select(result, all_file_problems, warnings, options)
    return render_text.select(result, all_file_problems, warnings)
