"""The plugin's launcher, run as the plugin runs it: `python3 -S <root>/src/mdsel_claude/launch.py`.

Provisioning that succeeds is covered end to end by the plugin test against the real Claude
Code CLI (tests/e2e/test_claude_cli.py); here, the hook path and provisioning that fails.
"""

from __future__ import annotations

import json
import os
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
    assert "cannot start the MCP server: pip install failed" in done.stderr
    assert "PIP_NO_INDEX" in done.stderr
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
