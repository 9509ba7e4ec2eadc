"""stdio framing for the server: the SDK's transport, plus an error reply to every unusable line.

The SDK reads one JSON-RPC message per line and silently drops a line it cannot validate, so
a client that sent a request with, say, `"params": 5` would wait for an answer forever. JSON-RPC
2.0 asks for an error response instead: -32700 for a line that is not JSON, -32600 for JSON that
is not a message, under the request's id when one can be read and `null` otherwise. Lines are
checked here before the SDK sees them; good lines pass through unchanged, blank ones are skipped.

The wire itself is served without a thread hop per message where it can be. The SDK reads each
line in a worker thread and writes each answer in two more hops (write, then flush); on a warm
call those hand-offs cost about as much as the work. Here a pipe or socket on stdin is read as
the event loop finds it ready (other kinds of stdin, a file or a terminal, are read in a worker
thread as before), and answers go to one writer thread in order, which the event loop never
waits for.
"""

from __future__ import annotations

import json
import os
import queue
import re
import stat
import sys
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, BinaryIO, cast

if TYPE_CHECKING:
    from mcp.shared._stream_protocols import ReadStream, WriteStream
    from mcp.shared.message import SessionMessage

PARSE_ERROR = -32700
INVALID_REQUEST = -32600


def rejection(line: str) -> dict[str, Any] | None:
    """The JSON-RPC error answering `line`, or None when the SDK accepts it or it is blank."""
    from mcp.types import JSONRPCNotification, jsonrpc_message_adapter

    if not line.strip():
        return None
    try:
        message = jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValueError:
        message = None
    else:
        if not isinstance(message, JSONRPCNotification):
            return None
    try:
        body = json.loads(line)
    except (ValueError, RecursionError):
        # RecursionError: JSON nested deeper than the parser goes is as unreadable as bad JSON.
        return _error(None, PARSE_ERROR, "Parse error: not a JSON document")
    if message is not None:
        if isinstance(body, dict) and "id" in body:
            # A request whose id MCP cannot carry (null, 1.5, true) validates as a notification
            # and would never be answered; its sender is waiting for a reply.
            return _error(None, INVALID_REQUEST, "Invalid Request: id must be a string or integer")
        return None
    return _error(_request_id(body), INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message")


def _request_id(body: object) -> int | str | None:
    # The id is echoed only for what was meant as a request: an answer to a client's own
    # malformed *response* under that id would read as the reply to a request of its own.
    if not isinstance(body, dict) or "result" in body or "error" in body:
        return None
    number = body.get("id")
    if isinstance(number, str) or (isinstance(number, int) and not isinstance(number, bool)):
        return number
    return None


def _error(number: int | str | None, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": number, "error": {"code": code, "message": message}}


_LEADING_ID = re.compile(
    rb'\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?[0-9]{1,18}|"[^"\\]{0,200}")'
)
"""The id of a message that starts with it (as the SDKs write them); read from a line too long
to parse, so its sender still gets its answer. Anywhere else it could sit inside a string."""


def _leading_id(head: bytes) -> int | str | None:
    found = _LEADING_ID.match(head)
    if found is None:
        return None
    value = json.loads(found.group(1))
    return value if isinstance(value, (int, str)) else None


READ_CHUNK = 65536
"""Bytes asked of a ready stdin at a time."""

END_PASSES = 10
"""Event-loop passes between the end of stdin and telling the SDK (three were enough for the
last `ping` or `tools/list` to be answered, every time, in the tests)."""


class _ReadyLines:
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


class _ThreadLines:
    """`readline(limit)` of any binary file, each line read in a worker thread."""

    def __init__(self, source: BinaryIO) -> None:
        self._source = source

    async def readline(self, limit: int) -> bytes:
        from anyio.to_thread import run_sync

        return await run_sync(self._source.readline, limit)


def _ready_kind(fd: int) -> bool:
    """Whether the event loop can wait for `fd` to be readable: a pipe or a socket. A regular
    file is always "ready" (epoll refuses it) and a terminal is best left to a thread."""
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class _CheckedLines:
    """The lines of stdin the SDK can use; every other non-blank line is answered on the spot."""

    def __init__(
        self,
        source: _ReadyLines | _ThreadLines,
        max_bytes: int = 1024 * 1024,
        on_end: Callable[[], None] | None = None,
    ) -> None:
        import anyio

        # Read as bytes, split at LF only: a CR is JSON whitespace, not a line break.
        self._source = source
        self._on_end = on_end
        self._max_bytes = max_bytes
        self._replies: WriteStream[SessionMessage] | None = None
        self._ready = anyio.Event()

    async def _line(self) -> tuple[str, dict[str, Any] | None]:
        """The next line, or the error answering a line over the size limit (read and dropped
        piece by piece, so it never sits in memory whole)."""
        readline = self._source.readline
        raw = await readline(self._max_bytes + 1)
        if len(raw) <= self._max_bytes or raw.endswith(b"\n"):
            return raw.decode("utf-8", errors="replace"), None
        head = raw[:4096]
        while raw and not raw.endswith(b"\n"):
            raw = await readline(65536)
        message = (
            f"Invalid Request: a message over {self._max_bytes} bytes "
            "(MDSEL_MAX_REQUEST_BYTES); send fewer or shorter arguments"
        )
        return "", _error(_leading_id(head), INVALID_REQUEST, message)

    def attach(self, replies: WriteStream[SessionMessage]) -> None:
        """Where error replies go: the transport's own write stream, so frames never interleave."""
        self._replies = replies
        self._ready.set()

    def __aiter__(self) -> _CheckedLines:
        return self

    async def __anext__(self) -> str:
        import anyio
        from mcp.shared.message import SessionMessage
        from mcp.types import JSONRPCError

        while True:
            line, error = await self._line()
            if error is None:
                if not line:
                    if self._on_end is not None:
                        self._on_end()
                    raise StopAsyncIteration
                if not line.strip():
                    continue
                error = rejection(line)
            if error is None:
                return line
            # The reader starts before the write stream is handed out; wait for it.
            await self._ready.wait()
            assert self._replies is not None
            try:
                await self._replies.send(SessionMessage(JSONRPCError.model_validate(error)))
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                # The session is ending: nobody is left to answer, so stop reading.
                raise StopAsyncIteration from None


def _claim(fd: int, stand_in: int) -> int | None:
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


def _claim_stdin() -> int | None:
    """A private duplicate of fd 0, which now points at the null device; None if impossible."""
    # As the SDK does for the stdin it reads itself: a handler or a child process must never
    # read protocol bytes meant for the server.
    try:
        null = os.open(os.devnull, os.O_RDONLY)
    except OSError:
        return None
    try:
        return _claim(0, null)
    finally:
        os.close(null)


def _claim_stdout() -> int | None:
    """A private duplicate of fd 1, which now points at stderr; None if impossible."""
    # As the SDK does for the stdout it writes itself: a stray print (ours, a library's, a
    # child's) must never land between protocol frames.
    return _claim(1, 2)


PENDING_LIMIT = 16 * 1024 * 1024
"""Bytes of answers waiting for the writer thread before `write` waits too: a client that sends
requests but never reads its answers cannot make them pile up without end."""


WRITE_CHUNK = 65536
"""Bytes written at a time, so a slow reader's progress shows between writes."""


class _Writer:
    """The wire's writing end for the SDK (`stdout=` of its stdio_server): each frame is handed
    to one writer thread, which writes them in order, so the event loop never waits for a write.

    A write error (the client closed its end) stops the thread and is raised by the next write,
    as writing to the file itself would; `close` lets queued frames go out first."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
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
                return
            finally:
                with self._lock:
                    self._pending -= len(data)


CLOSE_SECONDS = 5.0
"""Once the session ends, how long a client may take nothing before answers still queued for it
are given up."""


@asynccontextmanager
async def stdio_transport(
    max_bytes: int = 1024 * 1024,
) -> AsyncIterator[tuple[ReadStream[SessionMessage | Exception], WriteStream[SessionMessage]]]:
    """The SDK's stdio transport reading checked lines; streams for `Server.run`."""
    import anyio
    from mcp.server.stdio import stdio_server

    wire_in = _claim_stdin()
    wire_out = _claim_stdout()
    fd_in = sys.stdin.fileno() if wire_in is None else wire_in
    source: _ReadyLines | _ThreadLines
    if _ready_kind(fd_in):
        source = _ReadyLines(fd_in)
    else:
        # closefd=False: a worker thread may still be blocked reading the wire when serving ends.
        source = _ThreadLines(open(fd_in, "rb", closefd=False))  # noqa: SIM115
    writer = _Writer(sys.stdout.fileno() if wire_out is None else wire_out)
    lines = _CheckedLines(source, max_bytes, on_end=writer.end)
    try:
        async with stdio_server(
            stdin=cast("anyio.AsyncFile[str]", lines), stdout=cast("anyio.AsyncFile[str]", writer)
        ) as (read, write):
            lines.attach(write)
            yield read, write
    finally:
        writer.close(CLOSE_SECONDS)
        if wire_in is not None:
            os.dup2(wire_in, 0)
        if wire_out is not None:
            os.dup2(wire_out, 1)
