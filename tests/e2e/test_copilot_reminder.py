"""The server and the hooks inside the real Copilot CLI: its own listings, and what reaches the
model after `view` reads a file.

`mdsel-claude install --client copilot` writes into a temporary HOME; `copilot mcp list` and
`copilot skill list` (the version pinned in tools/clients) then say what Copilot CLI loads, and
`copilot -p` runs one turn against a stand-in for the Responses API on 127.0.0.1
(openai_stub.py), reached through Copilot CLI's own custom-provider variables
(`COPILOT_PROVIDER_BASE_URL`; `COPILOT_OFFLINE`: no GitHub account, no network). The stand-in's
model calls `view` once; the next request Copilot CLI sends is what the model would see.

Copilot CLI unpacks itself (about 235 MB) into `$XDG_CACHE_HOME/copilot` on its first run: one
cache folder in the system's temporary folder serves every test here, and every later run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import environ_without
from tests.e2e.openai_stub import CALL_ID, Stub, responses_api
from tests.e2e.test_claude_cli import client
from tests.e2e.test_claude_read_hook import REMINDER, body_lines, guide

SERVER_TOOL = "mdsel-mdsel_index"
"""How Copilot CLI names our server's index tool to the model (server, dash, tool)."""

_STARTED = ('"server_name":"mdsel"', 'name: \\"mdsel-claude\\"')
"""What Copilot CLI logs once it has started our server: the server it failed to connect to, or
the server info of the one it connected to."""


class ToolStub(Stub):
    """A model that calls one of Copilot CLI's tools (`view` unless said) once with
    `arguments`, then stops."""

    def __init__(self, arguments: dict[str, Any], tool: str = "view") -> None:
        super().__init__("")
        self.arguments = arguments
        self.tool = tool

    def item(self, body: dict[str, Any]) -> dict[str, Any]:
        if self._output(body) is None:
            return {
                "type": "function_call",
                "id": "fc_stub",
                "call_id": CALL_ID,
                "name": self.tool,
                "arguments": json.dumps(self.arguments),
            }
        return super().item(body)

    def tools(self) -> set[str]:
        """The tools Copilot CLI offered the model in any request."""
        return {str(tool.get("name")) for body in self.requests for tool in body.get("tools", [])}

    def messages_after(self) -> list[str]:
        """The texts of the messages Copilot CLI sent after the call's output."""
        body = self.after_tool()
        after, texts = False, []
        for item in body.get("input", []) if body else []:
            after = after or item.get("call_id") == CALL_ID
            if after and item.get("type") == "message":
                texts += [part.get("text", "") for part in item.get("content", [])]
        return texts


@pytest.fixture(scope="module")
def copilot_cli() -> str:
    return client("copilot")


@pytest.fixture(scope="module")
def cache() -> Path:
    """Copilot CLI's cache folder, kept from one run to the next: it unpacks itself there once
    (into a folder of its version), as it does in a user's `~/.cache`, which many Copilot CLIs
    share at once."""
    folder = Path(tempfile.gettempdir()) / f"mdsel-claude-tests-copilot-cache-{os.getuid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / "docs").mkdir(parents=True)
    (folder / ".git").mkdir()
    (folder / "docs" / "guide.md").write_text(guide(), encoding="utf-8")
    (folder / "small.md").write_text("# Notes\n\nA short note of a few words.\n", "utf-8")
    return folder


def script() -> Path:
    found = Path(sys.executable).parent / "mdsel-claude"
    if not found.exists():
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    return found


