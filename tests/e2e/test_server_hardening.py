"""1,000 pipelined requests and raw malformed lines on one stdio session of the installed server."""

from __future__ import annotations

import json
import os
import queue
import random
import shutil
import subprocess
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from mdsel.cli import run as cli_run
from mdsel_claude.server.calls import join_output
from tests.conftest import BIN, FIXTURES, corpus_files

SERVER = BIN / "mdsel-claude"

DEADLINE_SECONDS = 60.0
"""The whole session, start to exit; a hang fails the test here, well inside pytest's timeout."""

REQUESTS = 1000
"""Lines carrying an id; malformed lines and notifications come on top."""

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602

INITIALIZE = {
    "protocolVersion": "2025-11-25",
    "capabilities": {},
    "clientInfo": {"name": "hardening", "version": "0"},
}

GUIDE = """\
# Guide

Intro words for the guide.

## Install

Run the installer.

```sh
pip install thing
```

- one
- two

## Use

Call it like this.

### Options

| name | meaning |
|------|---------|
| a    | first   |

> Quoted limits.
"""


class RawServer:
    """`mdsel-claude` on pipes: lines written as given, every stdout line collected by a thread.

    A watchdog kills the process at the deadline, so a server that stops answering (or stops
    reading) turns into a failed assertion instead of a frozen test run.
    """

    def __init__(self, cwd: Path, deadline: float) -> None:
        env = {key: value for key, value in os.environ.items() if not key.startswith("MDSEL_")}
        self.stderr_path = cwd.parent / "server-stderr.log"
        self._stderr = self.stderr_path.open("wb")
        self.process = subprocess.Popen(
            [str(SERVER)],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.deadline = deadline
        self.killed = False
        self.timed_out = False
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._watchdog = threading.Timer(max(0.0, deadline - time.monotonic()), self._kill)
        self._watchdog.daemon = True
        self._watchdog.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in iter(self.process.stdout.readline, b""):
            self.lines.put(line)
        self.lines.put(None)

    def _kill(self) -> None:
        self.killed = True
        self.process.kill()

    def write(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)

    def flush(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.flush()

    def next_line(self) -> bytes | None:
        """The next stdout line, or None at end of output or at the deadline (`timed_out`)."""
        remaining = self.deadline - time.monotonic()
        try:
            return self.lines.get(timeout=max(0.01, remaining))
        except queue.Empty:
            self.timed_out = True
            return None

    def close(self) -> int:
        """Close stdin and wait for a clean exit; the exit status."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            code = self.process.wait(timeout=max(1.0, self.deadline - time.monotonic()))
        finally:
            self._watchdog.cancel()
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self._stderr.close()
            self._reader.join(timeout=5)
            assert self.process.stdout is not None
            self.process.stdout.close()
        return code


def request(number: int | str, method: str, params: Any = None) -> bytes:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": number, "method": method}
    if params is not None:
        body["params"] = params
    return json.dumps(body, ensure_ascii=False).encode() + b"\n"


def notification(method: str, params: dict[str, Any] | None = None) -> bytes:
    body: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        body["params"] = params
    return json.dumps(body).encode() + b"\n"


@dataclass
class Expected:
    """What the answer to one id must look like."""

    kind: str
    tool_text: str | None = None
    """Exact text of the tool result (relayed engine output)."""
    is_error: bool = False
    needles: tuple[str, ...] = ()
    """Strings the tool error text must contain (argument errors name their field)."""
    error_code: int | None = None
    """For protocol errors: the JSON-RPC error code."""


@dataclass
class Plan:
    """The lines of the session in the order they are written, and what each id must get."""

    lines: list[bytes] = field(default_factory=list)
    expected: dict[int | str, Expected] = field(default_factory=dict)
    null_id_errors: int = 0
    """Malformed lines whose id cannot be told: each gets one error with `"id": null`."""


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "work"
    root.mkdir()
    (root / "guide.md").write_text(GUIDE, encoding="utf-8")
    (root / "notes.txt").write_text("plain text\n", encoding="utf-8")
    (root / "link.md").symlink_to(root / "notes.txt")
    for path in sorted(FIXTURES.glob("*.md")):
        shutil.copy(path, root / path.name)
    for path in corpus_files():
        shutil.copy(path, root / path.name)
    return root


class Oracle:
    """What `mdsel` prints for the same arguments, computed in-process once per distinct call."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self.memo: dict[tuple[str, ...], tuple[str, bool]] = {}

    def __call__(self, *argv: str) -> tuple[str, bool]:
        if argv not in self.memo:
            outcome = cli_run(list(argv), {}, cwd=str(self.cwd))
            if outcome.exit_code == 0:
                self.memo[argv] = (outcome.stdout, False)
            else:
                self.memo[argv] = (join_output([outcome.stdout, outcome.stderr]), True)
        return self.memo[argv]


SELECTORS = [
    "h1.0",
    "h2.0",
    "h2.1",
    "h2.0-3",
    "h2.0,2",
    "h3.0",
    "section.1",
    "para.0",
    "code.0",
    "list.0",
    "table.0",
    "quote.0",
    "root?head=3",
    "h2.0?tail=2",
    "h2.1/para.0",
    "h2.0/code.0",
    "h2.9",
    "install",
    "h2.0#",
    "-h",
    "guide::h2.0",
    "h2.0?toc=true",
    "  H2.0  ",
    "h2[0]",
]

HUGE_SELECTORS = [
    "h2." + "0," * 2048 + "0",  # 4,099 characters: just over the limit
    "h" * 4097,
    "h2.0/" * 2000 + "para.0",
    "a" * 100_000,
    "h2.0," * 20_000 + "h2.0",
    "ü" * 5000,
]

ARGUMENT_ERRORS: list[tuple[str, dict[str, Any] | None, str]] = [
    ("mdsel_index", None, "'files'"),
    ("mdsel_index", {}, "'files'"),
    ("mdsel_index", {"files": []}, "'files'"),
    ("mdsel_index", {"files": 3}, "'files'"),
    ("mdsel_index", {"files": [3]}, "'files[0]'"),
    ("mdsel_index", {"files": [None]}, "'files[0]'"),
    ("mdsel_index", {"files": [["guide.md"]]}, "'files[0]'"),
    ("mdsel_index", {"files": ["guide.md", ""]}, "'files[1]'"),
    ("mdsel_index", {"files": ["guide.md\x00.md"]}, "'files[0]'"),
    ("mdsel_index", {"files": {"0": "guide.md"}}, "'files'"),
    ("mdsel_select", {"files": ["guide.md"]}, "'selector'"),
    ("mdsel_select", {"selector": "", "files": ["guide.md"]}, "'selector'"),
    ("mdsel_select", {"selector": " \t\n", "files": ["guide.md"]}, "'selector'"),
    ("mdsel_select", {"selector": 7, "files": ["guide.md"]}, "'selector'"),
    ("mdsel_select", {"selector": None, "files": ["guide.md"]}, "'selector'"),
    ("mdsel_select", {"selector": ["h2.0"], "files": ["guide.md"]}, "'selector'"),
    ("mdsel_select", {"selector": "h2.0"}, "'files'"),
    ("mdsel_select", {"selector": "h2.0", "files": [1.5]}, "'files[0]'"),
]

UNKNOWN_TOOLS = ["mdsel_read", "", "MDSEL_INDEX", "mdsel_index ", "ü" * 50, "x" * 5000]

# Lines that are not a message the server can act on. Each is (line, what the server must answer):
# a parse error, an invalid request under the id it carried, or an invalid request with a null id
# when no usable id can be read from it.
MALFORMED: list[tuple[bytes, int, int | str | None]] = [
    (b"not json\n", PARSE_ERROR, None),
    (b"{\n", PARSE_ERROR, None),
    (b'{"jsonrpc": "2.0", "id": 900001, "method": "tools/list"\n', PARSE_ERROR, None),
    (b"\xff\xfe\x00\x01binary\x80garbage\n", PARSE_ERROR, None),
    (bytes(range(256)).replace(b"\n", b"") + b"\n", PARSE_ERROR, None),
    ("héllo wörld ☃ 🚀\n".encode(), PARSE_ERROR, None),
    (b"x" * 1_000_000 + b"\n", PARSE_ERROR, None),
    (b"[" * 100_000 + b"]" * 100_000 + b"\n", PARSE_ERROR, None),
    (b"[]\n", INVALID_REQUEST, None),
    (b"[1, 2, 3]\n", INVALID_REQUEST, None),
    (b'[{"jsonrpc": "2.0", "id": 900002, "method": "ping"}]\n', INVALID_REQUEST, None),
    (b"null\n", INVALID_REQUEST, None),
    (b"42\n", INVALID_REQUEST, None),
    (b'"a string"\n', INVALID_REQUEST, None),
    (b"{}\n", INVALID_REQUEST, None),
    (b'{"jsonrpc": "1.0", "id": 900003, "method": "tools/list"}\n', INVALID_REQUEST, 900003),
    (b'{"id": 900004, "method": "tools/list"}\n', INVALID_REQUEST, 900004),
    (b'{"jsonrpc": "2.0", "id": 900005}\n', INVALID_REQUEST, 900005),
    (b'{"jsonrpc": "2.0", "id": 900006, "method": 17}\n', INVALID_REQUEST, 900006),
    (b'{"jsonrpc": "2.0", "id": 900007, "method": "tools/list", "params": 5}\n', INVALID_REQUEST,
     900007),
    (b'{"jsonrpc": "2.0", "id": "s-900008", "method": "tools/call", "params": [1]}\n',
     INVALID_REQUEST, "s-900008"),
    ('{"jsonrpc": "2.0", "id": "ü-900009", "method": null}\n'.encode(), INVALID_REQUEST,
     "ü-900009"),
    (b'{"jsonrpc": "2.0", "id": null, "method": "tools/list"}\n', INVALID_REQUEST, None),
    (b'{"jsonrpc": "2.0", "id": 1.5, "method": "tools/list"}\n', INVALID_REQUEST, None),
    (b'{"jsonrpc": "2.0", "id": true, "method": "tools/list"}\n', INVALID_REQUEST, None),
    (b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}\n', INVALID_REQUEST, None),
    (b'{"jsonrpc": "2.0", "method": "notifications/x", "params": 5}\n', INVALID_REQUEST, None),
    (b'{"jsonrpc": "2.0", "id": 900010, "result": 5}\n', INVALID_REQUEST, None),
]  # fmt: skip

# Lines that must get no answer at all: blank lines, notifications, and stray responses.
SILENT: list[bytes] = [
    b"\n",
    b"   \t \n",
    b"\r\n",
    notification("notifications/initialized"),
    notification("notifications/roots/list_changed"),
    notification("notifications/unknown/thing", {"x": 1}),
    b'{"jsonrpc": "2.0", "id": 900011, "result": {}}\n',
    b'{"jsonrpc": "2.0", "id": 900012, "error": {"code": 1, "message": "client side"}}\n',
]


def build_plan(docs: Path, oracle: Oracle, seed: int = 5) -> Plan:
    """A seeded shuffle of every kind of request, with malformed and silent lines in between."""
    rng = random.Random(seed)
    # Regular files only: the server refuses link.md by its policy, which mdsel itself has not.
    files = sorted(
        p.name for p in docs.iterdir() if p.suffix in (".md", ".markdown") and not p.is_symlink()
    )
    plan = Plan()
    makers = ["index", "select", "select", "select", "huge", "arguments", "unknown", "protocol"]
    number = 0
    malformed = list(MALFORMED)
    silent = list(SILENT)
    while number < REQUESTS:
        number += 1
        kind = rng.choice(makers)
        if kind == "index":
            chosen = rng.sample(files, rng.choice([1, 1, 2, 3]))
            if rng.random() < 0.1:
                chosen.append(rng.choice(["missing.md", "nothing*.md", "*.markdown"]))
            plan.lines.append(request(number, "tools/call", tool("mdsel_index", {"files": chosen})))
            text, is_error = oracle("index", *chosen)
            plan.expected[number] = Expected(kind, text, is_error)
        elif kind in ("select", "huge"):
            selector = rng.choice(SELECTORS if kind == "select" else HUGE_SELECTORS)
            chosen = rng.sample(files, rng.choice([1, 1, 2]))
            select_arguments = {"selector": selector, "files": chosen}
            plan.lines.append(request(number, "tools/call", tool("mdsel_select", select_arguments)))
            text, is_error = oracle("select", "--", selector, *chosen)
            plan.expected[number] = Expected(kind, text, is_error)
            if kind == "huge":
                assert is_error and "INVALID_SELECTOR" in text, selector[:40]
        elif kind == "arguments":
            name, arguments, needle = rng.choice(ARGUMENT_ERRORS)
            plan.lines.append(request(number, "tools/call", tool(name, arguments)))
            plan.expected[number] = Expected(kind, is_error=True, needles=(name, needle))
        elif kind == "unknown":
            name = rng.choice(UNKNOWN_TOOLS)
            plan.lines.append(request(number, "tools/call", tool(name, {"files": ["guide.md"]})))
            plan.expected[number] = Expected(kind, is_error=True, needles=("unknown tool", name))
        else:
            number_or_text: int | str = number if rng.random() < 0.7 else f"req-{number}-ü"
            choice = rng.randrange(5)
            if choice == 0:
                plan.lines.append(request(number_or_text, "tools/list"))
                plan.expected[number_or_text] = Expected("tools/list")
            elif choice == 1:
                plan.lines.append(request(number_or_text, "ping"))
                plan.expected[number_or_text] = Expected("ping")
            elif choice == 2:
                plan.lines.append(request(number_or_text, "no/such/method", {}))
                plan.expected[number_or_text] = Expected(kind, error_code=METHOD_NOT_FOUND)
            elif choice == 3:
                params = {"name": "mdsel_index", "arguments": "not an object"}
                plan.lines.append(request(number_or_text, "tools/call", params))
                plan.expected[number_or_text] = Expected(kind, error_code=INVALID_PARAMS)
            else:
                plan.lines.append(request(number_or_text, "tools/call", {}))
                plan.expected[number_or_text] = Expected(kind, error_code=INVALID_PARAMS)
        # Roughly one in twelve requests is followed by a line that is not a proper request.
        if malformed and rng.random() < 0.05:
            line, code, malformed_id = malformed.pop(rng.randrange(len(malformed)))
            add_malformed(plan, line, code, malformed_id)
        if silent and rng.random() < 0.02:
            plan.lines.append(silent.pop(rng.randrange(len(silent))))
    for line, code, malformed_id in malformed:
        add_malformed(plan, line, code, malformed_id)
    plan.lines.extend(silent)
    return plan


def add_malformed(plan: Plan, line: bytes, code: int, number: int | str | None) -> None:
    plan.lines.append(line)
    if number is None:
        plan.null_id_errors += 1
    else:
        plan.expected[number] = Expected("malformed", error_code=code)


def tool(name: str, arguments: dict[str, Any] | None) -> dict[str, Any]:
    params: dict[str, Any] = {"name": name}
    if arguments is not None:
        params["arguments"] = arguments
    return params


def check_answer(number: int | str, expected: Expected, reply: dict[str, Any]) -> None:
    where = f"id {number!r} ({expected.kind})"
    if expected.error_code is not None:
        assert "error" in reply and "result" not in reply, where
        assert reply["error"]["code"] == expected.error_code, (where, reply["error"])
        assert isinstance(reply["error"]["message"], str), where
        return
    assert "error" not in reply, (where, reply.get("error"))
    result = reply["result"]
    if expected.kind == "tools/list":
        assert [t["name"] for t in result["tools"]] == ["mdsel_index", "mdsel_select"], where
        return
    if expected.kind == "ping":
        assert result == {}, where
        return
    # A tool result: one text block, never structured content.
    assert "structuredContent" not in result, where
    assert [block["type"] for block in result["content"]] == ["text"], where
    text = result["content"][0]["text"]
    assert result.get("isError", False) is expected.is_error, (where, text[:200])
    if expected.tool_text is not None:
        assert text == expected.tool_text, where
    for needle in expected.needles:
        assert needle in text, (where, needle[:40], text[:200])


def handshake(server: RawServer) -> None:
    server.write(request("init", "initialize", INITIALIZE))
    server.flush()
    line = server.next_line()
    assert line is not None, "the server exited during initialize"
    reply = json.loads(line)
    assert reply["id"] == "init" and reply["result"]["serverInfo"]["name"] == "mdsel-claude"
    server.write(notification("notifications/initialized"))


def test_a_thousand_pipelined_requests_and_malformed_lines(docs: Path) -> None:
    oracle = Oracle(docs)
    plan = build_plan(docs, oracle)
    assert len([e for e in plan.expected.values() if e.kind != "malformed"]) == REQUESTS
    kinds = Counter(expected.kind for expected in plan.expected.values())
    assert min(kinds.values()) >= 5, kinds

    server = RawServer(docs, time.monotonic() + DEADLINE_SECONDS)
    try:
        handshake(server)
        # Everything is written before anything is read back: a server that only answers one
        # request at a time would still pass, but one that drops or doubles an answer would not.
        for raw in plan.lines:
            server.write(raw)
        server.flush()

        answers: Counter[int | str] = Counter()
        replies: dict[int | str, dict[str, Any]] = {}
        null_ids: list[dict[str, Any]] = []
        wanted = len(plan.expected)
        while len(replies) < wanted or len(null_ids) < plan.null_id_errors:
            line = server.next_line()
            if line is None:
                break
            # Nothing but protocol on stdout: one JSON-RPC response object per line.
            assert line.endswith(b"\n"), line[:200]
            reply = json.loads(line)
            assert isinstance(reply, dict) and reply.get("jsonrpc") == "2.0", line[:200]
            assert ("result" in reply) != ("error" in reply), line[:200]
            if reply.get("id") is None:
                assert "error" in reply, line[:200]
                null_ids.append(reply)
                continue
            answers[reply["id"]] += 1
            replies[reply["id"]] = reply

        assert not server.timed_out and not server.killed, (
            f"still waiting at the deadline: {len(replies)} of {wanted} ids answered, "
            f"{len(null_ids)} of {plan.null_id_errors} errors for lines without an id"
        )
        assert server.process.poll() is None, "the server died during the session"
        missing = [number for number in plan.expected if number not in replies]
        assert not missing, f"{len(missing)} requests never answered, e.g. {missing[:5]}"
        doubled = [number for number, count in answers.items() if count > 1]
        assert not doubled, f"answered more than once: {doubled[:5]}"
        unexpected = [number for number in replies if number not in plan.expected]
        assert not unexpected, f"answers to ids never sent: {unexpected[:5]}"
        for number, expected in plan.expected.items():
            check_answer(number, expected, replies[number])
        assert len(null_ids) == plan.null_id_errors
        assert sorted(r["error"]["code"] for r in null_ids) == sorted(
            code for _, code, number in MALFORMED if number is None
        )

        # Still serving, and the silent lines really got nothing.
        server.write(request("last", "tools/call", tool("mdsel_select", {
            "selector": "h2.1/code.0,h3.0", "files": ["guide.md"]})))  # fmt: skip
        server.flush()
        line = server.next_line()
        assert line is not None, "the server exited"
        reply = json.loads(line)
        assert reply["id"] == "last", reply
        text, is_error = oracle("select", "h2.1/code.0,h3.0", "guide.md")
        check_answer("last", Expected("select", text, is_error), reply)
    finally:
        code = server.close()
    assert not server.killed
    assert code == 0
    assert server.lines.get_nowait() is None, "output after the last answer"
    log = server.stderr_path.read_text(errors="replace")
    assert "Traceback" not in log, log[-2000:]


def test_malformed_lines_alone_get_one_error_each_and_the_server_keeps_going(docs: Path) -> None:
    """The same malformed lines on a short session, each followed by a ping that must come back."""
    server = RawServer(docs, time.monotonic() + 60)
    try:
        handshake(server)
        for number, (line, code, malformed_id) in enumerate(MALFORMED):
            server.write(line)
            server.write(request(f"ping-{number}", "ping"))
            server.flush()
            replies = []
            while True:
                out = server.next_line()
                assert out is not None, f"server exited after {line[:60]!r}"
                reply = json.loads(out)
                replies.append(reply)
                if reply.get("id") == f"ping-{number}":
                    break
            assert len(replies) == 2, (line[:60], replies)
            error = replies[0]
            assert error.get("id") == malformed_id and error["error"]["code"] == code, (
                line[:60],
                error,
            )
        for line in SILENT:
            server.write(line)
        server.write(request("after", "ping"))
        server.flush()
        out = server.next_line()
        assert out is not None and json.loads(out)["id"] == "after"
    finally:
        code = server.close()
    assert code == 0 and not server.killed
