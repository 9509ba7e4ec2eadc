"""Claude Code's managed settings: the files an organisation's administrator deploys, which win
over every other settings file.

Claude Code reads them from one system folder (`/etc/claude-code` on Linux,
`/Library/Application Support/ClaudeCode` on macOS, `C:\\Program Files\\ClaudeCode` on Windows):
`managed-settings.json`, then each `managed-settings.d/*.json` in name order (lists are joined
across them, as across every settings file), and `managed-mcp.json`, whose servers are then the
only ones it starts. Checked against `claude mcp list` with such files in place.

What they can do to ours, besides what any settings file can (`deniedMcpServers`,
`allowedMcpServers`, `permissions.deny`, `disableAllHooks`, read with the other files):
- `managed-mcp.json` present: no other server starts, a plugin's neither;
- `allowManagedMcpServersOnly`: only the managed files' `allowedMcpServers` count;
- `allowManagedHooksOnly`: only managed hooks and those of plugins the managed files enable;
- `allowManagedPermissionRulesOnly`: the other files' permission rules are ignored;
- `strictPluginOnlyCustomization` (`true`, or a list naming `hooks` or `mcp`; any other value
  counts as `true`, as Claude Code takes it): servers and hooks only from plugins.

Policies delivered another way (MDM profiles, the Windows registry, Claude's servers) are not
files here and are not read. Only reading happens here, through `jsonfile`'s bounded reads.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from mdsel_claude.setup import jsonfile
from mdsel_claude.setup.jsonfile import ConfigFileError, JSONObject

MAX_DROP_INS = 64
"""`managed-settings.d` files read at most (a policy folder holds a few)."""

SURFACES = ("hooks", "mcp")
"""The surfaces of `strictPluginOnlyCustomization` that touch ours."""


def managed_dir() -> Path:
    """The folder Claude Code reads managed settings from on this system."""
    if sys.platform == "darwin":
        return Path("/Library/Application Support/ClaudeCode")
    if os.name == "nt":
        return Path("C:\\Program Files\\ClaudeCode")
    return Path("/etc/claude-code")


@dataclass
class Policy:
    """What the managed files say; `settings` are the settings files read, in order."""

    settings: list[tuple[str, JSONObject]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    servers_file: str | None = None
    """`managed-mcp.json` when present: its servers are the only ones started."""
    servers: JSONObject = field(default_factory=dict)
    """The `mcpServers` of `managed-mcp.json`."""
    allowlist_only: str | None = None
    """The file that sets `allowManagedMcpServersOnly`."""
    hooks_only: str | None = None
    """The file that sets `allowManagedHooksOnly`."""
    rules_only: str | None = None
    """The file that sets `allowManagedPermissionRulesOnly`."""
    plugin_only: dict[str, str] = field(default_factory=dict)
    """Surface (`hooks`, `mcp`) → the file whose `strictPluginOnlyCustomization` locks it."""
    enabled_plugins: dict[str, object] = field(default_factory=dict)
    """`enabledPlugins` of the managed files: plugins the organisation turns on."""

    @property
    def files(self) -> list[str]:
        """Every managed file read."""
        return [path for path, _ in self.settings] + (
            [self.servers_file] if self.servers_file else []
        )


def read_policy(folder: Path | None = None) -> Policy:
    """The managed files of `folder` (default: this system's), read; unreadable ones are
    problems, missing ones nothing."""
    folder = managed_dir() if folder is None else folder
    policy = Policy()
    named = [folder / "managed-settings.json"]
    drop_ins = folder / "managed-settings.d"
    try:
        entries = sorted(os.scandir(drop_ins), key=lambda entry: entry.name)
    except OSError:  # no such folder (the usual case), or not one that can be listed
        entries = []
    named += [Path(e.path) for e in entries if e.name.endswith(".json")][:MAX_DROP_INS]
    for path in named:
        value = _load(path, policy)
        if value is not None:
            policy.settings.append((str(path), value))
            _flags(policy, str(path), value)
    servers = _load(folder / "managed-mcp.json", policy)
    if servers is not None:
        policy.servers_file = str(folder / "managed-mcp.json")
        mcp = servers.get("mcpServers")
        policy.servers = mcp if isinstance(mcp, dict) else {}
    return policy


def _load(path: Path, policy: Policy) -> JSONObject | None:
    try:
        return jsonfile.load(path)
    except ConfigFileError as error:
        policy.problems.append(str(error))
        return None


def _flags(policy: Policy, path: str, settings: JSONObject) -> None:
    """The switches one managed file sets; a later file's value of a key wins."""
    for key, attribute in (
        ("allowManagedMcpServersOnly", "allowlist_only"),
        ("allowManagedHooksOnly", "hooks_only"),
        ("allowManagedPermissionRulesOnly", "rules_only"),
    ):
        if isinstance(settings.get(key), bool):
            setattr(policy, attribute, path if settings[key] else None)
    if "strictPluginOnlyCustomization" in settings:
        value = settings["strictPluginOnlyCustomization"]
        if value is False:
            locked: tuple[str, ...] = ()
        elif isinstance(value, list) and all(isinstance(item, str) for item in value):
            locked = tuple(surface for surface in SURFACES if surface in value)
        else:  # `true`, or a value Claude Code cannot read, which it takes for `true`
            locked = SURFACES
        policy.plugin_only = {surface: path for surface in locked}
    plugins = settings.get("enabledPlugins")
    if isinstance(plugins, dict):
        policy.enabled_plugins.update(plugins)
