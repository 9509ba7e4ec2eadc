"""Our hook inside the real Gemini CLI: what reaches the model after a `read_file`.

`gemini -p` (the version pinned in tools/clients) runs against a stand-in Gemini API on
127.0.0.1 (gemini_stub.py, reached through GOOGLE_GEMINI_BASE_URL with an API key that is not
one) whose first answer calls `read_file` on a Markdown file; the request the CLI sends next
carries the tool's `functionResponse`, as the model would see it. The hook is registered by the
real `mdsel-claude install --client gemini` in a temporary HOME, and the project folder is
trusted (Gemini CLI runs no hook elsewhere). Nothing uses the network.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import mdsel
from tests.conftest import environ_without
from tests.e2e.gemini_stub import Stub, gemini_api
from tests.e2e.test_claude_cli import client
from tests.e2e.test_claude_read_hook import body_lines, guide

REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)
FIRST_LINE = REMINDER.splitlines()[0]
CONTEXT = f"\n\n<hook_context>{REMINDER}</hook_context>"
"""How Gemini CLI appends a hook's additionalContext to the tool's output."""
MODEL = "gemini-2.5-flash"
"""Named, so that the CLI asks no routing model first (the stand-in is no classifier)."""
SETTINGS = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    "privacy": {"usageStatisticsEnabled": False},
}
"""What the user had before install: an API key login, and nothing that calls home."""


@pytest.fixture(scope="module")
def gemini_cli() -> str:
    return client("gemini")


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
    (home / ".gemini").mkdir(parents=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps(SETTINGS))
    trusted = {str(project): "TRUST_FOLDER"}
    (home / ".gemini" / "trustedFolders.json").write_text(json.dumps(trusted))
    return project


def environment(project: Path) -> dict[str, str]:
    env = environ_without("GEMINI_", "GOOGLE_", "MDSEL_", "XDG_")
    env["HOME"] = str(project.parent / "home")
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), "/usr/bin", "/bin"])
    # A temporary directory of the test's own: the checkout (whose mdsel-claude is installed)
    # may itself lie in the system's, where setup would take it for short-lived.
    scratch = project.parent / "tmp"
    scratch.mkdir(exist_ok=True)
    env["TMPDIR"] = str(scratch)
    return env


def run_gemini(gemini_cli: str, project: Path, *install: str, **read: Any) -> Stub:
    """`mdsel-claude install --client gemini *install`, then one `gemini -p` turn whose model
    calls read_file with `read`; the recorded API traffic."""
    env = environment(project)
    installed = subprocess.run(
        ["mdsel-claude", "install", "--client", "gemini", "--min-words", "200", *install],
        env=env,
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert installed.returncode == 0, installed.stderr
    with gemini_api("read_file", read) as (url, stub):
        env.update(GOOGLE_GEMINI_BASE_URL=url, GEMINI_API_KEY="test-not-a-key")
        done = subprocess.run(
            [gemini_cli, "-p", "Read the document.", "--yolo", "-m", MODEL],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    assert stub.tool_response(), f"the session never ran read_file: {done.stderr[-2000:]}"
    return stub


def test_a_large_markdown_read_carries_the_reminder(gemini_cli: str, project: Path) -> None:
    stub = run_gemini(gemini_cli, project, file_path="guide.md")
    output = stub.tool_response()["output"]
    assert output.endswith(CONTEXT)
    prose = body_lines(project / "guide.md")
    assert len(prose) > 20
    assert all(line in output for line in prose)
    assert output.count("Use mdsel_index") == 1


def test_a_small_markdown_read_carries_none(gemini_cli: str, project: Path) -> None:
    stub = run_gemini(gemini_cli, project, file_path=str(project / "small.md"))
    response = stub.tool_response()
    assert "A few words only." in response["output"]
    assert "hook_context" not in response["output"]
    # The server's instructions (install registered it too) name the tools; the reminder is not
    # anywhere in what the model is sent.
    assert FIRST_LINE not in stub.after_tool()


def test_project_scope_hook_runs_from_path(gemini_cli: str, project: Path) -> None:
    stub = run_gemini(gemini_cli, project, "--scope", "project", file_path="guide.md")
    assert stub.tool_response()["output"].endswith(CONTEXT)
    settings = json.loads((project / ".gemini" / "settings.json").read_text())
    (group,) = settings["hooks"]["AfterTool"]
    assert group["hooks"][0]["command"].startswith("sh -c 'command -v mdsel-claude")


def test_outline_mode_puts_the_index_in_place_of_the_file(gemini_cli: str, project: Path) -> None:
    stub = run_gemini(gemini_cli, project, "--mode", "outline", file_path="guide.md")
    response = stub.tool_response()
    # A hook's denial reaches the model as the call's error, in place of its output.
    assert set(response) == {"error"}
    shown = response["error"]
    index = mdsel.run_command("index", None, [str(project / "guide.md")]).stdout
    assert shown == index + REMINDER
    assert "h2.0 Installation" in shown and "h3.0 Installation step 1" in shown
    assert not [line for line in body_lines(project / "guide.md") if line in shown]


def test_outline_mode_leaves_some_lines_alone(gemini_cli: str, project: Path) -> None:
    stub = run_gemini(
        gemini_cli, project, "--mode", "outline", file_path="guide.md", start_line=40, end_line=60
    )
    output = stub.tool_response()["output"]
    lines = (project / "guide.md").read_text(encoding="utf-8").splitlines()
    assert lines[39] in output and lines[59] in output
    assert lines[70] not in output
    assert FIRST_LINE not in stub.after_tool()
