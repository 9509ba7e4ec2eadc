"""Provision the plugin's MCP server: the locked dependencies in a virtual environment.

Used by `launch` (see there) when Claude Code starts the plugin's server: on first start the
dependencies of `requirements.lock` are installed with pip into a virtual environment in the
plugin's data directory (`CLAUDE_PLUGIN_DATA`, which Claude Code sets for plugin servers and
hooks; else `$XDG_DATA_HOME/mdsel-claude/plugin`), named after a digest of the lock file and the
Python version, so a plugin update with new pins provisions afresh and every later start reuses
it. The server then runs that environment's Python on the plugin's `src/`.

The lock pins every package by version and by sha256 (scripts/lock.sh writes it), and pip runs
with `--require-hashes`: a file the index serves that is not the one locked is refused. pip takes
its usual settings from the environment, so `PIP_INDEX_URL`, or `PIP_NO_INDEX=1` with
`PIP_FIND_LINKS=<wheel directory>` on a machine without network, apply as usual; only its retries
and timeout default lower (`FAST_FAIL`), so that a start without network fails within seconds.

When provisioning fails, the server still answers the client's first request: with an error that
says what went wrong and what to do, which Claude Code shows in `claude mcp list` and `/mcp` (a
server that just exits shows "Connection closed" there, and the reason only in its log).

Runs under whatever `python3` is on PATH: standard library only.
"""

from __future__ import annotations

import hashlib
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from mdsel_claude.dir_lock import exclusive

if TYPE_CHECKING:
    from typing import BinaryIO

ROOT = Path(__file__).resolve().parents[2]
"""The plugin (repository) root: this file is `src/mdsel_claude/provision.py`."""
SRC = ROOT / "src"
LOCK = ROOT / "requirements.lock"
READY = "ready"
"""Written last into a provisioned environment: its presence means the install finished."""
FAST_FAIL = {"PIP_RETRIES": "1", "PIP_TIMEOUT": "5"}
"""pip's defaults (5 retries with back-off, 15 s per connection) take a minute to give up on a
black-holed network and longer than Claude Code waits for a server (30 s): one retry and 5 s
without an answer fail within about 12 s. Set in the environment, these win."""
UNREACHABLE = (
    "NewConnectionError",
    "ConnectTimeoutError",
    "Failed to establish a new connection",
    "Name or service not known",
    "Temporary failure in name resolution",
    "Network is unreachable",
    "getaddrinfo failed",
    "ProxyError",
    "SSLError",
    "Read timed out",
)
"""What pip prints when the package index cannot be reached (or a proxy answers in its place)."""
NOT_LOCKED = "DO NOT MATCH THE HASHES"
"""What pip prints when a downloaded file is not the one whose hash the lock holds."""
VENV = "creating a virtual environment"
REFUSAL_WAIT = 30.0
"""Seconds the failed server keeps answering before it exits: enough for the client to ask
and read the reason, bounded in case it never closes the pipe."""


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


