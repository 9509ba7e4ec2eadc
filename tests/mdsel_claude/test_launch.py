"""The plugin's launcher, run as the plugin runs it: `python3 -S <root>/src/mdsel_claude/launch.py`.

Provisioning that succeeds is covered end to end by the plugin test against the real Claude
Code CLI (tests/e2e/test_claude_cli.py); here, the hook path and provisioning that fails.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from mdsel_claude import plugin_wait, provision, provision_state
from tests.e2e.slow_index import silent_index

REPO = Path(__file__).resolve().parents[2]
LAUNCH = REPO / "src" / "mdsel_claude" / "launch.py"


INITIALIZE = json.dumps({
    "jsonrpc": "2.0", "id": 0, "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "test", "version": "1"}},
}) + "\n"  # fmt: skip
WAIT_LONG = "600000"
"""MCP_TIMEOUT for a start that should see its attempt through: the server waits a third of
the client's timeout for the outcome before it answers that the install goes on."""
BASE = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
"""The interpreter behind the test venv: a Python with nothing of ours installed."""


def launch(
    args: list[str], stdin: str, env: dict[str, str], cwd: Path, script: Path = LAUNCH
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [BASE, "-S", str(script), *args],
        input=stdin,
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def clean_env(tmp_path: Path) -> dict[str, str]:
    """Nothing of ours importable: no venv, no PYTHONPATH; HOME and data in tmp_path."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTHON", "VIRTUAL_ENV", "PIP_", "CLAUDE", "XDG_", "MDSEL_", "MCP_"))
    }
    env["HOME"] = str(tmp_path)
    env["PIP_CONFIG_FILE"] = os.devnull  # no pip configuration of this machine's applies
    env["MCP_TIMEOUT"] = WAIT_LONG
    return env


@pytest.mark.parametrize(("words", "reminds"), [(201, True), (200, False)])
def test_hook_runs_from_the_plugin_files(tmp_path: Path, words: int, reminds: bool) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text("word " * words)
    payload = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": "doc.md"},
        "cwd": str(tmp_path),
    }
    done = launch(["hook"], json.dumps(payload), clean_env(tmp_path), tmp_path)
    assert done.returncode == 0 and done.stderr == ""
    if reminds:
        context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
        assert context.endswith("Use mdsel_index and mdsel_select instead of Read.")
    else:
        assert done.stdout == ""
    assert not (tmp_path / ".local").exists()  # the hook never provisions anything


def test_failed_provisioning_says_why_and_leaves_nothing_half_done(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    data = tmp_path / "plugin-data"
    empty = tmp_path / "no-wheels"
    empty.mkdir()
    env.update(CLAUDE_PLUGIN_DATA=str(data), PIP_NO_INDEX="1", PIP_FIND_LINKS=str(empty))
    message, _ = said_when_it_fails(env, tmp_path)
    assert "pip install failed (exit status 1): " in message
    assert "No matching distribution found for" in message  # pip's last line, in the reason
    assert str(data / "provision.log") in message
    # No environment, no temporary directory left behind: the record and pip's log only.
    assert sorted(os.listdir(data)) == ["provision.json", "provision.log"]
    assert "No matching distribution" in (data / "provision.log").read_text()


def test_unknown_command(tmp_path: Path) -> None:
    done = launch(["frobnicate"], "", clean_env(tmp_path), tmp_path)
    assert done.returncode == 2 and "unknown command 'frobnicate'" in done.stderr


def test_data_directory() -> None:
    assert provision_state.data_dir({"CLAUDE_PLUGIN_DATA": "/d"}) == Path("/d")
    assert provision_state.data_dir({"XDG_DATA_HOME": "/x"}) == Path("/x/mdsel-claude/plugin")
    assert provision_state.data_dir({}) == Path.home() / ".local/share/mdsel-claude/plugin"


def test_environment_name_follows_the_pins() -> None:
    one = provision_state.env_name(b"mcp==2.3.0\n")
    assert one == provision_state.env_name(b"mcp==2.3.0\n")
    assert one != provision_state.env_name(b"mcp==2.3.1\n")
    assert one.startswith("venv-")


def test_a_failed_start_answers_each_request_with_the_reason(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    env["CLAUDE_PLUGIN_DATA"] = str(tmp_path / "a:b")  # no environment can be made there
    requests = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": "b", "method": "tools/list"},
    ]
    stdin = "".join(json.dumps(request) + "\n" for request in requests) + "not json\n"
    done = launch(["serve"], stdin, env, tmp_path)
    assert done.returncode == 1
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [reply["id"] for reply in replies] == [0, "b"]  # the notification has no reply
    message = replies[0]["error"]["message"]
    assert "the PATH separator" in message and "mdsel-claude install" in message
    assert message in done.stderr  # and in the server's log


def test_refusal_stops_when_the_client_waits_too_long() -> None:
    read, write = os.pipe()
    out = io.BytesIO()
    with os.fdopen(read, "rb") as stdin, os.fdopen(write, "wb"):
        plugin_wait.refuse("no", stdin, out, wait=0.2)  # the pipe stays open: it must not hang
    assert out.getvalue() == b""


def test_the_lock_pins_every_package_by_version_and_hash() -> None:
    lock = (REPO / "requirements.lock").read_text()
    entries = re.split(r"\n(?=[A-Za-z])", lock.split("\n", lock.count("\n# ") + 1)[-1])
    pins = [entry for entry in entries if entry.strip() and not entry.startswith("#")]
    assert len(pins) > 20
    for pin in pins:
        assert re.match(r"[A-Za-z0-9._-]+==[^ ;\\]+", pin), pin
        assert re.search(r"--hash=sha256:[0-9a-f]{64}", pin), pin
    assert "scripts/lock.sh" in lock  # says how it is refreshed
    assert (REPO / "plugin" / "requirements.lock").read_bytes() == lock.encode()


def test_a_substituted_package_is_refused(tmp_path: Path) -> None:
    """The lock's hash of a wheel differs from the wheel the index serves: nothing installs."""
    wheels = sorted((REPO / ".wheelhouse").glob("idna-*.whl"))
    if not wheels:
        pytest.skip(".wheelhouse has no locked wheels: scripts/test.sh fills it")
    plugin = tmp_path / "plugin"
    shutil.copytree(REPO / "src" / "mdsel_claude", plugin / "src" / "mdsel_claude")
    shutil.copytree(REPO / "src" / "mdsel", plugin / "src" / "mdsel")
    lock = (REPO / "requirements.lock").read_text()
    digest = hashlib.sha256(wheels[-1].read_bytes()).hexdigest()
    assert digest in lock
    (plugin / "requirements.lock").write_text(lock.replace(digest, "0" * 64))
    env = clean_env(tmp_path)
    env.update(
        CLAUDE_PLUGIN_DATA=str(tmp_path / "data"),
        PIP_NO_INDEX="1",
        PIP_FIND_LINKS=str(REPO / ".wheelhouse"),
    )
    script = plugin / "src" / "mdsel_claude" / "launch.py"
    done = launch(["provision"], "", env, tmp_path, script)  # the attempt a start runs
    assert done.returncode == 1
    assert "sha256 is not the one in the plugin's requirements.lock" in done.stderr
    assert not [name for name in os.listdir(tmp_path / "data") if "venv" in name]


def test_on_windows_the_plugin_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mdsel_claude import launch

    monkeypatch.setattr("sys.platform", "win32")
    for command in (["serve"], ["hook"]):
        assert launch.main(command) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Windows is not supported yet" in err and "WSL" in err


def plugin_copy(tmp_path: Path, lock: bytes | None = None) -> Path:
    """The plugin's launcher and package source in `tmp_path`, with its own lock file."""
    plugin = tmp_path / "plugin"
    shutil.copytree(REPO / "src" / "mdsel_claude", plugin / "src" / "mdsel_claude")
    shutil.copytree(REPO / "src" / "mdsel", plugin / "src" / "mdsel")
    text = (REPO / "requirements.lock").read_bytes() if lock is None else lock
    (plugin / "requirements.lock").write_bytes(text)
    return plugin / "src" / "mdsel_claude" / "launch.py"


def error_of(done: subprocess.CompletedProcess[str]) -> str:
    [reply] = [json.loads(line) for line in done.stdout.splitlines()]
    return str(reply["error"]["message"])


@pytest.mark.parametrize(
    "lock", [b"", b"# scripts/lock.sh\n\n", b"idna==3.7 \\\n    --hash=sha256:" + b"0" * 64 + b"\n"]
)
def test_a_lock_without_the_servers_pins_is_refused_and_never_marked_ready(
    tmp_path: Path, lock: bytes
) -> None:
    script = plugin_copy(tmp_path, lock)
    env = clean_env(tmp_path)
    env["CLAUDE_PLUGIN_DATA"] = str(tmp_path / "data")
    done = launch(["serve"], INITIALIZE, env, tmp_path, script)
    assert done.returncode == 1
    message = error_of(done)
    assert "requirements.lock (" in message and "reinstall the plugin" in message
    assert ("pins no package" if b"==" not in lock else "does not pin mcp") in message
    assert not (tmp_path / "data").exists() or not os.listdir(tmp_path / "data")


def test_a_colon_in_the_data_path_is_said_as_such(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    env["CLAUDE_PLUGIN_DATA"] = str(tmp_path / "a:b" / "data")
    done = launch(["serve"], INITIALIZE, env, tmp_path)
    assert done.returncode == 1
    message = error_of(done)
    assert "contains ':', the PATH separator" in message and "CLAUDE_CONFIG_DIR" in message
    assert "python3-venv" not in message
    assert not (tmp_path / "a:b").exists()


def test_an_environment_whose_python_is_gone_is_not_usable(tmp_path: Path) -> None:
    lock = b"mcp==2.3.0\n"
    env_dir = tmp_path / provision_state.env_name(lock)
    (env_dir / "bin").mkdir(parents=True)
    mark = {"lock_sha256": hashlib.sha256(lock).hexdigest()}
    (env_dir / "ready").write_text(json.dumps(mark))
    (env_dir / "bin" / "python").symlink_to(tmp_path / "removed" / "python3.12")
    assert not provision_state.usable(env_dir, lock)  # the Python it was made from is gone
    (env_dir / "bin" / "python").unlink()
    (env_dir / "bin" / "python").symlink_to(BASE)
    assert provision_state.usable(env_dir, lock)
    (env_dir / "pyvenv.cfg").write_text(f"home = {tmp_path / 'removed'}\n")
    assert not provision_state.usable(env_dir, lock)  # its base installation is gone
    (env_dir / "pyvenv.cfg").write_text(f"home = {os.path.dirname(BASE)}\n")
    assert provision_state.usable(env_dir, lock)
    assert not provision_state.usable(env_dir, b"mcp==2.3.1\n")  # made for other pins
    (env_dir / "ready").write_text("mcp==2.3.0\n")  # an older plugin's mark: made again
    assert not provision_state.usable(env_dir, lock)


def test_a_start_with_a_broken_environment_provisions_again(tmp_path: Path) -> None:
    """An environment marked ready whose Python was removed: the start makes it again (here
    offline, so it says why that failed) instead of dying with a traceback."""
    env = clean_env(tmp_path)
    data = tmp_path / "data"
    lock = (REPO / "requirements.lock").read_bytes()
    version = subprocess.run(
        [BASE, "-S", "-c", "import sys; print(sys.version, end='')"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    broken = data / provision_state.env_name(lock, version)
    (broken / "bin").mkdir(parents=True)
    (broken / "ready").write_text(json.dumps({"lock_sha256": hashlib.sha256(lock).hexdigest()}))
    (broken / "bin" / "python").symlink_to(tmp_path / "gone" / "python3")
    empty = tmp_path / "no-wheels"
    empty.mkdir()
    env.update(CLAUDE_PLUGIN_DATA=str(data), PIP_NO_INDEX="1", PIP_FIND_LINKS=str(empty))
    message, stderr = said_when_it_fails(env, tmp_path)
    assert "Traceback" not in stderr
    assert "pip install failed" in message
    assert not broken.exists()  # removed, to be made again


def test_finding_no_python_311_the_server_says_so_and_the_hook_does_not_fail(
    tmp_path: Path,
) -> None:
    """As on macOS with only the stock python3 (3.9): simulated by asking for Python 99."""
    shim = tmp_path / "bin" / "python3.13"
    shim.parent.mkdir()
    shim.write_text("#!/bin/sh\necho 'pyenv: python3.13: command not found' >&2\nexit 127\n")
    shim.chmod(0o755)  # a pyenv shim of a version that is not installed
    runner = tmp_path / "old_python.py"
    runner.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(REPO / 'src')!r})\n"
        "from mdsel_claude import launch\n"
        "launch.MIN_PYTHON = (99, 0)\n"
        "launch.PROBE = 'import sys; sys.exit(1)'\n"
        "sys.exit(launch.main())\n"
    )
    env = clean_env(tmp_path)
    env.update(CLAUDE_PLUGIN_DATA=str(tmp_path / "data"), PATH=str(shim.parent))
    served = launch(["serve"], INITIALIZE, env, tmp_path, runner)
    assert served.returncode == 1
    message = error_of(served)
    assert "needs Python 3.11 or later, and found none on PATH" in message
    assert "python3.13, python3.12, python3.11, python3" in message
    hooked = launch(["hook"], "{}", env, tmp_path, runner)
    assert hooked.returncode == 0 and hooked.stdout == ""  # never fails the Read
    assert "needs Python 3.11 or later" in hooked.stderr
    assert not (tmp_path / "data").exists()


def test_the_first_python_that_runs_is_chosen(tmp_path: Path) -> None:
    from mdsel_claude import launch as launcher

    folder = tmp_path / "bin"
    folder.mkdir()
    broken = folder / "python3.13"
    broken.write_text("#!/bin/sh\nexit 127\n")  # a shim of a Python that is not installed
    working = folder / "python3.12"
    working.write_text(f'#!/bin/sh\nexec {BASE} "$@"\n')
    for script in (broken, working):
        script.chmod(0o755)
    environ = {"PATH": str(folder)}
    assert launcher.choose(environ, current_ok=True) == str(working)
    working.unlink()
    assert launcher.choose(environ, current_ok=True) == sys.executable  # then python3 itself
    assert launcher.choose(environ, current_ok=False) is None


def request(server: subprocess.Popen[bytes], message: dict[str, object]) -> None:
    assert server.stdin is not None
    server.stdin.write(json.dumps(message).encode() + b"\n")
    server.stdin.flush()


def answer(server: subprocess.Popen[bytes]) -> dict[str, object]:
    """The next reply with an id (notifications are kept on the side)."""
    assert server.stdout is not None
    while True:
        line = server.stdout.readline()
        assert line, "the server closed its output"
        message = json.loads(line)
        if "id" in message:
            return dict(message)
        NOTICES.append(message)


NOTICES: list[dict[str, object]] = []


def start(env: dict[str, str], cwd: Path) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [BASE, "-S", str(LAUNCH), "serve"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=cwd,
    )  # fmt: skip
    request(server, json.loads(INITIALIZE))
    return server


def until(check: Callable[[], bool], wait: float = 300) -> None:
    """Wait for `check` (an install's outcome, which load can delay by minutes, never fail)."""
    deadline = time.monotonic() + wait
    while not check():
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.2)


