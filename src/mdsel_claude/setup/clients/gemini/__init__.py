"""Gemini CLI: `~/.gemini/settings.json` (`GEMINI_CLI_HOME`) or `.gemini/settings.json`,
`mcpServers`, and its `AfterTool` hook on `read_file` in the same file (see `after_tool`)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from mdsel_claude.setup.clients.base import Client, Doctoring, Request, home
from mdsel_claude.setup.instructions import Target
from mdsel_claude.setup.jsonfile import JSONObject
from mdsel_claude.setup.ledger import FileRecord
from mdsel_claude.setup.steps import Plan


def gemini_home(environ: Mapping[str, str]) -> Path:
    """Where Gemini CLI keeps its `.gemini` folder: `GEMINI_CLI_HOME` when set, else home."""
    return Path(environ.get("GEMINI_CLI_HOME") or home(environ))


class Gemini(Client):
    """The server and the `AfterTool` hook, in one settings file."""

    def project_folder(self, cwd: Path) -> Path:
        # Gemini CLI reads `.gemini/settings.json` only in the folder it starts in (checked
        # with `gemini mcp list` in a subfolder), not at the project root.
        return Path(os.path.realpath(cwd))

    def plan_install(self, request: Request) -> Plan:
        from mdsel_claude.setup.clients.gemini import after_tool

        hook = after_tool.hook_entry(request.executable, request.words(), request.mode)
        return self.plan_server(request, (after_tool.HOOK, hook))

    def without_hooks(self, value: JSONObject, path: Path, created: FileRecord) -> JSONObject:
        from mdsel_claude.setup.clients.gemini import after_tool

        return after_tool.remove_hooks(value, path, created)

    def doctor(self, found: Doctoring) -> None:
        from mdsel_claude.setup.clients.gemini import after_tool, server_blocks

        if found.mine:
            server_blocks.report_blocks(found.places, found.report)
        after_tool.report_hooks(found.places, found.me, found.environ, found.report)

    def instructions(self, scope: str, cwd: Path, environ: Mapping[str, str]) -> Target | None:
        # Gemini CLI 0.61 reads `GEMINI.md` in its home folder, and in the folder it starts in
        # and each one above it up to the git root (in trusted folders): the project's goes
        # beside its `.gemini/` folder. `context.fileName` in its settings renames the file.
        user = gemini_home(environ) / ".gemini"
        folder = user if scope == "user" else self.project_folder(cwd)
        path = folder / "GEMINI.md"
        names = context_names(self.project_folder(cwd) / ".gemini" / "settings.json")
        names = names or context_names(user / "settings.json")
        notes: tuple[str, ...] = ()
        if names and path.name not in names:
            notes = (
                f"Gemini CLI reads {', '.join(names)} instead of GEMINI.md (context.fileName in "
                "its settings): the block in GEMINI.md is not read; copy it into that file",
            )
        return Target(path, f"{self.name}:{scope}", (), notes)

    def next_steps(self) -> str:
        from mdsel_claude.setup.clients.gemini import after_tool

        return after_tool.NEXT_STEPS


CLIENT = Gemini(
    "gemini",
    "Gemini CLI",
    "mcpServers",
    lambda env: gemini_home(env) / ".gemini" / "settings.json",
    ".gemini/settings.json",
    lambda exe: {"command": exe, "args": ["serve"]},
)


def context_names(settings: Path) -> tuple[str, ...]:
    """The file names `context.fileName` sets in a settings file (the project's wins over the
    user's, as Gemini CLI and its fork Qwen Code merge them); none where it is unset or the file
    cannot be read."""
    from mdsel_claude.setup import jsonfile

    try:
        value = jsonfile.load(settings) or {}
    except jsonfile.ConfigFileError:
        return ()
    context = value.get("context")
    named = context.get("fileName") if isinstance(context, dict) else None
    if isinstance(named, str):
        named = [named]
    if not isinstance(named, list):
        return ()
    return tuple(n.strip() for n in named if isinstance(n, str) and n.strip())
