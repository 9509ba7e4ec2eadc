"""One tools/call without the SDK: arguments → files expanded and checked → backend → text."""

from __future__ import annotations

import functools
import json
import logging
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mdsel.errors import PROCESSING_ERROR, Problem
from mdsel.results import Outcome
from mdsel_claude.server import access
from mdsel_claude.server.backend import Backend
from mdsel_claude.server.bounds import (
    CHARS,
    NOTICE_TOKENS,
    TOKENS,
    cap_answer,
    cap_json_errors,
    cap_problem_lines,
    chars_within_tokens,
)
from mdsel_claude.server.config import Settings
from mdsel_claude.server.embedded import report_only
from mdsel_claude.server.reader import Cancelled, stop_if_set
from mdsel_claude.server.tools import ArgumentError, ArgumentLimits, ToolRequest, parse_arguments

if TYPE_CHECKING:
    from mdsel_claude.server.read_budget import ReadProgress

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


def relay(outcome: Outcome) -> ToolResult:
    """The thin-wrapper rule: stdout exactly as printed; on failure stdout then stderr."""
    if outcome.exit_code == 0:
        return ToolResult(outcome.stdout, False)
    return ToolResult(join_output([outcome.stdout, outcome.stderr]), True)


@dataclass(frozen=True, slots=True)
class FileCheck:
    """The server's side of a call: files to hand to the backend, and what it says itself."""

    paths: tuple[str, ...]
    """Every file the arguments gave, in order, those the read policy refused included: they
    keep their place in the numbering of namespaces, as when `mdsel` fails to read them."""
    refused: dict[str, Problem]
    """The files of `paths` the read policy refused → why; never read."""
    problems: tuple[Problem, ...]
    """Arguments refused or giving no file (no match, missing), in argument order."""
    warnings: tuple[str, ...]
    """Ready-printed lines naming what the per-call caps left out."""
    left_out: tuple[str, ...] = ()
    """The files the per-call caps left out (never read), which a link may name too."""

    @property
    def accepted(self) -> tuple[str, ...]:
        """The files that may be read."""
        return tuple(path for path in self.paths if path not in self.refused)


def working_directory(cwd: str | None) -> tuple[str | None, bool]:
    """The directory a call's relative paths are read against, and whether the server's own
    working directory is gone (deleted after the server started: the kernel can no longer name
    it, and every `os.getcwd()` fails). Then relative paths cannot be read at all, but absolute
    ones still can: the call runs against the root, with its relative entries refused."""
    if cwd is not None:
        return cwd, False
    try:
        os.getcwd()
    except FileNotFoundError:
        return os.sep, True
    return None, False


def _cwd_gone_refusal(given: str) -> Problem | None:
    if os.path.isabs(given):
        return None
    reason = (
        "is a relative path, and the server's working directory no longer exists (it was "
        "removed after the server started); give an absolute path, or restart the server"
    )
    return Problem(PROCESSING_ERROR, "NO_WORKING_DIRECTORY", reason, file=access.shown(given))


def check_files(
    files: Sequence[str],
    settings: Settings,
    cwd: str | None = None,
    cancel: threading.Event | None = None,
    cwd_gone: bool = False,
) -> FileCheck:
    """Expand the `files` argument with the engine's own file module, then apply the read policy.
    `cwd_gone`: the server's working directory no longer exists (see `working_directory`)."""
    from mdsel import FileLimits, expand_paths

    engine = settings.engine
    limits = FileLimits(
        max_files=engine.max_files,
        max_bytes=engine.max_bytes,
        max_total_bytes=engine.max_total_bytes,
        max_depth=engine.max_depth,
        max_names=engine.max_names,
    )
    policy = access.Policy(roots=settings.roots, max_bytes=engine.max_bytes)
    # Arguments reaching outside MDSEL_ROOTS are refused before expansion could list anything,
    # and so are names that would print a line of their own and patterns too long to match.
    refused_arguments = {
        given: (_cwd_gone_refusal(given) if cwd_gone else None)
        or access.control_refusal(given)
        or access.glob_refusal(given, settings.max_glob_segments, cwd)
        or access.check_argument(given, policy, cwd)
        for given in files
    }
    allowed = [given for given in files if refused_arguments[given] is None]
    checkpoint = None if cancel is None else functools.partial(stop_if_set, cancel)
    expansion = expand_paths(allowed, limits, cwd=cwd, checkpoint=checkpoint)
    refused = access.refusals(expansion.paths, policy, cwd)
    # Problems with the arguments themselves (refused, missing, no match) in argument order;
    # those with the files they expanded to come in file order, with what reading them says.
    position = {given: number for number, given in reversed(list(enumerate(files)))}
    early = [r for r in refused_arguments.values() if r is not None]
    problems = sorted(
        [*early, *expansion.problems],
        key=lambda problem: position.get(problem.file or "", len(files)),
    )
    return FileCheck(
        expansion.paths, refused, tuple(problems), expansion.warnings, expansion.left_out
    )