def outcome(data: Path, other_than: int | None = None) -> str | None:
    """How the attempt on record ended (None while it runs), if it is not `other_than`'s."""
    attempt = provision_state.read_attempt(data)
    if attempt is None or attempt.pid == other_than or attempt.outcome == "running":
        return None
    return attempt.outcome


CALL = {"name": "mdsel_index", "arguments": {"files": [str(REPO / "README.md")]}}


def said_when_it_fails(env: dict[str, str], cwd: Path, script: Path = LAUNCH) -> tuple[str, str]:
    """What a first start whose install fails says of it, and the server's stderr. A failure
    within the first wait is the answer to `initialize` (an error); a later one, the answer to
    every tool call once it is on record. Which of the two depends on the machine's load."""
    data = Path(env["CLAUDE_PLUGIN_DATA"])
    with subprocess.Popen(
        [BASE, "-S", str(script), "serve"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd,
    ) as server:  # fmt: skip
        assert server.stdin is not None and server.stderr is not None
        request(server, json.loads(INITIALIZE))
        reply = answer(server)
        if "error" in reply:
            server.stdin.close()
            assert server.wait(timeout=120) == 1
            error = reply["error"]
            assert isinstance(error, dict)
            return str(error["message"]), server.stderr.read().decode()
        until(lambda: outcome(data) == "failed")
        first = provision_state.read_attempt(data)
        assert first is not None
        request(server, {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": CALL})
        result = answer(server)["result"]
        assert isinstance(result, dict) and result["isError"]
        server.stdin.close()
        assert server.wait(timeout=120) == 0
        until(lambda: outcome(data, first.pid) is not None)  # the new attempt the call started
        return str(result["content"][0]["text"]), server.stderr.read().decode()


def test_the_first_answer_waits_a_few_seconds_whatever_the_client_waits() -> None:
    assert provision.first_wait({}) == provision.FIRST_ANSWER == 5.0
    assert provision.first_wait({"MCP_TIMEOUT": "600000"}) == 5.0
    assert provision.first_wait({"MCP_TIMEOUT": "3000"}) == 1.0


@pytest.mark.timeout(900)
def test_a_start_answers_in_seconds_and_each_call_then_says_the_install_failed(
    tmp_path: Path,
) -> None:
    """With a long MCP_TIMEOUT the first answer still comes within seconds (a `claude -p`
    session meanwhile would begin without the tools); an install that fails after it is said
    by every call, and by the next start's first answer, with what to do, no reconnect."""
    data = tmp_path / "data"
    env = clean_env(tmp_path)  # MCP_TIMEOUT: 600 s
    with silent_index() as index:  # no answer: pip gives up after its timeouts, not before
        env.update(CLAUDE_PLUGIN_DATA=str(data), PIP_INDEX_URL=index)
        first = start(env, tmp_path)
        result = answer(first)["result"]
        assert isinstance(result, dict)
        assert "is getting ready" in result["instructions"]
        until(lambda: outcome(data) == "failed")
        failed = provision_state.read_attempt(data)
        assert failed is not None
        request(first, {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": CALL})
        told = answer(first)["result"]
        assert isinstance(told, dict)
        text = told["content"][0]["text"]
        assert "could not reach the package index" in text and "PIP_INDEX_URL" in text
        assert "then call again" in text and "/mcp" not in text  # nothing was skipped
        assert "A new attempt has started" in text
        until(lambda: outcome(data, failed.pid) is not None)  # the call's new attempt
        before = provision_state.read_attempt(data)
        assert before is not None
        second = start(env, tmp_path)  # a later start: its own attempt is at work
        later = answer(second)["result"]
        assert isinstance(later, dict)
        said = later["instructions"]
        assert "is getting ready" in said and "The attempt before this one failed" in said
        assert "could not reach the package index" in said
        for server in (first, second):
            assert server.stdin is not None and server.stdout is not None
            server.stdin.close()
            assert server.wait(timeout=120) == 0
            server.stdout.close()
        until(lambda: outcome(data, before.pid) is not None)  # the second start's attempt


FAILS = {
    "exits": "import sys; sys.stderr.write('boom: no module named x\\n'); sys.exit(3)",
    "refuses": (
        "import json, sys; r = json.loads(sys.stdin.readline()); "
        "print(json.dumps({'jsonrpc': '2.0', 'id': r['id'], "
        "'error': {'code': -32602, 'message': 'unsupported protocol'}}), flush=True)"
    ),
}


@pytest.mark.parametrize("how", sorted(FAILS))
def test_a_real_server_failing_the_replayed_initialize_leaves_a_server_saying_why(
    tmp_path: Path, how: str
) -> None:
    lock = b"mcp==2.3.0\n"
    env_dir = tmp_path / provision_state.env_name(lock)
    (env_dir / "bin").mkdir(parents=True)
    (env_dir / "bin" / "python").symlink_to(BASE)
    (env_dir / "ready").write_text(json.dumps({"lock_sha256": hashlib.sha256(lock).hexdigest()}))
    server = ([BASE, "-c", FAILS[how]], dict(os.environ))
    waiting = plugin_wait.Waiting(tmp_path, env_dir, lock, unused_start, server, None)
    call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": CALL}
    read, write = os.pipe()
    os.write(write, (INITIALIZE + json.dumps(call) + "\n").encode())
    os.close(write)
    out = io.BytesIO()
    with os.fdopen(read, "rb") as stdin:
        assert waiting.serve(stdin, out) == 0  # the client closed: the session had its answers
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [reply.get("id") for reply in replies] == [0, 7]
    told = replies[1]["result"]
    assert told["isError"]
    text = told["content"][0]["text"]
    assert "mdsel's server did not start" in text and str(tmp_path / "server.log") in text
    assert f"installed in {env_dir}: delete that folder" in text  # what to do
    if how == "exits":
        assert "exited with status 3 before it answered initialize: boom" in text
        assert "boom: no module named x" in (tmp_path / "server.log").read_text()
    else:
        assert "answered initialize with an error" in text and "unsupported protocol" in text


def unused_start() -> subprocess.Popen[bytes]:
    raise AssertionError("the environment is ready: no attempt is started")


def test_a_slow_first_start_answers_at_once_and_converges(tmp_path: Path) -> None:
    """The install outlasts the client's wait: the server answers `initialize` at once saying
    so, the install survives the server's end, the next start finds it at work instead of
    beginning again, and once it is done the same session answers with the real tools."""
    if not any((REPO / ".wheelhouse").glob("mcp-*.whl")):
        pytest.skip(".wheelhouse has no locked wheels: scripts/test.sh fills it")
    data = tmp_path / "data"
    (data / ".venv-killed" / "lib").mkdir(parents=True)  # what a killed attempt leaves
    (data / "venv-0123456789abcdef").mkdir()  # an environment of older pins
    (data / "notes.txt").write_text("not ours to remove")
    env = clean_env(tmp_path)
    env.update(
        CLAUDE_PLUGIN_DATA=str(data),
        PIP_NO_INDEX="1",
        PIP_FIND_LINKS=str(REPO / ".wheelhouse"),
        MCP_TIMEOUT="300",  # the client waits 0.3 s: far less than any install takes
    )
    first = start(env, tmp_path)
    result = answer(first)["result"]
    assert isinstance(result, dict)
    assert "is getting ready: its first start installs its dependencies" in result["instructions"]
    assert (
        "so far" in result["instructions"] and "retry in about 30 seconds" in result["instructions"]
    )
    assert first.stdin is not None
    first.stdin.close()  # the client gives up (Claude Code would kill it)
    assert first.wait(timeout=60) == 0
    assert first.stdout is not None
    first.stdout.close()
    # The attempt writes its record once it holds the lock: on a loaded machine, maybe only
    # after the server answered (here within 0.1 s) and ended.
    until(lambda: provision_state.read_attempt(data) is not None)
    attempt = provision_state.read_attempt(data)
    assert attempt is not None and attempt.outcome == "running"
    assert provision_state.running(data)  # the install goes on without the server

    second = start(env, tmp_path)
    answer(second)
    request(second, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    request(second, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    tools = answer(second)["result"]
    assert isinstance(tools, dict)
    assert [tool["name"] for tool in tools["tools"]] == ["mdsel_index", "mdsel_select"]
    call = {"name": "mdsel_index", "arguments": {"files": [str(REPO / "README.md")]}}
    for ident in range(2, 1000):
        request(second, {"jsonrpc": "2.0", "id": ident, "method": "tools/call", "params": call})
        reply = answer(second)["result"]
        assert isinstance(reply, dict)
        text = reply["content"][0]["text"]
        if not reply.get("isError"):
            break
        assert "getting ready" in text and "so far" in text, text
        again = provision_state.read_attempt(data)
        assert again is not None and again.pid == attempt.pid  # the same install, not a new one
        time.sleep(1)
    assert text.startswith(f"{len((REPO / 'README.md').read_text().splitlines())} lines")
    assert {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"} in NOTICES
    assert second.stdin is not None
    second.stdin.close()
    assert second.wait(timeout=60) == 0
    assert second.stdout is not None
    second.stdout.close()
    names = sorted(os.listdir(data))
    assert [name for name in names if "venv" in name] == [attempt.env]  # partials cleaned
    assert "notes.txt" in names


@pytest.mark.parametrize("module", ["launch", "plugin_wait", "provision_state", "dir_lock"])
def test_what_says_no_python_311_parses_on_an_old_python(module: str) -> None:
    """macOS's python3 is 3.9: the launcher, and what it imports to give the reason, parse there."""
    import ast

    source = (REPO / "src" / "mdsel_claude" / f"{module}.py").read_text()
    ast.parse(source, feature_version=(3, 7))


def test_what_a_killed_attempt_left_is_removed_by_the_next(tmp_path: Path) -> None:
    (tmp_path / ".venv-k1ll3d_x" / "lib").mkdir(parents=True)  # half an environment
    (tmp_path / ".provision.json.k1ll3d_x").write_text('{"env": ')  # half a record
    (tmp_path / "venv-0123456789abcdef").mkdir()  # an environment of older pins
    keep = tmp_path / "venv-fedcba9876543210"
    keep.mkdir()
    (tmp_path / "notes.txt").write_text("not ours to remove")
    (tmp_path / ".provision.json.linked").symlink_to(tmp_path / "notes.txt")
    provision.remove_partial(tmp_path, keep)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".provision.json.linked", "notes.txt", keep.name
    ]  # fmt: skip
