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
from pathlib import Path

import pytest

from mdsel_claude import provision

REPO = Path(__file__).resolve().parents[2]
LAUNCH = REPO / "src" / "mdsel_claude" / "launch.py"


def launch(
    args: list[str], stdin: str, env: dict[str, str], cwd: Path
) -> subprocess.CompletedProcess[str]:
    python = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    return subprocess.run(
        [python, "-S", str(LAUNCH), *args],
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
        if not key.startswith(("PYTHON", "VIRTUAL_ENV", "PIP_", "CLAUDE", "XDG_", "MDSEL_"))
    }
    env["HOME"] = str(tmp_path)
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
    done = launch(["serve"], "", env, tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""  # stdout is the MCP channel: pip's output never goes there
    assert "cannot start its MCP server: pip install failed (exit status 1): " in done.stderr
    assert "No matching distribution found for" in done.stderr  # pip's last line, in the reason
    assert os.listdir(data) == []  # no environment, no temporary directory left behind


def test_unknown_command(tmp_path: Path) -> None:
    done = launch(["frobnicate"], "", clean_env(tmp_path), tmp_path)
    assert done.returncode == 2 and "unknown command 'frobnicate'" in done.stderr


def test_data_directory() -> None:
    assert provision.data_dir({"CLAUDE_PLUGIN_DATA": "/d"}) == Path("/d")
    assert provision.data_dir({"XDG_DATA_HOME": "/x"}) == Path("/x/mdsel-claude/plugin")
    assert provision.data_dir({}) == Path.home() / ".local/share/mdsel-claude/plugin"


def test_environment_name_follows_the_pins() -> None:
    one = provision.env_name(b"mcp==2.3.0\n")
    assert one == provision.env_name(b"mcp==2.3.0\n")
    assert one != provision.env_name(b"mcp==2.3.1\n")
    assert one.startswith("venv-")


def test_a_failed_start_answers_each_request_with_the_reason(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    env.update(
        CLAUDE_PLUGIN_DATA=str(tmp_path / "data"),
        PIP_INDEX_URL="http://127.0.0.1:9/simple",  # nothing listens there: as if offline
        PIP_CONFIG_FILE=os.devnull,
    )
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
    assert "pip could not reach the package index" in message
    assert "PIP_INDEX_URL" in message and "mdsel-claude install" in message
    assert message in done.stderr  # and in the server's log


def test_refusal_stops_when_the_client_waits_too_long() -> None:
    read, write = os.pipe()
    out = io.BytesIO()
    with os.fdopen(read, "rb") as stdin, os.fdopen(write, "wb"):
        provision.refuse("no", stdin, out, wait=0.2)  # the pipe stays open: it must not hang
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
        PIP_CONFIG_FILE=os.devnull,
    )
    python = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    done = subprocess.run(
        [python, "-S", str(plugin / "src" / "mdsel_claude" / "launch.py"), "serve"],
        input="", env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert "sha256 is not the one in the plugin's requirements.lock" in done.stderr
    assert os.listdir(tmp_path / "data") == []


def test_on_windows_the_plugin_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mdsel_claude import launch

    monkeypatch.setattr("sys.platform", "win32")
    for command in (["serve"], ["hook"]):
        assert launch.main(command) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Windows is not supported yet" in err and "WSL" in err
