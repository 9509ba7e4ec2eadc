"""Setup against the real Claude Code CLI beyond one install: a teammate without mdsel-claude,
a program that is gone, `uninstall --all`, `doctor --client` with the clients' own CLIs.

Pinned CLIs from tools/clients (skipped, saying why, when missing); a temporary HOME; the model
is the local stand-in `anthropic_stub`.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import BIN
from tests.e2e.anthropic_stub import messages_api
from tests.e2e.test_claude_cli import Sandbox, claude_cli, client, installed, sandbox, server_lines
from tests.e2e.test_clients_cli import env, mdsel_lines, run

__all__ = ["claude_cli", "env", "sandbox"]  # fixtures, used by name


def read_session(sandbox: Sandbox) -> tuple[list[dict[str, object]], str]:
    """A real `claude -p` session that Reads a large Markdown file: its stream of events (hook
    events included) and what it sent the model after the Read."""
    big = sandbox.project / "big.md"
    big.write_text("# Notes\n\n" + "word " * 400 + "\n")
    with messages_api(str(big)) as (url, stub):
        environ = {
            **sandbox.env,
            "ANTHROPIC_BASE_URL": url,
            "ANTHROPIC_API_KEY": "sk-ant-test",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        }
        argv = ["claude", "-p", "Read big.md", "--allowedTools", "Read", "--output-format",
                "stream-json", "--verbose", "--include-hook-events"]  # fmt: skip
        done = subprocess.run(
            argv, env=environ, cwd=sandbox.project, capture_output=True, text=True,
            timeout=180, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        sent = stub.after_read()
    big.unlink()
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return events, sent


def test_project_hook_without_mdsel_claude_is_silent(sandbox: Sandbox) -> None:
    """The shared hook, for a teammate who never installed mdsel-claude: exit 0, no output,
    no "A hook gave no usable answer", and the Read goes through. With it: the reminder."""
    installed(sandbox)
    done = sandbox.run("mdsel-claude", "install", "--scope", "project")
    assert done.returncode == 0, done.stderr
    events, sent = read_session(sandbox)
    assert "Use mdsel_index and mdsel_select instead of Read." in sent

    sandbox.env["PATH"] = os.pathsep.join(
        p for p in sandbox.env["PATH"].split(os.pathsep) if p != str(BIN)
    )
    assert sandbox.run("sh", "-c", "command -v mdsel-claude").returncode != 0
    events, sent = read_session(sandbox)
    responses = [e for e in events if e.get("subtype") == "hook_response"]
    assert responses, events  # the hook did run
    for response in responses:
        assert response["exit_code"] == 0 and response["outcome"] == "success", response
        assert response["stdout"] == "" and response["stderr"] == ""
    assert not [e for e in events if e.get("tag") == "hook_no_verdict"]
    assert "word word word" in sent and "mdsel_index and mdsel_select instead" not in sent


def test_the_old_bare_project_hook_did_fail(sandbox: Sandbox) -> None:
    """What the guard prevents, in the same CLI: the bare command of earlier installs."""
    settings = sandbox.project / ".claude" / "settings.json"
    settings.parent.mkdir()
    hook = {"type": "command", "command": "mdsel-claude hook --min-words 200"}
    settings.write_text(
        json.dumps({"hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [hook]}]}})
    )
    events, _ = read_session(sandbox)
    assert [e for e in events if e.get("tag") == "hook_no_verdict"], events


def test_uninstall_all_after_the_program_is_gone(sandbox: Sandbox, tmp_path: Path) -> None:
    """Installed by an mdsel-claude that is then removed (as `pipx uninstall` does): Claude
    Code fails to start the server; doctor names it and the fix; `uninstall --all`, run by
    another installation, leaves Claude Code with nothing of ours in either project."""
    old_bin = tmp_path / "old-bin"
    old_bin.mkdir()
    old = old_bin / "mdsel-claude"
    old.symlink_to(BIN / "mdsel-claude")
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)
    for project in (sandbox.project, other):
        done = sandbox.run(str(old), "install", cwd=project)
        assert done.returncode == 0, done.stderr
    old.unlink()
    [line] = server_lines(sandbox.run("claude", "mcp", "list").stdout, "mdsel")
    assert "Connected" not in line

    installed(sandbox)
    doctor = sandbox.run("mdsel-claude", "doctor")
    assert doctor.returncode == 1 and f"runs {old}, which no longer exists" in doctor.stdout
    everywhere = sandbox.run("mdsel-claude", "doctor", "--all")
    assert everywhere.returncode == 1 and everywhere.stdout.count("no longer exists") == 4
    removed = sandbox.run("mdsel-claude", "uninstall", "--all")
    assert removed.returncode == 0, removed.stderr
    for project in (sandbox.project, other):
        listing = sandbox.run("claude", "mcp", "list", cwd=project).stdout
        assert server_lines(listing, "mdsel") == [], listing
        assert sorted(os.listdir(project)) == [".git"]
    assert sandbox.run("mdsel-claude", "doctor", "--all").returncode == 0


@pytest.mark.parametrize(
    ("name", "cli"), [("gemini", "gemini"), ("opencode", "opencode"), ("codex", "codex")]
)
def test_doctor_client_agrees_with_the_client(
    env: dict[str, str], tmp_path: Path, name: str, cli: str
) -> None:
    program = client(cli)
    project = tmp_path / "project"

    def setup(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["mdsel-claude", *argv], env=env, cwd=project, capture_output=True, text=True,
            timeout=60, check=False,
        )  # fmt: skip

    assert setup("doctor", "--client", name).returncode == 1
    assert setup("install", "--client", name).returncode == 0
    assert mdsel_lines(run([program, "mcp", "list"], env, project))
    doctor = setup("doctor", "--client", name)
    assert doctor.returncode == 0, doctor.stdout
    assert "ours, runs" in doctor.stdout and "ok: answers initialize" in doctor.stdout
    assert setup("uninstall", "--client", name).returncode == 0
    assert mdsel_lines(run([program, "mcp", "list"], env, project)) == []
    assert setup("doctor", "--client", name).returncode == 1
