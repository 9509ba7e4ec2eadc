"""The plugin's server while its environment is being made: it answers at once, says how far
the install is, and becomes the real server when it is done.

Claude Code kills a server that has not answered `initialize` within 30 s, and then skips it for
15 minutes (it records the failure in `~/.claude/mcp-needs-auth-cache.json`, whatever it was):
so this answers `initialize` with success, lists the two tools with their real schemas, and
answers a call with what is happening, for how long so far, and to retry shortly. Once the
environment is ready it starts the real server, replays the client's `initialize` to it (its
answer was given already) and from then on passes every line through both ways: the session
goes on with the real tools, no reconnect needed.

A failure it cannot get past is answered with a JSON-RPC error instead (`refuse`), which Claude
Code shows in `claude mcp list` and `/mcp` ("Failed to connect — …"); that also starts its
15-minute skip, which the messages' "reconnect in /mcp" gets past.

Standard library only.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING

from mdsel_claude.provision_state import LOG, read_attempt, running, since, usable

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
    ) -> None:
        """`start` starts an attempt; `server` is the real server's command and environment."""
        self.base = base
        self.env_dir = env_dir
        self.lock_text = lock_text
        self.start = start
        self.server = server
        self.attempt = child
        self.initialize: bytes | None = None
        self.began = time.time()

    def serve(self, stdin: BinaryIO, stdout: BinaryIO) -> int:
        pending = b""
        while True:
            if self.initialize is not None and usable(self.env_dir, self.lock_text):
                return self._become_server(pending, stdin, stdout)
            ready, _, _ = select.select([stdin], [], [], POLL)
            if not ready:
                continue
            chunk = os.read(stdin.fileno(), 65536)
            if not chunk:
                self._reap()
                return 0
            *lines, pending = (pending + chunk).split(b"\n")
            for index, line in enumerate(lines):
                request = _request(line)
                if request is None:
                    continue
                if request["method"] == "tools/call" and usable(self.env_dir, self.lock_text):
                    # Ready since the last look: the real server answers this call and the rest.
                    rest = b"\n".join([*lines[index:], pending])
                    return self._become_server(rest, stdin, stdout)
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
            text = self.status(retry=True)
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
        # The attempt this server started holds the lock only once it is under way.
        at_work = running(self.base) or (self.attempt is not None and self.attempt.poll() is None)
        if not at_work and attempt is not None and attempt.outcome == "failed":
            if not retry:
                return f"mdsel cannot start its server: {attempt.reason}"
            self._retry()
            return (
                f"mdsel could not install its dependencies: {attempt.reason}. A new attempt "
                f"has started: {RETRY} (its log: {self.base / LOG})."
            )
        if not at_work:
            self._retry()
        current = attempt is not None and attempt.outcome == "running" and at_work
        step = attempt.step if attempt is not None and current else "starting"
        started = attempt.started if attempt is not None and current else self.began
        return (
            "mdsel (Markdown selectors: mdsel_index, mdsel_select) is getting ready: its first "
            f"start installs its dependencies, which takes a minute or two on a slow machine "
            f"({step}, {since(started)} so far; log: {self.base / LOG}). Its tools answer as "
            f"soon as that is done, in this session: {RETRY}."
        )

    def _retry(self) -> None:
        self._reap()
        self.attempt = self.start()

    def _reap(self) -> None:
        if self.attempt is not None and self.attempt.poll() is not None:
            self.attempt = None

    def _become_server(self, rest: bytes, stdin: BinaryIO, stdout: BinaryIO) -> int:
        self._reap()
        argv, env = self.server
        server = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert server.stdin is not None and server.stdout is not None
        if self.initialize is not None and not _handshake(server, self.initialize):
            sys.stderr.write("mdsel-claude: the server did not answer initialize; see above\n")
            server.kill()
            return server.wait()
        notice = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
        _send(stdout, notice)  # the schemas are the same; a client that asks again gets them
        if rest:
            server.stdin.write(rest)
            server.stdin.flush()
        return _relay(stdin, stdout, server)


def _tools() -> list[dict[str, object]]:
    from mdsel_claude.server.tools import TOOLS

    return [
        {"name": t.name, "title": t.title, "description": t.description,
         "inputSchema": t.input_schema}
        for t in TOOLS
    ]  # fmt: skip


def _handshake(server: subprocess.Popen[bytes], initialize: bytes) -> bool:
    """Replay the client's `initialize` to the real server; its answer (given already) is
    dropped, then `initialized` is sent as the client did."""
    assert server.stdin is not None and server.stdout is not None
    request = json.loads(initialize)
    server.stdin.write(initialize + b"\n")
    server.stdin.flush()
    deadline = time.monotonic() + HANDSHAKE_WAIT
    fd = server.stdout.fileno()
    buffered = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 1.0)
        if not ready:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            return False
        *lines, buffered = (buffered + chunk).split(b"\n")
        for line in lines:
            try:
                answer = json.loads(line)
            except ValueError:
                continue
            if isinstance(answer, dict) and answer.get("id") == request.get("id"):
                done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
                _send(server.stdin, done)
                return "result" in answer
    return False


def _relay(stdin: BinaryIO, stdout: BinaryIO, server: subprocess.Popen[bytes]) -> int:
    """Pass bytes both ways until the real server ends; the client closing stdin closes its."""
    assert server.stdin is not None and server.stdout is not None
    client, answers = stdin.fileno(), server.stdout.fileno()
    sources = [client, answers]
    while answers in sources:
        ready, _, _ = select.select(sources, [], [])
        for fd in ready:
            chunk = os.read(fd, 65536)
            if fd == answers:
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
