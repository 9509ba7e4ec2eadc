"""What every client other than Claude Code is to setup: one small interface, and the shared part.

A client is its name (`--client`) and title, where it keeps its servers (a user file, a project
file or none), our server in its format, and four things it does: plan an install, plan an
uninstall, add its hooks' word to doctor's report, and say what to do next. `Client` does each
for a client that takes only the server in a JSON file (Cursor, VS Code); a client with more
(a hook, a plugin, a TOML file) is a subclass in a module of its own that overrides what
differs. Callers never test a client's name: they call these.

The JSON files are edited like Claude Code's: strictly parsed, only our entry added or removed,
everything else kept, replaced atomically, and what install created noted for uninstall.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from mdsel.settings import ConfigError, read_min_words
from mdsel_claude.setup import entry_edits, jsonfile, ledger
from mdsel_claude.setup.dirs import with_dirs, without_dirs
from mdsel_claude.setup.entries import SERVER_KEY, KeyPath, Ours
from mdsel_claude.setup.errors import SetupError
from mdsel_claude.setup.instructions import Target
from mdsel_claude.setup.jsonfile import JSONObject
from mdsel_claude.setup.ledger import FileRecord, WrittenEntry
from mdsel_claude.setup.ownership import Installation
from mdsel_claude.setup.paths import project_root
from mdsel_claude.setup.plan_parts import (
    file_step,
    is_theirs,
    kept_as_theirs,
    lookalike_notes,
    record_added,
    removal,
    server_at,
)
from mdsel_claude.setup.probes import Report
from mdsel_claude.setup.settings_hook import JsonHook
from mdsel_claude.setup.steps import DeleteFile, Note, Plan, Step, WriteFile


def home(environ: Mapping[str, str]) -> Path:
    """The user's home: `HOME`, else what the system says."""
    return Path(environ.get("HOME") or Path.home())


def config_home(environ: Mapping[str, str]) -> Path:
    """`XDG_CONFIG_HOME`, else `~/.config`."""
    return Path(environ.get("XDG_CONFIG_HOME") or home(environ) / ".config")


@dataclass(frozen=True, slots=True)
class Request:
    """What one `install` or `uninstall --client NAME` was asked to do."""

    scope: str
    """`user` or `project`."""
    path: Path
    """The client's configuration file for that scope."""
    executable: str
    """The `mdsel-claude` entries run (the bare name in project scope); "" for uninstall."""
    state_file: Path
    cwd: Path
    environ: Mapping[str, str]
    min_words: int | None = None
    """`--min-words`, when given."""
    mode: str = "reminder"
    event: str = "PreToolUse"
    """The hook's event (`--event`)."""

    def words(self) -> int:
        """The hook's threshold: `--min-words`, else MDSEL_MIN_WORDS, else the default."""
        if self.min_words is not None:
            return self.min_words
        try:
            return read_min_words(self.environ)
        except ConfigError as error:
            raise SetupError(str(error)) from None


@dataclass(frozen=True, slots=True)
class Doctoring:
    """What doctor found of a client's servers, for the client's own checks (its hooks)."""

    places: list[tuple[str, Path]]
    """(scope, configuration file) of each scope the client has."""
    mine: list[str]
    """The scopes whose server is this installation's."""
    me: Installation
    environ: Mapping[str, str]
    report: Report
    project_dir: Path


@dataclass(frozen=True)
class RecordedFile:
    """A client's own kind of configuration file, as `uninstall --all` and `doctor --all` read
    the files the install record lists: every other recorded file is JSON (or a whole file or
    a block of ours), edited by the record alone."""

    what: str
    """Doctor's line about the file, where its client's own doctor says more."""
    plan_uninstall: Callable[[Path, Path], Plan]
    """(file, state file) → the plan that takes out what the record says install wrote."""
    values: Callable[[Path], JSONObject | None]
    """The file's contents as plain values (None when it is gone), for doctor's checks."""
    program: Callable[[WrittenEntry], bool]
    """Whether a recorded entry runs a program (doctor checks it) rather than being a setting
    beside one (such as a trust its client's own doctor checks)."""