def run_request(
    request: ToolRequest,
    settings: Settings,
    backend: Backend,
    cwd: str | None = None,
    cancel: threading.Event | None = None,
    progress: ReadProgress | None = None,
) -> ToolResult:
    """Expand and check the files, run the backend on those accepted, relay what it printed.

    The server's own findings travel with the call, so each backend prints them where mdsel
    prints file problems; both backends therefore give the same text for the same call.
    `progress`: where the backend reports its reading (see read_budget).
    """
    cwd, cwd_gone = working_directory(cwd)
    check = check_files(request.files, settings, cwd, cancel, cwd_gone)
    if not check.accepted:
        # Nothing may be read, so nothing is run: the engine's renderer only reports why.
        problems = [*check.problems, *check.refused.values()]
        outcome = report_only(request.command, request.selector, problems, check.warnings, settings)
    else:
        outcome = backend.run(
            request.command,
            request.selector,
            check.paths,
            check.problems,
            check.warnings,
            cwd,
            cancel=cancel,
            refused=check.refused,
            left_out=check.left_out,
            progress=progress,
        )
    if settings.json:
        outcome = outcome._replace(stdout=cap_json_errors(outcome.stdout, settings.max_problems))
    else:
        from mdsel.budget import answer_room, text_cost  # the engine, loaded by the first call only

        # Problems share the answer's budget with what it shows.
        room = answer_room(settings.engine.max_answer_tokens) - text_cost(outcome.stdout)
        stderr = cap_problem_lines(outcome.stderr, settings.max_problems, room, text_cost)
        outcome = outcome._replace(stderr=stderr)
    result = relay(outcome)
    # A failed call's problem lines say why it failed: a cut keeps them (see cap_answer).
    why = outcome.stderr if result.is_error and not settings.json else ""
    limit, variable = settings.max_answer_chars, CHARS
    # Within the characters, the tokens: dense text (hashes, base64, CJK) asked in full passes
    # what a client shows the model long before it passes the characters.
    fitting = chars_within_tokens(result.text[:limit], settings.result_tokens - NOTICE_TOKENS)
    if fitting is not None:
        limit, variable = fitting, TOKENS
    text, cut = cap_answer(result.text, limit, settings.json, request.command, why, variable)
    return ToolResult(text, result.is_error or (cut and settings.json))


def still_reading_answer(message: str, json_mode: bool, command: str) -> ToolResult:
    """The tool error saying `message`: a line of text, or (MDSEL_FORMAT=json) the envelope."""
    if not json_mode:
        return ToolResult(f"mdsel-claude: {message}\n", True)
    error = {"type": "PROCESSING_ERROR", "code": "STILL_READING", "message": message}
    body = {"success": False, "command": command, "errors": [error]}
    return ToolResult(json.dumps(body, ensure_ascii=False, indent=2) + "\n", True)


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
    progress: ReadProgress | None = None,
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
        return run_request(request, settings, backend, cwd, cancel, progress)
    except Cancelled:
        return ToolResult(f"mdsel-claude: {name} was cancelled\n", True)
    except Exception as error:
        # A protocol error would read to the client as a broken server; the model can act on a
        # tool error instead, and the log keeps the traceback.
        logger.exception("tools/call %s failed", name)
        return internal_error(name, error)
