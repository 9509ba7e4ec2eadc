"""The MDSEL_BIN backend: an `mdsel` executable run once per call, its output relayed as printed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from mdsel.results import Outcome
from mdsel_claude.server.reader import Cancelled

if TYPE_CHECKING:
    from mdsel import Problem
    from mdsel_claude.server.read_budget import ReadProgress

EXTERNAL_TIMEOUT_SECONDS = 300.0
"""How long one MDSEL_BIN run may take; a hung executable must not hold a tool call forever."""

ENVELOPE_ORDER = ("success", "command", "timestamp", "data", "unresolved_selectors", "warnings")
"""Keys of the JSON envelope in the order mdsel prints them; `errors` comes last."""


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
        refused: Mapping[str, Problem] | None = None,
        left_out: Sequence[str] = (),
        progress: ReadProgress | None = None,
    ) -> Outcome:
        # Reading it is not reported (`progress`): the executable keeps nothing between runs,
        # so a call answered before its reading ended would start from nothing again.
        # The executable is never given a refused file (it would read it): those are reported
        # here, so the files after them are numbered without them (see docs/server.md). Nor
        # does it hear of files the caps left out: it has its own limits.
        refused = refused or {}
        given = [path for path in paths if path not in refused]
        outcome = self.execute(command, selector, given, cwd, cancel)
        return add_reports(outcome, [*problems, *refused.values()], warnings, self.json)
