"""Cancellation over real stdio: after `notifications/cancelled` the work stops, and after stdin
closes the server exits within a second, even with seconds of parsing still ahead of it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

SERVER = Path(sys.executable).parent / "mdsel-claude"

FILES = 32
"""Documents of the long call, each different (so none comes from the parse cache): about 90 MB,
all read (the server runs with MDSEL_MAX_TOTAL_BYTES raised to hold them)."""
SECTIONS = 12_000
"""Sections per document: several seconds of parsing for the whole call on this machine."""

INITIALIZE = {
    "protocolVersion": "2025-11-25",
    "capabilities": {},
    "clientInfo": {"name": "cancel", "version": "0"},
}


def heavy_docs(root: Path) -> list[str]:
    names = []
    for number in range(FILES):
        body = "".join(
            f"## Part {number}.{n}\n\n{'word ' * 40}\n\n- item\n- item\n\n" for n in range(SECTIONS)
        )
        (root / f"heavy{number}.md").write_text(body)
        names.append(f"heavy{number}.md")
    return names


class Session:
    """The installed server on raw pipes, with its CPU time read from /proc."""

    def __init__(self, cwd: Path) -> None:
        env = {key: value for key, value in os.environ.items() if not key.startswith("MDSEL_")}
        env["MDSEL_MAX_TOTAL_BYTES"] = str(128 << 20)
        self.process = subprocess.Popen(
            [str(SERVER)],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.watchdog = threading.Timer(120, self.process.kill)
        self.watchdog.start()

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def answer(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, "the server closed stdout"
        answer: dict[str, Any] = json.loads(line)
        return answer

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def start(self, files: list[str]) -> None:
        self.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INITIALIZE})
        assert self.answer()["id"] == 1
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        call = {"name": "mdsel_index", "arguments": {"files": files}}
        self.send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call})

    def close(self) -> None:
        self.watchdog.cancel()
        self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()


pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def test_work_stops_after_notifications_cancelled(tmp_path: Path) -> None:
    files = heavy_docs(tmp_path)
    session = Session(tmp_path)
    try:
        session.start(files)
        time.sleep(1.0)  # well into the parsing
        session.send(
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}}
        )
        time.sleep(0.3)  # time to reach a checkpoint
        before = session.cpu_seconds()
        time.sleep(2.0)
        spent = session.cpu_seconds() - before
        # The session still answers, and the cancelled call is never answered.
        session.send({"jsonrpc": "2.0", "id": 3, "method": "ping"})
        assert session.answer() == {"jsonrpc": "2.0", "id": 3, "result": {}}
    finally:
        session.close()
    print(f"CPU after cancel: {spent:.2f} s in 2 s")
    assert spent < 0.3


def test_the_server_exits_within_a_second_of_stdin_closing(tmp_path: Path) -> None:
    files = heavy_docs(tmp_path)
    session = Session(tmp_path)
    try:
        session.start(files)
        time.sleep(1.0)
        assert session.process.stdin is not None
        session.process.stdin.close()
        closed = time.monotonic()
        code = session.process.wait(timeout=30)
        elapsed = time.monotonic() - closed
    finally:
        session.close()
    print(f"exit {elapsed:.2f} s after stdin closed")
    assert code == 0
    assert elapsed < 1.0
