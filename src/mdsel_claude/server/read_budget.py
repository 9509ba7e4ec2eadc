"""A call's time for reading (MDSEL_MAX_READ_MS): past it, the call answers that it is still
reading, and the reading goes on, so that the same call asked again is answered from the parse
cache.

Parsing is most of a call's work: 8 MiB of one-line headings takes 3 to 5 s of CPU before any
selector is looked at, and a call may read 32 MiB. A client stops waiting for a tool (Claude Code
at its own timeout), and an agent waits for every second of it, so a call that is not done
reading when its time is up answers at once with what it is reading and how far it got. The
worker thread is left to finish reading and parsing (every parsed document lands in the parse
cache, and `cache.DigestCache` lets a second call wait for a parse in progress instead of
starting it again), then stops before building an answer nobody waits for.

Only parsing is cut short: it is the work a call asked again finds done. A call past its time
while it lists files or selects in parsed documents goes on (those are bounded by their own
caps, and would start again from nothing), and answers as soon as it is found parsing.

At most `MAX_READING_ON` calls read on after answering; a further one past its time is stopped
and says so, which bounds the memory that reading nobody waits for can hold. A call that was
waiting for another's parse of its file stops too: that parse goes on anyway.
"""

from __future__ import annotations

import enum
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from mdsel_claude.server.reader import Cancelled

ResultT = TypeVar("ResultT")

POLL_SECONDS = 0.02
"""How often a call past its time is looked at until it is found parsing."""

MAX_READING_ON = 2
"""Calls that may go on reading after their answer: each holds at most MDSEL_MAX_TOTAL_BYTES of
source and its parse in progress."""


class Verdict(enum.Enum):
    """What becomes of a call's reading once it has answered that it is still reading."""

    READS_ON = "reads on"
    """Its thread goes on reading and parsing, taking one of MAX_READING_ON places."""
    OTHERS_READ_ON = "others read on"
    """It was waiting for another call's parse of its file, which goes on: it stops."""
    NO_ROOM = "no room"
    """As many calls as may are reading on already: it stops."""
    TOO_LARGE = "too large"
    """Its documents, read before, weighed more than the parse cache keeps: reading on could
    never make the call answerable from it, so it stops."""


class Answered(Cancelled):
    """Raised in a call's thread once its files are read, when the call has already answered
    that it was still reading: what follows (the answer) is not built."""


class ReadingOn:
    """The calls whose reading goes on after they answered: at most `limit` at once."""

    def __init__(self, limit: int = MAX_READING_ON) -> None:
        self._limit = limit
        self._count = 0
        self._lock = threading.Lock()

    @property
    def count(self) -> int:
        """Calls reading on now."""
        return self._count

    @property
    def limit(self) -> int:
        """Calls that may read on at once."""
        return self._limit

    def claim(self) -> bool:
        """Room for one more call to read on; False when `limit` already do."""
        with self._lock:
            if self._count >= self._limit:
                return False
            self._count += 1
            return True

    def release(self) -> None:
        """A call that read on has ended."""
        with self._lock:
            self._count -= 1


