"""The MCP stdio server: tools/list and tools/call over the SDK, each call relaying the backend."""

from __future__ import annotations

import functools
import logging
import os
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mdsel.results import Outcome
from mdsel_claude.server import access
from mdsel_claude.server.backend import Backend, make_backend, report_only, stop_if_set
from mdsel_claude.server.bounds import cap_answer, cap_json_errors, cap_problem_lines
from mdsel_claude.server.config import ConfigError, Settings, load_settings
from mdsel_claude.server.reader import Cancelled
from mdsel_claude.server.session import InFlight, exit_now, not_initialized
from mdsel_claude.server.tools import (
    ANNOTATIONS,
    INSTRUCTIONS,
    TOOLS,
    ArgumentError,
    ArgumentLimits,
    ToolRequest,
    parse_arguments,
)

if TYPE_CHECKING:
    from mcp.server import Server, ServerRequestContext

    from mdsel import Problem

SERVER_INFO_NAME = "mdsel-claude"
"""The name this server gives itself in its `initialize` answer (`serverInfo.name`)."""

USAGE = """\
usage: mdsel-claude [serve]

Serve the mdsel_index and mdsel_select tools over MCP on stdin/stdout.
Configured by MDSEL_* environment variables (see docs/server.md).
"""

logger = logging.getLogger("mdsel_claude.server")


@dataclass(frozen=True, slots=True)
class ToolResult:
    """What one tools/call answers: the text of its single content block, and whether it failed."""

    text: str
    is_error: bool


def join_output(parts: Sequence[str]) -> str:
    """Concatenate the non-empty parts, each starting on its own line; nothing else is changed."""
    text = ""
    for part in parts:
        if not part:
            continue
        if text and not text.endswith("\n"):
            text += "\n"
        text += part
    return text


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


def relay(outcome: Outcome) -> ToolResult:
    """The thin-wrapper rule: stdout exactly as printed; on failure stdout then stderr."""
    if outcome.exit_code == 0:
        return ToolResult(outcome.stdout, False)
    return ToolResult(join_output([outcome.stdout, outcome.stderr]), True)


@dataclass(frozen=True, slots=True)
class FileCheck:
    """The server's side of a call: files to hand to the backend, and what it says itself."""

    accepted: tuple[str, ...]
    problems: tuple[Problem, ...]
    """Files not handed over (no match, refused by the read policy), in argument order."""
    warnings: tuple[str, ...]
    """Ready-printed lines naming what the per-call caps left out."""


def check_files(
    files: Sequence[str],
    settings: Settings,
    cwd: str | None = None,
    cancel: threading.Event | None = None,
) -> FileCheck:
    """Expand the `files` argument with the engine's own file module, then apply the read policy."""
    from mdsel import FileLimits, expand_paths

    limits = FileLimits(
        max_files=settings.max_files,
        max_bytes=settings.max_bytes,
        max_total_bytes=settings.max_total_bytes,
        max_depth=settings.max_depth,
        max_names=settings.max_names,
    )
    policy = access.Policy(roots=settings.roots, max_bytes=settings.max_bytes)
    # Arguments reaching outside MDSEL_ROOTS are refused before expansion could list anything,
    # and so are names that would print a line of their own and patterns too long to match.
    refused_arguments = {
        given: access.control_refusal(given)
        or access.glob_refusal(given, settings.max_glob_segments, cwd)
        or access.check_argument(given, policy, cwd)
        for given in files
    }
    allowed = [given for given in files if refused_arguments[given] is None]
    checkpoint = None if cancel is None else functools.partial(stop_if_set, cancel)
    expansion = expand_paths(allowed, limits, cwd=cwd, checkpoint=checkpoint)
    accepted, refusals = access.partition(expansion.paths, policy, cwd)
    # Problems with the arguments themselves (refused, missing, no match) in argument order,
    # then those with the files they expanded to, in file order.
    position = {given: number for number, given in reversed(list(enumerate(files)))}
    early = [r for r in refused_arguments.values() if r is not None]
    early_problems = sorted(
        [*early, *expansion.problems],
        key=lambda problem: position.get(problem.file or "", len(files)),
    )
    problems = [*early_problems, *refusals]
    return FileCheck(accepted, tuple(problems), expansion.warnings)


def run_request(
    request: ToolRequest,
    settings: Settings,
    backend: Backend,
    cwd: str | None = None,
    cancel: threading.Event | None = None,
) -> ToolResult:
    """Expand and check the files, run the backend on those accepted, relay what it printed.

    The server's own findings travel with the call, so each backend prints them where mdsel
    prints file problems; both backends therefore give the same text for the same call.
    """
    check = check_files(request.files, settings, cwd, cancel)
    if not check.accepted:
        # Nothing may be read, so nothing is run: the engine's renderer only reports why.
        outcome = report_only(
            request.command, request.selector, check.problems, check.warnings, settings
        )
    else:
        outcome = backend.run(
            request.command,
            request.selector,
            check.accepted,
            check.problems,
            check.warnings,
            cwd,
            cancel=cancel,
        )
    if settings.json:
        outcome = outcome._replace(stdout=cap_json_errors(outcome.stdout, settings.max_problems))
    else:
        outcome = outcome._replace(stderr=cap_problem_lines(outcome.stderr, settings.max_problems))
    result = relay(outcome)
    text, cut = cap_answer(result.text, settings.max_answer_chars, settings.json, request.command)
    return ToolResult(text, result.is_error or (cut and settings.json))


def internal_error(name: str, error: BaseException) -> ToolResult:
    """The answer when a call failed in a way nothing above foresaw; details go to the log."""
    detail = f"{type(error).__name__}: {error}"
    return ToolResult(f"mdsel-claude: internal error in {name}: {detail}\n", True)


def run_tool(
    name: str,
    arguments: dict[str, Any] | None,
    settings: Settings,
    backend: Backend,
    cwd: str | None = None,
    cancel: threading.Event | None = None,
) -> ToolResult:
    """One tools/call from start to finish. Never raises: every failure is a tool error.

    Once `cancel` is set the work stops at its next checkpoint (between directories listed,
    between files, every few milliseconds of parsing) and the answer, which nobody waits for
    any more, says so.
    """
    limits = ArgumentLimits(settings.max_entries, settings.max_entry_chars)
    try:
        request = parse_arguments(name, arguments, limits)
    except ArgumentError as error:
        return ToolResult(f"{error}\n", True)
    try:
        return run_request(request, settings, backend, cwd, cancel)
    except Cancelled:
        return ToolResult(f"mdsel-claude: {name} was cancelled\n", True)
    except Exception as error:
        # A protocol error would read to the client as a broken server; the model can act on a
        # tool error instead, and the log keeps the traceback.
        logger.exception("tools/call %s failed", name)
        return internal_error(name, error)


def build_server(
    settings: Settings | None = None,
    backend: Backend | None = None,
    cwd: str | None = None,
    in_flight: InFlight | None = None,
) -> Server[Any]:
    """The SDK server with its two tools; the SDK is imported here, not when this module is."""
    import anyio.to_thread
    from mcp import types
    from mcp.server import Server

    config = Settings() if settings is None else settings
    engine = make_backend(config) if backend is None else backend
    calls = InFlight() if in_flight is None else in_flight
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
        # In a worker thread: reading and parsing must not stall the other requests.
        cancel = calls.start()
        work = functools.partial(
            run_tool, params.name, params.arguments, config, engine, cwd, cancel
        )
        try:
            result = await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
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
    try:
        async with stdio_transport(settings.max_request_bytes) as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
    finally:
        in_flight.cancel_all()


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
    exit_now()
