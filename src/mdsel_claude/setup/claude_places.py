"""Every place Claude Code could find an mdsel server or Read hook, read straight from its files.

Claude Code keeps MCP servers in four scopes (as its own `claude mcp add -s …` writes them):
**user** — `mcpServers` at the top of `~/.claude.json`; **local** — `projects[<project>]
.mcpServers` in the same file, the project being the git top level (else the directory);
**project** — `.mcp.json` in the directory and in every one above it, up to `/`; **plugin** —
the `.mcp.json` of each enabled plugin. Hooks live in `~/.claude/settings.json` (user),
`.claude/settings.json` (project), `.claude/settings.local.json` (local) and a plugin's
`hooks/hooks.json`. The user directory is `$CLAUDE_CONFIG_DIR` when set (then `.claude.json`
is inside it too). Above them all, the organisation's managed files (see `managed`): their
settings are read last, so that what they set wins, and the servers of a `managed-mcp.json` are
the **managed** scope.

A server from a `.mcp.json` runs only once approved: the workspace trusted
(`hasTrustDialogAccepted` in its `~/.claude.json` project) and the server listed in
`enabledMcpjsonServers` or `enableAllProjectMcpServers` set, in any settings file (older
versions kept these in `~/.claude.json`), and not in `disabledMcpjsonServers`.

Only reading happens here: every file goes through `jsonfile`'s bounded reads.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from mdsel_claude.server.tools import INDEX_TOOL, SELECT_TOOL
from mdsel_claude.setup import entry_edits, jsonfile, managed, paths
from mdsel_claude.setup.entries import EXECUTABLE_NAME, PLUGIN_NAMES, SERVER_KEY
from mdsel_claude.setup.jsonfile import ConfigFileError, JSONObject

APPROVAL_KEYS = ("enabledMcpjsonServers", "disabledMcpjsonServers", "enableAllProjectMcpServers")
TOOLS = (INDEX_TOOL, SELECT_TOOL)


@dataclass(frozen=True, slots=True)
class Server:
    scope: str
    where: str
    """The file, and the place in it when not at the top."""
    name: str
    value: object


@dataclass(frozen=True, slots=True)
class Hook:
    scope: str
    where: str
    event: str
    matcher: object
    command: object
    other_keys: tuple[str, ...] = ()
    """Keys of the hook object beyond `type` and `command` (install writes those two only)."""


@dataclass
class Survey:
    """What was found; `problems` are files that could not be read."""

    project: Path
    servers: list[Server] = field(default_factory=list)
    hooks: list[Hook] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    """Every file looked at that exists."""
    approval: dict[str, object] = field(default_factory=dict)
    """The merged approval keys, and `trusted` (the workspace trust)."""
    switched_off: dict[str, str] = field(default_factory=dict)
    """Server name → where Claude Code is told not to start it: `disabledMcpServers` of the
    project (what /mcp's disable writes) or `deniedMcpServers` of a settings file."""
    allowed: list[JSONObject] | None = None
    """`allowedMcpServers` of every settings file that has one, merged; None when none has
    one (every server may start)."""
    allowed_in: list[str] = field(default_factory=list)
    """The settings files that have an `allowedMcpServers` list."""
    hooks_off: str | None = None
    """The settings file whose `disableAllHooks: true` decides (the most local file that sets
    the key): then no hook runs, ours included."""
    plugins: list[str] = field(default_factory=list)
    """Enabled plugins named mdsel-claude, as `name@marketplace`."""
    denied: list[tuple[str, str]] = field(default_factory=list)
    """`permissions.deny` rules of MCP tools (`mcp__mdsel`, `mcp__mdsel__mdsel_index`), with
    the settings file of each: Claude Code then refuses every call of those tools."""
    policy: managed.Policy = field(default_factory=managed.Policy)
    """The organisation's managed files."""
    env: dict[str, tuple[str, str]] = field(default_factory=dict)
    """MDSEL_* variables the settings files' `env` gives every process Claude Code starts (our
    server and hook too): name → (value, the file that decides, the last one read)."""


def _read(path: Path, survey: Survey) -> JSONObject | None:
    try:
        value = jsonfile.load(path)
    except ConfigFileError as error:
        survey.problems.append(str(error))
        return None
    if value is not None:
        survey.files.append(str(path))
    return value


def _object(value: object) -> JSONObject:
    return value if isinstance(value, dict) else {}


def _mentions_us(value: object) -> bool:
    text = str(value)
    return EXECUTABLE_NAME in text or "mdsel_claude" in text  # the plugin runs its launcher


def _servers(survey: Survey, scope: str, where: str, servers: object) -> None:
    for name, value in _object(servers).items():
        if name == SERVER_KEY or _mentions_us(value):
            survey.servers.append(Server(scope, where, name, value))


def _hooks(survey: Survey, scope: str, where: str, settings: JSONObject | None) -> None:
    for event, matcher, hook in entry_edits.matched_hooks_in(settings or {}):
        command = hook.get("command")
        if _mentions_us(command):
            other = tuple(sorted(key for key in hook if key not in ("type", "command")))
            if hook.get("type") != "command":
                other = ("type", *other)
            survey.hooks.append(Hook(scope, where, event, matcher, command, other))


def survey(directory: Path, environ: Mapping[str, str]) -> Survey:
    """Read every scope's files for a project directory."""
    directory = Path(os.path.realpath(directory))
    root = paths.project_root(directory)
    found = Survey(root)
    config_dir, claude_json = paths.user_config_dir(environ), paths.user_state_file(environ)
    state = _read(claude_json, found) or {}
    _servers(found, "user", str(claude_json), state.get("mcpServers"))
    key = paths.config_key_root(root)
    project_state = _object(_object(state.get("projects")).get(str(key)))
    where = f"{claude_json} projects[{str(key)!r}]"
    _servers(found, "local", where, project_state.get("mcpServers"))
    for folder in (directory, *directory.parents):
        config = folder / ".mcp.json"
        _servers(found, "project", str(config), _object(_read(config, found)).get("mcpServers"))
    settings: list[JSONObject] = []
    folders = dict.fromkeys((root, directory))
    user_settings = config_dir / "settings.json"
    named = [("user", user_settings)]
    for folder in folders:
        # In the home directory the project's settings file is the user's: read it once.
        project_settings = folder / ".claude" / "settings.json"
        if os.path.realpath(project_settings) != os.path.realpath(user_settings):
            named += [("project", project_settings)]
        named += [("local", folder / ".claude" / "settings.local.json")]
    for scope, path in named:
        value = _read(path, found)
        _hooks(found, scope, str(path), value)
        settings.append(value or {})
        _switches(found, str(path), value or {})
        _allowlist(found, str(path), value or {})
    _managed(found, managed.read_policy())
    for name in _list(project_state.get("disabledMcpServers")):
        if isinstance(name, str):
            found.switched_off.setdefault(name, f"disabledMcpServers in {where}")
    _approval(found, [project_state, *settings], project_state)
    _plugins(found, config_dir, settings)
    return found


def _managed(found: Survey, policy: managed.Policy) -> None:
    """The managed files, read after every other: what they set wins."""
    found.policy = policy
    found.problems += policy.problems
    found.files += policy.files
    if policy.servers_file is not None:
        _servers(found, "managed", policy.servers_file, policy.servers)
    if policy.allowlist_only is not None:
        found.allowed, found.allowed_in = None, []
    if policy.rules_only is not None:
        found.denied.clear()
    for path, settings in policy.settings:
        _hooks(found, "managed", path, settings)
        _switches(found, path, settings)
        _allowlist(found, path, settings)


def _switches(found: Survey, path: str, settings: JSONObject) -> None:
    """What one settings file turns off (every hook, or servers by name) and our variables its
    `env` sets."""
    # Read user, then project, then local: the last file that sets the key decides.
    for variable, value in _object(settings.get("env")).items():
        if variable.startswith("MDSEL_") and isinstance(value, str):
            found.env[variable] = (value, path)
    if isinstance(settings.get("disableAllHooks"), bool):
        found.hooks_off = path if settings["disableAllHooks"] else None
    for denied in _list(settings.get("deniedMcpServers")):
        name = _object(denied).get("serverName")
        if isinstance(name, str):
            found.switched_off.setdefault(name, f"deniedMcpServers in {path}")
    for rule in _list(_object(settings.get("permissions")).get("deny")):
        if isinstance(rule, str) and rule.startswith("mcp__"):
            found.denied.append((rule, path))


def denied_tools(found: Survey, name: str) -> list[str]:
    """The `permissions.deny` rules that refuse a tool of MCP server `name`, each with its
    file, in the shapes Claude Code documents: `mcp__NAME` and `mcp__NAME__*` (every tool),
    `mcp__NAME__TOOL` (one)."""
    ours = {f"mcp__{name}", f"mcp__{name}__*"} | {f"mcp__{name}__{tool}" for tool in TOOLS}
    return [f"{rule!r} in {path}" for rule, path in found.denied if rule in ours]


def _allowlist(found: Survey, path: str, settings: JSONObject) -> None:
    """Claude Code merges `allowedMcpServers` from every settings file into one list."""
    entries = settings.get("allowedMcpServers")
    if isinstance(entries, list):
        merged = found.allowed if found.allowed is not None else []
        merged += [entry for entry in entries if isinstance(entry, dict)]
        found.allowed = merged
        found.allowed_in.append(path)


def allowlist_refusal(found: Survey, name: str, value: object) -> str | None:
    """Why Claude Code's merged allowlist keeps a stdio server from starting, and what would
    let it in; or None.

    As Claude Code 2.1 applies it (checked with `claude mcp list`): no list lets every server
    start and an empty one none; where the list has any `serverCommand` entry, a stdio server
    must match one exactly (program and arguments), else its `serverName` entry lets it in; a
    `serverUrl` entry never admits a stdio server."""
    if found.allowed is None:
        return None
    commands = [entry["serverCommand"] for entry in found.allowed if "serverCommand" in entry]
    server = _object(value)
    argv = [server.get("command"), *_list(server.get("args"))]
    by_command = f'{{"serverCommand": {json.dumps(argv)}}}'
    if commands:
        if argv in commands:
            return None
        rule = (
            "no serverCommand entry is its command, and where the list has one a name alone "
            f"does not let a server in; add {by_command}"
        )
    elif any(entry.get("serverName") == name for entry in found.allowed):
        return None
    else:
        rule = f"it names no serverName {name!r}" if found.allowed else "it is empty"
        rule += f'; add {{"serverName": "{name}"}} (or {by_command})'
    return f"allowedMcpServers in {', '.join(found.allowed_in)}: {rule}"


def _approval(found: Survey, sources: list[JSONObject], project_state: JSONObject) -> None:
    enabled: list[object] = []
    disabled: list[object] = []
    every = False
    for source in sources:
        enabled += _list(source.get("enabledMcpjsonServers"))
        disabled += _list(source.get("disabledMcpjsonServers"))
        every = every or source.get("enableAllProjectMcpServers") is True
    found.approval = {
        "enabled": enabled,
        "disabled": disabled,
        "all": every,
        "trusted": project_state.get("hasTrustDialogAccepted") is True,
    }


def approval_of(found: Survey, name: str) -> str:
    """`approved`, `disabled` or `pending` for a project (`.mcp.json`) server."""
    if name in _list(found.approval.get("disabled")):
        return "disabled"
    chosen = found.approval.get("all") is True or name in _list(found.approval.get("enabled"))
    return "approved" if chosen and found.approval.get("trusted") is True else "pending"


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _plugins(found: Survey, config_dir: Path, settings: list[JSONObject]) -> None:
    """Our plugin's entries, when it is enabled: read from where Claude Code installed it."""
    enabled: dict[str, object] = {}
    for source in settings:  # user, then project, then local: the later one decides
        enabled.update(_object(source.get("enabledPlugins")))
    names = PLUGIN_NAMES
    ours = [key for key, on in enabled.items() if on is True and key.split("@")[0] in names]
    if not ours:
        return
    found.plugins = ours
    installed = _object(_read(config_dir / "plugins" / "installed_plugins.json", found))
    for key in ours:
        copies = _object(installed.get("plugins")).get(key)
        places = [_object(copy).get("installPath") for copy in _list(copies)]
        folders = [Path(place) for place in places if isinstance(place, str)]
        if not folders:
            found.problems.append(f"plugin {key} is enabled but not installed")
        for place in folders[:1]:
            scope = f"plugin {key}"
            config, hooks = place / ".mcp.json", place / "hooks" / "hooks.json"
            _servers(found, scope, str(config), _object(_read(config, found)).get("mcpServers"))
            _hooks(found, scope, str(hooks), _read(hooks, found))
