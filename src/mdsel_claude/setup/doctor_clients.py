"""`doctor --client NAME` and `doctor --plugin`: the installs `mdsel-claude doctor` does not read.

For another MCP client it reads the client's user and project files (see `clients`), judges our
server entry as `ownership` does for Claude Code — exactly the form install writes there, running
this very installation — and starts this installation's server. For the Claude Code plugin it
reads Claude Code's plugin records: installed, enabled, the plugin's own entries; what the
plugin will really run (`doctor_plugin`: its Python, its server's environment, Claude Code's
skip of a server that failed to start); then it checks this installation's server and hook (the
plugin runs the same code from its own copy). Nothing is written, and nothing a file names is
run (only the Pythons on PATH the plugin's launcher would pick, asked their version).
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from pathlib import Path

from mdsel_claude.setup import (
    claude_places,
    doctor_plugin,
    instructions,
    jsonfile,
    ledger,
    ownership,
    paths,
    policy,
)
from mdsel_claude.setup.clients import Client, Doctoring
from mdsel_claude.setup.entries import EXECUTABLE_NAME, PLUGIN_NAME, PLUGIN_NAMES, SERVER_KEY
from mdsel_claude.setup.jsonfile import ConfigFileError
from mdsel_claude.setup.ownership import Installation
from mdsel_claude.setup.probes import Report, check_hook, check_server

INSTALL_PLUGIN = (
    "/plugin marketplace add <mdsel-claude checkout or owner/repo>, then "
    "/plugin install mdsel@mdsel-claude (or `claude plugin install …` from a shell)"
)


def _header(me: Installation, report: Report) -> None:
    report.say(f"{EXECUTABLE_NAME}: {shlex.join(me.argv)} (the only program doctor runs)")


def _finish(report: Report) -> int:
    report.say("all good" if not report.failed else "problems found (see above)")
    print("\n".join(report.lines))
    return 1 if report.failed else 0


def _program(client: Client, value: object) -> str:
    command = value.get("command") if isinstance(value, dict) else None
    if isinstance(command, list):  # OpenCode: the program first, then its arguments
        command = command[0] if command else None
    return command if isinstance(command, str) else ""


def judge_client_server(
    client: Client, value: object, me: Installation, environ: Mapping[str, str]
) -> tuple[bool, str, bool]:
    """(ours, why, program gone): ours when `value` is exactly the entry install writes for
    `client` and its program is this installation's."""
    program = _program(client, value)
    if not program or not ledger.same_value(value, client.entry(program)):
        return False, "not an entry install writes (other keys or arguments)", False
    if os.path.isabs(program) and not os.path.lexists(program):
        return False, f"runs {program}, which no longer exists", True
    problem = ownership.program_problem(program, me, environ)
    return problem is None, problem or f"runs {program} serve", False


def run_client_doctor(client: Client, project_dir: Path, environ: Mapping[str, str]) -> int:
    """`doctor --client NAME`: print the report, return the exit status."""
    report = Report()
    me = ownership.this_installation()
    _header(me, report)
    places = [("user", client.user_file(environ))]
    if client.project_file is not None:
        folder = client.project_folder(project_dir)
        places.append(("project", folder / client.project_file))
    report.say(f"{client.title}")
    mine: list[str] = []
    registered: list[str] = []
    for scope, path in places:
        try:
            exists, value = client.server_value(path)
        except ConfigFileError as error:
            report.fail(str(error))
            continue
        if value is None:
            report.say(f"  {scope} ({path}): {'no' if exists else 'no file, no'} server "
                       f"{SERVER_KEY!r}")  # fmt: skip
            continue
        registered.append(scope)
        is_ours, why, gone = judge_client_server(client, value, me, environ)
        verdict = "ours, " if is_ours else "not ours, not run: "
        report.say(f"  MCP server {SERVER_KEY!r} {scope} ({path}): {verdict}{why}")
        flag = "" if scope == "user" else f" --scope {scope}"
        if gone:
            report.fail(
                f"its program is gone (mdsel-claude uninstalled or moved): run "
                f"`mdsel-claude install --client {client.name}{flag}` to point it at this "
                f"installation, or `mdsel-claude uninstall --client {client.name}{flag}`"
            )
        if is_ours:
            mine.append(scope)
    state = ledger.load(ledger.state_path(environ))
    for scope in client.scopes:
        target = client.instructions(scope, project_dir, environ)
        if target is not None:
            flag = "" if scope == client.scopes[0] else f" --scope {scope}"
            instructions.report(scope, target, state, f" --client {client.name}{flag}", report)
    report.say("checks")
    if mine:
        argv = (*me.argv, "serve")
        report.say(f"  {shlex.join(argv)}")
        check_server(argv, report)
    if len(registered) > 1:
        report.fail(
            f"{client.title} has a server {SERVER_KEY!r} in both the user and the project file; "
            f"keep one (`mdsel-claude uninstall --client {client.name} --scope user`)"
        )
    if not mine:
        report.fail(
            f"no MCP server of this installation is registered for {client.title}: run "
            f"`mdsel-claude install --client {client.name}`"
        )
    client.doctor(Doctoring(places, mine, me, environ, report, project_dir))
    return _finish(report)


