"""What the plugin's data folder says about its server's environment: shared by the launcher,
the provisioner and `doctor --plugin`, so that all three read it the same way.

The data folder holds, besides Claude Code's own files:

- `venv-<digest>/`: an environment for one lock file and one Python version; its `ready` mark
  (JSON: the lock's sha256, the Python it was made with) is written last, so its presence
  means the install finished;
- `.venv-*`: an environment being made (or left by a killed attempt: removed by the next);
- `provision.json`: the last attempt, as the provisioner records it (the step it is at, when it
  started, how it ended and why);
- `provision.log`: pip's output in that attempt;
- `server.log`: the real server's output when it was started by the waiting one.

Standard library only: this runs before any dependency is installed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from mdsel_claude import dir_lock

ENV_PREFIX = "venv-"
PARTIAL_PREFIX = ".venv-"
READY = "ready"
RECORD = "provision.json"
LOG = "provision.log"
SERVER_LOG = "server.log"
"""What the real server wrote to stderr as it started under the waiting one (`plugin_wait`)."""
RECONNECT = "then reconnect it in /mcp (Claude Code skips a failed server for 15 minutes)"
"""How a failed start is retried: a restart of Claude Code alone does not, within 15 minutes."""
REQUIRED = ("mcp",)
"""Packages the server cannot start without: a lock that pins none of them is not the plugin's."""
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==\S+", re.MULTILINE)


def data_dir(environ: Mapping[str, str]) -> Path:
    """Where provisioned environments live: the plugin's data directory when Claude Code gives
    one, else the user's data directory."""
    plugin_data = environ.get("CLAUDE_PLUGIN_DATA")
    if plugin_data:
        return Path(plugin_data)
    base = environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "mdsel-claude" / "plugin"


def env_name(lock_text: bytes, version: str = sys.version) -> str:
    """The environment's directory name: changes with the pins and the Python version."""
    digest = hashlib.sha256(lock_text)
    digest.update(version.encode())
    return f"{ENV_PREFIX}{digest.hexdigest()[:16]}"


def env_python(env_dir: Path) -> Path:
    return env_dir / "bin" / "python"


def lock_problem(lock: Path, text: bytes) -> str | None:
    """Why `text` (the plugin's requirements.lock) cannot be installed, or None."""
    pins = {name.lower().replace("_", "-") for name in PIN.findall(text.decode("utf-8", "replace"))}
    if not pins:
        return (
            f"its requirements.lock ({lock}) pins no package, so there is nothing to install the "
            "server from: the plugin's files are damaged; reinstall the plugin "
            "(`claude plugin uninstall mdsel@mdsel-claude`, then `claude plugin install "
            "mdsel@mdsel-claude`)"
        )
    missing = [name for name in REQUIRED if name not in pins]
    if missing:
        return (
            f"its requirements.lock ({lock}) does not pin {', '.join(missing)}, which the server "
            "needs: the plugin's files are damaged or not this plugin's; reinstall the plugin"
        )
    return None


def path_problem(base: Path) -> str | None:
    """Why no virtual environment can be made below `base`, or None."""
    if os.pathsep in str(base):
        return (
            f"its data folder {base} contains {os.pathsep!r}, the PATH separator, and Python "
            "refuses to make a virtual environment in such a path. The folder is below Claude "
            "Code's configuration folder: start Claude Code with CLAUDE_CONFIG_DIR set to a "
            f"folder whose path has no {os.pathsep!r} (or move your home folder's name off it)"
        )
    return None


def usable(env_dir: Path, lock_text: bytes) -> bool:
    """Whether `env_dir` is finished, made for this lock, and its Python still exists (an
    upgrade or uninstall of the Python it was made from leaves a dangling interpreter)."""
    mark = read_json(env_dir / READY)
    if mark is None or mark.get("lock_sha256") != hashlib.sha256(lock_text).hexdigest():
        return False
    if not os.access(env_python(env_dir), os.X_OK):  # follows the link to the base Python
        return False
    home = _venv_home(env_dir)
    return home is None or os.path.isdir(home)


def _venv_home(env_dir: Path) -> str | None:
    try:
        lines = (env_dir / "pyvenv.cfg").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for line in lines.splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "home":
            return value.strip()
    return None


@dataclass(frozen=True)
class Attempt:
    """The provisioner's record of its last attempt."""

    env: str
    """The environment it makes (`venv-<digest>`)."""
    pid: int
    started: float
    """When it started (seconds since the epoch)."""
    step: str
    """What it is doing, or did last."""
    outcome: str
    """`running`, `ready` or `failed`."""
    reason: str
    """Why it failed (empty otherwise)."""
    updated: float


def read_attempt(base: Path) -> Attempt | None:
    data = read_json(base / RECORD)
    if data is None:
        return None
    try:
        return Attempt(
            env=str(data["env"]),
            pid=int(str(data["pid"])),
            started=float(str(data["started"])),
            step=str(data["step"]),
            outcome=str(data["outcome"]),
            reason=str(data.get("reason", "")),
            updated=float(str(data["updated"])),
        )
    except (KeyError, TypeError, ValueError):
        return None


def write_attempt(base: Path, attempt: Attempt) -> None:
    """Replace the record at once (a reader never sees half of one)."""
    text = json.dumps(attempt.__dict__, indent=1)
    fd, temp = tempfile.mkstemp(prefix=f".{RECORD}.", dir=base)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temp, base / RECORD)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def running(base: Path) -> bool:
    """Whether a provisioner is at work in `base` (it holds the folder's lock while it is)."""
    return dir_lock.held(base)


def read_json(path: Path) -> dict[str, object] | None:
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def since(start: float, now: float | None = None) -> str:
    """`start` to now, said as a person would: `45 s`, `3 min 5 s`."""
    seconds = max(0, int((time.time() if now is None else now) - start))
    if seconds < 60:
        return f"{seconds} s"
    return f"{seconds // 60} min {seconds % 60} s"
