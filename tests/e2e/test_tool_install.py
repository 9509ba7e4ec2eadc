"""`pipx install .` and `uv tool install .` give working `mdsel` and `mdsel-claude` commands.

Offline: both install from .wheelhouse (the locked wheels, filled by scripts/test.sh), with every
index switched off, into a temporary HOME; the pipx and uv used are the pinned ones of the venv.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from mdsel import __version__
from mdsel.cli import run as cli_run
from tests.conftest import FIXTURES, ROOT

WHEELHOUSE = ROOT / ".wheelhouse"
TOOLS = Path(sys.executable).parent
INSTALL_TIMEOUT_SECONDS = 300


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """What `.` holds for the build: the project's own files, without caches or venvs."""
    if not any(WHEELHOUSE.glob("hatchling-*.whl")):
        pytest.skip(f"{WHEELHOUSE} has no locked wheels: scripts/test.sh fills it")
    target = tmp_path / "project"
    target.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, target / name)
    skipped = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "src", target / "src", ignore=skipped)
    return target


def offline_env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(WHEELHOUSE),
        "PIP_CONFIG_FILE": "/dev/null",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "UV_NO_CONFIG": "1",
        "UV_OFFLINE": "1",
        "UV_PYTHON_DOWNLOADS": "never",
        "UV_CACHE_DIR": str(tmp_path / "uv-cache"),
    }


def install(argv: list[str], cwd: Path, env: dict[str, str]) -> None:
    done = subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True,
        timeout=INSTALL_TIMEOUT_SECONDS, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def assert_commands_work(bin_dir: Path) -> None:
    def run(*argv: str, stdin: str = "") -> str:
        done = subprocess.run(
            [str(bin_dir / argv[0]), *argv[1:]], input=stdin, capture_output=True, text=True,
            timeout=60, check=True,
        )  # fmt: skip
        return done.stdout

    assert run("mdsel", "--version") == f"mdsel {__version__}\n"
    assert run("mdsel-claude", "--version") == f"mdsel-claude {__version__}\n"
    document = str(FIXTURES / "structure.md")
    expected = cli_run(["select", "h2.1/table.0", document], {}).stdout
    assert run("mdsel", "select", "h2.1/table.0", document) == expected
    payload: dict[str, object] = {"hook_event_name": "PreToolUse", "tool_name": "Read"}
    payload["tool_input"] = {"file_path": str(ROOT / "tests" / "corpus" / "fastapi_readme.md")}
    reminder = json.loads(run("mdsel-claude", "hook", stdin=json.dumps(payload)))
    assert "mdsel_index" in json.dumps(reminder)


def test_pipx_install_dot(project: Path, tmp_path: Path) -> None:
    env = offline_env(tmp_path)
    env |= {
        "PIPX_HOME": str(tmp_path / "pipx"),
        "PIPX_BIN_DIR": str(tmp_path / "bin"),
        "PIPX_MAN_DIR": str(tmp_path / "man"),
        # pip is pipx's classic backend and what most users have; uv is tested below.
        "PIPX_DEFAULT_BACKEND": "pip",
    }
    install([str(TOOLS / "pipx"), "install", "."], project, env)
    assert_commands_work(tmp_path / "bin")


def test_uv_tool_install_dot(project: Path, tmp_path: Path) -> None:
    env = offline_env(tmp_path)
    env |= {"UV_TOOL_DIR": str(tmp_path / "tools"), "UV_TOOL_BIN_DIR": str(tmp_path / "bin")}
    install(
        [str(TOOLS / "uv"), "tool", "install", "--no-index", "--find-links", str(WHEELHOUSE),
         "--python", sys.executable, "."],
        project, env,
    )  # fmt: skip
    assert_commands_work(tmp_path / "bin")


def test_the_wheel_is_one_pure_python_wheel_for_every_platform(
    project: Path, tmp_path: Path
) -> None:
    """Nothing is compiled at install: the wheel is tagged py3-none-any and holds no binary."""
    out = tmp_path / "dist"
    done = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), "."],
        cwd=project, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_SECONDS, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    wheels = list(out.glob("*.whl"))
    assert [wheel.name.endswith("-py3-none-any.whl") for wheel in wheels] == [True], wheels
    with zipfile.ZipFile(wheels[0]) as archive:
        names = archive.namelist()
    assert "mdsel/scan_events.py" in names
    assert not [name for name in names if name.endswith((".so", ".pyd", ".c", ".dylib"))]
