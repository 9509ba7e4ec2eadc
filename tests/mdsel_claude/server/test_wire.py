"""Tests for server.wire: lines read when stdin is ready, answers written by one thread."""

from __future__ import annotations

import os
import threading

import anyio
import pytest

from mdsel_claude.server import wire


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
        lines = wire.ReadyLines(read_end)
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


def test_the_writer_keeps_frames_in_order_and_delivers_them_before_closing() -> None:
    read_end, write_end = os.pipe()
    received = bytearray()
    reader = threading.Thread(target=lambda: _drain(read_end, received))
    reader.start()

    async def run() -> None:
        writer = wire.Writer(write_end)
        for number in range(2000):
            await writer.write(f"frame {number} " + "x" * (number % 300) + "\n")
            await writer.flush()
        writer.close(10)

    anyio.run(run)
    os.close(write_end)
    reader.join(10)
    frames = received.decode().splitlines()
    assert [line.split()[1] for line in frames] == [str(n) for n in range(2000)]


def _drain(fd: int, into: bytearray, size: int = 65536, pause: float = 0.0) -> None:
    """Read `fd` to its end into `into`, `size` bytes at a time, `pause` seconds after each."""
    while chunk := os.read(fd, size):
        into += chunk
        if pause:
            threading.Event().wait(pause)
    os.close(fd)


def test_a_closed_reader_makes_the_next_write_fail() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)

    async def run() -> BaseException | None:
        writer = wire.Writer(write_end)
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


def test_a_closed_reader_is_reported_by_the_write_that_meets_it() -> None:
    # The failed answer may be the last one asked for: no next write would ever tell.
    read_end, write_end = os.pipe()
    os.close(read_end)
    gone: list[OSError] = []
    told = threading.Event()

    def on_gone(error: OSError) -> None:
        gone.append(error)
        told.set()

    async def run() -> None:
        writer = wire.Writer(write_end, on_gone)
        await writer.write("lost\n")
        assert told.wait(5)
        writer.close(5)

    anyio.run(run)
    os.close(write_end)
    assert len(gone) == 1
    assert isinstance(gone[0], BrokenPipeError)


def test_a_client_that_never_reads_makes_writes_wait_not_pile_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(wire, "PENDING_LIMIT", 100_000)
    read_end, write_end = os.pipe()

    writer: wire.Writer | None = None

    async def run() -> int:
        nonlocal writer
        writer = wire.Writer(write_end)
        written = 0
        with anyio.move_on_after(1):
            while True:
                await writer.write("y" * 10_000 + "\n")
                written += 1
        return written

    written = anyio.run(run)
    os.close(read_end)  # the writer thread's pending write fails; it stops
    assert writer is not None
    # Only then is its descriptor closed: a number closed while the thread may still write to
    # it can be reused by the next test's pipe.
    writer._thread.join(10)
    assert not writer._thread.is_alive()
    os.close(write_end)
    # The pipe holds 64 KiB, the writer thread one frame, the queue PENDING_LIMIT.
    assert written * 10_001 < 64 * 1024 + 10_001 + 100_000 + 10_001


def test_a_slow_reader_gets_every_answer_whole_before_the_writer_gives_up() -> None:
    read_end, write_end = os.pipe()
    received = bytearray()
    reader = threading.Thread(target=lambda: _drain(read_end, received, 16384, 0.01))
    reader.start()

    async def run() -> None:
        writer = wire.Writer(write_end)
        for number in range(80):
            await writer.write(f"{number} " + "z" * 50_000 + "\n")
        # 4 MB at under 1.6 MB/s: far longer than the idle time, but never idle that long.
        writer.close(1.0)

    anyio.run(run)
    os.close(write_end)
    reader.join(30)
    assert [line.split()[0] for line in received.decode().splitlines()] == [
        str(n) for n in range(80)
    ]


def test_once_stdin_has_ended_writes_stop_waiting_for_the_pending_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(wire, "PENDING_LIMIT", 10)
    read_end, write_end = os.pipe()

    async def run() -> bool:
        writer = wire.Writer(write_end)
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
