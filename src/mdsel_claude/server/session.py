"""The session around the tool calls: calls in flight (cancelled when the session ends), the
answer to a request sent before `initialize`, and a prompt exit once stdin closes."""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from mcp.server import ServerRequestContext
    from mcp.server.context import CallNext, HandlerResult


class InFlight:
    """The cancel flags of the calls being worked on, so that ending the session stops them."""

    def __init__(self) -> None:
        self._flags: set[threading.Event] = set()
        self._lock = threading.Lock()

    def start(self) -> threading.Event:
        flag = threading.Event()
        with self._lock:
            self._flags.add(flag)
        return flag

    def finish(self, flag: threading.Event) -> None:
        with self._lock:
            self._flags.discard(flag)

    def cancel_all(self) -> None:
        with self._lock:
            for flag in self._flags:
                flag.set()


NOT_INITIALIZED = (
    "Invalid Request: this session is not initialized; send 'initialize' first, then "
    "'notifications/initialized', then {method}"
)
"""The answer to a request sent before `initialize`: the SDK's own gate says only "Invalid
request parameters", which sends a client looking for a fault in its arguments."""


async def not_initialized(ctx: ServerRequestContext[Any], call_next: CallNext) -> HandlerResult:
    from mcp import MCPError
    from mcp.types import INVALID_PARAMS, INVALID_REQUEST

    try:
        return await call_next(ctx)
    except MCPError as error:
        # The MCP lifecycle says a client SHOULD NOT send anything but ping before its
        # initialize is answered, and names no error for it; JSON-RPC's Invalid Request fits.
        early = ctx.request_id is not None and ctx.session.client_params is None
        if early and error.code == INVALID_PARAMS and ctx.method not in ("initialize", "ping"):
            message = NOT_INITIALIZED.format(method=ctx.method)
            raise MCPError(INVALID_REQUEST, message) from None
        raise


EXIT_GRACE_SECONDS = 0.3
"""How long cancelled work may take to reach a checkpoint (and kill an MDSEL_BIN child) once the
session has ended."""


def exit_now() -> NoReturn:
    """End the process as soon as the session is over, busy worker threads or not.

    The interpreter would wait for every worker thread, then spend most of a second tearing
    down the SDK's modules; a client that closed stdin waits for none of that. Cancelled work
    gets a short grace to stop (an MDSEL_BIN child is killed in it); stdout carries nothing but
    answers already written, so nothing is lost by not finalizing.
    """
    deadline = time.monotonic() + EXIT_GRACE_SECONDS
    for thread in threading.enumerate():
        if thread is not threading.current_thread() and not thread.daemon:
            thread.join(max(0.0, deadline - time.monotonic()))
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
