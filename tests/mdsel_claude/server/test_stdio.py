"""Tests for server.stdio: which lines get an error reply, with which code and id."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest

from mdsel_claude.server import stdio
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


# --- the wire: lines read when ready, answers written by one thread -----------------------------


def _ready_lines(chunks: list[bytes], limits: list[int]) -> list[bytes]:
    """What successive readline(limit) calls return while `chunks` arrive on a pipe, one
    by one, from another thread (the last write followed by closing the pipe)."""
    read_end, write_end = os.pipe()

    def feed() -> None:
        for chunk in chunks:
            os.write(write_end, chunk)
            threading.Event().wait(0.01)
        os.close(write_end)

    async def run() -> list[bytes]:
        lines = stdio._ReadyLines(read_end)
        return [await lines.readline(limit) for limit in limits]

    feeder = threading.Thread(target=feed)
    feeder.start()
    try:
        return anyio.run(run)
    finally:
        feeder.join()
        os.close(read_end)


def test_ready_lines_come_whole_however_the_bytes_arrive() -> None:
    chunks = [b'{"a"', b": 1}\n", b"x\ny\n", b"z", b"zz\n", b"tail"]
    got = _ready_lines(chunks, [100] * 7)
    assert got == [b'{"a": 1}\n', b"x\n", b"y\n", b"zzz\n", b"tail", b"", b""]


def test_ready_lines_stop_at_the_limit_and_go_on_from_there() -> None:
    got = _ready_lines([b"a" * 10 + b"\n" + b"b\n"], [4, 4, 100, 100, 100])
    assert got == [b"aaaa", b"aaaa", b"aa\n", b"b\n", b""]


def test_a_line_over_the_request_limit_is_answered_and_the_next_one_read() -> None:
    read_end, write_end = os.pipe()
    payload = b'{"jsonrpc": "2.0", "id": 9, "method": "ping", "pad": "' + b"x" * 5000 + b'"}\n'
    os.write(write_end, payload + b'{"jsonrpc": "2.0", "id": 10, "method": "ping"}\n')
    os.close(write_end)

    async def run() -> tuple[str, list[dict[str, object]]]:
        sent: list[dict[str, object]] = []

        class Replies:
            async def send(self, message: object) -> None:
                sent.append(message.message.model_dump(by_alias=True))  # type: ignore[attr-defined]

        lines = stdio._CheckedLines(stdio._ReadyLines(read_end), max_bytes=1000)
        lines.attach(Replies())  # type: ignore[arg-type]
        return await lines.__anext__(), sent

    line, sent = anyio.run(run)
    os.close(read_end)
    assert '"id": 10' in line
    assert [reply["id"] for reply in sent] == [9]
    assert "MDSEL_MAX_REQUEST_BYTES" in str(sent[0]["error"])


def test_the_writer_keeps_frames_in_order_and_delivers_them_before_closing() -> None:
    read_end, write_end = os.pipe()
    received = bytearray()
    reader = threading.Thread(target=lambda: _drain(read_end, received))
    reader.start()

    async def run() -> None:
        writer = stdio._Writer(write_end)
        for number in range(2000):
            await writer.write(f"frame {number} " + "x" * (number % 300) + "\n")
            await writer.flush()
        writer.close(10)

    anyio.run(run)
    os.close(write_end)
    reader.join(10)
    frames = received.decode().splitlines()
    assert [line.split()[1] for line in frames] == [str(n) for n in range(2000)]


def _drain(fd: int, into: bytearray) -> None:
    while chunk := os.read(fd, 65536):
        into += chunk
    os.close(fd)


def test_a_closed_reader_makes_the_next_write_fail() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)

    async def run() -> BaseException | None:
        writer = stdio._Writer(write_end)
        await writer.write("lost\n")
        writer.close(5)  # the thread has met the closed pipe and stopped
        try:
            await writer.write("next\n")
        except OSError as error:
            return error
        return None

    error = anyio.run(run)
    os.close(write_end)
    assert isinstance(error, BrokenPipeError)


def test_a_client_that_never_reads_makes_writes_wait_not_pile_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(stdio, "PENDING_LIMIT", 100_000)
    read_end, write_end = os.pipe()

    async def run() -> int:
        writer = stdio._Writer(write_end)
        written = 0
        with anyio.move_on_after(1):
            while True:
                await writer.write("y" * 10_000 + "\n")
                written += 1
        return written

    written = anyio.run(run)
    os.close(read_end)  # the writer thread's pending write fails; it stops
    os.close(write_end)
    # The pipe holds 64 KiB, the writer thread one frame, the queue PENDING_LIMIT.
    assert written * 10_001 < 64 * 1024 + 10_001 + 100_000 + 10_001


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


def test_a_slow_reader_gets_every_answer_whole_before_the_writer_gives_up() -> None:
    read_end, write_end = os.pipe()
    received = bytearray()

    def read_slowly() -> None:
        while chunk := os.read(read_end, 16384):
            received.extend(chunk)
            threading.Event().wait(0.02)
        os.close(read_end)

    reader = threading.Thread(target=read_slowly)
    reader.start()

    async def run() -> None:
        writer = stdio._Writer(write_end)
        for number in range(40):
            await writer.write(f"{number} " + "z" * 50_000 + "\n")
        # 2 MB at under 1 MB/s: far longer than the idle time, but never idle that long.
        writer.close(0.3)

    anyio.run(run)
    os.close(write_end)
    reader.join(30)
    assert [line.split()[0] for line in received.decode().splitlines()] == [
        str(n) for n in range(40)
    ]


def test_once_stdin_has_ended_writes_stop_waiting_for_the_pending_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(stdio, "PENDING_LIMIT", 10)
    read_end, write_end = os.pipe()

    async def run() -> bool:
        writer = stdio._Writer(write_end)
        writer._pending = 11  # as if a client had left answers unread
        with anyio.move_on_after(0.5):
            await writer.write("waits\n")
            return False
        writer.end()
        with anyio.fail_after(5):
            await writer.write("goes\n")
        writer._pending = 0
        writer.close(1)
        return True

    assert anyio.run(run)
    os.close(write_end)
    assert os.read(read_end, 100) == b"goes\n"
    os.close(read_end)


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
