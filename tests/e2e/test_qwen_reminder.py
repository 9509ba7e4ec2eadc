"""Our server and hook inside the real Qwen Code CLI: its listing, and what reaches the model
after a `read_file`.

`qwen -p` (the version pinned in tools/clients) runs against a stand-in OpenAI Chat Completions
API on 127.0.0.1 (chat_stub.py, reached through OPENAI_BASE_URL with a key that is not one)
whose first answer calls `read_file` on a Markdown file; the request the CLI sends next carries
the tool's result as the model sees it. The hook and the server are registered by the real
`mdsel-claude install --client qwen` in a temporary HOME. Nothing uses the network.
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
SETTINGS = {"privacy": {"usageStatisticsEnabled": False}}
"""What the user had before install: nothing that calls home."""
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(scope="module")
def qwen_cli() -> str:
    return client("qwen")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    scripts = Path(sys.executable).parent
    if not (scripts / "mdsel-claude").exists():
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    project = tmp_path / "project"
    project.mkdir()
    (project / "guide.md").write_text(guide(), encoding="utf-8")
    (project / "small.md").write_text("# Notes\n\nA few words only.\n", encoding="utf-8")
    home = tmp_path / "home"
    (home / ".qwen").mkdir(parents=True)
    (home / ".qwen" / "settings.json").write_text(json.dumps(SETTINGS))
    return project


def environment(project: Path) -> dict[str, str]:
    env = environ_without("QWEN", "OPENAI_", "DASHSCOPE", "MDSEL_", "XDG_")
    env["HOME"] = str(project.parent / "home")
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), "/usr/bin", "/bin"])
    scratch = project.parent / "tmp"
    scratch.mkdir(exist_ok=True)
    env["TMPDIR"] = str(scratch)
    return env


def install(project: Path, *args: str) -> None:
    done = subprocess.run(
        ["mdsel-claude", "install", "--client", "qwen", "--min-words", "200", *args],
        env=environment(project),
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def run_qwen(qwen_cli: str, project: Path, *args: str, teammate: bool = False, **read: Any) -> Stub:
    """`mdsel-claude install --client qwen *args`, then one `qwen -p` turn whose model calls
    read_file with `read`; the recorded API traffic. With `teammate`, the CLI runs
    with a PATH that has no mdsel-claude on it (a teammate who has not installed it)."""
    install(project, *args)
    env = environment(project)
    with chat_api("read_file", read) as (url, stub):
        env.update(OPENAI_BASE_URL=f"{url}/v1", OPENAI_API_KEY="test-not-a-key")
        if teammate:
            env["PATH"] = os.pathsep.join(["/usr/bin", "/bin"])
        done = subprocess.run(
            [qwen_cli, "-p", "Read the document.", "--yolo", "--auth-type", "openai", "-m", "stub"],
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
    assert stub.after_tool(), f"the session never ran read_file: {done.stderr[-2000:]}"
    return stub


def test_a_large_markdown_read_carries_the_reminder(qwen_cli: str, project: Path) -> None:
    stub = run_qwen(qwen_cli, project, file_path=str(project / "guide.md"))
    output = stub.tool_output()
    # Qwen Code appends a PostToolUse hook's context to the result, after a blank line.
    assert output.endswith(f"\n\n{REMINDER}")
    prose = body_lines(project / "guide.md")
    assert len(prose) > 20 and all(line in output for line in prose)
    assert output.count("Use mdsel_index") == 1


def test_a_small_markdown_read_carries_none(qwen_cli: str, project: Path) -> None:
    stub = run_qwen(qwen_cli, project, file_path=str(project / "small.md"))
    assert "A few words only." in stub.tool_output()
    assert REMINDER.splitlines()[0] not in stub.after_call()


def test_project_scope_hook_runs_from_path(qwen_cli: str, project: Path) -> None:
    stub = run_qwen(qwen_cli, project, "--scope", "project", file_path=str(project / "guide.md"))
    assert stub.tool_output().endswith(f"\n\n{REMINDER}")
    settings = json.loads((project / ".qwen" / "settings.json").read_text())
    (group,) = settings["hooks"]["PostToolUse"]
    assert group["hooks"][0]["command"].startswith("sh -c 'command -v mdsel-claude")


def test_outline_mode_adds_the_index_after_the_file(qwen_cli: str, project: Path) -> None:
    stub = run_qwen(qwen_cli, project, "--mode", "outline", file_path=str(project / "guide.md"))
    output = stub.tool_output()
    index = mdsel.run_command("index", None, [str(project / "guide.md")]).stdout
    # The hook cannot replace the result: the file stays, the index and reminder follow it.
    assert output.endswith(f"\n\n{index}{REMINDER}")
    assert "h2.0 Installation" in index
    assert all(line in output for line in body_lines(project / "guide.md"))


def test_qwen_mcp_list_shows_the_server_and_then_not(project: Path, qwen_cli: str) -> None:
    install(project)
    env = environment(project)

    def listing() -> str:
        done = subprocess.run(
            [qwen_cli, "mcp", "list"], env=env, cwd=project, capture_output=True, text=True,
            timeout=120, check=False,
        )  # fmt: skip
        return ANSI.sub("", done.stdout + done.stderr)

    def ours(shown: str) -> str:
        return next((x for x in shown.splitlines() if re.search(r"\bmdsel\b", x)), "")

    shown = listing()
    for _ in range(2):
        # The listing waits 10 s for each server; on a loaded machine a start of ours can take
        # longer (the first reads its imports from disk): asked again, warm.
        if "timed out" not in ours(shown):
            break
        shown = listing()
    line = ours(shown)
    assert "mdsel-claude serve" in line and "Connected" in line, shown
    done = subprocess.run(
        ["mdsel-claude", "uninstall", "--client", "qwen"], env=env, cwd=project,
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert not re.search(r"\bmdsel\b", listing())


def test_a_teammate_without_mdsel_claude_sees_no_error(qwen_cli: str, project: Path) -> None:
    stub = run_qwen(
        qwen_cli, project, "--scope", "project", teammate=True, file_path=str(project / "guide.md")
    )
    assert all(line in stub.tool_output() for line in body_lines(project / "guide.md"))
    assert REMINDER.splitlines()[0] not in stub.after_call()


def test_the_instructions_block_reaches_the_model(qwen_cli: str, project: Path) -> None:
    """`install --instructions` puts the block in `~/.qwen/QWEN.md`, which Qwen Code sends the
    model with its system prompt."""
    from tests.e2e.test_instructions_cli import carried

    stub = run_qwen(qwen_cli, project, "--instructions", file_path=str(project / "small.md"))
    assert (project.parent / "home" / ".qwen" / "QWEN.md").exists()
    assert carried(stub.requests[0])
