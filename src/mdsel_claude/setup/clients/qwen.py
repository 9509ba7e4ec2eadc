"""Qwen Code: `~/.qwen/settings.json` (`QWEN_HOME` in place of `~/.qwen`) or `.qwen/settings.json`
in the folder it starts in, `mcpServers` → `{command, args}`, and its `PostToolUse` hook on
`read_file` in the same file (see `settings_hook`).

`PostToolUse` because Qwen Code (0.24) hands the model a hook's context only after the tool
ran (appended to the result); what a `PreToolUse` hook adds is dropped. The matcher is
anchored: Qwen Code searches the tool name with it, and an MCP tool whose name merely contains
`read_file` starts no hook. It runs the project's hooks unless folder trust is on and the
folder untrusted, and asks before starting a project's MCP server (`qwen mcp approve`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from mdsel_claude.hook import qwen
from mdsel_claude.setup import settings_hook
from mdsel_claude.setup.clients.base import Client, Doctoring, Request, home
from mdsel_claude.setup.clients.gemini import context_names
from mdsel_claude.setup.instructions import Target
from mdsel_claude.setup.jsonfile import JSONObject
from mdsel_claude.setup.ledger import FileRecord
from mdsel_claude.setup.paths import project_root
from mdsel_claude.setup.probes import Payload
from mdsel_claude.setup.settings_hook import JsonHook
from mdsel_claude.setup.steps import Plan

HOOK = JsonHook("qwen", qwen.EVENT, f"^{qwen.TOOL}$", qwen.TOOL, named=True)

NEXT_STEPS = (
    "Start (or restart) Qwen Code to load it. Its MCP tools: mdsel_index, mdsel_select; its "
    "PostToolUse hook reminds the model when read_file reads a large Markdown file. In "
    "project scope Qwen Code asks before it starts the project's server: `qwen mcp approve "
    "mdsel`. Check with: mdsel-claude doctor --client qwen"
)


def qwen_dir(environ: Mapping[str, str]) -> Path:
    """Qwen Code's user folder: `QWEN_HOME` when set (`~` expanded, relative to the current
    folder as Qwen Code takes it), else `~/.qwen`."""
    named = environ.get("QWEN_HOME")
    if not named:
        return home(environ) / ".qwen"
    if named == "~" or named.startswith(("~/", "~\\")):
        return home(environ) / named[2:]
    return Path(os.path.abspath(named))


def read_payload(directory: str, name: str) -> Payload:
    """What Qwen Code sends a `PostToolUse` hook after `read_file` read `directory/name`."""
    return {
        "session_id": "mdsel-claude-doctor",
        "cwd": directory,
        "hook_event_name": qwen.EVENT,
        "tool_name": qwen.TOOL,
        "tool_input": {"file_path": str(Path(directory, name))},
        "tool_response": {"llmContent": "", "returnDisplay": ""},
    }


def _switched_off(settings: JSONObject) -> str | None:
    return "disableAllHooks is true" if settings.get("disableAllHooks") is True else None


class Qwen(Client):
    """The server and the `PostToolUse` hook, in one settings file."""

    def project_folder(self, cwd: Path) -> Path:
        # Qwen Code reads `.qwen/settings.json` only in the folder it starts in (checked with
        # `qwen mcp list` in a subfolder), not at the project root.
        return Path(os.path.realpath(cwd))

    def plan_install(self, request: Request) -> Plan:
        entry = HOOK.entry(request.executable, request.words(), request.mode)
        return self.plan_server(request, (HOOK, entry))

    def without_hooks(self, value: JSONObject, path: Path, created: FileRecord) -> JSONObject:
        return HOOK.remove(value, path, created)

    def doctor(self, found: Doctoring) -> None:
        settings_hook.report(
            HOOK, found.places, found.me, found.environ, found.report, read_payload,
            qwen.answer, _switched_off,
        )  # fmt: skip

    def instructions(self, scope: str, cwd: Path, environ: Mapping[str, str]) -> Target | None:
        # Qwen Code 0.24 reads `QWEN.md` and `AGENTS.md` (both, `context.fileName` replaces
        # them) in its user folder, and in a trusted folder in each folder from the one it starts
        # in up to the git root: the project's go at the root. The block goes in QWEN.md unless
        # only AGENTS.md is there (it is read as well; a new file is not needed).
        folder = qwen_dir(environ) if scope == "user" else project_root(cwd)
        own, agents = folder / "QWEN.md", folder / "AGENTS.md"
        use_agents = not os.path.lexists(own) and os.path.lexists(agents)
        path, other = (agents, own) if use_agents else (own, agents)
        notes: tuple[str, ...] = ()
        names = context_names(project_root(cwd) / ".qwen" / "settings.json")
        names = names or context_names(qwen_dir(environ) / "settings.json")
        if names and path.name not in names:
            notes = (
                f"Qwen Code reads {', '.join(names)} instead of QWEN.md and AGENTS.md "
                f"(context.fileName in its settings): the block in {path.name} is not read; "
                "copy it into that file",
            )
        return Target(path, f"qwen:{scope}", (other,), notes)

    def next_steps(self) -> str:
        return NEXT_STEPS


CLIENT = Qwen(
    "qwen",
    "Qwen Code",
    "mcpServers",
    lambda env: qwen_dir(env) / "settings.json",
    ".qwen/settings.json",
    lambda exe: {"command": exe, "args": ["serve"]},
)
