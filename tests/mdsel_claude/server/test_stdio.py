"""Tests for server.stdio: which lines get an error reply, with which code and id."""

from __future__ import annotations

import pytest

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
