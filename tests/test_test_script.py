"""scripts/test.sh: what it says it fetches is what it fetches; its switch skips the agent CLIs."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from tests.conftest import ROOT

SCRIPT = (ROOT / "scripts" / "test.sh").read_text()
CLIENTS = ROOT / "tools" / "clients" / "node_modules"


def test_the_announced_size_of_the_agent_clis_is_what_they_take() -> None:
    match = re.search(r"^clients_mb=(\d+) ", SCRIPT, re.MULTILINE)
    assert match is not None
    announced = int(match[1]) * 1e6
    if not (CLIENTS / ".installed-lock").is_file():
        pytest.skip("the agent CLIs are not installed (scripts/test.sh without the switch)")
    taken, seen = 0, set()
    for folder, _, names in os.walk(CLIENTS):
        for name in names:
            info = os.lstat(os.path.join(folder, name))
            if (info.st_dev, info.st_ino) not in seen:  # a hard link counts once, as in du
                seen.add((info.st_dev, info.st_ino))
                taken += info.st_blocks * 512
    assert 0.75 * announced <= taken <= 1.25 * announced, taken


def test_the_switch_is_documented_and_skips_the_cli_tests() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "MDSEL_TEST_SKIP_CLIS=1 scripts/test.sh" in readme
    assert "MDSEL_TEST_SKIP_CLIS" in SCRIPT
    env = {**os.environ, "MDSEL_TEST_SKIP_CLIS": "1"}
    env.pop("PYTEST_ADDOPTS", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-rs",
         "tests/e2e/test_claude_cli.py::test_plugin_layout_validates_strictly"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 skipped" in done.stdout
    assert "MDSEL_TEST_SKIP_CLIS is set" in done.stdout


def test_scripts_keep_lf_line_ends_in_any_checkout() -> None:
    """A checkout with core.autocrlf (Windows) must not turn the scripts' line ends into CRLF:
    bash would then fail on every line."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    names = ["scripts/test.sh", "scripts/demo.sh", ".ci/run", "src/mdsel/cli.py"]
    done = subprocess.run(
        ["git", "check-attr", "eol", "--", *names], cwd=ROOT, capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    assert done.stdout.splitlines() == [f"{name}: eol: lf" for name in names]
