"""What `doctor --plugin` checks of what the plugin will really run: the Python its launcher
picks from PATH, the server's environment in the plugin's data folder (ready for the lock the
installed copy carries, being made, or failed and why), and whether Claude Code is skipping the
server after a failed start.

The launcher's own rules are used (`launch`, `provision_state`), so doctor and the plugin agree;
the only programs run are the Pythons on PATH that the launcher would run, each asked its
version and nothing else.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Mapping
from pathlib import Path

from mdsel_claude import launch, provision_state
from mdsel_claude.setup import jsonfile
from mdsel_claude.setup.jsonfile import ConfigFileError
from mdsel_claude.setup.probes import Report

SKIP_FILE = "mcp-needs-auth-cache.json"
"""Where Claude Code records a server that failed to start (a timeout or an error answer to
`initialize` alike), and skips it in sessions for `SKIP_SECONDS`; `claude mcp list` still
starts it, and says Connected once it works, while sessions go on skipping it."""
SKIP_SECONDS = 15 * 60
SERVER = "plugin:{plugin}:mdsel"
"""The plugin's server as Claude Code names it (`claude mcp list`, the skip file)."""


def version_of(python: str) -> str | None:
    """`sys.version` of `python`, or None when it does not run."""
    try:
        done = subprocess.run(
            [python, "-S", "-c", "import sys; print(sys.version, end='')"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 and done.stdout else None


def plugin_python(environ: Mapping[str, str], report: Report) -> str | None:
    """Say which Python the plugin's server runs, as its launcher picks it; its `sys.version`."""
    python3 = launch.on_path("python3", environ)
    for name in launch.CANDIDATES:
        path = launch.on_path(name, environ)
        version = version_of(path) if path is not None else None
        if path is not None and version is not None and _recent(version):
            report.say(f"  Python: {path} ({version.split()[0]}), the launcher's first choice")
            return version
    version = version_of(python3) if python3 is not None else None
    if python3 is not None and version is not None and _recent(version):
        report.say(f"  Python: {python3} ({version.split()[0]}), python3 on PATH")
        return version
    have = f"python3 is {version.split()[0]} ({python3})" if version and python3 else "no python3"
    report.fail(
        f"the plugin needs Python 3.11 or later on PATH ({', '.join(launch.CANDIDATES)} or "
        f"python3), and {have}: its server answers every start with that reason and its hook "
        "reminds of nothing. Install Python 3.11 or later (on macOS, `brew install "
        "python@3.13` or python.org's installer) on the PATH Claude Code starts with"
    )
    return None


def _recent(version: str) -> bool:
    try:
        major, minor = (int(part) for part in version.split()[0].split(".")[:2])
    except ValueError:
        return False
    return (major, minor) >= launch.MIN_PYTHON


def environment(
    key: str, folder: Path, config_dir: Path, version: str | None, report: Report
) -> None:
    """The server's environment for the installed copy in `folder`: its lock, the data folder."""
    lock = folder / "requirements.lock"
    try:
        text = lock.read_bytes()
    except OSError as error:
        report.fail(
            f"the plugin's requirements.lock cannot be read ({error}): reinstall the plugin"
        )
        return
    problem = provision_state.lock_problem(lock, text)
    if problem is not None:
        report.fail(f"the plugin's server cannot be installed: {problem}")
        return
    base = config_dir / "plugins" / "data" / key.replace("@", "-")
    problem = provision_state.path_problem(base)
    if problem is not None:
        report.fail(f"the plugin's server cannot be installed: {problem}")
        return
    if version is None:
        return
    env_dir = base / provision_state.env_name(text, version)
    attempt = provision_state.read_attempt(base)
    if provision_state.usable(env_dir, text):
        report.say(f"  server environment ready: {env_dir} (made for this lock and this Python)")
    elif provision_state.running(base):
        step = attempt.step if attempt is not None else "starting"
        since = provision_state.since(attempt.started) if attempt is not None else "moments"
        report.say(
            f"  server environment being installed: {step}, {since} so far (log: "
            f"{base / provision_state.LOG}); the server answers meanwhile and its tools work "
            "once that is done"
        )
    elif attempt is not None and attempt.outcome == "failed":
        report.fail(f"the plugin's server could not install its dependencies: {attempt.reason}")
    else:
        others = [p.name for p in base.glob(f"{provision_state.ENV_PREFIX}*") if p != env_dir]
        made = f" (the one in {base} is for other pins or another Python)" if others else ""
        report.say(
            f"  server environment not provisioned yet{made}: the server's first start "
            "installs its dependencies (10-20 s, longer on a busy machine; pip's "
            "PIP_INDEX_URL / PIP_FIND_LINKS apply)"
        )


def skipped(key: str, config_dir: Path, report: Report, now: float | None = None) -> None:
    """Whether Claude Code is skipping the plugin's server after a failed start, and until when."""
    name = SERVER.format(plugin=key.split("@")[0])
    path = config_dir / SKIP_FILE
    try:
        records = jsonfile.load(path) or {}
    except ConfigFileError as error:
        report.say(f"  (cannot read {path}: {error})")
        return
    entry = records.get(name) if isinstance(records, dict) else None
    stamp = entry.get("timestamp") if isinstance(entry, dict) else None
    if not isinstance(stamp, (int, float)) or isinstance(stamp, bool):
        return
    until = stamp / 1000 + SKIP_SECONDS
    if until <= (time.time() if now is None else now):
        return
    report.fail(
        f"Claude Code is skipping the plugin's server {name!r} in its sessions until "
        f"{time.strftime('%H:%M', time.localtime(until))}: it failed to start at "
        f"{time.strftime('%H:%M', time.localtime(stamp / 1000))} (see the lines above for why), "
        "and Claude Code does not start a failed server again for 15 minutes, though "
        "`claude mcp list` may say Connected. Once fixed, reconnect it in /mcp (select it, "
        f"Reconnect), or remove the {name!r} entry from {path} and restart Claude Code"
    )
