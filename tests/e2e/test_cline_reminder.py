"""Our server and hook inside the real Cline CLI: its own listing of them, and what reaches the
model after a `read_files` of a Markdown file.

`mdsel-claude install --client cline` writes into a temporary HOME; `cline config mcp --json`
and `cline config hooks --json` (the version pinned in tools/clients) then list what the CLI
will load. For a session, `cline auth --provider openai --baseurl URL` makes a stand-in Chat
Completions API on 127.0.0.1 (opencode_stub.py) Cline's OpenAI-compatible provider, and one
`cline --json PROMPT` turn runs whose model calls `read_files` once; the request Cline sends
next carries the tool's result and what the hook added, as the model sees them.

`CLINE_SANDBOX=1` runs the session inside the CLI's own process (else it starts a background
hub daemon that outlives the test); its data folder is pointed at the usual one
(`CLINE_SANDBOX_DATA_DIR`), where install wrote the MCP settings, and TMPDIR at the test's own.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import environ_without
from tests.e2e.opencode_stub import Stub, chat_api
from tests.e2e.test_claude_cli import client
from tests.e2e.test_claude_read_hook import body_lines, guide

REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)
SETTINGS = Path(".cline", "data", "settings", "cline_mcp_settings.json")
SCRIPT = Path("Documents", "Cline", "Hooks", "PostToolUse")


@pytest.fixture(scope="module")
def cline_cli() -> str:
    return client("cline")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "guide.md").write_text(guide(), encoding="utf-8")
    (folder / "small.md").write_text("# Notes\n\nA short note of a few words.\n", "utf-8")
    (tmp_path / "home").mkdir()
    (tmp_path / "tmp").mkdir()
    return folder


def environment(project: Path) -> dict[str, str]:
    env = environ_without("CLINE_", "MDSEL_", "OPENAI_", "ANTHROPIC_", "XDG_")
    home = project.parent / "home"
    env.update(
        HOME=str(home),
        TMPDIR=str(project.parent / "tmp"),
        XDG_STATE_HOME=str(project.parent / "state"),
        CLINE_SANDBOX="1",
        CLINE_SANDBOX_DATA_DIR=str(home / ".cline" / "data"),
    )
    return env


def mdsel_claude(env: dict[str, str], *args: str) -> None:
    script = Path(sys.executable).parent / "mdsel-claude"
    if not script.exists():
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    done = subprocess.run(
        [str(script), *args], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def cline(cline_cli: str, env: dict[str, str], cwd: Path, *args: str) -> str:
    done = subprocess.run(
        [cline_cli, *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=200,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def listed(cline_cli: str, env: dict[str, str], cwd: Path, what: str) -> list[dict[str, Any]]:
    found = json.loads(cline(cline_cli, env, cwd, "config", what, "--json"))
    assert isinstance(found, list)
    return found


def session(cline_cli: str, env: dict[str, str], project: Path, name: str) -> Stub:
    """One `cline --json` turn whose model reads `name` with read_files; the API traffic."""
    with chat_api("read_files", files=[{"path": str(project / name)}]) as (url, stub):
        auth = ["auth", "--provider", "openai", "--apikey", "sk-test-not-a-key"]
        cline(cline_cli, env, project, *auth, "--modelid", "stub", "--baseurl", f"{url}/v1")
        cline(cline_cli, env, project, "--json", "--timeout", "120", f"Read {name}.")
    assert stub.tool_result(), "the session never ran read_files"
    return stub


def hook_context(stub: Stub) -> list[str]:
    """The texts the hook added (Cline sends them as a user message after the tool's result)."""
    body = next(body for body in stub.requests if stub._result(body) is not None)
    return [
        message["content"]
        for message in body["messages"]
        if message.get("role") == "user"
        and str(message.get("content")).startswith('<hook_context source="PostToolUse"')
    ]


def test_cline_lists_them_and_a_large_read_carries_the_reminder(
    cline_cli: str, project: Path
) -> None:
    env = environment(project)
    home = project.parent / "home"
    mdsel_claude(env, "install", "--client", "cline", "--min-words", "200")
    servers = listed(cline_cli, env, project, "mcp")
    assert {"name": "mdsel", "transportType": "stdio", "disabled": False,
            "path": str(home / SETTINGS)} in servers  # fmt: skip
    hooks = listed(cline_cli, env, project, "hooks")
    assert {"fileName": "PostToolUse", "hookEventName": "tool_result",
            "path": str(home / SCRIPT)} in hooks  # fmt: skip

    stub = session(cline_cli, env, project, "docs/guide.md")
    # The read reaches the model as it was; the reminder comes after it, once.
    shown = stub.tool_result()
    prose = body_lines(project / "docs" / "guide.md")
    assert prose[0] in shown and REMINDER not in shown
    context = hook_context(stub)
    assert len(context) == 1 and context[0].count(REMINDER) == 1
    # Our server started in time and its tools are offered beside the read.
    offered = {tool["function"]["name"] for tool in stub.requests[-1]["tools"]}
    assert {"mdsel__mdsel_index", "mdsel__mdsel_select"} <= offered

    mdsel_claude(env, "uninstall", "--client", "cline")
    assert listed(cline_cli, env, project, "mcp") == []
    assert listed(cline_cli, env, project, "hooks") == []


def test_outline_mode_adds_the_index(cline_cli: str, project: Path) -> None:
    env = environment(project)
    mdsel_claude(env, "install", "--client", "cline", "--mode", "outline")
    stub = session(cline_cli, env, project, "docs/guide.md")
    [context] = hook_context(stub)
    assert "h1.0 Guide" in context and context.count(REMINDER) == 1


def test_a_small_read_carries_none(cline_cli: str, project: Path) -> None:
    env = environment(project)
    mdsel_claude(env, "install", "--client", "cline")
    stub = session(cline_cli, env, project, "small.md")
    assert "A short note" in stub.tool_result()
    assert hook_context(stub) == []
    assert "configured size threshold" not in json.dumps(stub.requests)


def test_the_instructions_block_reaches_the_model(cline_cli: str, project: Path) -> None:
    """`install --instructions` puts the block in a rules file of ours in
    `~/Documents/Cline/Rules`, which Cline sends the model."""
    from tests.e2e.test_instructions_cli import carried

    env = environment(project)
    mdsel_claude(env, "install", "--client", "cline", "--instructions")
    rules = list((project.parent / "home" / "Documents" / "Cline" / "Rules").iterdir())
    assert len(rules) == 1
    stub = session(cline_cli, env, project, "small.md")
    assert carried(stub.requests[0])
