"""`mdsel-claude doctor`: what is installed where, whether each command runs, and duplicates.

Read-only: it looks at the project's and the user's Claude Code files (and asks `claude mcp get`
about the user's server), then runs every command it found the way Claude Code would: each hook
on a generated Markdown file just over and just at its threshold, each server up to an MCP
`initialize` answer. Exit status 0 only when something is installed, everything works and
nothing is registered twice.
"""

from __future__ import annotations

import json
import os
import re
import selectors
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mdsel_claude import hook
from mdsel_claude.setup import claude_cli, entries, jsonfile
from mdsel_claude.setup import planner as install
from mdsel_claude.setup.entries import EXECUTABLE_NAME, HOOK_EVENTS, SERVER_NAME
from mdsel_claude.setup.jsonfile import JsonFileError, JSONObject

PLUGIN_NAME = "mdsel-claude"
"""The plugin's name in `.claude-plugin/plugin.json`; enabled as `mdsel-claude@<marketplace>`."""

RUN_TIMEOUT_SECONDS = 30.0
"""How long a hook run or a server's `initialize` answer may take before it counts as broken."""

HOOK_MAX_THRESHOLD = hook.MAX_BYTES // 2 - 1
"""The largest threshold a hook can ever pass: it counts 8 MiB at most, two bytes per word."""


@dataclass(frozen=True, slots=True)
class HookFound:
    where: str
    """The file (or plugin) it is registered in."""
    event: str
    command: str
    matcher: object = "Read"
    """The matcher of its group, as written in the settings file."""


@dataclass(frozen=True, slots=True)
class ServerFound:
    where: str
    argv: tuple[str, ...]
    env: Mapping[str, str] = field(default_factory=dict)


@dataclass
class Report:
    """Lines to print, and whether any of them is a failure."""

    lines: list[str] = field(default_factory=list)
    failed: bool = False

    def say(self, text: str) -> None:
        self.lines.append(text)

    def fail(self, text: str) -> None:
        self.lines.append(f"    FAIL: {text}")
        self.failed = True


def _load(path: Path, report: Report) -> JSONObject | None:
    try:
        return jsonfile.load(path)
    except JsonFileError as error:
        report.say(f"  {path}: unreadable")
        report.fail(error.problem)
        return None


def _hooks_in(path: Path, report: Report) -> list[HookFound]:
    settings = _load(path, report)
    if settings is None:
        return []
    try:
        found = entries.our_hooks(settings, path)
    except JsonFileError as error:
        report.fail(error.problem)
        return []
    return [HookFound(str(path), event, command, matcher) for event, matcher, command in found]


def _plugin_enabled(settings: JSONObject | None) -> bool:
    enabled = settings.get("enabledPlugins") if settings else None
    if not isinstance(enabled, dict):
        return False
    return any(str(key).split("@")[0] == PLUGIN_NAME and on is True for key, on in enabled.items())


def _server_in_mcp_config(path: Path, report: Report) -> ServerFound | None:
    config = _load(path, report)
    if config is None:
        return None
    try:
        server = entries.servers_in(config, path).get(SERVER_NAME)
    except JsonFileError as error:
        report.fail(error.problem)
        return None
    if not isinstance(server, dict):
        return None
    command = server.get("command")
    args = server.get("args", [])
    env = server.get("env", {})
    if not isinstance(command, str) or not isinstance(args, list):
        report.say(f"  server {SERVER_NAME!r} in {path}: not a stdio command")
        report.fail("its `command` and `args` are not a string and a list")
        return None
    env_map = {str(k): str(v) for k, v in env.items()} if isinstance(env, dict) else {}
    return ServerFound(str(path), (command, *(str(a) for a in args)), env_map)


def fires_on_read(found: HookFound) -> bool:
    """Whether Claude Code would run this hook for the Read tool: a tool-use event, and a matcher
    that is absent, empty, `*`, or a pattern matching `Read`."""
    if found.event not in HOOK_EVENTS:
        return False
    matcher = found.matcher
    if matcher is None or matcher in ("", "*"):
        return True
    if not isinstance(matcher, str):
        return False
    try:
        return re.fullmatch(matcher, "Read") is not None
    except re.error:
        return matcher == "Read"


