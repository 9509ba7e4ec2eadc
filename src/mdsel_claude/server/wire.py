"""The bytes of the server's stdin and stdout: read and written without a thread hand-off per
message where that can be done.

The SDK's own stdio transport reads each line in a worker thread and writes each answer in two
more hand-offs (write, then flush); on a warm call those cost about as much as the work. Here a
pipe or socket on stdin is read as the event loop finds it ready (a file or a terminal is read in
a worker thread, as the SDK does), and answers go to one writer thread, in order, which the event
loop never waits for. While serving, fd 0 and fd 1 are claimed as the SDK claims them: nothing
else in the process can read requests or print between frames.
"""

from __future__ import annotations

import os
import queue
import stat
import threading
from collections.abc import Callable
from typing import BinaryIO

READ_CHUNK = 65536
"""Bytes asked of a ready stdin at a time."""

END_PASSES = 10
"""Event-loop passes between the end of stdin and telling the SDK (three were enough for the
last `ping` or `tools/list` to be answered, every time, in the tests)."""


class ReadyLines:
    """`readline(limit)` over a pipe or socket, read when the event loop sees it ready: the loop
    wakes once per message instead of waking a worker thread that wakes the loop.

    The descriptor stays blocking (its open file may be shared with the process that started
    this one): the server is its only reader, so a read after readiness returns at once."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._buffer = bytearray()
        self._scanned = 0  # bytes of the buffer known to hold no LF
        self._ended = False

    async def readline(self, limit: int) -> bytes:
        """Up to `limit` bytes, through the first LF if it comes within them; b"" at the end."""
        import anyio
        from anyio.lowlevel import checkpoint

        buffer = self._buffer
        while True:
            end = buffer.find(b"\n", self._scanned, limit)
            if end >= 0 or len(buffer) >= limit or self._ended:
                size = end + 1 if end >= 0 else min(len(buffer), limit)
                line = bytes(buffer[:size])
                del buffer[:size]
                self._scanned = 0
                if not line:
                    # The end. The SDK ends the session as soon as it hears of it, and a handler
                    # cancelled before it ran answers nothing: a few passes of the event loop
                    # first let the last requests that need nothing else (ping, tools/list) be
                    # answered, as a thread's hand-off used to by its own delay. Calls in flight
                    # are still cancelled (docs/server.md).
                    for _ in range(END_PASSES):
                        await checkpoint()
                return line
            self._scanned = len(buffer)
            await anyio.wait_readable(self._fd)
            chunk = os.read(self._fd, READ_CHUNK)
            if chunk:
                buffer += chunk
            else:
                self._ended = True


class ThreadLines:
    """`readline(limit)` of any binary file, each line read in a worker thread."""

    def __init__(self, source: BinaryIO) -> None:
        self._source = source

    async def readline(self, limit: int) -> bytes:
        from anyio.to_thread import run_sync

        return await run_sync(self._source.readline, limit)


def ready_kind(fd: int) -> bool:
    """Whether the event loop can wait for `fd` to be readable: a pipe or a socket. A regular
    file is always "ready" (epoll refuses it) and a terminal is best left to a thread."""
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def claim(fd: int, stand_in: int) -> int | None:
    """A private duplicate of `fd`, which now points where `stand_in` does; None if impossible."""
    try:
        wire = os.dup(fd)
    except OSError:
        return None
    try:
        os.dup2(stand_in, fd)
    except OSError:
        os.close(wire)
        return None
    return wire


def claim_stdin() -> int | None:
    """A private duplicate of fd 0, which now points at the null device; None if impossible."""
    # As the SDK does for the stdin it reads itself: a handler or a child process must never
    # read protocol bytes meant for the server.
    try:
        null = os.open(os.devnull, os.O_RDONLY)
    except OSError:
        return None
    try:
        return claim(0, null)
    finally:
        os.close(null)


def claim_stdout() -> int | None:
    """A private duplicate of fd 1, which now points at stderr; None if impossible."""
    # As the SDK does for the stdout it writes itself: a stray print (ours, a library's, a
    # child's) must never land between protocol frames.
    return claim(1, 2)


PENDING_LIMIT = 16 * 1024 * 1024
"""Bytes of answers waiting for the writer thread before `write` waits too: a client that sends
requests but never reads its answers cannot make them pile up without end."""


GONE_ERRORS = (BrokenPipeError, ConnectionResetError)
"""What writing meets once the client has closed its end of stdout."""


WRITE_CHUNK = 65536
"""Bytes written at a time, so a slow reader's progress shows between writes."""


class Writer:
    """The wire's writing end for the SDK (`stdout=` of its stdio_server): each frame is handed
    to one writer thread, which writes them in order, so the event loop never waits for a write.

    A write error (the client closed its end) stops the thread and is raised by the next write,
    as writing to the file itself would; `close` lets queued frames go out first. That next
    write may never come (the failed answer was the last one asked for), so the thread also
    calls `on_gone` when the error says the client closed its end: nobody can be answered any
    more, and the server must not linger until stdin happens to close."""

    def __init__(self, fd: int, on_gone: Callable[[OSError], None] | None = None) -> None:
        self._fd = fd
        self._on_gone = on_gone
        self._queue: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._pending = 0
        self._written = 0
        self._ending = False
        self._lock = threading.Lock()
        self._error: OSError | None = None
        self._thread = threading.Thread(target=self._run, name="mdsel-claude-stdout", daemon=True)
        self._thread.start()

    def end(self) -> None:
        """No more requests will come (stdin ended): the answers still to give are bounded by
        the calls in flight, so writes stop waiting for the pending cap."""
        self._ending = True

    async def write(self, text: str) -> int:
        import anyio

        data = text.encode("utf-8")
        while self._pending > PENDING_LIMIT and self._error is None and not self._ending:
            await anyio.sleep(0.01)
        if self._error is not None:
            raise self._error
        with self._lock:
            self._pending += len(data)
        self._queue.put(data)
        return len(text)

    async def flush(self) -> None:
        if self._error is not None:
            raise self._error

    def close(self, idle_seconds: float) -> None:
        """Write what is queued, then stop; give up only once the client has taken nothing for
        `idle_seconds` (a client still reading, however slowly, gets every answer whole)."""
        self._queue.put(None)
        while True:
            before = self._written
            self._thread.join(idle_seconds)
            if not self._thread.is_alive() or self._written == before:
                return

    def _run(self) -> None:
        while True:
            data = self._queue.get()
            if data is None:
                return
            try:
                view = memoryview(data)
                while view:
                    count = os.write(self._fd, view[:WRITE_CHUNK])
                    self._written += count
                    view = view[count:]
            except OSError as error:
                self._error = error
                with self._lock:
                    self._pending -= len(data)
                if self._on_gone is not None and isinstance(error, GONE_ERRORS):
                    self._on_gone(error)
                return
            with self._lock:
                self._pending -= len(data)


CLOSE_SECONDS = 5.0
"""Once the session ends, how long a client may take nothing before answers still queued for it
are given up."""
