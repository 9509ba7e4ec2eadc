"""The MCP stdio server: tools/list and tools/call over the SDK, each call run by `calls`."""

from __future__ import annotations

import functools
import logging
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mdsel_claude.server.backend import Backend, make_backend
from mdsel_claude.server.calls import internal_error, run_tool, still_reading_answer
from mdsel_claude.server.config import ConfigError, Settings, load_settings
from mdsel_claude.server.session import InFlight, exit_now, not_initialized
from mdsel_claude.server.tools import ANNOTATIONS, INSTRUCTIONS, TOOLS

if TYPE_CHECKING:
    from mcp.server import Server, ServerRequestContext

SERVER_INFO_NAME = "mdsel-claude"
"""The name this server gives itself in its `initialize` answer (`serverInfo.name`)."""

USAGE = """\
usage: mdsel-claude [serve]

Serve the mdsel_index and mdsel_select tools over MCP on stdin/stdout.
Configured by MDSEL_* environment variables (see docs/server.md).
"""

logger = logging.getLogger("mdsel_claude.server")


def printable(text: str) -> str:
    """Text that can travel as JSON-RPC: a file name that is not UTF-8 reaches us with lone
    surrogates (Python's surrogateescape), which the protocol cannot carry — the SDK would fail
    to write the answer and the session would end. Such bytes become `\\xe9`-style escapes."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        try:
            raw = text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:  # a surrogate that never was a byte (from the arguments)
            raw = text.encode("utf-8", "surrogatepass")
        return raw.decode("utf-8", "backslashreplace")
    return text


def build_server(
    settings: Settings | None = None,
    backend: Backend | None = None,
    cwd: str | None = None,
    in_flight: InFlight | None = None,
) -> Server[Any]:
    """The SDK server with its two tools; the SDK is imported here, not when this module is."""
    import anyio
    from mcp import types
    from mcp.server import Server

    from mdsel_claude.server.read_budget import ReadingOn, answer_in_time

    config = Settings() if settings is None else settings
    engine = make_backend(config) if backend is None else backend
    calls = InFlight() if in_flight is None else in_flight
    reading_on = ReadingOn()
    listing = types.ListToolsResult(
        tools=[
            types.Tool(
                name=tool.name,
                title=tool.title,
                description=tool.description,
                input_schema=tool.input_schema,
                annotations=types.ToolAnnotations.model_validate(
                    {"title": tool.title, **ANNOTATIONS}
                ),
            )
            for tool in TOOLS
        ]
    )

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return listing

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        # In a worker thread: reading and parsing must not stall the other requests. A call
        # still reading when its time is up answers so, and its reading goes on (read_budget).
        cancel = calls.start()
        work = functools.partial(
            run_tool, params.name, params.arguments, config, engine, cwd, cancel
        )
        try:
            answer = functools.partial(
                still_reading_answer,
                json_mode=config.json,
                command=params.name.removeprefix("mdsel_"),
            )
            result = await answer_in_time(work, config.read_seconds, reading_on, cancel, answer)
        except anyio.get_cancelled_exc_class():
            # notifications/cancelled, or the session ending: the thread is abandoned, and the
            # flag makes the work in it stop at its next checkpoint instead of running on.
            cancel.set()
            raise
        except Exception as error:  # run_tool never raises; this guards the thread hop itself
            logger.exception("tools/call %s failed", params.name)
            result = internal_error(params.name, error)
        finally:
            calls.finish(cancel)
        # Text only, never structuredContent: a client that prefers it would show the model a
        # JSON string instead of the verbatim text (SPEC §5).
        return types.CallToolResult(
            content=[types.TextContent(text=printable(result.text))], is_error=result.is_error
        )

    server: Server[Any] = Server(
        SERVER_INFO_NAME,
        version=_version(),
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )
    server.middleware.append(not_initialized)
    return server


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mdsel-claude")
    except PackageNotFoundError:
        return "0+unknown"


async def serve(settings: Settings, backend: Backend | None = None) -> None:
    """Serve one client on this process's stdin and stdout until it closes them."""
    from mdsel_claude.server.stdio import stdio_transport

    in_flight = InFlight()
    server = build_server(settings, backend, in_flight=in_flight)
    gone = functools.partial(_client_stopped_reading, in_flight)
    try:
        async with stdio_transport(settings.max_request_bytes, gone) as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
    finally:
        in_flight.cancel_all()


CLIENT_GONE = "the client stopped reading answers (stdout closed); exiting"


def _client_stopped_reading(in_flight: InFlight, _error: OSError | None = None) -> None:
    """An answer could not be written: the client closed its end of stdout. Nobody can be
    answered any more, so the calls in flight are cancelled and the process ends now, from
    whichever thread found out, rather than waiting for another answer to fail or for stdin to
    close (a client may keep it open)."""
    in_flight.cancel_all()
    logger.warning(CLIENT_GONE)
    exit_now()


def main(argv: Sequence[str] | None = None) -> int:
    """`mdsel-claude [serve]`: check the configuration, then serve on stdio."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["-h"], ["--help"]):
        sys.stdout.write(USAGE)
        return 0
    if args:
        sys.stderr.write(f"mdsel-claude serve: unexpected argument {args[0]!r}\n{USAGE}")
        return 2
    try:
        settings = load_settings(os.environ)
    except ConfigError as error:
        sys.stderr.write(f"mdsel-claude: invalid configuration: {error}\n")
        return 1
    # stdout carries protocol messages only; every log line goes to stderr.
    logging.basicConfig(
        stream=sys.stderr, level=logging.WARNING, format="mdsel-claude: %(levelname)s: %(message)s"
    )
    import anyio

    try:
        anyio.run(serve, settings)
    except KeyboardInterrupt:
        return 130
    except BaseException as error:
        if not _client_gone(error):
            raise
        # The client closed its end of stdout: nobody reads answers any more. The calls in
        # flight are cancelled (serve's finally); exit as promptly as when stdin closes, not
        # after the work nobody waits for, and without a traceback.
        logger.warning(CLIENT_GONE)
    exit_now()


def _client_gone(error: BaseException) -> bool:
    """Whether `error` is only broken or reset pipes (possibly grouped by the task groups)."""
    if isinstance(error, BaseExceptionGroup):
        return all(_client_gone(part) for part in error.exceptions)
    return isinstance(error, (BrokenPipeError, ConnectionResetError))
