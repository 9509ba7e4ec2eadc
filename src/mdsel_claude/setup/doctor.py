"""`mdsel-claude doctor`: what is installed where, whether each command runs, and duplicates.

Read-only: it reads the Claude Code files of every scope (local, project, user; see `paths`),
then runs every command it found the way Claude Code would: each hook
on a generated Markdown file just over and just at its threshold, each server up to an MCP
`initialize` answer. Exit status 0 only when something is installed, everything works and
nothing is registered twice.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from pathlib import Path

from mdsel_claude.setup import entries, jsonfile, paths
from mdsel_claude.setup.entries import EXECUTABLE_NAME, SERVER_KEY
from mdsel_claude.setup.jsonfile import JsonFileError, JSONObject
from mdsel_claude.setup.probes import (
    HookFound,
    Report,
    ServerFound,
    check_hook,
    check_server,
    fires_on_read,
)

PLUGIN_NAME = "mdsel-claude"
"""The plugin's name in `.claude-plugin/plugin.json`; enabled as `mdsel-claude@<marketplace>`."""


def _load(path: Path, report: Report) -> JSONObject | None:
    try:
        return jsonfile.load(path)
    except JsonFileError as error:
        report.say(f"  {path}: unreadable")
        report.fail(error.problem)
        return None


def _hooks_in(path: Path, report: Report, scope: str) -> list[HookFound]:
    settings = _load(path, report)
    if settings is None:
        return []
    try:
        found = entries.our_hooks(settings, path)
    except JsonFileError as error:
        report.fail(error.problem)
        return []
    label = f"{scope} scope ({path})"
    return [HookFound(label, event, command, matcher) for event, matcher, command in found]


def _plugin_enabled(settings: JSONObject | None) -> bool:
    enabled = settings.get("enabledPlugins") if settings else None
    if not isinstance(enabled, dict):
        return False
    return any(str(key).split("@")[0] == PLUGIN_NAME and on is True for key, on in enabled.items())


def _server_in_mcp_config(where: paths.Locations, report: Report) -> ServerFound | None:
    path = where.mcp_config
    config = _load(path, report)
    if config is None:
        return None
    try:
        server = entries.servers_in(config, path, where.servers_at).get(SERVER_KEY)
    except JsonFileError as error:
        report.fail(error.problem)
        return None
    if not isinstance(server, dict):
        return None
    command = server.get("command")
    args = server.get("args", [])
    env = server.get("env", {})
    if not isinstance(command, str) or not isinstance(args, list):
        report.say(f"  server {SERVER_KEY!r} in {path}: not a stdio command")
        report.fail("its `command` and `args` are not a string and a list")
        return None
    env_map = {str(k): str(v) for k, v in env.items()} if isinstance(env, dict) else {}
    label = f"{where.scope} scope ({path})"
    return ServerFound(label, (command, *(str(a) for a in args)), env_map)


def run_doctor(project_dir: Path, environ: Mapping[str, str], claude: str | None) -> int:
    """Check everything, print the report, return the exit status."""
    report = Report()
    try:
        report.say(f"{EXECUTABLE_NAME}: {paths.find_executable()}")
    except paths.SetupError as error:
        report.say(f"{EXECUTABLE_NAME}: not found")
        report.fail(str(error))
    hooks, servers, plugin_on = _find(project_dir, environ, claude, report)
    report.say("checks")
    _check(hooks, servers, report)
    _judge(hooks, servers, plugin_on, report)
    report.say("all good" if not report.failed else "problems found (see above)")
    print("\n".join(report.lines))
    return 1 if report.failed else 0


def _find(
    project_dir: Path, environ: Mapping[str, str], claude: str | None, report: Report
) -> tuple[list[HookFound], list[ServerFound], bool]:
    """Every hook and server of ours registered in the project, for the user, or by the plugin;
    and whether the plugin is enabled."""
    hooks: list[HookFound] = []
    servers: list[ServerFound] = []
    plugin_on = False

    report.say(f"project {paths.project_root(project_dir)}")
    for scope in paths.SCOPES:
        where = paths.locations(scope, project_dir, environ)
        server = _server_in_mcp_config(where, report)
        servers += [server] if server else []
        hooks += _hooks_in(where.settings, report, scope)
        plugin_on |= _plugin_enabled(_load(where.settings, Report()))
    if plugin_on:
        hooks.append(HookFound(f"plugin {PLUGIN_NAME}", "PreToolUse", f"{EXECUTABLE_NAME} hook"))
        servers.append(ServerFound(f"plugin {PLUGIN_NAME}", (EXECUTABLE_NAME, "serve")))
    return hooks, servers, plugin_on


def _check(hooks: list[HookFound], servers: list[ServerFound], report: Report) -> None:
    """Run every server and hook found."""
    for found in servers:
        report.say(f"  MCP server {SERVER_KEY!r} in {found.where}: {shlex.join(found.argv)}")
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


def _judge(
    hooks: list[HookFound], servers: list[ServerFound], plugin_on: bool, report: Report
) -> None:
    """Fail when a part is missing or registered twice."""
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
