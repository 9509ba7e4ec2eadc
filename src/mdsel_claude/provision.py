"""Provision the plugin's MCP server: the locked dependencies in a virtual environment.

Used by `launch` (see there) when Claude Code starts the plugin's server: on first start the
dependencies of `requirements.lock` are installed with pip into a virtual environment in the
plugin's data directory (`CLAUDE_PLUGIN_DATA`, which Claude Code sets for plugin servers and
hooks; else `$XDG_DATA_HOME/mdsel-claude/plugin`), named after a digest of the lock file and the
Python version, so a plugin update with new pins provisions afresh and every later start reuses
it. The server then runs that environment's Python on the plugin's `src/`.

The install runs in a process of its own, detached from the server (`launch.py provision`): on
a slow machine it takes longer than Claude Code waits for a server to answer (30 s), and Claude
Code then kills the server, but not the install, which the next start finds still at work (it
holds the data folder's lock) instead of beginning again. Meanwhile the server answers at once
and says how far the install is (`plugin_wait`), and becomes the real server when it is done.

The lock pins every package by version and by sha256 (scripts/lock.sh writes it), and pip runs
with `--require-hashes`: a file the index serves that is not the one locked is refused. pip takes
its usual settings from the environment, so `PIP_INDEX_URL`, or `PIP_NO_INDEX=1` with
`PIP_FIND_LINKS=<wheel directory>` on a machine without network, apply as usual; only its retries
and timeout default lower (`FAST_FAIL`), so that a start without network fails within seconds.

Runs under the Python the launcher chose: standard library only.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from mdsel_claude import plugin_wait
from mdsel_claude.dir_lock import exclusive
from mdsel_claude.provision_state import (
    ENV_PREFIX,
    LOG,
    PARTIAL_PREFIX,
    READY,
    RECONNECT,
    RECORD,
    Attempt,
    data_dir,
    env_name,
    env_python,
    lock_problem,
    path_problem,
    read_attempt,
    running,
    usable,
    write_attempt,
)

ROOT = Path(__file__).resolve().parents[2]
"""The plugin (repository) root: this file is `src/mdsel_claude/provision.py`."""
SRC = ROOT / "src"
LOCK = ROOT / "requirements.lock"
LAUNCH = SRC / "mdsel_claude" / "launch.py"
FAST_FAIL = {"PIP_RETRIES": "1", "PIP_TIMEOUT": "5"}
"""pip's defaults (5 retries with back-off, 15 s per connection) take a minute to give up on a
black-holed network: one retry and 5 s without an answer fail within about 12 s. Set in the
environment, these win."""
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
PIP = "installing the locked packages with pip"
CHECK = "checking that the server's packages import"
CLIENT_WAIT = 30.0
"""Seconds Claude Code waits for a server's first answer unless MCP_TIMEOUT (ms) says otherwise."""
FIRST_ANSWER = 5.0
"""Seconds a first start waits at most for its install's outcome before answering `initialize`.
A failure that comes sooner (the python3-venv package missing, say) is answered as an error; a
later one is said by every tool call instead. Whatever MCP_TIMEOUT says, `claude -p` (2.1.330)
begins its first turn about 12 s after it started the plugin's server, without the tools of a
server that has not answered by then: 5 s, plus about 1 s for the launcher to start, leaves a
loaded machine half of that margin."""


class LaunchError(Exception):
    """Provisioning failed; said in one line, with what to do."""


