"""MCP clients besides Claude Code: where each keeps its servers, and our entry in its format.

`mdsel-claude install --client NAME` registers only the MCP server there (none of these runs
Claude Code's Read hook), in the client's user configuration by default or, with `--scope
project`, in the project's shared file (running `mdsel-claude` from PATH, as for Claude Code).
Each file is edited like Claude Code's: strictly parsed, only our entry added or removed,
everything else kept, replaced atomically, and what install created noted for uninstall.

The formats, as each client documents them (docs/clients.md shows one of each):

- Cursor: `~/.cursor/mcp.json` or `.cursor/mcp.json`, `mcpServers` → `{command, args}`.
- VS Code: the user profile's `mcp.json` or `.vscode/mcp.json`, `servers` (not `mcpServers`)
  → `{type: "stdio", command, args}`.
- Gemini CLI: `~/.gemini/settings.json` or `.gemini/settings.json`, `mcpServers`; install
  also writes its `AfterTool` hook on `read_file` there (see `gemini_hook`).
- OpenCode: `~/.config/opencode/opencode.json` or `opencode.json`, `mcp` →
  `{type: "local", command: [program, args…], enabled: true}`; install also writes its plugin
  file, `plugin/mdsel-claude.js` in the same folder or the project's `.opencode/` (see
  `opencode_plugin`).
- Codex CLI: `~/.codex/config.toml` (`CODEX_HOME`), `[mcp_servers.mdsel]` (see `codex_toml`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from mdsel_claude.setup import entries, entry_edits, jsonfile, ledger
from mdsel_claude.setup.dirs import with_dirs, without_dirs
from mdsel_claude.setup.entries import SERVER_KEY
from mdsel_claude.setup.jsonfile import JSONObject
from mdsel_claude.setup.ledger import Created, Written
from mdsel_claude.setup.paths import SetupError, project_root
from mdsel_claude.setup.planner import (
    file_step,
    is_theirs,
    kept_as_theirs,
    lookalike_notes,
    record_added,
    removal,
    server_at,
)
from mdsel_claude.setup.steps import DeleteFile, Note, Plan, Step, WriteFile


@dataclass(frozen=True, slots=True)
class Client:
    name: str
    """The value of `--client`."""
    title: str
    container: str
    """The key whose object holds the servers."""
    user_file: Callable[[Mapping[str, str]], Path]
    project_file: str | None
    """Relative to the project root; None when the client has no project file."""
    entry: Callable[[str], JSONObject]
    """Our server in the client's format, for an executable."""


def _home(environ: Mapping[str, str]) -> Path:
    return Path(environ.get("HOME") or Path.home())


def _config_home(environ: Mapping[str, str]) -> Path:
    return Path(environ.get("XDG_CONFIG_HOME") or _home(environ) / ".config")


def _vscode_user(environ: Mapping[str, str]) -> Path:
    if sys.platform == "darwin":
        folder = _home(environ) / "Library" / "Application Support" / "Code" / "User"
    elif os.name == "nt":
        folder = Path(environ.get("APPDATA") or _home(environ)) / "Code" / "User"
    else:
        folder = _config_home(environ) / "Code" / "User"
    return folder / "mcp.json"


def _gemini_home(environ: Mapping[str, str]) -> Path:
    """Where Gemini CLI keeps its `.gemini` folder: `GEMINI_CLI_HOME` when set, else home."""
    return Path(environ.get("GEMINI_CLI_HOME") or _home(environ))


def codex_config(environ: Mapping[str, str]) -> Path:
    """Codex CLI's configuration: `$CODEX_HOME/config.toml`, else `~/.codex/config.toml`."""
    return Path(environ.get("CODEX_HOME") or _home(environ) / ".codex") / "config.toml"


CLIENTS: Mapping[str, Client] = {
    client.name: client
    for client in (
        Client(
            "cursor",
            "Cursor",
            "mcpServers",
            lambda env: _home(env) / ".cursor" / "mcp.json",
            ".cursor/mcp.json",
            lambda exe: {"command": exe, "args": ["serve"]},
        ),
        Client(
            "vscode",
            "VS Code",
            "servers",
            _vscode_user,
            ".vscode/mcp.json",
            lambda exe: {"type": "stdio", "command": exe, "args": ["serve"]},
        ),
        Client(
            "gemini",
            "Gemini CLI",
            "mcpServers",
            lambda env: _gemini_home(env) / ".gemini" / "settings.json",
            ".gemini/settings.json",
            lambda exe: {"command": exe, "args": ["serve"]},
        ),
        Client(
            "opencode",
            "OpenCode",
            "mcp",
            lambda env: _config_home(env) / "opencode" / "opencode.json",
            "opencode.json",
            lambda exe: {"type": "local", "command": [exe, "serve"], "enabled": True},
        ),
        Client(
            "codex",
            "Codex CLI",
            "mcp_servers",
            codex_config,
            None,
            lambda exe: {"command": exe, "args": ["serve"]},
        ),
    )
}
"""Every client `--client` accepts, by name."""


