"""The engine behind the tools: embedded mdsel or an MDSEL_BIN process → (stdout, stderr, exit)."""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from mdsel.results import Outcome
from mdsel_claude.server import access
from mdsel_claude.server.cache import DigestCache
from mdsel_claude.server.config import Settings
from mdsel_claude.server.reader import Cancelled, CheckedReader

if TYPE_CHECKING:
    from mdsel import Document, Options, Problem

EXTERNAL_TIMEOUT_SECONDS = 300.0
"""How long one MDSEL_BIN run may take; a hung executable must not hold a tool call forever."""

ENVELOPE_ORDER = ("success", "command", "timestamp", "data", "unresolved_selectors", "warnings")
"""Keys of the JSON envelope in the order mdsel prints them; `errors` comes last."""


class Backend(Protocol):
    """Runs one mdsel command on files the server has already expanded and checked.

    `problems` (files the server did not hand over) and `warnings` (what the per-call caps left
    out) come out exactly where `mdsel` itself prints such things, so the result reads as if
    `mdsel` had been run on the original arguments.
    """

    def run(
        self,
        command: str,
        selector: str | None,
        paths: Sequence[str],
        problems: Sequence[Problem],
        warnings: Sequence[str],
        cwd: str | None = None,
        cancel: threading.Event | None = None,
    ) -> Outcome:
        """`cancel`, once set, stops the run as soon as it can (raising reader.Cancelled)."""
        ...


def engine_options(settings: Settings) -> Options:
    """The engine options the server's settings stand for."""
    from mdsel import Options

    return Options(
        json=settings.json,
        page_words=settings.page_words,
        max_headings=settings.max_headings,
        answer_tokens=settings.max_answer_tokens,
    )


def report_only(
    command: str,
    selector: str | None,
    problems: Sequence[Problem],
    warnings: Sequence[str],
    settings: Settings,
) -> Outcome:
    """What mdsel prints when none of the files could be read; reads nothing, runs nothing."""
    import mdsel

    return mdsel.run_command(
        command, selector, [], engine_options(settings), problems=problems, warnings=warnings
    )