@dataclass(frozen=True)
class Client:
    """A client that takes our server in a JSON file, and nothing else (no hook)."""

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
    private: bool = False
    """A file install creates is readable by its owner only (the client creates it so: it may
    hold keys)."""

    @property
    def scopes(self) -> tuple[str, ...]:
        """The scopes `--scope` takes for this client, the default first."""
        return ("user",) if self.project_file is None else ("user", "project")

    def project_folder(self, cwd: Path) -> Path:
        """The folder whose project file the client reads when started in `cwd`: the project
        root (the nearest folder with `.git`)."""
        return project_root(cwd)

    def config_file(self, scope: str, cwd: Path, environ: Mapping[str, str]) -> Path:
        """The file the client keeps our server in, for `scope`."""
        if scope == "user":
            return self.user_file(environ)
        if scope == "project" and self.project_file is not None:
            return self.project_folder(cwd) / self.project_file
        others = "user" if self.project_file is None else "user (the default) or project"
        raise SetupError(f"{self.title} has no {scope} scope: use --scope {others}")

    def plan_install(self, request: Request) -> Plan:
        """Our server in the client's file, replacing an earlier one of ours."""
        return self.plan_server(request, None)

    def plan_server(self, request: Request, hook: tuple[JsonHook, JSONObject] | None) -> Plan:
        """Our server in the client's JSON file; with `hook` (an agent whose settings hold
        its hooks beside its servers, see `settings_hook`), that hook in the same file too."""
        path, executable = request.path, request.executable
        state = ledger.load(request.state_file)
        steps, state = with_dirs(path, state)
        before = jsonfile.load(path)
        entry = self.entry(executable)
        at = server_at((), self.container)
        what = f"{self.title} MCP server {SERVER_KEY!r} → {executable} serve"
        found = entry_edits.servers_in(before or {}, path, (), self.container).get(SERVER_KEY)
        kept: list[Step] = []
        if is_theirs(state.created(path), found, entry, False, at):
            added = entry_edits.Added(before or {}, ())
            kept.append(kept_as_theirs(path, what))
        else:
            mine = _ours(state.created(path), at, entry)
            added = entry_edits.add_server(before or {}, entry, path, mine, (), self.container)
            state = record_added(state, path, before, added, WrittenEntry(at, entry))
        if hook is not None:
            spec, wanted = hook
            created = state.created(path)
            there = entry_edits.matched_hooks_in(added.value)
            hook_what = spec.describe(wanted)
            if any(
                event == spec.event and is_theirs(created, value, wanted, True, None)
                for event, _, value in there
            ):
                kept.append(kept_as_theirs(path, hook_what))
            else:
                added, wrote = spec.add(added.value, wanted, path, created, executable)
                state = record_added(state, path, before, added, wrote)
                what = f"{what}; {hook_what}"
        steps.append(file_step(path, before, added.value, what, self.private))
        return Plan((*steps, *kept), state, request.state_file)

    def plan_uninstall(self, request: Request) -> Plan:
        """Our server out of the client's file, and what install created for it."""
        path = request.path
        state = ledger.load(request.state_file)
        before = jsonfile.load(path)
        at = server_at((), self.container)
        mine = _ours(state.created(path), at, None)
        after = entry_edits.remove_server(before or {}, path, mine, (), self.container)
        after = self.without_hooks(after, path, state.created(path))
        what = f"remove {self.title} MCP server {SERVER_KEY!r}"
        state, step = removal(state, path, (before, after), what)
        steps: list[Step] = [step] if step else []
        steps += lookalike_notes(
            path, {"mcpServers": entry_edits.servers_in(after, path, (), self.container)}
        )
        state = without_dirs(path, steps, state)
        if not any(isinstance(s, (WriteFile, DeleteFile)) for s in steps):
            steps.append(Note(f"nothing of mdsel-claude is installed for {self.title} in {path}"))
        return Plan(tuple(steps), state, request.state_file)

    def without_hooks(self, value: JSONObject, path: Path, created: FileRecord) -> JSONObject:
        """`value` without the hooks install wrote beside the server (none here)."""
        return value

    def server_value(self, path: Path) -> tuple[bool, object]:
        """Whether `path` exists, and the value of our server in it (None when absent)."""
        value = jsonfile.load(path)
        if value is None:
            return False, None
        return True, entry_edits.servers_in(value, path, (), self.container).get(SERVER_KEY)

    def recorded_file(self, path: Path) -> RecordedFile | None:
        """How a recorded file of this client's own format is read, when `path` is one; None
        for the JSON every other recorded file is."""
        return None

    def doctor(self, found: Doctoring) -> None:
        """Doctor's word on what the client runs beside the server."""
        found.report.say(
            f"  ({self.title} runs no hook that could remind the agent: the tools only)"
        )

    def instructions(self, scope: str, cwd: Path, environ: Mapping[str, str]) -> Target | None:
        """The instructions file the client's agent reads in `scope` (`install
        --instructions`), or None where none could be verified: the option is refused."""
        return None

    def next_steps(self) -> str:
        """What to do after an install."""
        return (
            f"Start (or restart) {self.title} to load it. Its MCP tools: mdsel_index, "
            "mdsel_select (it runs no hook that could remind the agent: see docs/clients.md)."
        )


def _ours(created: FileRecord, at: KeyPath, entry: object) -> Ours:
    """Ours in a client's file: what the record says install wrote, or exactly `entry`."""
    return lambda value: created.wrote(value, False, at) or ledger.same_value(value, entry)