def check_hook(command: str, report: Report) -> None:
    """Run a hook command through the shell, as Claude Code does, on a file over and at its
    threshold; it must give the reminder for the first and nothing for the second."""
    words = shlex.split(command)
    executable = shutil.which(words[0]) if words else None
    if executable is None:
        report.fail(f"{words[0] if words else command!r} not found or not executable")
        return
    threshold = _threshold_of(words[2:])
    if threshold > HOOK_MAX_THRESHOLD:
        report.fail(f"threshold {threshold} words: the hook stops counting at 8 MiB, never fires")
        return
    with tempfile.TemporaryDirectory(prefix="mdsel-doctor-") as temp:
        over = Path(temp, "over.md")
        at = Path(temp, "at.md")
        # Two bytes a word, so that even the largest usable threshold fits in 8 MiB.
        over.write_text("w " * (threshold + 1), encoding="utf-8")
        at.write_text("w " * threshold, encoding="utf-8")
        for path, fires in ((over, True), (at, False)):
            payload = {
                "session_id": "mdsel-claude-doctor",
                "hook_event_name": "PreToolUse",
                "tool_name": "Read",
                "tool_input": {"file_path": str(path)},
                "cwd": temp,
            }
            try:
                result = subprocess.run(
                    command,
                    shell=True,
                    input=json.dumps(payload),
                    capture_output=True,
                    text=True,
                    timeout=RUN_TIMEOUT_SECONDS,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                report.fail(f"no answer within {RUN_TIMEOUT_SECONDS:g} s")
                return
            expected = hook.reminder_for(payload, threshold) if fires else None
            if result.returncode != 0 or result.stdout != (expected or ""):
                report.fail(
                    f"on a {'larger' if fires else 'smaller'} file it exited "
                    f"{result.returncode} and printed {result.stdout.strip()[:200]!r}"
                    + (f" (stderr {result.stderr.strip()[:200]!r})" if result.stderr else "")
                )
                return
    report.say(f"    ok: reminder for {threshold + 1} words of Markdown, silence for {threshold}")


def _threshold_of(args: Sequence[str]) -> int:
    return hook.parse_threshold(args, os.environ)


def check_server(server: ServerFound, report: Report) -> None:
    """Start a stdio server and wait for its answer to an MCP `initialize` request."""
    executable = shutil.which(server.argv[0])
    if executable is None:
        report.fail(f"{server.argv[0]!r} not found or not executable")
        return
    request = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "mdsel-claude-doctor", "version": "1"},
        },
    }
    # stderr goes to a file: a pipe nobody reads could fill up and stall the server.
    with tempfile.TemporaryFile() as stderr_file:
        try:
            process = subprocess.Popen(
                server.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr_file,
                env={**os.environ, **server.env},
            )
        except OSError as error:
            report.fail(f"cannot start: {error}")
            return
        with process:
            try:
                answer = _first_answer(process, json.dumps(request) + "\n")
            finally:
                _stop(process)
        stderr_file.seek(0)
        stderr = stderr_file.read().decode(errors="replace").strip()
    if answer is None:
        problem = (
            f"no answer to initialize (waited up to {RUN_TIMEOUT_SECONDS:g} s; "
            f"exit status {process.returncode})"
        )
        report.fail(problem + (f"; stderr: {stderr[-300:]}" if stderr else ""))
        return
    result = answer.get("result")
    info = result.get("serverInfo") if isinstance(result, dict) else None
    if not isinstance(info, dict) or "name" not in info:
        report.fail(f"unexpected answer to initialize: {json.dumps(answer)[:300]}")
        return
    report.say(f"    ok: answers initialize ({info.get('name')} {info.get('version', '')})")


