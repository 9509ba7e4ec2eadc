"""Tests for server.app: main() and its configuration errors, imports kept light, text the
protocol can carry."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mdsel_claude.server.app import main


def test_main_rejects_bad_configuration_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MDSEL_PAGE_WORDS", "lots")
    assert main([]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "MDSEL_PAGE_WORDS" in captured.err


def test_main_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "mdsel-claude" in capsys.readouterr().out
    assert main(["--port", "80"]) == 2
    assert "--port" in capsys.readouterr().err


def test_importing_the_server_module_loads_neither_sdk_nor_engine() -> None:
    code = "import sys, mdsel_claude.server.app; print(' '.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(done.stdout.split())
    assert not loaded & {"mcp", "pydantic", "pyromark", "anyio"}
    # Of the engine, only the small modules of names, settings, errors and result values: the
    # parser, the tree and the renderers wait for the first call.
    engine = {name for name in loaded if name.split(".")[0] == "mdsel"}
    light = {
        "mdsel",
        "mdsel._record",
        "mdsel._version",
        "mdsel.names",
        "mdsel.settings",
        "mdsel.errors",
    }
    assert engine <= light | {"mdsel.read", "mdsel.results"}
    assert "mdsel.names" in engine  # the read policy's name rule is the engine's


def test_printable_escapes_what_json_rpc_cannot_carry() -> None:
    from mdsel_claude.server.app import printable

    assert printable("plain é ✓") == "plain é ✓"
    assert printable(os.fsdecode(b"caf\xe9.md")) == "caf\\xe9.md"
    assert printable("x\ud800y") == "x\\xed\\xa0\\x80y"


def test_a_file_name_that_is_not_utf8_does_not_end_the_session(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / os.fsdecode(b"caf\xe9.md")).write_text("# T\n")
    (tmp_path / "docs" / "plain.md").write_text("# P\n")  # two documents: paths are shown
    lines = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
         "params": {"name": "mdsel_index", "arguments": {"files": ["docs"]}}},
    ]  # fmt: skip
    server = Path(sys.executable).with_name("mdsel-claude")
    process = subprocess.Popen(
        [server], cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert process.stdin is not None and process.stdout is not None
    for message in lines:
        process.stdin.write(json.dumps(message) + "\n")
    process.stdin.flush()
    answers = [json.loads(process.stdout.readline()) for _ in range(2)]
    process.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}) + "\n")
    process.stdin.flush()
    answers.append(json.loads(process.stdout.readline()))
    process.stdin.close()
    assert process.wait(timeout=30) == 0
    process.stdout.close()
    text = answers[1]["result"]["content"][0]["text"]
    assert "docs/caf\\xe9.md" in text
    assert len(answers[2]["result"]["tools"]) == 2


def _initialized_server(cwd: Path) -> subprocess.Popen[bytes]:
    """`mdsel-claude serve` of this checkout in `cwd`, on pipes, its `initialize` answered."""
    import json

    import mdsel_claude

    init = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
    source = str(Path(mdsel_claude.__file__).parent.parent)  # this checkout, from any cwd
    path = os.pathsep.join([source, os.environ.get("PYTHONPATH", "")])
    process = subprocess.Popen(
        [sys.executable, "-m", "mdsel_claude", "serve"],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": path},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(json.dumps(init).encode() + b"\n")
    process.stdin.flush()
    assert json.loads(process.stdout.readline())["id"] == 0
    return process


def _stderr_at_exit(process: subprocess.Popen[bytes]) -> str:
    """What the exited server wrote on stderr; its stdin and stderr closed."""
    with contextlib.suppress(BrokenPipeError):
        assert process.stdin is not None
        process.stdin.close()
    assert process.stderr is not None
    error = process.stderr.read().decode()
    process.stderr.close()
    return error


def test_a_client_that_stops_reading_ends_the_server_cleanly(tmp_path: Path) -> None:
    # The client closes its end of stdout: the next answer cannot be written. The server exits
    # with status 0 and one line on stderr, not an unhandled exception group (status 1).
    import json

    process = _initialized_server(tmp_path)
    assert process.stdin is not None and process.stdout is not None
    process.stdout.close()
    for number in range(1, 50):  # the first answer fails in the writer, a later one tells
        ping = {"jsonrpc": "2.0", "id": number, "method": "ping"}
        try:
            process.stdin.write(json.dumps(ping).encode() + b"\n")
            process.stdin.flush()
        except BrokenPipeError:
            break
        if process.poll() is not None:
            break
        time.sleep(0.1)
    assert process.wait(timeout=30) == 0
    error = _stderr_at_exit(process)
    assert "Traceback" not in error
    assert "stopped reading" in error


def test_a_client_that_stops_reading_ends_the_server_without_another_request(
    tmp_path: Path,
) -> None:
    # The client closes its end of stdout while a call is in flight and keeps stdin open: the
    # answer cannot be written, and no later one will come to tell. The server exits anyway.
    import json

    (tmp_path / "doc.md").write_text("# Doc\n\nText.\n")
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "mdsel_index", "arguments": {"files": ["doc.md"]}}}  # fmt: skip
    process = _initialized_server(tmp_path)
    assert process.stdin is not None and process.stdout is not None
    try:
        initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        process.stdin.write(json.dumps(initialized).encode() + b"\n")
        process.stdout.close()
        process.stdin.write(json.dumps(call).encode() + b"\n")
        process.stdin.flush()
        assert process.wait(timeout=20) == 0  # stdin still open
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    error = _stderr_at_exit(process)
    assert "Traceback" not in error
    assert "stopped reading" in error


def test_a_request_id_no_answer_can_carry_leaves_the_server_serving(tmp_path: Path) -> None:
    # A lone surrogate escape in the id: the answer goes out without it (id null), and the
    # server answers the next request; echoing the id made the SDK's writer fail and exit.
    import json

    process = _initialized_server(tmp_path)
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}\n')
        process.stdin.write(b'{"jsonrpc":"2.0","id":2,"method":"ping"}\n')
        process.stdin.flush()
        first = json.loads(process.stdout.readline())
        assert first["id"] is None and "lone surrogate" in first["error"]["message"]
        assert json.loads(process.stdout.readline()) == {"jsonrpc": "2.0", "id": 2, "result": {}}
        process.stdin.close()
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()
    assert "Traceback" not in _stderr_at_exit(process)
