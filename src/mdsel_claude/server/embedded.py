"""The embedded backend: the mdsel engine in this process, reading through the read policy and
answering unchanged files from the parse cache."""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from mdsel.results import Outcome
from mdsel_claude.server import access
from mdsel_claude.server.cache import DigestCache
from mdsel_claude.server.config import DEFAULT_SEARCH_CACHE_BYTES, Settings
from mdsel_claude.server.freshness import Freshness, Names, signature
from mdsel_claude.server.reader import CheckedReader, stop_if_set

if TYPE_CHECKING:
    from mdsel import Document, Options, Problem, Source
    from mdsel.search_index import SearchCache
    from mdsel_claude.server.read_budget import ReadProgress


TOO_LARGE_KEPT = 64
"""File lists remembered as too large for the parse cache."""


def engine_options(settings: Settings) -> Options:
    """The engine options the server's settings stand for."""
    from mdsel import Options

    engine = settings.engine
    return Options(
        json=settings.json,
        page_words=engine.page_words,
        max_headings=engine.max_headings,
        answer_tokens=engine.max_answer_tokens,
    )


def report_only(
    command: str,
    selector: str | None,
    problems: Sequence[Problem],
    warnings: Sequence[str],
    settings: Settings,
) -> Outcome:
    """What mdsel prints when none of the files could be read; reads nothing, runs nothing."""
    import mdsel

    return mdsel.run_command(
        command, selector, [], engine_options(settings), problems=problems, warnings=warnings
    )


class CachedReader(CheckedReader):
    """One call's reads and parses for the engine (`read=` and `parse=` of `mdsel.run_command`).

    A file whose `fstat` shows it unchanged since its bytes were hashed (see `freshness`) is not
    read again: `recall` hands the engine the cached document's own bytes object, and `parse`,
    given exactly that object next, returns the document. Any other bytes are parsed through the
    content-digest cache, and the digest is recorded against the signature they were read under.
    A name that still leads to the file it led to when judged (see `Names`) is answered so from
    one `stat`, before anything is opened.
    """

    def __init__(
        self,
        policy: access.Policy,
        budget: int,
        documents: DigestCache[Document],
        freshness: Freshness,
        parse: Callable[[bytes], Document] | None = None,
        cwd: str | None = None,
        cancelled: Callable[[], bool] | None = None,
        names: Names | None = None,
        waiting: Callable[[bool], object] | None = None,
    ) -> None:
        super().__init__(policy, budget, cwd, cancelled)
        self._waiting = waiting
        """Told when a parse waits for another thread's parse of the same bytes, and after."""
        self._documents = documents
        self._freshness = freshness
        self._names = names
        self._parse = parse
        self._recalled: dict[int, tuple[bytes, Document]] = {}
        """id(bytes handed to the engine) → (those bytes, their document); kept for the call,
        as one file may be named twice (through a link)."""
        self._read: dict[int, tuple[bytes, os.stat_result, int, str]] = {}
        """id(bytes read) → (those bytes, the fstat they were read under, the time before it,
        the name opened)."""

    def remembered(self, absolute: str, allowed: int) -> bytes | None:
        if self._names is None:
            return None
        known = self._names.get(absolute, self.policy.roots)
        if known is None:
            return None
        try:
            # Followed as the open would: a link swapped in leads to another inode.
            info = os.stat(absolute)
        except (OSError, ValueError):
            return None
        if signature(info) != known or info.st_size > allowed:
            return None
        return self._kept(info)

    def recall(self, absolute: str, info: os.stat_result) -> bytes | None:
        data = self._kept(info)
        if data is not None and self._names is not None:
            self._names.record(absolute, self.policy.roots, info)
        return data

    def _kept(self, info: os.stat_result) -> bytes | None:
        key = self._freshness.digest(info)
        document = None if key is None else self._documents.get(key)
        if document is None:
            return None
        # The object itself is the claim ticket: the engine passes it straight to `parse`.
        self._recalled[id(document.data)] = (document.data, document)
        return document.data

    def note(self, absolute: str, data: bytes, info: os.stat_result, started_ns: int) -> None:
        # Bytes of another length than the fstat said were read while the file changed: they
        # are parsed, but stand for no signature.
        if len(data) == info.st_size:
            self._read[id(data)] = (data, info, started_ns, absolute)

    def parse(self, data: bytes) -> Document:
        """The document for bytes this reader handed over (or any others, by content)."""
        recalled = self._recalled.get(id(data))
        if recalled is not None and recalled[0] is data:
            return recalled[1]
        read = self._read.pop(id(data), None)
        document, key = self._documents.digest_and_parse(data, self._parse, self._waiting)
        if read is not None and read[0] is data:
            self._freshness.record(read[1], key, read[2])
            if self._names is not None:
                self._names.record(read[3], self.policy.roots, read[1])
        return document


