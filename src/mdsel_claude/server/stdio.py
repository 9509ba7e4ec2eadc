"""stdio framing for the server: the SDK's transport, plus an error reply to every unusable line.

The SDK reads one JSON-RPC message per line and silently drops a line it cannot validate, so
a client that sent a request with, say, `"params": 5` would wait for an answer forever. JSON-RPC
2.0 asks for an error response instead: -32700 for a line that is not JSON, -32600 for JSON that
is not a message, under the request's id when one can be read and `null` otherwise. Lines are
checked here before the SDK sees them; good lines pass through unchanged, blank ones are skipped.
The bytes themselves are read and written by `wire`.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, cast

from mdsel_claude.server.wire import (
    CLOSE_SECONDS,
    ReadyLines,
    ThreadLines,
    Writer,
    claim_stdin,
    claim_stdout,
    ready_kind,
)

if TYPE_CHECKING:
    from mcp.shared._stream_protocols import ReadStream, WriteStream
    from mcp.shared.message import SessionMessage

PARSE_ERROR = -32700
INVALID_REQUEST = -32600


def rejection(line: str) -> dict[str, Any] | None:
    """The JSON-RPC error answering `line`, or None when the SDK accepts it or it is blank."""
    from mcp.types import JSONRPCNotification, JSONRPCRequest, jsonrpc_message_adapter

    if not line.strip():
        return None
    try:
        message = jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValueError:
        message = None
    else:
        if isinstance(message, JSONRPCRequest) and message.method in _PARAMS:
            problem = _params_problem(message.method, message.params)
            return None if problem is None else _error(message.id, INVALID_PARAMS, problem)
        if not isinstance(message, JSONRPCNotification):
            return None
    try:
        body = json.loads(line)
    except (ValueError, RecursionError):
        # RecursionError: JSON nested deeper than the parser goes is as unreadable as bad JSON.
        return _error(None, PARSE_ERROR, "Parse error: not a JSON document")
    if isinstance(body, dict) and "params" in body and not isinstance(body["params"], dict):
        number = _request_id(body)
        return _error(number, INVALID_REQUEST, "Invalid Request: params must be an object in MCP")
    if message is not None:
        if isinstance(body, dict) and "id" in body:
            # A request whose id MCP cannot carry (null, 1.5, true) validates as a notification
            # and would never be answered; its sender is waiting for a reply.
            return _error(None, INVALID_REQUEST, "Invalid Request: id must be a string or integer")
        return None
    if _lone_surrogate(body):
        return _error(_request_id(body), INVALID_REQUEST, LONE_SURROGATE)
    return _error(_request_id(body), INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message")


LONE_SURROGATE = (
    "Invalid Request: a string in it holds a lone surrogate escape (such as \\ud800), which is "
    "no Unicode text; send file names and selectors as text"
)


def _lone_surrogate(body: object) -> bool:
    """Whether a string of the parsed message holds half of a UTF-16 pair alone (JSON lets
    `\\ud800` through; MCP's parser refuses it, which would otherwise go unexplained)."""
    try:
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


INVALID_PARAMS = -32602

_PARAMS = {
    "tools/call": (("name", str, True), ("arguments", dict, False), ("_meta", dict, False)),
    "tools/list": (("cursor", str, False), ("_meta", dict, False)),
}
"""The params of the requests whose shape is ours to name: (field, type, required)."""


def _params_problem(method: str, params: object) -> str | None:
    """What is wrong with a request's params, naming the field; None when nothing is (what
    the tool's own arguments hold is the tool's to say, as a tool result)."""
    fields = params if isinstance(params, dict) else {}
    for name, kind, required in _PARAMS[method]:
        value = fields.get(name)
        if value is None and not required:
            continue
        if not isinstance(value, kind):
            what = "a string" if kind is str else "an object"
            also = " naming the tool (mdsel_index or mdsel_select)" if name == "name" else ""
            return f"Invalid params: {method} needs params.{name} to be {what}{also}"
    return None


def _request_id(body: object) -> int | str | None:
    # The id is echoed only for what was meant as a request: an answer to a client's own
    # malformed *response* under that id would read as the reply to a request of its own.
    if not isinstance(body, dict) or "result" in body or "error" in body:
        return None
    number = body.get("id")
    if isinstance(number, str) and not _lone_surrogate(number):  # else no answer could carry it
        return number
    if isinstance(number, int) and not isinstance(number, bool):
        return number
    return None


def _error(number: int | str | None, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": number, "error": {"code": code, "message": message}}


_LEADING_ID = re.compile(
    rb'\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?[0-9]{1,18}|"[^"\\]{0,200}")'
)
"""The id of a message that starts with it (as the SDKs write them); read from a line too long
to parse, so its sender still gets its answer. Anywhere else it could sit inside a string."""


_REQUEST_START = re.compile(rb'\s*\{\s*"method"\s*:')
"""A request written method first, as the TypeScript SDK (Claude Code's) writes them:
`{"method": …, "params": …, "jsonrpc": "2.0", "id": 7}`, its id last."""

_TRAILING_ID = re.compile(rb'"id"\s*:\s*(-?[0-9]{1,18}|"[^"\\]{0,200}")\s*\}\s*$')
"""The id of such a request, read from the end of a line too long to parse: the member right
before the brace that ends the line belongs to the message itself, never to a string in it."""


def _leading_id(head: bytes, tail: bytes = b"") -> int | str | None:
    found = _LEADING_ID.match(head)
    if found is None and _REQUEST_START.match(head):
        found = _TRAILING_ID.search(tail[-4096:])
    if found is None:
        return None
    value = json.loads(found.group(1))
    return value if isinstance(value, (int, str)) else None


class _CheckedLines:
    """The lines of stdin the SDK can use; every other non-blank line is answered on the spot."""

    def __init__(
        self,
        source: ReadyLines | ThreadLines,
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
        tail = raw[-4096:]
        while raw and not raw.endswith(b"\n"):
            raw = await readline(65536)
            tail = (tail + raw)[-4096:]
        message = (
            f"Invalid Request: a message over {self._max_bytes} bytes "
            "(MDSEL_MAX_REQUEST_BYTES); send fewer or shorter arguments"
        )
        return "", _error(_leading_id(head, tail), INVALID_REQUEST, message)

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


@asynccontextmanager
async def stdio_transport(
    max_bytes: int = 1024 * 1024,
    on_gone: Callable[[OSError], None] | None = None,
) -> AsyncIterator[tuple[ReadStream[SessionMessage | Exception], WriteStream[SessionMessage]]]:
    """The SDK's stdio transport reading checked lines; streams for `Server.run`. `on_gone` is
    called (in the writer thread) once an answer cannot be written because the client closed
    its end of stdout."""
    import anyio
    from mcp.server.stdio import stdio_server

    wire_in = claim_stdin()
    wire_out = claim_stdout()
    fd_in = sys.stdin.fileno() if wire_in is None else wire_in
    source: ReadyLines | ThreadLines
    if ready_kind(fd_in):
        source = ReadyLines(fd_in)
    else:
        # closefd=False: a worker thread may still be blocked reading the wire when serving ends.
        source = ThreadLines(open(fd_in, "rb", closefd=False))  # noqa: SIM115
    writer = Writer(sys.stdout.fileno() if wire_out is None else wire_out, on_gone)
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