def mdsel_claude(env: dict[str, str], cwd: Path, *args: str) -> str:
    done = subprocess.run(
        [str(script()), *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def sandbox(tmp_path: Path, cache: Path) -> dict[str, str]:
    """The environment of a Copilot CLI with a temporary HOME that uses the stand-in."""
    env = environ_without("COPILOT_", "GH_", "GITHUB_", "XDG_", "MDSEL_", "OPENAI_")
    env.update(
        HOME=str(tmp_path / "home"),
        XDG_STATE_HOME=str(tmp_path / "state"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_CACHE_HOME=str(cache),
        COPILOT_OFFLINE="true",
        COPILOT_AUTO_UPDATE="false",
        COPILOT_MODEL="gpt-5.5",
        COPILOT_PROVIDER_WIRE_API="responses",
        COPILOT_PROVIDER_API_KEY="sk-test-not-a-key",
        # Project scope runs the bare `mdsel-claude`, from PATH.
        PATH=os.pathsep.join([str(script().parent), env.get("PATH", "")]),
        # A scratch TMPDIR: a checkout under /tmp must not read as a temporary install.
        TMPDIR=str(tmp_path / "tmp"),
    )
    (tmp_path / "tmp").mkdir(exist_ok=True)
    return env


def installed(tmp_path: Path, cache: Path, project: Path, *options: str) -> dict[str, str]:
    env = sandbox(tmp_path, cache)
    (tmp_path / "home").mkdir(exist_ok=True)
    mdsel_claude(env, project, "install", "--client", "copilot", "--min-words", "200", *options)
    return env


def copilot(
    copilot_cli: str, env: dict[str, str], project: Path, *args: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [copilot_cli, *args],
        cwd=project,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def started_our_server(home: Path) -> bool:
    """Whether Copilot CLI's logs under `home` say it started our server.

    Which tools a turn is offered is no test of that: Copilot CLI 1.0.102 opens with a
    2026-07-28 request and, when the answer is slow (a loaded machine), sends `initialize` on
    the same connection, which the MCP SDK then refuses; the session goes on without the tools.
    """
    logs = "".join(p.read_text("utf-8", "replace") for p in home.glob(".copilot/logs/*.log"))
    return any(mark in logs for mark in _STARTED)


def run_view(
    copilot_cli: str, env: dict[str, str], project: Path, *options: str, **arguments: Any
) -> ToolStub:
    """One `copilot -p` turn whose model calls `view` with `arguments`; the API traffic."""
    return run_tool(copilot_cli, env, project, ToolStub(arguments), *options)


def run_tool(
    copilot_cli: str, env: dict[str, str], project: Path, stub: ToolStub, *options: str
) -> ToolStub:
    """One `copilot -p` turn whose model makes `stub`'s call; the API traffic."""
    with responses_api("", stub) as (url, _):
        env = {**env, "COPILOT_PROVIDER_BASE_URL": f"{url}/v1"}
        args = ["-p", "Read it.", "--allow-all-tools", "--no-auto-update", *options]
        done = copilot(copilot_cli, env, project, *args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert stub.after_tool(), f"the session never ran {stub.tool}\n{done.stdout}{done.stderr}"
    return stub


def test_its_own_listing_shows_our_server_and_uninstall_takes_it_away(
    copilot_cli: str, tmp_path: Path, cache: Path, project: Path
) -> None:
    env = installed(tmp_path, cache, project)
    done = copilot(copilot_cli, env, project, "mcp", "list", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    server = json.loads(done.stdout)["mcpServers"]["mdsel"]
    assert server["command"] == str(script()) and server["args"] == ["serve"]
    assert server["source"] == "user" and server["enabled"] is True

    mdsel_claude(env, project, "uninstall", "--client", "copilot")
    done = copilot(copilot_cli, env, project, "mcp", "list", "--json")
    assert "mdsel" not in json.loads(done.stdout or "{}").get("mcpServers", {})
    assert not (tmp_path / "home" / ".copilot" / "hooks").exists()


def test_a_large_markdown_view_carries_the_reminder(
    copilot_cli: str, tmp_path: Path, cache: Path, project: Path
) -> None:
    env = installed(tmp_path, cache, project)
    stub = run_view(copilot_cli, env, project, path=str(project / "docs" / "guide.md"))
    assert started_our_server(tmp_path / "home")
    shown = stub.tool_output()
    prose = body_lines(project / "docs" / "guide.md")
    # The file reaches the model as it was; the reminder comes after it, once.
    assert prose[0] in shown and prose[-1] in shown
    assert shown.count(REMINDER) == 1 and shown.index(prose[-1]) < shown.index(REMINDER)


def test_a_shell_read_carries_the_reminder(
    copilot_cli: str, tmp_path: Path, cache: Path, project: Path
) -> None:
    env = installed(tmp_path, cache, project)
    stub = ToolStub({"command": "cat docs/guide.md", "description": "Show the guide"}, "bash")
    shown = run_tool(copilot_cli, env, project, stub).tool_output()
    assert body_lines(project / "docs" / "guide.md")[-1] in shown
    assert shown.count(REMINDER) == 1


def test_a_small_file_carries_none(
    copilot_cli: str, tmp_path: Path, cache: Path, project: Path
) -> None:
    env = installed(tmp_path, cache, project)
    stub = run_view(copilot_cli, env, project, path=str(project / "small.md"))
    assert "A short note" in stub.tool_output()
    assert "Use mdsel_index" not in json.dumps(stub.after_tool())


def test_a_failed_view_of_a_large_file_carries_the_reminder(
    copilot_cli: str, tmp_path: Path, cache: Path, project: Path
) -> None:
    env = installed(tmp_path, cache, project)
    path = str(project / "docs" / "guide.md")
    stub = run_view(copilot_cli, env, project, path=path, view_range=[5000, 5100])
    assert "beyond the end of the file" in stub.tool_output()
    assert sum(text.count(REMINDER) for text in stub.messages_after()) == 1


def test_outline_mode_puts_the_index_in_place_of_the_file(
    copilot_cli: str, tmp_path: Path, cache: Path, project: Path
) -> None:
    env = installed(tmp_path, cache, project, "--mode", "outline")
    stub = run_view(copilot_cli, env, project, path=str(project / "docs" / "guide.md"))
    shown = stub.tool_output()
    assert "h2.0 Installation" in shown and REMINDER in shown
    assert not any(line in shown for line in body_lines(project / "docs" / "guide.md"))


def test_project_scope_loads_in_a_trusted_folder_only(
    copilot_cli: str, tmp_path: Path, cache: Path, project: Path
) -> None:
    env = installed(tmp_path, cache, project, "--scope", "project")
    assert (project / ".github" / "mcp.json").is_file()
    assert (project / ".github" / "hooks" / "mdsel-claude.json").is_file()
    path = str(project / "docs" / "guide.md")
    stub = run_view(copilot_cli, env, project, "--trust-folder", path=path)
    assert started_our_server(tmp_path / "home")
    assert stub.tool_output().count(REMINDER) == 1
    # Not trusted: Copilot CLI loads nothing from the project.
    for log in (tmp_path / "home").glob(".copilot/logs/*.log"):
        log.unlink()
    stub = run_view(copilot_cli, env, project, path=path)
    assert not started_our_server(tmp_path / "home")
    assert SERVER_TOOL not in stub.tools() and REMINDER not in stub.tool_output()


def test_a_teammate_without_mdsel_claude_sees_the_read_alone(
    copilot_cli: str, tmp_path: Path, cache: Path, project: Path
) -> None:
    env = installed(tmp_path, cache, project, "--scope", "project")
    env["PATH"] = os.pathsep.join(
        p for p in env["PATH"].split(os.pathsep) if p != str(script().parent)
    )
    path = str(project / "docs" / "guide.md")
    stub = run_view(copilot_cli, env, project, "--trust-folder", path=path)
    shown = stub.tool_output()
    assert body_lines(project / "docs" / "guide.md")[0] in shown
    assert REMINDER not in shown and "Additional guidance" not in shown


def test_the_skill_is_where_copilot_looks(
    copilot_cli: str, tmp_path: Path, cache: Path, project: Path
) -> None:
    env = sandbox(tmp_path, cache)
    (tmp_path / "home").mkdir()
    for scope in ("user", "project"):
        mdsel_claude(env, project, "install", "--skill", "--scope", scope)
    done = copilot(copilot_cli, env, project, "skill", "list", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert '"mdsel"' in done.stdout


def test_the_instructions_block_reaches_the_model(
    copilot_cli: str, tmp_path: Path, cache: Path, project: Path
) -> None:
    """`install --instructions` puts the block in `~/.copilot/copilot-instructions.md`, which
    Copilot CLI sends the model."""
    from tests.e2e.test_instructions_cli import carried

    env = installed(tmp_path, cache, project, "--instructions")
    assert (tmp_path / "home" / ".copilot" / "copilot-instructions.md").exists()
    stub = run_view(copilot_cli, env, project, path=str(project / "small.md"))
    assert carried(stub.requests[0])
