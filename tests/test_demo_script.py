"""scripts/demo.sh: installs once, then reuses the venv; shows `index`, `select` and what next.

FILE is named from where the user stands, not from the repository.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from mdsel.cli import run as cli_run
from tests.conftest import ROOT

WHEELHOUSE = ROOT / ".wheelhouse"


def test_demo_installs_once_then_indexes_and_selects(tmp_path: Path) -> None:
    if not any(WHEELHOUSE.glob("pyromark-*.whl")):
        pytest.skip(f"{WHEELHOUSE} has no locked wheels: scripts/test.sh fills it")
    project = tmp_path / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE", "requirements.lock"):
        shutil.copy(ROOT / name, project / name)
    skipped = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "src", project / "src", ignore=skipped)
    shutil.copytree(ROOT / "scripts", project / "scripts")
    env = {key: value for key, value in os.environ.items() if not key.startswith("PIP_")}
    env |= {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(WHEELHOUSE), "PIP_CONFIG_FILE": os.devnull}

    def demo(*argv: str, cwd: Path = project) -> str:
        done = subprocess.run(
            [str(project / "scripts" / "demo.sh"), *argv], cwd=cwd, env=env, capture_output=True,
            text=True, timeout=300, check=True,
        )  # fmt: skip
        return done.stdout

    first = demo()
    venv_config = project / ".venv" / "pyvenv.cfg"
    installed_at = venv_config.stat().st_mtime_ns
    index = cli_run(["index", "README.md"], {}, cwd=str(project)).stdout
    section = cli_run(["select", "h2.0?head=12", "README.md"], {}, cwd=str(project)).stdout
    bin_dir = project / ".venv" / "bin"
    next_steps = (
        f"\nmdsel and mdsel-claude are installed in {bin_dir} (not on your PATH). Next:\n"
        f"  {bin_dir}/mdsel index FILE.md        any Markdown file, directory or glob\n"
    )
    assert first.startswith(
        f"$ mdsel index README.md\n{index}\n$ mdsel select 'h2.0?head=12' README.md\n{section}"
        + next_steps
    )
    assert first.endswith("  mdsel-claude install            then restart claude: the tools and "
                          "the Read hook in Claude Code\n")  # fmt: skip
    # Unchanged lock: the venv is reused as it is, not created or installed into again.
    assert demo() == first
    assert venv_config.stat().st_mtime_ns == installed_at
    # FILE is named from where the user stands, not from the repository.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "flat.md").write_text("Only a paragraph, no headings.\n", encoding="utf-8")
    flat = demo("flat.md", cwd=elsewhere)
    assert flat.startswith("$ mdsel index flat.md\n")
    assert (
        "$ mdsel select 'root?head=12' flat.md\n==> flat.md root?head=12 (untitled) L1-1 <==\n"
        "Only a paragraph, no headings.\n[head=12: all 1 line of root]\n\n"
    ) in flat
    assert flat.endswith(first[first.index(next_steps) :])