class EmbeddedBackend:
    """The mdsel engine in this process, parsing through a content-digest cache."""

    def __init__(self, settings: Settings, freshness: Freshness | None = None) -> None:
        self._settings = settings
        self._lock = threading.Lock()
        self._cache: DigestCache[Document] | None = None
        self._options: Options | None = None
        self._searches: SearchCache | None = None
        self.freshness = Freshness() if freshness is None else freshness
        """Which files are unchanged since their bytes were hashed."""
        self.names = Names()
        """Which file each name led to when it was judged and read."""
        self._too_large: dict[tuple[str, ...], int] = {}
        """The file lists of calls whose documents weighed more than the parse cache keeps →
        that weight: asked again, they cannot be answered from it (the last TOO_LARGE_KEPT)."""

    def _loaded(
        self, key: tuple[str, ...], progress: ReadProgress, sources: Sequence[Source]
    ) -> None:
        """Every file of a call is parsed: note whether they fit the parse cache together."""
        weight = sum(source.document.resident_bytes() for source in sources)
        with self._lock:
            self._too_large.pop(key, None)
            if weight > self._settings.cache_bytes:
                self._too_large[key] = weight
                while len(self._too_large) > TOO_LARGE_KEPT:
                    del self._too_large[next(iter(self._too_large))]
        progress.loaded()

    @property
    def cache(self) -> DigestCache[Document]:
        """The parse cache, created (and the engine imported) on first use."""
        return self._load()[0]

    def _load(self) -> tuple[DigestCache[Document], Options]:
        # Imported on first use, not at start: the engine and its parser are not needed to answer
        # `initialize`, and start-up time is what a client waits for before anything else.
        with self._lock:
            if self._cache is None or self._options is None:
                import mdsel

                self._options = engine_options(self._settings)
                max_blocks = self._settings.engine.max_blocks

                def parse(data: bytes) -> Document:
                    return mdsel.parse_document(data, max_blocks)

                self._cache = DigestCache(parse, self._settings.cache_bytes, _resident_bytes)
                from mdsel.search_index import SearchCache

                # Search indexes of the documents the parse cache keeps, reused while those are
                # unchanged; their tables take about half what the documents do (see
                # docs/server.md), so half the parse cache's budget holds them, up to a fixed
                # share that keeps the two within the server's memory bound.
                budget = min(self._settings.cache_bytes // 2, DEFAULT_SEARCH_CACHE_BYTES)
                self._searches = SearchCache(budget)
            return self._cache, self._options

    @property
    def searches(self) -> SearchCache | None:
        """The search indexes kept (None until the engine is first used)."""
        return self._searches

    def run(
        self,
        command: str,
        selector: str | None,
        paths: Sequence[str],
        problems: Sequence[Problem],
        warnings: Sequence[str],
        cwd: str | None = None,
        cancel: threading.Event | None = None,
        refused: Mapping[str, Problem] | None = None,
        left_out: Sequence[str] = (),
        progress: ReadProgress | None = None,
    ) -> Outcome:
        import mdsel

        cache, options = self._load()
        settings = self._settings
        engine = settings.engine
        policy = access.Policy(roots=settings.roots, max_bytes=engine.max_bytes)
        parse_now = None
        cancelled = None
        if cancel is not None:
            cancelled = cancel.is_set
            checkpoint = functools.partial(stop_if_set, cancel)
            parse_now = functools.partial(
                mdsel.parse_document, max_nodes=engine.max_blocks, checkpoint=checkpoint
            )
        if progress is not None:
            parse_now = functools.partial(
                _parse_reported,
                parse_now or functools.partial(mdsel.parse_document, max_nodes=engine.max_blocks),
                progress,
            )
        # The engine reads nothing by name here: every file comes through a descriptor the read
        # policy has judged, under what is left of this call's byte budget.
        reader = CachedReader(
            policy,
            engine.max_total_bytes,
            cache,
            self.freshness,
            parse_now,
            cwd,
            cancelled,
            self.names,
            None if progress is None else functools.partial(_waiting, cancel, progress),
        )
        read: Callable[[str], bytes | Problem] = reader
        if refused:
            # A refused file is handed over with its refusal, never read: it keeps its place in
            # the numbering of namespaces, and its problem its place among the files'.
            def read(path: str) -> bytes | Problem:
                return refused[path] if path in refused else reader(path)

        loaded = None
        if progress is not None:
            key = tuple(paths)
            progress.start(len(paths), self._too_large.get(key))
            read = functools.partial(_reported, read, progress)
            loaded = functools.partial(self._loaded, key, progress)

        return mdsel.run_command(
            command,
            selector,
            paths,
            options,
            parse=reader.parse,
            problems=problems,
            warnings=warnings,
            cwd=cwd,
            read=read,
            left_out=left_out,
            search_cache=self._searches,
            loaded=loaded,
        )


def _waiting(cancel: threading.Event | None, progress: ReadProgress, waits: bool) -> None:
    """Told while a parse waits for another thread's: reported, and stopped once cancelled."""
    progress.waiting(waits)
    if waits and cancel is not None:
        stop_if_set(cancel)


def _parse_reported(
    parse: Callable[[bytes], Document], progress: ReadProgress, data: bytes
) -> Document:
    """`parse(data)`, reported to `progress` while it runs (a cache miss: work worth going on
    with once the call has answered)."""
    progress.parsing(True)
    try:
        return parse(data)
    finally:
        progress.parsing(False)


def _reported(
    read: Callable[[str], bytes | Problem], progress: ReadProgress, path: str
) -> bytes | Problem:
    """`read(path)`, with the file and its size reported to `progress` (the engine parses it
    next)."""
    progress.reading(path)
    data = read(path)
    if isinstance(data, bytes):
        progress.read(len(data))
    return data


def _resident_bytes(document: Document, _data: bytes) -> int:
    return document.resident_bytes()
