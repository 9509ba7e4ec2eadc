"""Against the real Claude Code CLI: user-scope install connects, the plugin validates and connects.

The CLI is taken from PATH, or installed with npm into a temporary prefix; without npm or
network the tests are skipped and say why. Every run uses a temporary HOME, never the real one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import BIN

REPO = Path(__file__).resolve().parents[2]
PLUGIN_FILES = (".claude-plugin", "hooks", ".mcp.json")
NPM_TIMEOUT_SECONDS = 90


@pytest.fixture(scope="session")
def claude_cli(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Path of a working `claude` executable, or skip."""
    found = shutil.which("claude")
    if found is None:
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed, so the Claude Code CLI cannot be installed")
        prefix = tmp_path_factory.mktemp("claude-cli")
        try:
            result = subprocess.run(
                [
                    npm,
                    "install",
                    "--prefix",
                    str(prefix),
                    "--no-audit",
                    "--no-fund",
                    "@anthropic-ai/claude-code",
                ],
                capture_output=True,
                text=True,
                timeout=NPM_TIMEOUT_SECONDS,
                check=False,
            )
        except subprocess.TimeoutExpired:
            pytest.skip(f"npm install @anthropic-ai/claude-code took over {NPM_TIMEOUT_SECONDS} s")
        if result.returncode != 0:
            tail = result.stderr.strip().splitlines()[-3:]
            pytest.skip(
                "npm could not install @anthropic-ai/claude-code (no network or registry?): "
                + " | ".join(tail)
            )
        found = str(prefix / "node_modules" / ".bin" / "claude")
    try:
        version = subprocess.run(
            [found, "--version"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        pytest.skip(f"the claude CLI at {found} does not run: {error}")
    if version.returncode != 0:
        pytest.skip(f"the claude CLI at {found} does not run: {version.stderr.strip()[:200]}")
    return found


@pytest.fixture
def sandbox(tmp_path: Path, claude_cli: str) -> Iterator[tuple[dict[str, str], Path]]:
    """An environment with a temporary HOME, `claude` and `mdsel-claude` on PATH; a project."""
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "project"
    project.mkdir()
    scripts = BIN
    if not (scripts / "mdsel-claude").exists():
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("CLAUDE_CONFIG_DIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "MDSEL_MIN_WORDS")
    }
    env["HOME"] = str(home)
    path = [str(Path(claude_cli).parent), str(scripts), env.get("PATH", "/usr/bin:/bin")]
    env["PATH"] = os.pathsep.join(path)
    yield env, project


def run(argv: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=100, check=False
    )


def server_lines(listing: str, name: str) -> list[str]:
    return [line for line in listing.splitlines() if line.startswith(f"{name}: ")]


def test_user_scope_install_connects(sandbox: tuple[dict[str, str], Path]) -> None:
    env, project = sandbox
    installed = run(["mdsel-claude", "install", "--scope", "user"], env, project)
    assert installed.returncode == 0, installed.stderr
    assert "claude mcp add -s user mdsel" in installed.stdout

    listing = run(["claude", "mcp", "list"], env, project)
    assert listing.returncode == 0, listing.stderr
    [line] = server_lines(listing.stdout, "mdsel")
    assert "mdsel-claude serve" in line and "Connected" in line, listing.stdout

    doctor = run(["mdsel-claude", "doctor"], env, project)
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr

    removed = run(["mdsel-claude", "uninstall", "--scope", "user"], env, project)
    assert removed.returncode == 0, removed.stderr
    assert server_lines(run(["claude", "mcp", "list"], env, project).stdout, "mdsel") == []
    assert not (Path(env["HOME"]) / ".claude" / "settings.json").exists()


def test_plugin_layout_validates(claude_cli: str, tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path)}
    env.pop("CLAUDE_CONFIG_DIR", None)
    # `.` is the marketplace (it lists the plugin); the manifest path checks plugin and hooks.
    for target in (".", ".claude-plugin/plugin.json"):
        result = run([claude_cli, "plugin", "validate", target, "--strict"], env, REPO)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "Validation passed" in result.stdout


def test_plugin_installs_and_connects(sandbox: tuple[dict[str, str], Path], tmp_path: Path) -> None:
    env, project = sandbox
    marketplace = tmp_path / "marketplace"
    marketplace.mkdir()
    for name in PLUGIN_FILES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, marketplace / name)
        else:
            shutil.copy(source, marketplace / name)
    added = run(["claude", "plugin", "marketplace", "add", str(marketplace)], env, project)
    assert added.returncode == 0, added.stdout + added.stderr
    plugin = run(["claude", "plugin", "install", "mdsel-claude@mdsel-claude"], env, project)
    assert plugin.returncode == 0, plugin.stdout + plugin.stderr

    listing = run(["claude", "mcp", "list"], env, project)
    [line] = server_lines(listing.stdout, "plugin:mdsel-claude:mdsel")
    assert "Connected" in line, listing.stdout
    doctor = run(["mdsel-claude", "doctor"], env, project)
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "plugin mdsel-claude" in doctor.stdout
