"""What the organisation's managed settings (see `managed`) keep from running: a server or a
hook that another scope registers. The messages say which file decides and what would help."""

from __future__ import annotations

from mdsel_claude.setup.entries import SERVER_KEY
from mdsel_claude.setup.survey import Hook, Server, Survey

SCOPES = ("local", "project", "user")
"""The scopes of the user's own files (the plugin's are `plugin NAME`, the policy's `managed`)."""


def server_refusal(server: Server, found: Survey) -> str | None:
    """Why the organisation's managed files keep a server of another scope from starting."""
    managed = found.policy
    if server.scope == "managed":
        return None
    if managed.servers_file is not None:
        theirs = SERVER_KEY in managed.servers
        return f"{managed.servers_file} is present, and then only its servers start" + (
            f" (its {SERVER_KEY!r} is used instead)"
            if theirs
            else "; ask the administrator to add ours there"
        )
    locked = managed.plugin_only.get("mcp")
    if locked is not None and server.scope in SCOPES:
        return (
            f"strictPluginOnlyCustomization in {locked} lets servers come from plugins only; "
            "install the mdsel plugin instead (docs/claude-code.md)"
        )
    return None


def hook_refusal(hook: Hook, found: Survey) -> str | None:
    """Why the organisation's managed files keep a hook from running."""
    managed = found.policy
    if hook.scope == "managed":
        return None
    if managed.hooks_only is not None:
        plugin = hook.scope.removeprefix("plugin ")
        if plugin == hook.scope or managed.enabled_plugins.get(plugin) is not True:
            return (
                f"allowManagedHooksOnly in {managed.hooks_only} runs only the hooks of managed "
                "settings and of plugins they enable; ask the administrator to enable the mdsel "
                "plugin there"
            )
    locked = managed.plugin_only.get("hooks")
    if locked is not None and hook.scope in SCOPES:
        return (
            f"strictPluginOnlyCustomization in {locked} lets hooks come from plugins only; "
            "install the mdsel plugin instead (docs/claude-code.md)"
        )
    return None
