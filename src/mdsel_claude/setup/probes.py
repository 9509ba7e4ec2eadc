"""Run this installation's hook and server the way Claude Code would, and judge the answers.

Only our own executable is ever run (see `ownership`), with the arguments of an entry that was
recognised as ours, never through a shell and in a temporary directory: the hook on generated
Markdown files just over and just at its threshold, the server up to an MCP `initialize` answer.
"""

from __future__ import annotations

import json
import os
import re
import selectors
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mdsel_claude import hook
from mdsel_claude.hook import claude, files
from mdsel_claude.setup.entries import FAILURE_EVENT, HOOK_EVENTS

RUN_TIMEOUT_SECONDS = 30.0
"""How long a hook run may take, and a server's `initialize` answer by default, before it
counts as broken: Claude Code's own wait for a server (its MCP_TIMEOUT unset)."""


def server_timeout(environ: Mapping[str, str] | None = None) -> float:
    """How long to wait for a server's `initialize` answer: as long as Claude Code waits, which
    is MCP_TIMEOUT milliseconds where that is a positive whole number, else 30 s. So doctor
    calls a server broken exactly when the client would, on a slow machine too."""
    raw = (os.environ if environ is None else environ).get("MCP_TIMEOUT", "")
    if raw.isascii() and raw.isdigit() and 0 < int(raw) <= 86_400_000:
        return int(raw) / 1000
    return RUN_TIMEOUT_SECONDS


HOOK_MAX_THRESHOLD = files.MAX_BYTES // 2 - 1
"""The largest threshold a hook can ever pass: it counts 8 MiB at most, two bytes per word."""


@dataclass
class Report:
    """Lines to print, and whether any of them is a failure."""

    lines: list[str] = field(default_factory=list)
    failed: bool = False

    def say(self, text: str) -> None:
        self.lines.append(text)

    def fail(self, text: str) -> None:
        self.lines.append(f"    FAIL: {text}")
        self.failed = True


def fires_on_read(event: str, matcher: object, tool: str = "Read") -> bool:
    """Whether Claude Code would run a hook for the Read tool (or `tool`): a tool-use event, and
    a matcher that is absent, empty, `*`, or a pattern matching the tool's name."""
    return event in HOOK_EVENTS and _matches(matcher, tool)


def fires_on_failed_read(event: str, matcher: object) -> bool:
    """Whether Claude Code would run a hook when a Read fails (PostToolUseFailure)."""
    return event == FAILURE_EVENT and _matches(matcher, "Read")


def _matches(matcher: object, tool: str) -> bool:
    if matcher is None or matcher in ("", "*"):
        return True
    if not isinstance(matcher, str):
        return False
    try:
        return re.fullmatch(matcher, tool) is not None
    except re.error:
        return matcher == tool


Payload = dict[str, object]


def run_on_threshold(
    argv: Sequence[str],
    payload: Callable[[str, str], Payload],
    answer: Callable[[Payload, int, str], str | None],
    report: Report,
) -> None:
    """Run our hook (`argv`: our executable, `hook`, its options) as a client would after a read
    of a Markdown file just over its threshold and of one at it: `payload(directory, name)` is
    the client's payload for that read, `answer` the client's adapter, whose answer the hook
    must print (the reminder or index for the first, silence for the second)."""
    # The threshold and mode as the hook will see them: the environment's when not on the line.
    threshold = hook.parse_threshold(list(argv[2:]), os.environ, quiet=True)
    mode = hook.parse_mode(list(argv[2:]), os.environ, quiet=True)
    if threshold > HOOK_MAX_THRESHOLD:
        report.fail(f"threshold {threshold} words: the hook stops counting at 8 MiB, never fires")
        return
    with tempfile.TemporaryDirectory(prefix="mdsel-doctor-") as temp:
        for name, count in (("over.md", threshold + 1), ("at.md", threshold)):
            # Two bytes a word, so that even the largest usable threshold fits in 8 MiB.
            Path(temp, name).write_text("w " * count, encoding="utf-8")
            sent = payload(temp, name)
            try:
                result = subprocess.run(
                    list(argv),
                    input=json.dumps(sent),
                    capture_output=True,
                    text=True,
                    timeout=RUN_TIMEOUT_SECONDS,
                    check=False,
                    cwd=temp,
                )
            except subprocess.TimeoutExpired:
                report.fail(f"no answer within {RUN_TIMEOUT_SECONDS:g} s")
                return
            except OSError as error:
                report.fail(f"cannot start: {error}")
                return
            if result.returncode != 0 or result.stdout != (answer(sent, threshold, mode) or ""):
                report.fail(
                    f"on a file of {count} words it exited {result.returncode} and printed "
                    f"{result.stdout.strip()[:200]!r}"
                    + (f" (stderr {result.stderr.strip()[:200]!r})" if result.stderr else "")
                )
                return
    what = "index" if mode == "outline" else "reminder"
    report.say(f"    ok: {what} for {threshold + 1} words of Markdown, silence for {threshold}")


def check_hook(argv: Sequence[str], report: Report) -> None:
    """Run our Claude Code hook on a Read of a file over and at its threshold (at PreToolUse,
    where every mode reminds): the reminder for the first, nothing for the second."""

    def read(directory: str, name: str) -> Payload:
        return {
            "session_id": "mdsel-claude-doctor",
            "hook_event_name": "PreToolUse",
            "tool_name": "Read",
            "tool_input": {"file_path": str(Path(directory, name))},
            "cwd": directory,
        }

    run_on_threshold(argv, read, claude.answer, report)


def check_server(argv: Sequence[str], report: Report) -> None:
    """Start our stdio server (`argv`: our executable and `serve`) and wait for its answer to
    an MCP `initialize` request."""
    request = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "mdsel-claude-doctor", "version": "1"},
        },
    }
    # stderr goes to a file: a pipe nobody reads could fill up and stall the server.
    with tempfile.TemporaryFile() as stderr_file, tempfile.TemporaryDirectory() as temp:
        try:
            process = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr_file,
                cwd=temp,
            )
        except OSError as error:
            report.fail(f"cannot start: {error}")
            return
        with process:
            try:
                answer = _first_answer(process, json.dumps(request) + "\n")
            finally:
                _stop(process)
        stderr_file.seek(0)
        stderr = stderr_file.read().decode(errors="replace").strip()
    if answer is None:
        problem = (
            f"no answer to initialize (waited up to {server_timeout():g} s; "
            f"exit status {process.returncode})"
        )
        report.fail(problem + (f"; stderr: {stderr[-300:]}" if stderr else ""))
        return
    result = answer.get("result")
    info = result.get("serverInfo") if isinstance(result, dict) else None
    if not isinstance(info, dict) or "name" not in info:
        report.fail(f"unexpected answer to initialize: {json.dumps(answer)[:300]}")
        return
    report.say(f"    ok: answers initialize ({info.get('name')} {info.get('version', '')})")


def _first_answer(process: subprocess.Popen[bytes], request: str) -> dict[str, object] | None:
    """The first JSON-RPC message with id 1 on the server's stdout, or None by the deadline."""
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(request.encode())
        process.stdin.flush()
    except OSError:
        return None
    deadline = time.monotonic() + server_timeout()
    buffer = b""
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        while (left := deadline - time.monotonic()) > 0:
            if not selector.select(left):
                continue
            chunk = os.read(process.stdout.fileno(), 65536)
            if not chunk:
                return None
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                if isinstance(message, dict) and message.get("id") == 1:
                    return message
    return None


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.stdin:
        process.stdin.close()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
