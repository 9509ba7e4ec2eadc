"""A clone with nothing beside it passes the README's test command, offline.

The clone gets its own fresh .venv, as a new contributor's would: scripts/test.sh installs the
locked requirements into it from .wheelhouse (the same pinned wheels, so no network), then runs
lint, types and a selection of the suite that needs the vendored data: every test is collected,
the corpus and CommonMark tests run. Reusing this venv instead would be faster but would prove
less: the point is that the clone's own files are enough.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT, environ_without

WHEELHOUSE = ROOT / ".wheelhouse"
SELECTION = "corpus or commonmark or test_test_data or real_documents"


@pytest.mark.timeout(2000)
def test_a_bare_clone_runs_its_own_test_command(tmp_path: Path) -> None:
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (or no git): nothing to clone")
    if not any(WHEELHOUSE.glob("*.whl")):
        pytest.skip(f"{WHEELHOUSE} has no locked wheels: scripts/test.sh fills it")
    clone = tmp_path / "fresh"
    subprocess.run([git, "clone", "--quiet", str(ROOT), str(clone)], check=True, timeout=120)
    assert [p.name for p in tmp_path.iterdir()] == ["fresh"]
    env = environ_without("PYTEST_", "PIP_", "MDSEL_", "VIRTUAL_ENV", "PYTHON")
    env |= {
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(WHEELHOUSE),
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        # The selection below drives no agent CLI: the clone installs none (1.2 GB), as the
        # README's switch says, and npm would only use its cache anyway.
        "MDSEL_TEST_SKIP_CLIS": "1",
        "npm_config_offline": "true",
    }
    done = subprocess.run(
        ["scripts/test.sh", "-n", "0", "-q", "-k", SELECTION],
        cwd=clone, env=env, capture_output=True, text=True, timeout=1800, check=False,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-4000:]
    summary = re.search(r"(\d+) passed, (\d+) deselected", output)
    assert summary is not None, output[-2000:]
    passed, deselected = int(summary[1]), int(summary[2])
    assert passed >= 16 + 5 and deselected > 100  # the corpus ran; everything else was collected
    assert "skipped" not in output.splitlines()[-1]
    assert "MDSEL_TEST_SKIP_CLIS is set: no agent CLI is installed" in output
    assert not (clone / "tools" / "clients" / "node_modules").exists()
