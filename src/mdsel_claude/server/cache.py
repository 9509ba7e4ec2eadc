"""Parse cache of the server: content digest → parsed document, least recently used first out.

The budget counts what the kept documents cost in memory (their tree, as the `size` function
given measures it), not their source bytes: a tree of many small blocks can weigh several times
its source, so counting source bytes would let the cache hold far more than its budget.

Bytes already being parsed by another thread are waited for, not parsed again: a call answered
before its parse ended (see `read_budget`) leaves that parse running, and the call that asks
again meets it here.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

DocumentT = TypeVar("DocumentT")

WAIT_CHECK_SECONDS = 0.05
"""How often a thread waiting for another's parse asks whether it should go on waiting."""


class _Parsing(Generic[DocumentT]):
    """One parse in progress: set once it has ended, with its document when it succeeded."""

    __slots__ = ("document", "ended")

    def __init__(self) -> None:
        self.ended = threading.Event()
        self.document: DocumentT | None = None


class DigestCache(Generic[DocumentT]):
    """Memoise `parse(data)` by the SHA-256 of `data`, bounded by `size(document)` summed over
    the documents kept (default: their source bytes).

    Keyed by content alone, never by path, size or mtime: the same bytes always give the same
    tree, so a hit can never be stale however the file changed. Callable like the parse function
    it wraps, so it plugs in wherever one is expected. Safe to share between threads.
    """

    def __init__(
        self,
        parse: Callable[[bytes], DocumentT],
        budget_bytes: int,
        size: Callable[[DocumentT, bytes], int] | None = None,
    ) -> None:
        self._parse = parse
        self._budget = budget_bytes
        self._cost = size if size is not None else _source_bytes
        self._entries: OrderedDict[bytes, tuple[DocumentT, int]] = OrderedDict()
        self._parsing: dict[bytes, _Parsing[DocumentT]] = {}
        self._size = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @property
    def size_bytes(self) -> int:
        """What the documents currently kept cost, as `size` counts it."""
        return self._size

    @property
    def count(self) -> int:
        """Documents currently kept. (Deliberately not __len__: an empty cache must stay truthy,
        since callers may write `parse or default`.)"""
        return len(self._entries)

    def __call__(self, data: bytes, parse: Callable[[bytes], DocumentT] | None = None) -> DocumentT:
        """The document for `data`, parsed (by `parse` if given, e.g. one that can be
        cancelled) only when these bytes are not cached."""
        return self.digest_and_parse(data, parse)[0]

    def get(self, key: bytes) -> DocumentT | None:
        """The document kept for bytes of this digest, if it is still kept (counted a hit)."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return entry[0]

    def digest_and_parse(
        self,
        data: bytes,
        parse: Callable[[bytes], DocumentT] | None = None,
        waiting: Callable[[bool], object] | None = None,
    ) -> tuple[DocumentT, bytes]:
        """The document for `data` (as `__call__`) and the digest it is kept under.
        While another thread parses the same bytes, `waiting(True)` is called before the wait
        and every WAIT_CHECK_SECONDS of it, and `waiting(False)` after; what it raises ends
        the wait (a waiter whose call was cancelled stops holding its bytes)."""
        key = digest(data)
        while True:
            with self._lock:
                entry = self._entries.get(key)
                if entry is not None:
                    self._entries.move_to_end(key)
                    self.hits += 1
                    return entry[0], key
                other = self._parsing.get(key)
                if other is None:
                    mine: _Parsing[DocumentT] = _Parsing()
                    self._parsing[key] = mine
                    self.misses += 1
                    break
            # Another thread parses these bytes: its result, once it ends (the same bytes give
            # the same tree). One that failed (cancelled, refused) leaves the parse to us.
            if waiting is None:
                other.ended.wait()
            else:
                try:
                    waiting(True)
                    while not other.ended.wait(WAIT_CHECK_SECONDS):
                        waiting(True)
                finally:
                    waiting(False)
            if other.document is not None:
                with self._lock:
                    self.hits += 1
                return other.document, key
        # Parse outside the lock: a large document must not hold up hits on other ones.
        try:
            document = (self._parse if parse is None else parse)(data)
            mine.document = document
            cost = self._cost(document, data)
            with self._lock:
                if cost <= self._budget and key not in self._entries:
                    self._entries[key] = (document, cost)
                    self._size += cost
                while self._size > self._budget:
                    _, (_, evicted) = self._entries.popitem(last=False)
                    self._size -= evicted
        finally:
            with self._lock:
                del self._parsing[key]
            mine.ended.set()
        return document, key

    def clear(self) -> None:
        """Forget every document."""
        with self._lock:
            self._entries.clear()
            self._size = 0


def digest(data: bytes) -> bytes:
    """The key of `data`: its SHA-256."""
    return hashlib.sha256(data).digest()


def _source_bytes(_document: object, data: bytes) -> int:
    return len(data)
