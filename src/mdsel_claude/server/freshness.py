"""Which files are unchanged since their bytes were hashed, told from `fstat` alone, as git does.

Hashing a 1.5 MB file costs about a millisecond, most of a warm call; its `fstat` costs a
microsecond. So a file is remembered by its signature — (device, inode, size, mtime, ctime) of
the descriptor the read policy opened — with the digest of the bytes then read from it, and a
later call whose `fstat` shows the same signature is answered by that digest without reading.

A signature alone can lie: a file rewritten at the same size within one tick of the file
system's clock (a second on some, a few milliseconds on others) keeps its mtime and ctime. Git
calls such an entry racily clean and checks it by content. Here likewise: the digest is trusted
only when the file's last change (its ctime, which no program can set back, and its mtime) lies
more than `RACY_NS` before the wall clock reading taken ahead of the read that produced the
digest. Any change after that reading gives the file a ctime at or after the reading less
`RACY_NS` (the file system's tick and clock lag), so the signature differs and the file is read
again; any change before it is in the bytes read. A recent file is read and hashed on every
call, as before, until it has been still for `RACY_NS`; then one more read records a
trusted entry.

What this assumes, like git: the file system stamps changes from a clock within `RACY_NS` of
this process's (true of local file systems; a network server's clock that lags ours by more
could hide a rewrite of the same size within one of its ticks), and content changes only
through writes that stamp the file (not through a shared mapping left unsynced). If the wall
clock steps back, every entry is forgotten.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import NamedTuple

RACY_NS = 3_000_000_000
"""How long after its last change a file's signature starts to be trusted, in nanoseconds
(until then every call reads and hashes it): two-second timestamps (FAT), one-second ones
(ext3, HFS+, some network file systems) and the coarse clock Linux stamps files with (a few
milliseconds behind the wall clock) all fit within it."""

MAX_ENTRIES = 20_000
"""Signatures remembered, least recently used first out (about 200 bytes each): ten times
MDSEL_MAX_FILES' default, so a call over a large tree does not push out the one before."""


class Signature(NamedTuple):
    """What `fstat` says of a file that changes whenever its content does (outside the racy
    window): which file it is, its size, and when it last changed."""

    device: int
    inode: int
    size: int
    mtime_ns: int
    ctime_ns: int


def signature(info: os.stat_result) -> Signature:
    return Signature(info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


class _Entry(NamedTuple):
    signature: Signature
    digest: bytes
    verified_ns: int
    """Wall clock before the fstat whose file's bytes gave `digest`."""


class Freshness:
    """Content digests by file signature, trusted only outside the racy window. Thread-safe."""

    def __init__(
        self,
        racy_ns: int = RACY_NS,
        max_entries: int = MAX_ENTRIES,
        clock: Callable[[], int] = time.time_ns,
    ) -> None:
        self._racy_ns = racy_ns
        self._max_entries = max_entries
        self._clock = clock
        self._entries: OrderedDict[tuple[int, int], _Entry] = OrderedDict()
        self._latest_ns = 0
        self._lock = threading.Lock()

    def digest(self, info: os.stat_result) -> bytes | None:
        """The digest of the file's bytes if `info` shows it unchanged since they were read and
        the read came safely after its last change; None means: read it and hash it."""
        key = (info.st_dev, info.st_ino)
        with self._lock:
            if not self._clock_forward():
                return None
            entry = self._entries.get(key)
            if entry is None or entry.signature != signature(info):
                return None
            changed = max(info.st_mtime_ns, info.st_ctime_ns)
            if changed >= entry.verified_ns - self._racy_ns:
                return None  # racily clean: the same stamps could hide a rewrite
            self._entries.move_to_end(key)
            return entry.digest

    def record(self, info: os.stat_result, digest: bytes, started_ns: int) -> None:
        """Bytes read from the file `info` describes hash to `digest`; `started_ns` is the wall
        clock taken before that fstat (so before the read)."""
        key = (info.st_dev, info.st_ino)
        with self._lock:
            if not self._clock_forward() or started_ns > self._latest_ns:
                return
            self._entries[key] = _Entry(signature(info), digest, started_ns)
            self._entries.move_to_end(key)
            while len(self._entries) > self._max_entries:
                self._entries.popitem(last=False)

    def _clock_forward(self) -> bool:
        # A wall clock stepped back would stamp new changes before old readings: forget them all.
        now = self._clock()
        forward = now >= self._latest_ns
        if not forward:
            self._entries.clear()
        self._latest_ns = now
        return forward

    @property
    def count(self) -> int:
        """Files remembered."""
        return len(self._entries)


class Names:
    """Which file each name led to when the read policy last judged it and read it: name (and
    the roots it was judged under) → that file's signature. Thread-safe, bounded as `Freshness`.

    A warm call over a tree would otherwise resolve, open, name back and fstat every file (six
    system calls and about 70 µs each). With this, one `stat` of the name decides: the same
    signature means the name still leads to the very file that was judged and read (a name
    swapped for a link, a file moved or linked elsewhere all show another inode or ctime), and
    `Freshness` then says whether its digest may be trusted. What is answered so is always bytes
    the policy judged, unchanged since; anything else is opened and judged again.
    """

    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self._max_entries = max_entries
        self._entries: OrderedDict[tuple[str, tuple[str, ...] | None], Signature] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, name: str, roots: tuple[str, ...] | None) -> Signature | None:
        with self._lock:
            return self._entries.get((name, roots))

    def record(self, name: str, roots: tuple[str, ...] | None, info: os.stat_result) -> None:
        key = (name, roots)
        with self._lock:
            self._entries[key] = signature(info)
            self._entries.move_to_end(key)
            while len(self._entries) > self._max_entries:
                self._entries.popitem(last=False)

    @property
    def count(self) -> int:
        """Names remembered."""
        return len(self._entries)
