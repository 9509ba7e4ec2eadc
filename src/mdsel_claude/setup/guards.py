"""What install checks before it plans: another scope (or the plugin) that already has us.

Claude Code uses every scope at once: a server named `mdsel` in two scopes is one too many
(only one is started), and two Read hooks give the reminder twice. So installing in one scope
while another already has our server or hook is refused, naming what is there and the command
that removes it, unless `--allow-duplicate` says it is meant. Only reading happens here (see
`claude_places`); nothing found in a file is run.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from mdsel_claude.setup import claude_places
from mdsel_claude.setup.errors import SetupError
from mdsel_claude.setup.paths import is_own_checkout
from mdsel_claude.setup.probes import fires_on_read


def registered_elsewhere(
    scope: str, project_dir: Path, environ: Mapping[str, str]
) -> list[tuple[str, str]]:
    """Our server or a Read hook of mdsel-claude in any scope but `scope`, or in an enabled
    plugin: each as (what and where, the command that removes it)."""
    found = claude_places.survey(project_dir, environ)
    # In a checkout of mdsel-claude, the project's files are the plugin's own (see
    # `claude_plans.refuse_own_checkout`): not an install, and never removed by one.
    skip = {scope, "project"} if is_own_checkout(found.project) else {scope}
    others: list[tuple[str, str]] = []
    for server in found.servers:
        if server.scope not in skip:
            others.append((f"MCP server {server.name!r} in {_place(server.scope, server.where)}",
                           _fix(server.scope)))  # fmt: skip
    for hook in found.hooks:
        if hook.scope not in skip and fires_on_read(hook.event, hook.matcher):
            others.append((f"{hook.event} Read hook in {_place(hook.scope, hook.where)}",
                           _fix(hook.scope)))  # fmt: skip
    return others


def _place(scope: str, where: str) -> str:
    return f"{scope} ({where})" if scope.startswith("plugin") else f"{scope} scope ({where})"


def _fix(scope: str) -> str:
    if scope == "managed":  # the organisation's files: not the user's to change
        return "the administrator (the managed settings are theirs)"
    if scope.startswith("plugin "):
        return f"`claude plugin uninstall {scope.removeprefix('plugin ')}`"
    return f"`mdsel-claude uninstall --scope {scope}`"


def refuse_duplicates(scope: str, project_dir: Path, environ: Mapping[str, str]) -> None:
    """Stop an install in `scope` that would register mdsel a second time."""
    others = registered_elsewhere(scope, project_dir, environ)
    if not others:
        return
    places = "; ".join(what for what, _ in others)
    fixes = " and ".join(dict.fromkeys(fix for _, fix in others))
    raise SetupError(
        f"mdsel-claude is already registered here: {places}. Installing in {scope} scope too "
        f"would list the tools twice and give the reminder twice. Have it removed first, by "
        f"{fixes} (or edit that file), then run this again; or pass --allow-duplicate to "
        "register both anyway"
    )
