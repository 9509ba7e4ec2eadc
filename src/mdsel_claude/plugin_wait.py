"""The plugin's server while its environment is being made: it answers at once, says how far
the install is, and becomes the real server when it is done.

Claude Code kills a server that has not answered `initialize` within 30 s, and then skips it for
15 minutes (it records the failure in `~/.claude/mcp-needs-auth-cache.json`, whatever it was):
so this answers `initialize` with success, lists the two tools with their real schemas, and
answers a call with what is happening, for how long so far, and to retry shortly. Once the
environment is ready it starts the real server, replays the client's `initialize` to it (its
answer was given already) and from then on passes every line through both ways: the session
goes on with the real tools, no reconnect needed. If the real server fails that `initialize`
(it exits, or answers with an error), this one stays, and answers every call with what happened,
where its output is (`server.log`) and what to do: the session keeps a server that says why.

A failure it cannot get past is answered with a JSON-RPC error instead (`refuse`), which Claude
Code shows in `claude mcp list` and `/mcp` ("Failed to connect — …"); that also starts its
15-minute skip, which the messages' "reconnect in /mcp" gets past.

Standard library only.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING

from mdsel_claude.provision_state import (
    LOG,
    RECONNECT,
    SERVER_LOG,
    Attempt,
    read_attempt,
    running,
    since,
    usable,
)

if TYPE_CHECKING:
    from typing import BinaryIO

REFUSAL_WAIT = 30.0
"""Seconds the failed server keeps answering before it exits: enough for the client to ask
and read the reason, bounded in case it never closes the pipe."""
POLL = 0.5
"""Seconds between looks at the install while the client says nothing."""
HANDSHAKE_WAIT = 120.0
"""Seconds the real server may take to answer the replayed `initialize`."""
RETRY = "retry in about 30 seconds"
NOT_FOUND = -32601
INTERNAL = -32603


def refuse_with(message: str) -> int:
    """Answer the client's requests with `message` as an error (and log it); exit status 1."""
    line = (
        f"mdsel-claude cannot start its MCP server: {message}. Or use `mdsel-claude install` "
        "(pipx install . in its repository) instead of the plugin."
    )
    sys.stderr.write(line + "\n")
    refuse(line, sys.stdin.buffer, sys.stdout.buffer)
    return 1


def refuse(message: str, stdin: BinaryIO, stdout: BinaryIO, wait: float = REFUSAL_WAIT) -> None:
    """Answer every JSON-RPC request on `stdin` with an error carrying `message`, until the
    client closes the pipe or `wait` seconds have passed: the client's `initialize` gets the
    reason, and the client shows it (`claude mcp list`: "Failed to connect — …")."""
    deadline = time.monotonic() + wait
    pending = b""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return
        ready, _, _ = select.select([stdin], [], [], left)
        if not ready:
            return
        chunk = os.read(stdin.fileno(), 65536)
        if not chunk:
            return
        *lines, pending = (pending + chunk).split(b"\n")
        for line in lines:
            request = _request(line)
            if request is not None and "id" in request:
                _send(stdout, _error(request["id"], INTERNAL, message))


def _request(line: bytes) -> dict[str, object] | None:
    try:
        request = json.loads(line)
    except ValueError:
        return None
    if not isinstance(request, dict) or not isinstance(request.get("method"), str):
        return None  # not JSON-RPC: nothing to answer
    return request


def _error(ident: object, code: int, message: str) -> dict[str, object]:
    return {"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": message}}


def _send(stdout: IO[bytes], message: Mapping[str, object]) -> None:
    stdout.write(json.dumps(message).encode("utf-8") + b"\n")
    stdout.flush()