def _first_answer(process: subprocess.Popen[bytes], request: str) -> dict[str, object] | None:
    """The first JSON-RPC message with id 1 on the server's stdout, or None by the deadline."""
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(request.encode())
        process.stdin.flush()
    except OSError:
        return None
    deadline = time.monotonic() + RUN_TIMEOUT_SECONDS
    buffer = b""
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        while (left := deadline - time.monotonic()) > 0:
            if not selector.select(left):
                continue
            chunk = os.read(process.stdout.fileno(), 65536)
            if not chunk:
                return None
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                if isinstance(message, dict) and message.get("id") == 1:
                    return message
    return None


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.stdin:
        process.stdin.close()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _user_server(claude: str | None, report: Report) -> ServerFound | None:
    if claude is None:
        report.say("  MCP server: cannot check (the claude command is not on PATH)")
        return None
    try:
        found = claude_cli.get_server(claude)
    except claude_cli.ClaudeError as error:
        report.say("  MCP server: cannot check")
        report.fail(str(error))
        return None
    if found is None or not found.user_scope:
        report.say(f"  no MCP server {SERVER_NAME!r} in user scope (claude mcp get)")
        return None
    return ServerFound("claude mcp (user)", (found.command, *shlex.split(found.args)))


def run_doctor(project_dir: Path, environ: Mapping[str, str], claude: str | None) -> int:
    """Check everything, print the report, return the exit status."""
    report = Report()
    try:
        report.say(f"{EXECUTABLE_NAME}: {install.find_executable()}")
    except install.SetupError as error:
        report.say(f"{EXECUTABLE_NAME}: not found")
        report.fail(str(error))
    hooks: list[HookFound] = []
    servers: list[ServerFound] = []
    plugin_on = False

    project = install.locations("project", project_dir, environ)
    user = install.locations("user", project_dir, environ)
    report.say(f"project {project_dir}")
    assert project.mcp_config is not None
    server = _server_in_mcp_config(project.mcp_config, report)
    servers += [server] if server else []
    for settings in (project.settings, project.settings_dir / "settings.local.json"):
        hooks += _hooks_in(settings, report)
        plugin_on |= _plugin_enabled(_load(settings, Report()))
    report.say(f"user {user.settings_dir}")
    hooks += _hooks_in(user.settings, report)
    plugin_on |= _plugin_enabled(_load(user.settings, Report()))
    server = _user_server(claude, report)
    servers += [server] if server else []
    if plugin_on:
        hooks.append(HookFound(f"plugin {PLUGIN_NAME}", "PreToolUse", f"{EXECUTABLE_NAME} hook"))
        servers.append(ServerFound(f"plugin {PLUGIN_NAME}", (EXECUTABLE_NAME, "serve")))

    report.say("checks")
    for found in servers:
        report.say(f"  MCP server {SERVER_NAME!r} in {found.where}: {shlex.join(found.argv)}")
        check_server(found, report)
    for found_hook in hooks:
        report.say(f"  {found_hook.event} hook in {found_hook.where}: {found_hook.command}")
        if not fires_on_read(found_hook):
            report.say(
                f"    FAIL: registered for {found_hook.event} with matcher "
                f"{found_hook.matcher!r}, so it never runs when the agent uses Read "
                "(run `mdsel-claude install` again to put it back)"
            )
            report.failed = True
            continue
        check_hook(found_hook.command, report)
    if not servers and not hooks:
        report.say("  nothing installed: run `mdsel-claude install` (see --help for scopes)")
        report.failed = True
    elif not servers or not hooks:
        missing = "MCP server" if not servers else "Read hook"
        report.say(f"  no {missing} registered anywhere: run `mdsel-claude install` again")
        report.failed = True
    if len(hooks) > 1:
        report.say(f"  duplicate: {len(hooks)} Read hooks are registered; keep one")
        report.failed = True
    if len(servers) > 1:
        report.say(f"  duplicate: {len(servers)} MCP servers are registered; keep one")
        report.failed = True
    if plugin_on and (len(hooks) > 1 or len(servers) > 1):
        report.say(
            f"  the {PLUGIN_NAME} plugin and `mdsel-claude install` are both active: remove one "
            f"(`mdsel-claude uninstall [--scope user]`, or `/plugin uninstall {PLUGIN_NAME}@…`)"
        )
    report.say("all good" if not report.failed else "problems found (see above)")
    print("\n".join(report.lines))
    return 1 if report.failed else 0
