"""Provision the plugin's MCP server: the locked dependencies in a virtual environment.

Used by `launch` (see there) when Claude Code starts the plugin's server: on first start the
dependencies of `requirements.lock` are installed with pip into a virtual environment in the
plugin's data directory (`CLAUDE_PLUGIN_DATA`, which Claude Code sets for plugin servers and
hooks; else `$XDG_DATA_HOME/mdsel-claude/plugin`), named after a digest of the lock file and the
Python version, so a plugin update with new pins provisions afresh and every later start reuses
it. The server then runs that environment's Python on the plugin's `src/`.

pip takes its usual settings from the environment, so `PIP_INDEX_URL`, or `PIP_NO_INDEX=1`
with `PIP_FIND_LINKS=<wheel directory>` on a machine without network, apply as usual.

Runs under whatever `python3` is on PATH: standard library only.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The plugin (repository) root: this file is `src/mdsel_claude/provision.py`."""
SRC = ROOT / "src"
LOCK = ROOT / "requirements.lock"
READY = "ready"
"""Written last into a provisioned environment: its presence means the install finished."""


class LaunchError(Exception):
    """Provisioning failed; said in one line, with what to do."""


def data_dir(environ: Mapping[str, str]) -> Path:
    """Where provisioned environments live: the plugin's data directory when Claude Code gives
    one, else the user's data directory."""
    plugin_data = environ.get("CLAUDE_PLUGIN_DATA")
    if plugin_data:
        return Path(plugin_data)
    base = environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "mdsel-claude" / "plugin"


def env_name(lock_text: bytes) -> str:
    """The environment's directory name: changes with the pins and the Python version."""
    digest = hashlib.sha256(lock_text)
    digest.update(sys.version.encode())
    return f"venv-{digest.hexdigest()[:16]}"


def env_python(env_dir: Path) -> Path:
    return env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """One provisioning at a time per data directory (two sessions may start together)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: the rename below still keeps a half install invisible
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _run(argv: Sequence[str], what: str) -> None:
    # pip's progress goes to stderr, which Claude Code keeps in the server's log; stdout is
    # the MCP channel and must stay clean.
    result = subprocess.run(list(argv), stdout=sys.stderr, stdin=subprocess.DEVNULL, check=False)
    if result.returncode != 0:
        raise LaunchError(f"{what} failed (exit status {result.returncode}): see the output above")


def provision(environ: Mapping[str, str]) -> Path:
    """The Python of an environment with the locked dependencies, installing it if needed."""
    lock_text = LOCK.read_bytes()
    base = data_dir(environ)
    env_dir = base / env_name(lock_text)
    if (env_dir / READY).is_file():
        return env_python(env_dir)
    base.mkdir(parents=True, exist_ok=True)
    with _locked(base):
        if (env_dir / READY).is_file():  # another start finished it while we waited
            return env_python(env_dir)
        sys.stderr.write(f"mdsel-claude: first start, installing dependencies into {env_dir}\n")
        temp = Path(tempfile.mkdtemp(prefix=".venv-", dir=base))
        try:
            _run([sys.executable, "-m", "venv", str(temp)], "creating a virtual environment")
            pip = [str(env_python(temp)), "-m", "pip", "install", "--quiet"]
            _run([*pip, "--disable-pip-version-check", "-r", str(LOCK)], "pip install")
            (temp / READY).write_text(lock_text.decode("utf-8", "replace"))
            # Scripts in the environment hold its path, but only its Python is ever run (with
            # `-m`), and a venv's Python finds its packages relative to itself: moving is safe.
            shutil.rmtree(env_dir, ignore_errors=True)
            temp.rename(env_dir)
        finally:
            shutil.rmtree(temp, ignore_errors=True)
        _remove_stale(base, env_dir)
    return env_python(env_dir)


def _remove_stale(base: Path, keep: Path) -> None:
    """Environments of older pins: nothing will run them again."""
    for old in base.glob("venv-*"):
        if old != keep:
            shutil.rmtree(old, ignore_errors=True)


def serve(args: Sequence[str]) -> int:
    """Provision if needed, then become the server (exec); 1 when provisioning failed."""
    try:
        python = provision(os.environ)
    except (LaunchError, OSError) as error:
        sys.stderr.write(
            f"mdsel-claude: cannot start the MCP server: {error}. The plugin installs its "
            f"dependencies with `{sys.executable} -m venv` and pip on first start; on Debian "
            "and Ubuntu that needs the python3-venv package, and pip needs the network (or "
            "PIP_NO_INDEX=1 and PIP_FIND_LINKS=<wheels>). Or install mdsel-claude yourself "
            "and use `mdsel-claude install` instead of the plugin.\n"
        )
        return 1
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    argv = [str(python), "-m", "mdsel_claude", "serve", *args]
    if os.name == "nt":  # no exec that keeps the stdio handles on Windows
        return subprocess.run(argv, env=env, check=False).returncode
    os.execve(argv[0], argv, env)
    return 1  # not reached