class Waiting:
    """The server until the environment is ready; then the pipe to the real one."""

    def __init__(
        self,
        base: Path,
        env_dir: Path,
        lock_text: bytes,
        start: Callable[[], subprocess.Popen[bytes]],
        server: tuple[list[str], dict[str, str]],
        child: subprocess.Popen[bytes] | None,
        last: Attempt | None = None,
    ) -> None:
        """`start` starts an attempt; `server` is the real server's command and environment;
        `last` is the attempt on record before this start (said while a new one is at work,
        when it failed: a start after a failure otherwise shows only the new attempt)."""
        self.base = base
        self.env_dir = env_dir
        self.lock_text = lock_text
        self.start = start
        self.server = server
        self.attempt = child
        self.last = last if last is not None and last.outcome == "failed" else None
        self.initialize: bytes | None = None
        self.began = time.time()
        self.broken: str | None = None
        """Why the real server could not take over: then every call is answered with it."""

    def ready(self) -> bool:
        return self.broken is None and usable(self.env_dir, self.lock_text)

    def serve(self, stdin: BinaryIO, stdout: BinaryIO) -> int:
        buffered = b""
        while True:
            if self.initialize is not None and self.ready():
                code = self._become_server(buffered, stdin, stdout)
                if code is not None:
                    return code
            if b"\n" not in buffered:
                ready, _, _ = select.select([stdin], [], [], POLL)
                if not ready:
                    continue
                chunk = os.read(stdin.fileno(), 65536)
                if not chunk:
                    self._reap()
                    return 0
                buffered += chunk
                continue
            line, _, buffered = buffered.partition(b"\n")
            request = _request(line)
            if request is None:
                continue
            if request["method"] == "tools/call" and self.ready():
                # Ready since the last look: the real server answers this call and the rest.
                code = self._become_server(line + b"\n" + buffered, stdin, stdout)
                if code is not None:
                    return code
            answer = self._answer(line, request)
            if answer is not None:
                _send(stdout, answer)

    def _answer(self, line: bytes, request: dict[str, object]) -> dict[str, object] | None:
        method = request["method"]
        if "id" not in request:
            return None  # a notification (`initialized`, a cancel): nothing to answer
        ident = request["id"]
        if method == "initialize":
            self.initialize = line
            return {"jsonrpc": "2.0", "id": ident, "result": self._initialized(request)}
        if method == "ping":
            return {"jsonrpc": "2.0", "id": ident, "result": {}}
        if method == "tools/list":
            return {"jsonrpc": "2.0", "id": ident, "result": {"tools": _tools()}}
        if method == "tools/call":
            text = self.broken or self.status(retry=True)
            content = [{"type": "text", "text": text}]
            return {"jsonrpc": "2.0", "id": ident, "result": {"content": content, "isError": True}}
        return _error(ident, NOT_FOUND, f"mdsel-claude (getting ready) has no method {method!r}")

    def _initialized(self, request: dict[str, object]) -> dict[str, object]:
        params = request.get("params")
        version = params.get("protocolVersion") if isinstance(params, dict) else None
        return {
            "protocolVersion": version if isinstance(version, str) else "2025-06-18",
            "capabilities": {"tools": {"listChanged": True}},
            "serverInfo": {"name": "mdsel-claude", "version": "0"},
            "instructions": self.status(retry=False),
        }

    def status(self, retry: bool) -> str:
        """What is happening, for how long, and what to do; a new attempt if the last failed."""
        attempt = read_attempt(self.base)
        if usable(self.env_dir, self.lock_text):
            return f"mdsel's server is ready: {RETRY.replace('in about 30 seconds', 'now')}."
        # The attempt this server started holds the lock only once it is under way, and writes
        # its record only then: until it does, a failure on record is an earlier attempt's.
        mine = self.attempt if self.attempt is not None and self.attempt.poll() is None else None
        newer = mine is not None and attempt is not None and attempt.pid != mine.pid
        if attempt is not None and attempt.outcome == "failed" and not newer:
            # Failed, even while its process is still ending (and holding the lock).
            if not retry:
                return f"mdsel cannot start its server: {in_session(attempt.reason)}"
            self._retry()
            self.last = attempt
            return (
                f"mdsel could not install its dependencies: {in_session(attempt.reason)}. A new "
                f"attempt has started: {RETRY} (its log: {self.base / LOG})."
            )
        at_work = running(self.base) or mine is not None
        if not at_work:
            self._retry()
        current = attempt is not None and attempt.outcome == "running" and at_work
        step = attempt.step if attempt is not None and current else "starting"
        started = attempt.started if attempt is not None and current else self.began
        said = (
            "mdsel (Markdown selectors: mdsel_index, mdsel_select) is getting ready: its first "
            f"start installs its dependencies, which takes a minute or two on a slow machine "
            f"({step}, {since(started)} so far; log: {self.base / LOG}). Its tools answer as "
            f"soon as that is done, in this session: {RETRY}."
        )
        if self.last is not None:
            said += (
                f" The attempt before this one failed {since(self.last.updated)} ago: "
                f"{in_session(self.last.reason)}."
            )
        return said

    def _retry(self) -> None:
        self._reap()
        self.attempt = self.start()

    def _reap(self) -> None:
        if self.attempt is not None and self.attempt.poll() is not None:
            self.attempt = None

    def _become_server(self, rest: bytes, stdin: BinaryIO, stdout: BinaryIO) -> int | None:
        """Start the real server and pass everything through to it, `rest` first: its exit
        status once it ends. None when it failed the replayed `initialize`: `broken` then says
        why, to every call after (ending here would end the session's tools without a word)."""
        self._reap()
        argv, env = self.server
        log = self.base / SERVER_LOG
        server = subprocess.Popen(
            argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        assert server.stdin is not None and server.stdout is not None
        if self.initialize is not None:
            why = _handshake(server, self.initialize, log)
            if why is not None:
                server.kill()
                server.wait()
                for pipe in (server.stdin, server.stdout, server.stderr):
                    if pipe is not None:
                        with contextlib.suppress(OSError):
                            pipe.close()
                self.broken = (
                    f"mdsel's server did not start: {why} (its output: {log}). Its "
                    f"dependencies were installed in {self.env_dir}: delete that folder to "
                    "have them installed again, then reconnect it in /mcp or restart Claude "
                    f"Code; if it fails again, {log} says why."
                )
                sys.stderr.write(f"mdsel-claude: {self.broken}\n")
                return None
        notice = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
        _send(stdout, notice)  # the schemas are the same; a client that asks again gets them
        if rest:
            server.stdin.write(rest)
            server.stdin.flush()
        return _relay(stdin, stdout, server)


def in_session(reason: str) -> str:
    """A failed attempt's reason as said in a session the server connected to: Claude Code
    skips nothing then, and the next call starts a new attempt (no reconnect needed)."""
    return reason.replace(RECONNECT, "then call again").replace(RECONNECT[5:], "call again")


def _tools() -> list[dict[str, object]]:
    from mdsel_claude.server.tools import TOOLS

    return [
        {"name": t.name, "title": t.title, "description": t.description,
         "inputSchema": t.input_schema}
        for t in TOOLS
    ]  # fmt: skip


def _handshake(server: subprocess.Popen[bytes], initialize: bytes, log: Path) -> str | None:
    """Replay the client's `initialize` to the real server; its answer (given already) is
    dropped, then `initialized` is sent as the client did. None when it answered with
    success, else why not. What it writes to stderr meanwhile goes to `log` and ours."""
    assert server.stdin is not None and server.stdout is not None and server.stderr is not None
    request = json.loads(initialize)
    try:
        server.stdin.write(initialize + b"\n")
        server.stdin.flush()
    except BrokenPipeError:
        pass  # it ended already: its output below says why
    deadline = time.monotonic() + HANDSHAKE_WAIT
    answers, errors = server.stdout.fileno(), server.stderr.fileno()
    buffered, said = b"", b""
    sources = [answers, errors]
    with _opened(log) as logged:
        while answers in sources:
            left = deadline - time.monotonic()
            if left <= 0:
                return f"it did not answer initialize within {HANDSHAKE_WAIT:.0f} s"
            ready, _, _ = select.select(sources, [], [], min(left, 1.0))
            for fd in ready:
                chunk = os.read(fd, 65536)
                if fd == errors:
                    if not chunk:
                        sources.remove(errors)
                    said = (said + chunk)[-4096:]
                    _copy(chunk, logged)
                    continue
                if not chunk:
                    sources.remove(answers)
                    break
                *lines, buffered = (buffered + chunk).split(b"\n")
                for line in lines:
                    answer = _request_answer(line, request.get("id"))
                    if answer is None:
                        continue
                    if "result" not in answer:
                        return f"it answered initialize with an error ({answer.get('error')})"
                    done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
                    _send(server.stdin, done)
                    return None
        # Its output ended without an answer: it exited, or is about to.
        while errors in sources and select.select([errors], [], [], 1.0)[0]:
            chunk = os.read(errors, 65536)
            if not chunk:
                break
            said = (said + chunk)[-4096:]
            _copy(chunk, logged)
    try:
        status = server.wait(timeout=5)
    except subprocess.TimeoutExpired:
        status = None
    last = (said.decode("utf-8", "replace").strip().splitlines() or ["(no output)"])[-1]
    ended = "it ended" if status is None else f"it exited with status {status}"
    return f"{ended} before it answered initialize: {last.strip()}"


def _request_answer(line: bytes, ident: object) -> dict[str, object] | None:
    """The answer to request `ident` on `line`, else None."""
    try:
        answer = json.loads(line)
    except ValueError:
        return None
    return answer if isinstance(answer, dict) and answer.get("id") == ident else None


@contextlib.contextmanager
def _opened(log: Path) -> Iterator[IO[bytes] | None]:
    """`log`, new for this start; None when it cannot be written (the data folder is the
    client's: the answer still says what happened)."""
    try:
        handle = log.open("wb")
    except OSError:
        yield None
        return
    with handle:
        yield handle


def _copy(chunk: bytes, logged: IO[bytes] | None) -> None:
    """What the real server wrote to stderr, to `logged` and to ours (the client's log)."""
    for target in (logged, sys.stderr.buffer):
        if target is not None:
            with contextlib.suppress(OSError, ValueError):
                target.write(chunk)
                target.flush()


def _relay(stdin: BinaryIO, stdout: BinaryIO, server: subprocess.Popen[bytes]) -> int:
    """Pass bytes both ways until the real server ends, its stderr to ours; the client closing
    stdin closes its."""
    assert server.stdin is not None and server.stdout is not None and server.stderr is not None
    client, answers, errors = stdin.fileno(), server.stdout.fileno(), server.stderr.fileno()
    sources = [client, answers, errors]
    while answers in sources:
        ready, _, _ = select.select(sources, [], [])
        for fd in ready:
            chunk = os.read(fd, 65536)
            if fd == errors:
                if not chunk:
                    sources.remove(errors)
                _copy(chunk, None)
            elif fd == answers:
                if not chunk:
                    sources.remove(answers)
                    break
                stdout.write(chunk)
                stdout.flush()
            elif not chunk:
                sources.remove(client)
                server.stdin.close()
            else:
                try:
                    server.stdin.write(chunk)
                    server.stdin.flush()
                except BrokenPipeError:
                    sources.remove(client)
    return server.wait()