def _run(argv: Sequence[str], what: str, log: Path, env: Mapping[str, str] | None = None) -> None:
    # The output goes to the attempt's log (the client that started us may be gone); it is
    # also read here, to say why the step failed.
    result = subprocess.run(
        list(argv),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    output = result.stdout.decode("utf-8", "replace")
    with log.open("a", encoding="utf-8") as handle:
        handle.write(f"$ {' '.join(argv)}\n{output}\n")
    if result.returncode != 0:
        raise LaunchError(_why(what, result.returncode, output, log))


def _why(what: str, status: int, output: str, log: Path) -> str:
    if any(sign in output for sign in UNREACHABLE):
        return (
            "pip could not reach the package index to install the locked dependencies. Connect "
            "to the network (behind a mirror, start Claude Code with PIP_INDEX_URL set; "
            "offline, with PIP_NO_INDEX=1 and PIP_FIND_LINKS=<a folder of the locked wheels>), "
            f"{RECONNECT}"
        )
    if what == VENV and "ensurepip" in output:
        return (
            f"`{sys.executable} -m venv` failed, for want of ensurepip: on Debian and Ubuntu, "
            f"install the python3-venv package, {RECONNECT}"
        )
    if NOT_LOCKED in output:
        return (
            "the package index served a file whose sha256 is not the one in the plugin's "
            "requirements.lock, so nothing was installed. Check PIP_INDEX_URL (a mirror or "
            f"proxy that changes packages), {RECONNECT}"
        )
    last = (output.strip().splitlines() or [""])[-1].strip()
    return (
        f"{what} failed (exit status {status}): {last} (the whole output is in {log}); "
        f"once that is fixed, {RECONNECT[5:]}"
    )


def problem(environ: Mapping[str, str]) -> str | None:
    """What keeps any attempt from succeeding, found without starting one."""
    try:
        text = LOCK.read_bytes()
    except OSError as error:
        return f"its requirements.lock cannot be read ({error}): reinstall the plugin"
    return lock_problem(LOCK, text) or path_problem(data_dir(environ))


def provision(environ: Mapping[str, str]) -> Path:
    """Make the environment of the locked dependencies unless it is there; its Python. Waits
    for (then reuses) an attempt already at work. Records each step in the data folder."""
    lock_text = LOCK.read_bytes()
    why = problem(environ)
    if why is not None:
        raise LaunchError(why)
    base = data_dir(environ)
    env_dir = base / env_name(lock_text)
    base.mkdir(parents=True, exist_ok=True)
    # One attempt at a time per data directory; without flock (not POSIX) the rename below
    # still keeps a half install invisible.
    with exclusive(base):
        if usable(env_dir, lock_text):  # another attempt finished it while we waited
            return env_python(env_dir)
        started = time.time()

        def step(what: str, outcome: str = "running", reason: str = "") -> None:
            attempt = Attempt(
                env_dir.name, os.getpid(), started, what, outcome, reason, time.time()
            )
            write_attempt(base, attempt)

        remove_partial(base, None)  # the target too: it is not usable (its Python gone, say)
        log = base / LOG
        log.write_text(f"mdsel-claude: installing the server's dependencies into {env_dir}\n")
        temp = Path(tempfile.mkdtemp(prefix=PARTIAL_PREFIX, dir=base))
        try:
            step(VENV)
            _run([sys.executable, "-m", "venv", str(temp)], VENV, log)
            step(PIP)
            pip = [str(env_python(temp)), "-m", "pip", "install", "--quiet", "--require-hashes"]
            env = {**FAST_FAIL, **environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
            _run([*pip, "-r", str(LOCK)], "pip install", log, env)
            step(CHECK)
            check_env = {**environ, "PYTHONPATH": str(SRC)}
            imports = "import mcp.server, mcp.types, anyio, mdsel_claude.server.app"
            _run([str(env_python(temp)), "-c", imports], CHECK, log, check_env)
            mark = {"lock_sha256": hashlib.sha256(lock_text).hexdigest(), "python": sys.executable,
                    "version": sys.version}  # fmt: skip
            (temp / READY).write_text(json.dumps(mark))
            # Scripts in the environment hold its path, but only its Python is ever run (with
            # `-m`), and a venv's Python finds its packages relative to itself: moving is safe.
            shutil.rmtree(env_dir, ignore_errors=True)
            temp.rename(env_dir)
        except (LaunchError, OSError) as error:
            # Cleaned before the outcome is on record: a reader of it finds the attempt over.
            shutil.rmtree(temp, ignore_errors=True)
            step(step_name(base), "failed", str(error))
            raise
        finally:
            shutil.rmtree(temp, ignore_errors=True)
        step("done", "ready")
        remove_partial(base, env_dir)
    return env_python(env_dir)


def step_name(base: Path) -> str:
    attempt = read_attempt(base)
    return attempt.step if attempt is not None else VENV


def remove_partial(base: Path, keep: Path | None) -> None:
    """Environments of older pins or Pythons and ones a killed attempt left half made, all but
    `keep`: nothing will run them again; and the record's temporary files a killed attempt
    left (records are written only under the lock this attempt holds). Only our own names,
    never a link."""
    for old in [*base.glob(f"{ENV_PREFIX}*"), *base.glob(f"{PARTIAL_PREFIX}*")]:
        if old != keep and old.is_dir() and not old.is_symlink():
            shutil.rmtree(old, ignore_errors=True)
    for temp in base.glob(f".{RECORD}.*"):
        if temp.is_file() and not temp.is_symlink():
            temp.unlink(missing_ok=True)


def run_detached(environ: Mapping[str, str]) -> int:
    """`launch.py provision`: one attempt, its outcome recorded; 0 when the environment is ready."""
    try:
        provision(environ)
    except (LaunchError, OSError) as error:
        sys.stderr.write(f"mdsel-claude: {error}\n")
        return 1
    return 0


def start_detached(environ: Mapping[str, str]) -> subprocess.Popen[bytes]:
    """Start an attempt in a session of its own: a client that kills the server (or its process
    group) leaves it at work."""
    return subprocess.Popen(
        [sys.executable, "-S", str(LAUNCH), "provision"],
        env=dict(environ),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
    )


def client_wait(environ: Mapping[str, str]) -> float:
    """How long the client waits for the first answer: MCP_TIMEOUT (ms) when set."""
    try:
        return max(1.0, float(environ["MCP_TIMEOUT"]) / 1000)
    except (KeyError, ValueError):
        return CLIENT_WAIT


def first_wait(environ: Mapping[str, str]) -> float:
    """How long a start that finds no environment waits for its attempt's outcome before it
    answers `initialize`: a third of the client's wait, and never more than `FIRST_ANSWER`."""
    return min(client_wait(environ) / 3, FIRST_ANSWER)


def serve(args: Sequence[str]) -> int:
    """Become the server (exec) when its environment is ready; else start (or find) the
    attempt that makes it and answer the client meanwhile; when it cannot be made, answer the
    client with the reason and return 1."""
    environ = dict(os.environ)
    why = problem(environ)
    if why is not None:
        return plugin_wait.refuse_with(why)
    lock_text = LOCK.read_bytes()
    base = data_dir(environ)
    env_dir = base / env_name(lock_text)
    if usable(env_dir, lock_text):
        return exec_server(env_python(env_dir), args, environ)
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return plugin_wait.refuse_with(f"its data folder cannot be made: {error}")
    begun = time.time()
    last = read_attempt(base)
    # An attempt whose failure is on record is over, even while its process ends (holding the
    # lock a little longer): a new one is started, which waits for the lock.
    over = last is not None and last.outcome == "failed"
    child = None if running(base) and not over else start_detached(environ)
    deadline = time.monotonic() + first_wait(environ)
    while time.monotonic() < deadline:
        if usable(env_dir, lock_text):
            _reap(child)
            return exec_server(env_python(env_dir), args, environ)
        attempt = read_attempt(base)
        if attempt is not None and attempt.outcome == "failed" and attempt.updated >= begun:
            _reap(child)
            return plugin_wait.refuse_with(attempt.reason)
        time.sleep(0.1)
    waiting = plugin_wait.Waiting(
        base,
        env_dir,
        lock_text,
        lambda: start_detached(environ),
        server_argv(env_python(env_dir), args),
        child,
        last,
    )
    return waiting.serve(sys.stdin.buffer, sys.stdout.buffer)


def _reap(child: subprocess.Popen[bytes] | None) -> None:
    if child is not None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=5)


def server_argv(python: Path, args: Sequence[str]) -> tuple[list[str], dict[str, str]]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    return [str(python), "-m", "mdsel_claude", "serve", *args], env


def exec_server(python: Path, args: Sequence[str], environ: Mapping[str, str]) -> int:
    argv, env = server_argv(python, args)
    try:
        os.execve(argv[0], argv, env)
    except OSError as error:
        # Its Python went away between the check and now: the next start makes a new one.
        (python.parents[1] / READY).unlink(missing_ok=True)
        return plugin_wait.refuse_with(
            f"its environment's Python {argv[0]} cannot run ({error}); the next start makes "
            f"the environment again: {RECONNECT[5:]}"
        )
    return 1  # not reached