def project_folder(client: Client, cwd: Path) -> Path:
    """The folder whose project file `client` reads when started in `cwd`: the project root
    (the nearest folder with `.git`), but for Gemini CLI, which reads `.gemini/settings.json`
    only in the folder it starts in (checked with `gemini mcp list` in a subfolder)."""
    if client.name == "gemini":
        return Path(os.path.realpath(cwd))
    return project_root(cwd)


def config_file(client: Client, scope: str, cwd: Path, environ: Mapping[str, str]) -> Path:
    """The file `client` keeps our server in, for `scope` (`user` or `project`)."""
    if scope == "user":
        return client.user_file(environ)
    if scope == "project" and client.project_file is not None:
        return project_folder(client, cwd) / client.project_file
    others = "user" if client.project_file is None else "user (the default) or project"
    raise SetupError(f"{client.title} has no {scope} scope: use --scope {others}")


def plan_install(
    client: Client, path: Path, executable: str, state_file: Path, hook: JSONObject | None = None
) -> Plan:
    """Our server in `client`'s file at `path`, replacing an earlier one of ours; with `hook`
    (Gemini CLI's, see `gemini_hook`), that hook in the same file too."""
    if client.name == "codex":
        from mdsel_claude.setup import codex_toml

        return codex_toml.plan_install(path, client.entry(executable), state_file)
    state = ledger.load(state_file)
    steps, state = with_dirs(path, state)
    before = jsonfile.load(path)
    entry = client.entry(executable)
    at = server_at((), client.container)
    what = f"{client.title} MCP server {SERVER_KEY!r} → {executable} serve"
    found = entry_edits.servers_in(before or {}, path, (), client.container).get(SERVER_KEY)
    kept: list[Step] = []
    if is_theirs(state.created(path), found, entry, False, at):
        added = entry_edits.Added(before or {}, ())
        kept.append(kept_as_theirs(path, what))
    else:
        mine = _ours(state.created(path), at, entry)
        added = entry_edits.add_server(before or {}, entry, path, mine, (), client.container)
        state = record_added(state, path, before, added, Written(at, entry))
    if hook is not None:
        from mdsel_claude.setup import gemini_hook

        created = state.created(path)
        there = entry_edits.matched_hooks_in(added.value)
        hook_what = gemini_hook.describe(hook)
        if any(
            event == gemini_hook.EVENT and is_theirs(created, value, hook, True, None)
            for event, _, value in there
        ):
            kept.append(kept_as_theirs(path, hook_what))
        else:
            added, wrote = gemini_hook.add_hook(added.value, hook, path, created, executable)
            state = record_added(state, path, before, added, wrote)
            what = f"{what}; {hook_what}"
    steps.append(file_step(path, before, added.value, what))
    return Plan((*steps, *kept), state, state_file)


def _ours(created: Created, at: entries.KeyPath, entry: object) -> entries.Ours:
    """Ours in a client's file: what the record says install wrote, or exactly `entry`."""
    return lambda value: created.wrote(value, False, at) or ledger.same_value(value, entry)


def plan_uninstall(client: Client, path: Path, state_file: Path) -> Plan:
    """Our server out of `client`'s file at `path`, and what install created for it."""
    if client.name == "codex":
        from mdsel_claude.setup import codex_toml

        return codex_toml.plan_uninstall(path, state_file)
    state = ledger.load(state_file)
    before = jsonfile.load(path)
    at = server_at((), client.container)
    mine = _ours(state.created(path), at, None)
    after = entry_edits.remove_server(before or {}, path, mine, (), client.container)
    if client.name == "gemini":  # and the hook install wrote beside the server
        from mdsel_claude.setup import gemini_hook

        after = gemini_hook.remove_hooks(after, path, state.created(path))
    what = f"remove {client.title} MCP server {SERVER_KEY!r}"
    state, step = removal(state, path, (before, after), what)
    steps: list[Step] = [step] if step else []
    steps += lookalike_notes(
        path, {"mcpServers": entry_edits.servers_in(after, path, (), client.container)}
    )
    state = without_dirs(path, steps, state)
    if not any(isinstance(s, (WriteFile, DeleteFile)) for s in steps):
        steps.append(Note(f"nothing of mdsel-claude is installed for {client.title} in {path}"))
    return Plan(tuple(steps), state, state_file)
