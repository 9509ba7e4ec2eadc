"""OpenCode: `~/.config/opencode/opencode.json` or `opencode.json`, `mcp` →
`{type: "local", command: [program, args…], enabled: true}`, and its plugin file
(`plugin/mdsel-claude.js` beside the user file, or in the project's `.opencode/`; see
`plugin_script`). OpenCode reads other files after ours, which may override our entry (see
`merge_order`)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from mdsel_claude.setup.clients.base import Client, Doctoring, Request, config_home, home
from mdsel_claude.setup.instructions import Target
from mdsel_claude.setup.paths import project_root
from mdsel_claude.setup.steps import Plan


class OpenCode(Client):
    """The server, and the plugin that carries the reminder."""

    def plan_install(self, request: Request) -> Plan:
        from mdsel_claude.setup.clients.opencode import merge_order, plugin_script

        words = request.words()
        plan = super().plan_install(request)
        user_home = home(request.environ)
        plan = merge_order.with_notes(
            plan, request.scope, request.path, True, user_home, request.environ
        )
        command = plugin_script.hook_command(request.executable, words, request.mode)
        where = plugin_script.plugin_file(request.scope, request.path, request.cwd)
        return plugin_script.plan_install(plan, where, command)

    def plan_uninstall(self, request: Request) -> Plan:
        from mdsel_claude.setup import whole_files
        from mdsel_claude.setup.clients.opencode import merge_order, plugin_script

        plan = super().plan_uninstall(request)
        user_home = home(request.environ)
        plan = merge_order.with_notes(
            plan, request.scope, request.path, False, user_home, request.environ
        )
        where = plugin_script.plugin_file(request.scope, request.path, request.cwd)
        return whole_files.plan_remove_after(plan, where)

    def doctor(self, found: Doctoring) -> None:
        from mdsel_claude.setup.clients.opencode import plugin_script

        _overrides(found)
        plugins = [
            (scope, plugin_script.plugin_file(scope, path, found.project_dir))
            for scope, path in found.places
        ]
        plugin_script.report(plugins, found.me, found.environ, found.report)

    def instructions(self, scope: str, cwd: Path, environ: Mapping[str, str]) -> Target | None:
        # OpenCode 1.18 reads the first of its candidates that exists: for the user
        # `opencode/AGENTS.md` in its configuration folder, else `~/.claude/CLAUDE.md`; in the
        # project `AGENTS.md`, else `CLAUDE.md`, else `CONTEXT.md` (the Claude Code files not
        # with OPENCODE_DISABLE_CLAUDE_CODE(_PROMPT)). A new AGENTS.md would hide the CLAUDE.md
        # it reads now, so the block goes in the file it reads.
        claude = not any(
            environ.get(name, "").lower() in ("1", "true")
            for name in ("OPENCODE_DISABLE_CLAUDE_CODE", "OPENCODE_DISABLE_CLAUDE_CODE_PROMPT")
        )
        if scope == "user":
            files = [self.user_file(environ).parent / "AGENTS.md"]
            files += [home(environ) / ".claude" / "CLAUDE.md"] if claude else []
        else:
            root = project_root(cwd)
            names = ("AGENTS.md", "CLAUDE.md", "CONTEXT.md") if claude else ("AGENTS.md",)
            files = [root / name for name in names]
        read = next((f for f in files if os.path.lexists(f)), files[0])
        notes: tuple[str, ...] = ()
        if read != files[0]:
            notes = (
                f"OpenCode reads {read} here, as there is no {files[0]}: the block goes there "
                f"(a new {files[0].name} would hide it from OpenCode)",
            )
        return Target(read, f"{self.name}:{scope}", tuple(f for f in files if f != read), notes)

    def next_steps(self) -> str:
        from mdsel_claude.setup.clients.opencode.plugin_script import NEXT_STEPS

        return NEXT_STEPS


def _overrides(found: Doctoring) -> None:
    """OpenCode reads other files after ours (`opencode.jsonc`, the project's `.opencode/`,
    those its environment variables name): an `mcp.mdsel` there overrides our entry."""
    from mdsel_claude.setup.clients.opencode import merge_order

    project = project_root(found.project_dir)
    user_home = home(found.environ)
    for scope, path in found.places:
        if scope not in found.mine:
            continue
        files = merge_order.later_files(
            scope, path, project if scope == "user" else None, user_home, found.environ
        )
        for file, problem in merge_order.overriding(files, found.environ):
            if problem is None:
                found.report.fail(merge_order.overrides_message(file, path))
            else:
                found.report.say(f"  {merge_order.unreadable_message(file, problem)}")


CLIENT = OpenCode(
    "opencode",
    "OpenCode",
    "mcp",
    lambda env: config_home(env) / "opencode" / "opencode.json",
    "opencode.json",
    lambda exe: {"type": "local", "command": [exe, "serve"], "enabled": True},
)