def _run(argv: Sequence[str], what: str, env: Mapping[str, str] | None = None) -> None:
    # pip's output goes to stderr, which Claude Code keeps in the server's log; stdout is the
    # MCP channel and must stay clean. It is also read here, to say why pip failed.
    result = subprocess.run(
        list(argv),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    output = result.stdout.decode("utf-8", "replace")
    sys.stderr.write(output)
    if result.returncode != 0:
        raise LaunchError(_why(what, result.returncode, output))


def _why(what: str, status: int, output: str) -> str:
    if any(sign in output for sign in UNREACHABLE):
        return (
            "its first start installs the locked dependencies with pip, and pip could not reach "
            "the package index. Connect to the network, then reconnect the server (/mcp) or "
            "restart Claude Code; behind a mirror, start Claude Code with PIP_INDEX_URL set; "
            "without network, with PIP_NO_INDEX=1 and PIP_FIND_LINKS=<a directory of the locked "
            "wheels>"
        )
    if what == VENV:
        return (
            f"`{sys.executable} -m venv` failed: on Debian and Ubuntu, install the python3-venv "
            "package, then reconnect the server (/mcp) or restart Claude Code"
        )
    if NOT_LOCKED in output:
        return (
            "the package index served a file whose sha256 is not the one in the plugin's "
            "requirements.lock, so nothing was installed. Check PIP_INDEX_URL (a mirror or "
            "proxy that changes packages), then reconnect the server (/mcp)"
        )
    last = (output.strip().splitlines() or [""])[-1].strip()
    return f"{what} failed (exit status {status}): {last} (pip's output is in the server's log)"


def provision(environ: Mapping[str, str]) -> Path:
    """The Python of an environment with the locked dependencies, installing it if needed."""
    lock_text = LOCK.read_bytes()
    base = data_dir(environ)
    env_dir = base / env_name(lock_text)
    if (env_dir / READY).is_file():
        return env_python(env_dir)
    base.mkdir(parents=True, exist_ok=True)
    # One provisioning at a time per data directory (two sessions may start together); without
    # flock (not POSIX) the rename below still keeps a half install invisible.
    with exclusive(base):
        if (env_dir / READY).is_file():  # another start finished it while we waited
            return env_python(env_dir)
        sys.stderr.write(f"mdsel-claude: first start, installing dependencies into {env_dir}\n")
        temp = Path(tempfile.mkdtemp(prefix=".venv-", dir=base))
        try:
            _run([sys.executable, "-m", "venv", str(temp)], VENV)
            pip = [str(env_python(temp)), "-m", "pip", "install", "--quiet", "--require-hashes"]
            env = {**FAST_FAIL, **environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
            _run([*pip, "-r", str(LOCK)], "pip install", env)
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
    """Provision if needed, then become the server (exec); when provisioning failed, answer the
    client with the reason and return 1."""
    try:
        python = provision(os.environ)
    except (LaunchError, OSError) as error:
        message = (
            f"mdsel-claude cannot start its MCP server: {error}. Or install mdsel-claude from "
            "its repository (pipx install .) and use `mdsel-claude install` instead of the plugin."
        )
        sys.stderr.write(message + "\n")
        refuse(message, sys.stdin.buffer, sys.stdout.buffer)
        return 1
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    argv = [str(python), "-m", "mdsel_claude", "serve", *args]
    if os.name == "nt":  # no exec that keeps the stdio handles on Windows
        return subprocess.run(argv, env=env, check=False).returncode
    os.execve(argv[0], argv, env)
    return 1  # not reached


def refuse(message: str, stdin: BinaryIO, stdout: BinaryIO, wait: float = REFUSAL_WAIT) -> None:
    """Answer every JSON-RPC request on `stdin` with an error carrying `message`, until the
    client closes the pipe or `wait` seconds have passed: the client's `initialize` gets the
    reason, and the client shows it (`claude mcp list`: "Failed to connect — …")."""
    deadline = time.monotonic() + wait
    pending = b""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return
        if os.name != "nt":  # select does not wait on pipes on Windows: read until EOF there
            ready, _, _ = select.select([stdin], [], [], left)
            if not ready:
                return
        chunk = os.read(stdin.fileno(), 65536)
        if not chunk:
            return
        *lines, pending = (pending + chunk).split(b"\n")
        for line in lines:
            reply = _error_reply(line, message)
            if reply is not None:
                stdout.write(reply)
                stdout.flush()


def _error_reply(line: bytes, message: str) -> bytes | None:
    try:
        request = json.loads(line)
    except ValueError:
        return None
    if not isinstance(request, dict) or "method" not in request or "id" not in request:
        return None  # a notification, or not JSON-RPC: nothing to answer
    error = {"code": -32603, "message": message}
    reply = {"jsonrpc": "2.0", "id": request["id"], "error": error}
    return json.dumps(reply).encode("utf-8") + b"\n"
