"""Tests for server.stdio: which lines get an error reply, with which code and id."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from mdsel_claude.server import stdio, wire
from mdsel_claude.server.stdio import INVALID_REQUEST, PARSE_ERROR, _leading_id, rejection

GOOD = [
    '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}\n',
    '{"jsonrpc": "2.0", "id": "a", "method": "ping", "params": {}}',
    '{"jsonrpc": "2.0", "method": "notifications/initialized"}\n',
    '{"jsonrpc": "2.0", "id": 7, "result": {}}\n',
    '{"jsonrpc": "2.0", "id": 7, "error": {"code": 1, "message": "m"}}\n',
    '{"jsonrpc": "2.0", "id": 1, "method": "x"}\r\n',
    "\n",
    "   \t\r\n",
]


@pytest.mark.parametrize("line", GOOD)
def test_messages_and_blank_lines_pass(line: str) -> None:
    assert rejection(line) is None


BAD: list[tuple[str, int, int | str | None]] = [
    ("not json\n", PARSE_ERROR, None),
    ('{"jsonrpc": "2.0", "id": 3\n', PARSE_ERROR, None),
    ("\ufffd\ufffdgarbage\n", PARSE_ERROR, None),
    ("[" * 20_000 + "]" * 20_000, PARSE_ERROR, None),
    ("[]", INVALID_REQUEST, None),
    ('[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]', INVALID_REQUEST, None),
    ("null", INVALID_REQUEST, None),
    ("{}", INVALID_REQUEST, None),
    ('{"jsonrpc": "1.0", "id": 4, "method": "ping"}', INVALID_REQUEST, 4),
    ('{"id": "x", "method": "ping"}', INVALID_REQUEST, "x"),
    ('{"jsonrpc": "2.0", "id": 5}', INVALID_REQUEST, 5),
    ('{"jsonrpc": "2.0", "id": 6, "method": "ping", "params": 5}', INVALID_REQUEST, 6),
    ('{"jsonrpc": "2.0", "id": null, "method": "ping"}', INVALID_REQUEST, None),
    ('{"jsonrpc": "2.0", "id": 1.5, "method": "ping"}', INVALID_REQUEST, None),
    ('{"jsonrpc": "2.0", "id": true, "method": "ping"}', INVALID_REQUEST, None),
    ('{"jsonrpc": "2.0", "id": 8, "result": 5}', INVALID_REQUEST, None),
    ('{"jsonrpc": "2.0", "method": "notifications/x", "params": 5}', INVALID_REQUEST, None),
]


@pytest.mark.parametrize(("line", "code", "number"), BAD)
def test_unusable_lines_get_one_error_under_the_id_they_carried(
    line: str, code: int, number: int | str | None
) -> None:
    error = rejection(line)
    assert error is not None
    assert error["jsonrpc"] == "2.0"
    assert error["id"] == number
    assert error["error"]["code"] == code
    assert error["error"]["message"]


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ('{"jsonrpc": "2.0", "id": 1, "method": "tools/call"}', "params.name"),
        ('{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}}', "params.name"),
        ('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":null}}', "params.name"),
        (
            '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"mdsel_index",'
            '"arguments":[1]}}',
            "params.arguments",
        ),
        ('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":5}}', "params.cursor"),
        (
            '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"mdsel_index",'
            '"_meta":5}}',
            "params._meta",
        ),
        ('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":[]}}', "params._meta"),
    ],
)
def test_a_request_whose_params_are_malformed_is_told_which_field(line: str, field: str) -> None:
    error = rejection(line)
    assert error is not None and error["id"] == 1
    assert error["error"]["code"] == stdio.INVALID_PARAMS
    assert field in error["error"]["message"]
    fine = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"mdsel_index"}}'
    assert rejection(fine) is None  # no arguments at all: the tool's own error names `files`


def test_params_that_are_no_object_are_named_so() -> None:
    error = rejection('{"jsonrpc": "2.0", "id": 2, "method": "ping", "params": []}')
    assert error is not None and error["id"] == 2
    assert error["error"]["message"] == "Invalid Request: params must be an object in MCP"


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"arguments":', 7),
        (b'{ "jsonrpc": "2.0", "id": "req-1", "method": "tools/call"', "req-1"),
        (b'{"id":-3,"jsonrpc":"2.0"', -3),
        # Anywhere but at the start, an "id" may sit inside a string: no guess is made.
        (b'{"jsonrpc":"2.0","method":"tools/call","params":{"files":["\\"id\\":5"]', None),
        (b'{"jsonrpc":"2.0","id":null', None),
        (b"not json at all", None),
    ],
)
def test_the_id_of_a_message_too_long_to_parse(head: bytes, expected: int | str | None) -> None:
    assert _leading_id(head) == expected


# --- the wire: lines read when ready, answers written by one thread -----------------------------


@pytest.mark.parametrize(
    ("head", "tail", "expected"),
    [
        # The TypeScript SDK (Claude Code's) writes a request method first and its id last.
        (b'{"method":"tools/call","params":{', b'"]}},"jsonrpc":"2.0","id":12}\n', 12),
        (
            b'{ "method": "tools/call", "params": {',
            b'} }, "jsonrpc": "2.0", "id": "r-2" }\r\n',
            "r-2",
        ),
        # The last member of something inside the message, or of a response: no guess.
        (b'{"method":"tools/call","params":{', b'"arguments":{"id":5}}}\n', None),
        (b'{"result":{"content":[', b'"jsonrpc":"2.0","id":5}\n', None),
        (b'{"method":"tools/call","params":{', b'"jsonrpc":"2.0","id":null}\n', None),
    ],
)
def test_the_id_a_method_first_message_too_long_to_parse_ends_with(
    head: bytes, tail: bytes, expected: int | str | None
) -> None:
    assert _leading_id(head, tail) == expected


def first_line_and_replies(data: bytes) -> tuple[str, list[dict[str, object]]]:
    """What the server's line reader (a 1,000-byte limit) gives for `data` on stdin: the first
    line it passes on, and the error replies it sent meanwhile."""
    read_end, write_end = os.pipe()
    os.write(write_end, data)
    os.close(write_end)

    async def run() -> tuple[str, list[dict[str, object]]]:
        sent: list[dict[str, object]] = []

        class Replies:
            async def send(self, message: object) -> None:
                sent.append(message.message.model_dump(by_alias=True))  # type: ignore[attr-defined]

        lines = stdio._CheckedLines(wire.ReadyLines(read_end), max_bytes=1000)
        lines.attach(Replies())  # type: ignore[arg-type]
        return await lines.__anext__(), sent

    try:
        return anyio.run(run)
    finally:
        os.close(read_end)


NEXT = b'{"jsonrpc": "2.0", "id": 10, "method": "ping"}\n'


def test_a_method_first_line_over_the_limit_is_answered_under_its_id() -> None:
    pad = b"x" * 5000
    payload = b'{"method": "ping", "params": {"pad": "' + pad + b'"}, "jsonrpc": "2.0", "id": 9}\n'
    _line, sent = first_line_and_replies(payload + NEXT)
    assert [reply["id"] for reply in sent] == [9]


def test_a_line_over_the_request_limit_is_answered_and_the_next_one_read() -> None:
    payload = b'{"jsonrpc": "2.0", "id": 9, "method": "ping", "pad": "' + b"x" * 5000 + b'"}\n'
    line, sent = first_line_and_replies(payload + NEXT)
    assert '"id": 10' in line
    assert [reply["id"] for reply in sent] == [9]
    assert "MDSEL_MAX_REQUEST_BYTES" in str(sent[0]["error"])


def test_serving_claims_stdout_so_stray_prints_miss_the_wire() -> None:
    script = (
        "import anyio, os, sys\n"
        "from mdsel_claude.server import stdio\n"
        "async def main():\n"
        "    async with stdio.stdio_transport() as (read, write):\n"
        "        print('stray', flush=True)\n"
        "        os.write(1, b'stray fd\\n')\n"
        "        await write.aclose()\n"
        "anyio.run(main)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], input=b"", capture_output=True, timeout=60, check=True
    )
    assert done.stdout == b""
    assert b"stray" in done.stderr and b"stray fd" in done.stderr


@pytest.mark.parametrize("kind", ["pipe", "file"])
def test_the_server_answers_on_a_pipe_and_on_a_file_as_stdin(kind: str, tmp_path: Path) -> None:
    messages = (
        b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": '
        b'"2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}\n'
        b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n'
        b'{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}\n'
        b"not json\n"
    )
    command = [sys.executable, "-m", "mdsel_claude"]
    if kind == "file":
        (tmp_path / "in.jsonl").write_bytes(messages)
        with open(tmp_path / "in.jsonl", "rb") as stdin:
            done = subprocess.run(command, stdin=stdin, capture_output=True, timeout=60)
    else:
        done = subprocess.run(command, input=messages, capture_output=True, timeout=60)
    replies: dict[int | None, dict[str, Any]] = {}
    for line in done.stdout.decode().splitlines():
        reply = json.loads(line)
        replies[reply["id"]] = reply
    assert sorted(replies, key=str) == [1, 2, None], done.stderr
    assert replies[1]["result"]["serverInfo"]["name"] == "mdsel-claude"
    assert {tool["name"] for tool in replies[2]["result"]["tools"]} == {
        "mdsel_index",
        "mdsel_select",
    }
    assert replies[None]["error"]["code"] == PARSE_ERROR


def test_the_last_request_before_stdin_ends_is_answered_without_a_final_newline() -> None:
    messages = (
        b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": '
        b'"2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}\n'
        b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n'
        b'{"jsonrpc": "2.0", "id": 4, "method": "ping"}'
    )
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "-m", "mdsel_claude"], input=messages, capture_output=True, timeout=60
        )
        ids = [json.loads(line)["id"] for line in done.stdout.decode().splitlines()]
        assert ids == [1, 4], done.stderr


def test_a_lone_surrogate_escape_is_named_as_the_problem() -> None:
    line = (
        '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"mdsel_index",'
        '"arguments":{"files":["\\ud800.md"]}}}'
    )
    error = rejection(line)
    assert error is not None and error["id"] == 3
    assert error["error"]["code"] == INVALID_REQUEST
    assert "lone surrogate" in error["error"]["message"]
    # A pair is one character, and text.
    paired = line.replace("\\ud800", "\\ud83d\\ude00")
    assert rejection(paired) is None