def run_plugin_doctor(project_dir: Path, environ: Mapping[str, str]) -> int:
    """`doctor --plugin`: print the report, return the exit status."""
    report = Report()
    me = ownership.this_installation()
    _header(me, report)
    config_dir = paths.user_config_dir(environ)
    found = claude_places.survey(project_dir, environ)
    report.say(f"project {found.project}")
    records = config_dir / "plugins" / "installed_plugins.json"
    try:
        installed = jsonfile.load(records) or {}
    except ConfigFileError as error:
        report.fail(str(error))
        installed = {}
    plugins = installed.get("plugins")
    keys = [
        key
        for key in (plugins if isinstance(plugins, dict) else {})
        if key.split("@")[0] in PLUGIN_NAMES
    ]
    report.say("plugin")
    if not keys:
        name = PLUGIN_NAME
        report.fail(f"the {name} plugin is not installed ({records}): {INSTALL_PLUGIN}")
    for key in keys:
        state = "enabled" if key in found.plugins else "installed, not enabled"
        report.say(f"  {key}: {state}")
        if key not in found.plugins:
            report.fail(f"enable it: `claude plugin enable {key}` (or /plugin in Claude Code)")
    for server in (s for s in found.servers if s.scope.startswith("plugin")):
        verdict = ownership.judge_server(server.value, me, environ)
        if verdict.reason == ownership.PLUGIN_REASON:
            report.say(f"  server {server.name!r} ({server.where}): the plugin's launcher")
        else:
            report.fail(f"server {server.name!r} in {server.where} is not the plugin's own entry")
        refusal = policy.server_refusal(server, found)
        if refusal is not None:
            report.fail(f"Claude Code does not start the plugin's server: {refusal}")
    for hook in (h for h in found.hooks if h.scope.startswith("plugin")):
        if hook.command == ownership.PLUGIN_HOOK:
            report.say(f"  {hook.event} hook ({hook.where}): the plugin's launcher")
        else:
            report.fail(f"hook {hook.command!r} in {hook.where} is not the plugin's own entry")
        refusal = policy.hook_refusal(hook, found)
        if refusal is not None:
            report.fail(f"the plugin's hook never runs: {refusal}")
    for problem in found.problems:
        report.fail(problem)
    version = doctor_plugin.plugin_python(environ, report)
    for key in keys:
        copies = plugins.get(key) if isinstance(plugins, dict) else None
        places = (
            [c.get("installPath") for c in copies if isinstance(c, dict)]
            if isinstance(copies, list)
            else []
        )
        for place in [p for p in places if isinstance(p, str)][:1]:
            doctor_plugin.environment(key, Path(place), config_dir, version, report)
        doctor_plugin.skipped(key, config_dir, report)
    # The organisation's managed entries are not an install of the user's to remove.
    installs = [s for s in found.servers if s.scope in policy.SCOPES]
    hooks = [h for h in found.hooks if h.scope in policy.SCOPES]
    if keys and (installs or hooks):
        scopes = sorted({s.scope for s in installs} | {h.scope for h in hooks})
        fixes = " and ".join(f"`mdsel-claude uninstall --scope {scope}`" for scope in scopes)
        report.fail(
            f"an mdsel-claude install is active too ({', '.join(scopes)} scope): the tools "
            f"would be listed twice and the reminder given twice; remove it with {fixes}"
        )
    report.say("checks (this installation, the same code the plugin runs)")
    for args in (("serve",), ("hook",)):
        argv = (*me.argv, *args)
        report.say(f"  {shlex.join(argv)}")
        (check_server if args[0] == "serve" else check_hook)(argv, report)
    return _finish(report)
