"""`mdsel-claude` dispatch: its own options, and the hint when the server is started by hand on a
terminal."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import tty

import pytest

from mdsel import __version__
from mdsel_claude.__main__ import main
from tests.conftest import BIN

SERVER = BIN / "mdsel-claude"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}


def read_line(fd: int, timeout: float = 60.0) -> bytes:
    data = b""
    while not data.endswith(b"\n"):
        ready, _, _ = select.select([fd], [], [], timeout)
        assert ready, f"no answer in {timeout} s (got {data!r})"
        chunk = os.read(fd, 65536)
        assert chunk, f"closed after {data!r}"
        data += chunk
    return data


@pytest.mark.parametrize("args", [[], ["serve"]])
def test_on_a_terminal_it_says_what_it_is_and_still_serves(args: list[str]) -> None:
    if not SERVER.exists():
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    master, slave = pty.openpty()
    tty.setraw(slave)  # as a client driving it through a pty would: bytes through unchanged
    process = subprocess.Popen(
        [str(SERVER), *args], stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    os.close(slave)
    try:
        assert process.stderr is not None and process.stdout is not None
        hint = read_line(process.stderr.fileno())
        assert hint.startswith(b"mdsel-claude: this is an MCP server")
        os.write(master, json.dumps(INITIALIZE).encode() + b"\n")
        answer = json.loads(read_line(process.stdout.fileno()))
        assert answer["id"] == 1 and answer["result"]["serverInfo"]["name"] == "mdsel-claude"
    finally:
        process.kill()
        process.wait()
        os.close(master)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


def test_no_hint_when_a_client_pipes_to_it() -> None:
    if not SERVER.exists():
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    done = subprocess.run(
        [str(SERVER)],
        input=json.dumps(INITIALIZE) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert json.loads(done.stdout.splitlines()[0])["id"] == 1
    assert "this is an MCP server" not in done.stderr


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([flag]) == 0
    assert capsys.readouterr() == (f"mdsel-claude {__version__}\n", "")


def test_help_names_every_command_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for word in ("serve", "hook", "install", "uninstall", "doctor", "--version"):
        assert word in out


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["frobnicate"]) == 2
    assert "unknown command 'frobnicate'" in capsys.readouterr().err


@pytest.mark.parametrize("args", [[], ["serve"], ["hook"], ["install"], ["doctor"], ["x"]])
def test_on_windows_every_command_says_so_in_one_line(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.platform", "win32")
    assert main(args) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "Windows is not supported yet" in err and "WSL" in err
