"""The Agent Skill in the real Claude Code CLI: `mdsel-claude install --skill` puts it where
Claude Code finds it, the model is offered it at session start (name and description only), and
using it brings the body, with the mdsel commands, into the conversation.

`claude -p` (pinned in tools/clients) runs against the stand-in Messages API (anthropic_stub.py)
with a temporary HOME; nothing uses the network.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mdsel_claude.setup import skill
from tests.conftest import environ_without
from tests.e2e.anthropic_stub import Stub, messages_api, messages_api_calling, run_claude
from tests.e2e.test_claude_cli import client

DESCRIPTION = next(
    line.removeprefix("description: ")
    for line in skill.SKILL_FILE.read_text(encoding="utf-8").splitlines()
    if line.startswith("description: ")
)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    scripts = Path(sys.executable).parent
    if not (scripts / "mdsel-claude").exists():
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "project").mkdir()
    environ = environ_without("ANTHROPIC_", "CLAUDE_", "MDSEL_", "XDG_")
    environ.update(HOME=str(home), PATH=os.pathsep.join([str(scripts), "/usr/bin", "/bin"]))
    installed = subprocess.run(
        ["mdsel-claude", "install", "--skill"],
        cwd=tmp_path / "project",
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return environ


def session(env: dict[str, str], cwd: Path, running: tuple[str, Stub], *args: str) -> Stub:
    url, stub = running
    run_claude(client("claude"), url, env, cwd, "Read the docs.", *args)
    return stub


def test_the_skill_is_offered_by_name_and_description(env: dict[str, str], tmp_path: Path) -> None:
    with messages_api(None) as running:
        stub = session(env, tmp_path / "project", running)
    sent = "".join(json.dumps(body) for body in stub.requests)
    assert json.dumps(f"- mdsel: {DESCRIPTION}")[1:-1] in sent
    assert "mdsel index docs/guide.md" not in sent  # the body waits until the skill is used


def test_using_the_skill_brings_its_commands(env: dict[str, str], tmp_path: Path) -> None:
    with messages_api_calling("Skill", skill="mdsel") as running:
        stub = session(env, tmp_path / "project", running, "--allowedTools", "Skill")
    after = stub.after_tool()
    for command in ("mdsel index docs/guide.md", "mdsel select L812 FILE"):
        assert command in after