class EmbeddedBackend:
    """The mdsel engine in this process, parsing through a content-digest cache."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._lock = threading.Lock()
        self._cache: DigestCache[Document] | None = None
        self._options: Options | None = None

    @property
    def cache(self) -> DigestCache[Document]:
        """The parse cache, created (and the engine imported) on first use."""
        return self._load()[0]

    def _load(self) -> tuple[DigestCache[Document], Options]:
        # Imported on first use, not at start: the engine and its parser are not needed to answer
        # `initialize`, and start-up time is what a client waits for before anything else.
        with self._lock:
            if self._cache is None or self._options is None:
                import mdsel

                self._options = engine_options(self._settings)
                max_blocks = self._settings.max_blocks

                def parse(data: bytes) -> Document:
                    return mdsel.parse_document(data, max_blocks)

                self._cache = DigestCache(parse, self._settings.cache_bytes, _resident_bytes)
            return self._cache, self._options

    def run(
        self,
        command: str,
        selector: str | None,
        paths: Sequence[str],
        problems: Sequence[Problem],
        warnings: Sequence[str],
        cwd: str | None = None,
        cancel: threading.Event | None = None,
    ) -> Outcome:
        import mdsel

        cache, options = self._load()
        settings = self._settings
        policy = access.Policy(roots=settings.roots, max_bytes=settings.max_bytes)
        # The engine reads nothing by name here: every file comes through a descriptor the read
        # policy has judged, under what is left of this call's byte budget.
        cancelled = None if cancel is None else cancel.is_set
        reader = CheckedReader(policy, settings.max_total_bytes, cwd, cancelled)
        parse: Callable[[bytes], Document] = cache
        if cancel is not None:
            checkpoint = functools.partial(stop_if_set, cancel)
            parse_now = functools.partial(
                mdsel.parse_document, max_nodes=settings.max_blocks, checkpoint=checkpoint
            )
            parse = functools.partial(cache, parse=parse_now)
        return mdsel.run_command(
            command,
            selector,
            paths,
            options,
            parse=parse,
            problems=problems,
            warnings=warnings,
            cwd=cwd,
            read=reader,
        )


def external_argv(
    executable: str, command: str, selector: str | None, paths: Sequence[str], json: bool
) -> list[str]:
    """The command line for MDSEL_BIN: options first, then `--`, so no argument reads as one."""
    argv = [executable, command]
    if json:
        argv.append("--json")
    argv.append("--")
    if selector is not None:
        argv.append(selector)
    argv.extend(paths)
    return argv


def _error_entry(problem: Problem) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": problem.type, "code": problem.code, "message": problem.message}
    if problem.file is not None:
        entry["file"] = problem.file
    return entry


def add_reports(
    outcome: Outcome, problems: Sequence[Problem], warnings: Sequence[str], json_mode: bool
) -> Outcome:
    """Fold the server's own problems and warnings into what an external mdsel printed.

    Placed as mdsel places them when it finds such things itself: warnings first on stdout, file
    problems first on stderr, or, in JSON, first in the envelope's `warnings` and `errors`. That
    keeps an external run identical to an embedded one, and the JSON a single valid document.
    """
    if not problems and not warnings:
        return outcome
    code = outcome.exit_code or (1 if problems else 0)
    if json_mode:
        try:
            body = json.loads(outcome.stdout)
        except ValueError:
            body = None
        if isinstance(body, dict):
            merged: dict[str, Any] = {"success": bool(body.get("success", True)) and not problems}
            for key in ENVELOPE_ORDER[1:]:
                if key in body:
                    merged[key] = body[key]
            all_warnings = [*warnings, *body.get("warnings", [])]
            if all_warnings:
                merged["warnings"] = all_warnings
            errors = [*map(_error_entry, problems), *body.get("errors", [])]
            if errors:
                merged["errors"] = errors
            merged.update((key, value) for key, value in body.items() if key not in merged)
            text = json.dumps(merged, ensure_ascii=False, indent=2) + "\n"
            return Outcome(text, outcome.stderr, code)
        # Not an envelope (an mdsel that ignored --json?): fall back to the text layout.
    from mdsel.render_text import format_problem

    stdout = "".join(line + "\n" for line in warnings) + outcome.stdout
    stderr = "".join(format_problem(problem) + "\n" for problem in problems) + outcome.stderr
    return Outcome(stdout, stderr, code)


def _child_environment() -> dict[str, str]:
    env = dict(os.environ)
    # Output is decoded as UTF-8 below; make a Python mdsel write UTF-8 whatever the locale.
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


POLL_SECONDS = 0.05
"""How often a running MDSEL_BIN is checked for cancellation."""


def stop_if_set(cancel: threading.Event) -> None:
    """A checkpoint for long work: raise Cancelled once the call has been cancelled."""
    if cancel.is_set():
        raise Cancelled


def _wait(
    child: subprocess.Popen[bytes], timeout: float, cancel: threading.Event | None
) -> tuple[bytes, bytes] | None:
    """The child's output once it exits; None (child killed) past `timeout`; Cancelled (child
    killed) once `cancel` is set."""
    deadline = time.monotonic() + timeout
    while True:
        step = max(0.0, min(POLL_SECONDS, deadline - time.monotonic()))
        try:
            return child.communicate(timeout=step if cancel is not None else timeout)
        except subprocess.TimeoutExpired:
            stopped = cancel is not None and cancel.is_set()
            if stopped or time.monotonic() >= deadline:
                child.kill()
                child.communicate()
                if stopped:
                    raise Cancelled from None
                return None


class ExternalBackend:
    """An `mdsel` executable run once per call, its output relayed exactly as printed."""

    def __init__(self, executable: str, json: bool, timeout: float = EXTERNAL_TIMEOUT_SECONDS):
        self.executable = executable
        self.json = json
        self.timeout = timeout

    def execute(
        self,
        command: str,
        selector: str | None,
        paths: Sequence[str],
        cwd: str | None = None,
        cancel: threading.Event | None = None,
    ) -> Outcome:
        """One run of the executable: its stdout, stderr and exit status, decoded as UTF-8.

        Killed when it runs past the timeout or when `cancel` is set (then Cancelled is raised).
        """
        argv = external_argv(self.executable, command, selector, paths, self.json)
        try:
            # No shell and no stdin: arguments come from a model and must stay plain arguments.
            child = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=_child_environment(),
                cwd=cwd,
            )
        except OSError as error:
            return Outcome("", f"mdsel-claude: cannot run {self.executable}: {error}\n", 1)
        with child:
            finished = _wait(child, self.timeout, cancel)
            if finished is None:
                return Outcome(
                    "", f"mdsel-claude: {self.executable} did not finish in {self.timeout:g} s\n", 1
                )
        out, err = finished
        # surrogateescape, like the embedded engine's own file names: the server escapes both alike.
        stdout = out.decode("utf-8", errors="surrogateescape")
        stderr = err.decode("utf-8", errors="surrogateescape")
        code = child.returncode
        if code < 0:
            stderr += f"mdsel-claude: {self.executable} was killed by {_signal_name(-code)}\n"
            code = 1
        return Outcome(stdout, stderr, code)

    def run(
        self,
        command: str,
        selector: str | None,
        paths: Sequence[str],
        problems: Sequence[Problem],
        warnings: Sequence[str],
        cwd: str | None = None,
        cancel: threading.Event | None = None,
    ) -> Outcome:
        outcome = self.execute(command, selector, paths, cwd, cancel)
        return add_reports(outcome, problems, warnings, self.json)


def make_backend(settings: Settings) -> Backend:
    """MDSEL_BIN when set, else the embedded engine."""
    if settings.bin is not None:
        return ExternalBackend(settings.bin, settings.json)
    return EmbeddedBackend(settings)


def _resident_bytes(document: Document, _data: bytes) -> int:
    return document.resident_bytes()
