"""The hook inside the real Codex CLI: what reaches the model after a shell command reads a file.

`mdsel-claude install --client codex` writes the server, the hook and Codex's trust in it into a
temporary `~/.codex/config.toml` that already makes a stand-in for the Responses API on
127.0.0.1 (openai_stub.py) Codex's model provider. `codex exec` (the version pinned in
tools/clients) then runs one turn whose model calls the shell tool once; the next request Codex
sends is what the model would see. No flag bypasses Codex's hook trust: the hook runs because
install trusted it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import environ_without
from tests.e2e.openai_stub import Stub, base_url_override, provider_config, responses_api
from tests.e2e.test_claude_cli import client
from tests.e2e.test_claude_read_hook import REMINDER, body_lines, guide

KEY_VARIABLE = "MDSEL_TEST_STUB_KEY"


@pytest.fixture(scope="module")
def codex_cli() -> str:
    return client("codex")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "guide.md").write_text(guide(), encoding="utf-8")
    (folder / "small.md").write_text("# Notes\n\nA short note of a few words.\n", "utf-8")
    return folder


def mdsel_claude(env: dict[str, str], *args: str) -> str:
    script = Path(sys.executable).parent / "mdsel-claude"
    if not script.exists():
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    done = subprocess.run(
        [str(script), *args], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def installed(tmp_path: Path, *options: str, codex_home: Path | None = None) -> dict[str, str]:
    """A temporary HOME whose Codex uses the stand-in, after `install --client codex`
    (with `options`); the environment to run Codex in."""
    env = environ_without("OPENAI_", "CODEX_", "MDSEL_", "XDG_")
    env.update(HOME=str(tmp_path / "home"), XDG_STATE_HOME=str(tmp_path / "state"))
    env[KEY_VARIABLE] = "sk-test-not-a-key"
    if codex_home is not None:
        env["CODEX_HOME"] = str(codex_home)
    folder = codex_home or tmp_path / "home" / ".codex"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.toml").write_text(provider_config(KEY_VARIABLE), encoding="utf-8")
    mdsel_claude(env, "install", "--client", "codex", "--min-words", "200", *options)
    return env


def run_codex(codex_cli: str, env: dict[str, str], project: Path, command: str) -> Stub:
    """One `codex exec` turn whose model runs `command`; the recorded API traffic."""
    with responses_api(command) as (url, stub):
        options = [*base_url_override(url), "--skip-git-repo-check", "--sandbox", "read-only"]
        done = subprocess.run(
            [codex_cli, "exec", *options, "Read it."],
            cwd=project,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=100,
            check=False,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    assert stub.tool_output(), f"the session never ran the command\n{done.stdout}{done.stderr}"
    return stub


@pytest.mark.parametrize(
    "command", ["cat docs/guide.md", "sed -n '1,400p' docs/guide.md", "cd docs && nl guide.md"]
)
def test_a_large_markdown_read_carries_the_reminder(
    codex_cli: str, tmp_path: Path, project: Path, command: str
) -> None:
    stub = run_codex(codex_cli, installed(tmp_path), project, command)
    shown = stub.tool_output()
    prose = body_lines(project / "docs" / "guide.md")
    assert len(prose) > 20
    # The command's output reaches the model as it was; the reminder comes beside it.
    assert prose[0] in shown and prose[-1] in shown
    assert REMINDER not in shown
    assert stub.developer_notes().count(REMINDER) == 1


@pytest.mark.parametrize("command", ["head -5 docs/guide.md", "cat small.md"])
def test_a_small_read_carries_none(
    codex_cli: str, tmp_path: Path, project: Path, command: str
) -> None:
    stub = run_codex(codex_cli, installed(tmp_path), project, command)
    assert "Use mdsel_index" not in str(stub.after_tool())


def test_after_the_command_with_codex_home_a_link(
    codex_cli: str, tmp_path: Path, project: Path
) -> None:
    # Codex names the file by its real path in trust keys when CODEX_HOME is a link.
    real = tmp_path / "real-codex-home"
    real.mkdir()
    (tmp_path / "linked").symlink_to(real)
    env = installed(tmp_path, "--event", "PostToolUse", codex_home=tmp_path / "linked")
    stub = run_codex(codex_cli, env, project, "cat docs/guide.md")
    assert stub.developer_notes().count(REMINDER) == 1


def test_uninstall_takes_the_hook_away(codex_cli: str, tmp_path: Path, project: Path) -> None:
    env = installed(tmp_path)
    mdsel_claude(env, "uninstall", "--client", "codex")
    config = (tmp_path / "home" / ".codex" / "config.toml").read_text(encoding="utf-8")
    assert config == provider_config(KEY_VARIABLE)
    stub = run_codex(codex_cli, env, project, "cat docs/guide.md")
    assert "Use mdsel_index" not in str(stub.after_tool())
