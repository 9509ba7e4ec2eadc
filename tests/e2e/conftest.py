"""The real Claude Code CLI for the end-to-end tests, or a skip that says why it is missing.

It is taken from PATH, or installed with npm into a temporary prefix (once per test process);
without npm or network the tests that need it are skipped.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

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
