"""Factory Droid: `~/.factory/mcp.json` (`FACTORY_HOME_OVERRIDE` in place of home) or the
project's `.factory/mcp.json` (at its root), `mcpServers` → `{type: "stdio", command, args,
disabled: false}` as `droid mcp add` writes it; and its `PostToolUse` hook on `Read` in the
`settings.json` beside that file (see `settings_hook`).

`PostToolUse` because Droid (0.225) hands the model a hook's context only after the tool ran
(as a message of its own); what a `PreToolUse` hook adds is dropped. The hook's file is Droid's
settings, which hold much else (custom models, permissions): only our matcher group is added
and, on uninstall, what the record says install wrote there removed, like the server.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from mdsel_claude.hook import factory
from mdsel_claude.setup import jsonfile, settings_hook
from mdsel_claude.setup.clients.base import Client, Doctoring, Request
from mdsel_claude.setup.dirs import without_dir
from mdsel_claude.setup.instructions import Target
from mdsel_claude.setup.jsonfile import JSONObject
from mdsel_claude.setup.plan_parts import file_step, kept_as_theirs, removal
from mdsel_claude.setup.probes import Payload
from mdsel_claude.setup.settings_hook import JsonHook
from mdsel_claude.setup.steps import DeleteFile, Note, Plan, Step, WriteFile

HOOK = JsonHook("factory", factory.EVENT, "Read", "Read")

NEXT_STEPS = (
    "Start (or restart) Droid to load it. Its MCP tools: mdsel_index, mdsel_select; its "
    "PostToolUse hook reminds the model when Read reads a large Markdown file. Check with: "
    "mdsel-claude doctor --client factory"
)


def factory_home(environ: Mapping[str, str]) -> Path:
    """The folder Droid keeps `.factory` in: `FACTORY_HOME_OVERRIDE`, else HOME."""
    return Path(environ.get("FACTORY_HOME_OVERRIDE") or environ.get("HOME") or Path.home())


def settings_file(servers: Path) -> Path:
    """Droid's settings beside its MCP file (the same `.factory` folder, in either scope)."""
    return servers.parent / "settings.json"


def read_payload(directory: str, name: str) -> Payload:
    """What Droid sends a `PostToolUse` hook after `Read` read `directory/name`."""
    return {
        "session_id": "mdsel-claude-doctor",
        "cwd": directory,
        "hook_event_name": factory.EVENT,
        "tool_name": "Read",
        "tool_input": {"file_path": str(Path(directory, name))},
        "tool_response": "",
    }


def _switched_off(settings: JSONObject) -> str | None:
    hooks = settings.get("hooks")
    off = isinstance(hooks, dict) and hooks.get("hooksDisabled") is True
    return "hooks.hooksDisabled is true" if off else None


class Factory(Client):
    """The server in `mcp.json`, and the hook in `settings.json` beside it."""

    def plan_install(self, request: Request) -> Plan:
        plan = super().plan_install(request)
        path = settings_file(request.path)
        entry = HOOK.entry(request.executable, request.words(), request.mode)
        before, added, state, what = settings_hook.add_beside(
            HOOK, path, entry, request.executable, plan.state
        )
        step = kept_as_theirs(path, what) if added is None else file_step(
            path, before, added.value, what, self.private
        )  # fmt: skip
        return Plan((*plan.steps, step), state, plan.state_file, plan.leftovers)

    def plan_uninstall(self, request: Request) -> Plan:
        plan = super().plan_uninstall(request)
        path = settings_file(request.path)
        before = jsonfile.load(path)
        after = HOOK.remove(before or {}, path, plan.state.created(path))
        what = f"remove {HOOK.event} hook on {HOOK.tool}"
        state, step = removal(plan.state, path, (before, after), what)
        changes = isinstance(step, (WriteFile, DeleteFile))
        steps: list[Step] = [
            s
            for s in plan.steps
            # "nothing is installed" is said of the server's file alone: not so with a hook.
            if not (changes and isinstance(s, Note) and s.text.startswith("nothing of"))
        ]
        if changes and step is not None:
            steps.append(step)
        # The `.factory` folder install made goes once both files have left it empty.
        state = without_dir(path.parent, steps, state)
        return Plan(tuple(steps), state, plan.state_file, plan.leftovers)

    def doctor(self, found: Doctoring) -> None:
        places = [(scope, settings_file(path)) for scope, path in found.places]
        settings_hook.report(
            HOOK, places, found.me, found.environ, found.report, read_payload,
            factory.answer, _switched_off,
        )  # fmt: skip

    def instructions(self, scope: str, cwd: Path, environ: Mapping[str, str]) -> Target | None:
        # Droid 0.225 reads `AGENTS.md` and `CLAUDE.md` (both) in `~/.factory/` (and
        # `~/.agents/`), and in each folder from the one it starts in up to the git root and
        # the `.factory/` in each: the project's `AGENTS.md` goes at the root, beside
        # `.factory/`. It follows no symlink leading out of its folder.
        folder = factory_home(environ) / ".factory" if scope == "user" else self.project_folder(cwd)
        return Target(folder / "AGENTS.md", f"factory:{scope}")

    def next_steps(self) -> str:
        return NEXT_STEPS


CLIENT = Factory(
    "factory",
    "Factory Droid",
    "mcpServers",
    lambda env: factory_home(env) / ".factory" / "mcp.json",
    ".factory/mcp.json",
    lambda exe: {"type": "stdio", "command": exe, "args": ["serve"], "disabled": False},
    # Droid creates both files readable by their owner only: its settings hold API keys.
    private=True,
)
