"""Our server and hook inside the real Factory Droid CLI: its listing, and what reaches the model
after a `Read`.

`droid exec` (the version pinned in tools/clients) runs with a custom model of the user's own
(`customModels` in `~/.factory/settings.json`, provider `generic-chat-completion-api`, which
needs no Factory account) whose base URL is a stand-in OpenAI Chat Completions API on
127.0.0.1 (chat_stub.py). Its first answer calls `Read` on a Markdown file; the request Droid
sends next carries the tool's result and whatever a hook added after it, as the model sees
them. The hook and the server are registered by the real `mdsel-claude install --client
factory` in a temporary HOME, into the settings that already hold the custom model. Nothing
uses the network.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import mdsel
from tests.conftest import environ_without
from tests.e2e.chat_stub import Stub, chat_api
from tests.e2e.test_claude_cli import client
from tests.e2e.test_claude_read_hook import body_lines, guide

REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)
MODEL = "custom:stub"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(scope="module")
def droid_cli() -> str:
    return client("droid")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    scripts = Path(sys.executable).parent
    if not (scripts / "mdsel-claude").exists():
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "guide.md").write_text(guide(), encoding="utf-8")
    (project / "small.md").write_text("# Notes\n\nA few words only.\n", encoding="utf-8")
    (tmp_path / "home").mkdir()
    return project


def environment(project: Path) -> dict[str, str]:
    env = environ_without("FACTORY_", "DROID_", "OPENAI_", "MDSEL_", "XDG_")
    env["HOME"] = str(project.parent / "home")
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), "/usr/bin", "/bin"])
    env["FACTORY_DROID_AUTO_UPDATE_ENABLED"] = "false"
    scratch = project.parent / "tmp"
    scratch.mkdir(exist_ok=True)
    env["TMPDIR"] = str(scratch)
    return env


def mdsel_claude(project: Path, *args: str) -> None:
    done = subprocess.run(
        ["mdsel-claude", *args], env=environment(project), cwd=project, capture_output=True,
        text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def custom_model(project: Path, url: str) -> None:
    """The user's own settings: one custom model, the stand-in at `url`."""
    model = {
        "model": "stub",
        "id": MODEL,
        "displayName": "Stand-in",
        "baseUrl": f"{url}/v1",
        "apiKey": "test-not-a-key",
        "provider": "generic-chat-completion-api",
        "maxOutputTokens": 1000,
    }
    folder = project.parent / "home" / ".factory"
    folder.mkdir(exist_ok=True)
    (folder / "settings.json").write_text(json.dumps({"customModels": [model]}, indent=2))


def run_droid(
    droid_cli: str, project: Path, *args: str, teammate: bool = False, **read: Any
) -> Stub:
    """The custom model, `mdsel-claude install --client factory *args`, then one `droid exec`
    turn whose model calls Read with `read`; the recorded API traffic. With `teammate`, the CLI runs
    with a PATH that has no mdsel-claude on it (a teammate who has not installed it)."""
    env = environment(project)
    with chat_api("Read", read) as (url, stub):
        custom_model(project, url)
        mdsel_claude(project, "install", "--client", "factory", "--min-words", "200", *args)
        if teammate:
            env["PATH"] = os.pathsep.join(["/usr/bin", "/bin"])
        done = subprocess.run(
            [droid_cli, "exec", "-m", MODEL, "Read the document."],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    if teammate:  # the hook's guard keeps it silent: no hook error, shown or logged
        assert "hook" not in (done.stdout + done.stderr).lower(), done.stdout + done.stderr
    assert stub.after_tool(), f"the session never ran Read: {(done.stdout + done.stderr)[-2000:]}"
    return stub


def added(stub: Stub) -> str:
    """What the model was sent after the tool's result (Droid puts a hook's context there)."""
    before, found, after = stub.after_call().partition(stub.tool_output())
    assert found and not before.strip()
    return after


def test_a_large_markdown_read_carries_the_reminder(droid_cli: str, project: Path) -> None:
    stub = run_droid(droid_cli, project, file_path=str(project / "guide.md"))
    output = stub.tool_output()
    prose = body_lines(project / "guide.md")
    assert len(prose) > 20 and all(line in output for line in prose)
    assert added(stub).strip() == REMINDER


def test_a_small_markdown_read_carries_none(droid_cli: str, project: Path) -> None:
    stub = run_droid(droid_cli, project, file_path=str(project / "small.md"))
    assert "A few words only." in stub.tool_output()
    assert REMINDER.splitlines()[0] not in stub.after_call()


def test_project_scope_hook_runs_from_path(droid_cli: str, project: Path) -> None:
    stub = run_droid(droid_cli, project, "--scope", "project", file_path=str(project / "guide.md"))
    assert added(stub).strip() == REMINDER
    settings = json.loads((project / ".factory" / "settings.json").read_text())
    (group,) = settings["hooks"]["PostToolUse"]
    assert group["hooks"][0]["command"].startswith("sh -c 'command -v mdsel-claude")


def test_outline_mode_adds_the_index_after_the_file(droid_cli: str, project: Path) -> None:
    stub = run_droid(droid_cli, project, "--mode", "outline", file_path=str(project / "guide.md"))
    index = mdsel.run_command("index", None, [str(project / "guide.md")]).stdout
    assert added(stub).strip() == f"{index}{REMINDER}"
    assert "h2.0 Installation" in index


def test_droid_mcp_list_shows_the_server_and_then_not(project: Path, droid_cli: str) -> None:
    mdsel_claude(project, "install", "--client", "factory")
    env = environment(project)

    def listing() -> str:
        done = subprocess.run(
            [droid_cli, "mcp", "list"], env=env, cwd=project, capture_output=True, text=True,
            timeout=120, check=False,
        )  # fmt: skip
        return ANSI.sub("", done.stdout + done.stderr)

    shown = listing()
    line = next((x for x in shown.splitlines() if re.search(r"\bmdsel\b", x)), "")
    # The listing waits a few seconds for each server: a slow start is still "connecting".
    assert re.search(r"\bmdsel +stdio +(connected|connecting) +\[user\]", line), shown
    mdsel_claude(project, "uninstall", "--client", "factory")
    assert not re.search(r"\bmdsel\b", listing())


def test_a_teammate_without_mdsel_claude_sees_no_error(droid_cli: str, project: Path) -> None:
    stub = run_droid(
        droid_cli, project, "--scope", "project", teammate=True, file_path=str(project / "guide.md")
    )
    assert all(line in stub.tool_output() for line in body_lines(project / "guide.md"))
    assert REMINDER.splitlines()[0] not in stub.after_call()


def test_the_instructions_block_reaches_the_model(droid_cli: str, project: Path) -> None:
    """`install --instructions` puts the block in `~/.factory/AGENTS.md`, which Droid sends the
    model."""
    from tests.e2e.test_instructions_cli import carried

    stub = run_droid(droid_cli, project, "--instructions", file_path=str(project / "small.md"))
    assert (project.parent / "home" / ".factory" / "AGENTS.md").exists()
    assert carried(stub.requests[0])