class ReadProgress:
    """How far one call's reading has got, shared between its worker thread (which reports each
    file) and the server's event loop (which answers when the time is up). Thread-safe."""

    def __init__(self, reading_on: ReadingOn) -> None:
        self._lock = threading.Lock()
        self._reading_on = reading_on
        self.files = 0
        """Files handed to the engine (refused ones included, as they are numbered)."""
        self.opened = 0
        """Files the engine asked for so far."""
        self.path: str | None = None
        """The file asked for last: the one being read or parsed while reading is not done."""
        self.size = 0
        """Its bytes, once read."""
        self.read_bytes = 0
        """Bytes read by this call so far, that file's included."""
        self._loaded = False
        self._ended = False
        self._answered = False
        self._claimed = False
        self._waiting = False
        self._parsing = False
        self._too_large: int | None = None

    def start(self, files: int, too_large: int | None = None) -> None:
        """The backend got `files` files to read; `too_large`: what they weighed parsed when
        that was more than the parse cache keeps (the same call, read before)."""
        self.files = files
        self._too_large = too_large

    def reading(self, path: str) -> None:
        """The engine asks for `path`."""
        with self._lock:
            self.opened += 1
            self.path = path
            self.size = 0

    def read(self, size: int) -> None:
        """The file asked for last was read: `size` bytes, now to be parsed."""
        with self._lock:
            self.size = size
            self.read_bytes += size

    def waiting(self, waits: bool) -> None:
        """The call's parse waits for another thread parsing the same bytes (True), or no
        longer (False)."""
        self._waiting = waits

    def parsing(self, parses: bool) -> None:
        """The call parses bytes the parse cache does not hold (True), or no longer (False)."""
        self._parsing = parses

    @property
    def is_loaded(self) -> bool:
        """Whether every file is read and parsed."""
        return self._loaded

    def loaded(self) -> None:
        """Every file is read and parsed (the engine's `loaded` hook). Raises Answered when the
        call has already answered without them."""
        with self._lock:
            if self._answered:
                raise Answered
            self._loaded = True

    def ended(self) -> None:
        """The call's thread is done (its result, if any, is there): its place among the calls
        reading on is free."""
        with self._lock:
            self._ended = True
            if self._claimed:
                self._claimed = False
                self._reading_on.release()

    def answer_now(self) -> Verdict | None:
        """The time is up: None unless the call is parsing (or waiting for another's parse of
        the same bytes), the one work that a call asked again finds done in the parse cache;
        listing files and selecting in parsed documents are not (they are bounded by their own
        caps). Else the call is marked answered, and what becomes of its reading."""
        with self._lock:
            if self._loaded or self._ended or not (self._parsing or self._waiting):
                return None
            self._answered = True
            if self._too_large is not None:
                return Verdict.TOO_LARGE
            if self._waiting:
                return Verdict.OTHERS_READ_ON
            self._claimed = self._reading_on.claim()
            return Verdict.READS_ON if self._claimed else Verdict.NO_ROOM

    def still_reading(self, seconds: float, verdict: Verdict) -> str:
        """The answer of a call whose time for reading ran out after `seconds`."""
        with self._lock:
            if self.path is None:
                where = "still listing the files it names"
            elif self.files == 1:
                size = f" ({_size(self.size)})" if self.size else ""
                where = f"still reading and parsing {self.path}{size}"
            else:
                where = (
                    f"still reading and parsing {self.path} (file {self.opened:,} of "
                    f"{self.files:,}; {_size(self.read_bytes)} read so far)"
                )
        head = f"after {seconds:.1f} s this call is {where}, so nothing of it is shown yet."
        if verdict is Verdict.TOO_LARGE:
            weight = self._too_large or 0
            advice = (
                f"Its documents take {_size(weight)} parsed, more than the server keeps "
                "between calls, so calling again cannot help: ask for fewer files, or smaller "
                "ones (MDSEL_MAX_READ_MS)."
            )
        elif verdict is not Verdict.NO_ROOM:
            advice = (
                "Call again with the same arguments: the server goes on reading and keeps what "
                "it parsed, so a later call answers from it (MDSEL_MAX_READ_MS)."
            )
        else:
            limit = self._reading_on.limit
            calls = "call" if limit == 1 else "calls"
            advice = (
                f"The server is already reading on for {limit} earlier {calls}, so this one "
                "stopped; call again in a few seconds, or with fewer or smaller files "
                "(MDSEL_MAX_READ_MS)."
            )
        return f"{head} {advice}"


def _size(size: int) -> str:
    if size < 1000:
        return f"{size} bytes"
    return f"{size / 1e3:.1f} KB" if size < 1_000_000 else f"{size / 1e6:.1f} MB"


async def answer_in_time(
    run: Callable[[ReadProgress | None], ResultT],
    seconds: float | None,
    reading_on: ReadingOn,
    cancel: threading.Event,
    answer: Callable[[str], ResultT],
    progress: ReadProgress | None = None,
) -> ResultT:
    """`run(progress)` in a worker thread, answered as soon as it is done, or once `seconds`
    have passed while it is still reading (None: no time for reading, wait for it all), by
    `answer(what it is reading)`. `progress`: the call's (a new one by default)."""
    import anyio.to_thread

    if seconds is None:
        return await anyio.to_thread.run_sync(run, None, abandon_on_cancel=True)
    started = time.monotonic()
    progress = ReadProgress(reading_on) if progress is None else progress
    results: list[ResultT] = []
    finished = anyio.Event()

    def work() -> ResultT:
        try:
            return run(progress)
        finally:
            progress.ended()

    async def in_thread() -> None:
        results.append(await anyio.to_thread.run_sync(work, abandon_on_cancel=True))
        finished.set()

    # The thread is started in a task of its own, never under the deadline: a worker that had
    # not yet picked the call up when a deadline cancelled it would never run it.
    async with anyio.create_task_group() as group:
        group.start_soon(in_thread)
        with anyio.move_on_after(seconds):
            await finished.wait()
        # Past the time, the call answers the moment it is found parsing; until then (listing
        # files, reading one) it is looked at again every POLL_SECONDS, and once every file is
        # parsed its answer is waited for.
        while not finished.is_set():
            verdict = progress.answer_now()
            if verdict is not None:
                if verdict is not Verdict.READS_ON:
                    cancel.set()
                # The thread, found parsing, goes on: only the wait for it is abandoned.
                group.cancel_scope.cancel()
                return answer(progress.still_reading(time.monotonic() - started, verdict))
            with anyio.move_on_after(None if progress.is_loaded else POLL_SECONDS):
                await finished.wait()
    return results[0]
