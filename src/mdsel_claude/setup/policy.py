"""What the organisation's managed settings (see `managed`) keep from running: a server or a
hook that another scope registers. The messages say which file decides and what would help."""

from __future__ import annotations

from mdsel_claude.setup.claude_places import Hook, Server, Survey
from mdsel_claude.setup.entries import SERVER_KEY

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
    return _plugins_only(found, "mcp", server.scope)


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
    return _plugins_only(found, "hooks", hook.scope)


def _plugins_only(found: Survey, surface: str, scope: str) -> str | None:
    """Why `strictPluginOnlyCustomization` keeps the `surface` of a scope of the user's out."""
    locked = found.policy.plugin_only.get(surface)
    if locked is None or scope not in SCOPES:
        return None
    what = "servers" if surface == "mcp" else surface
    return (
        f"strictPluginOnlyCustomization in {locked} lets {what} come from plugins only; "
        "install the mdsel plugin instead (docs/claude-code.md)"
    )
