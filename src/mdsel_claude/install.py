"""`mdsel-claude install|uninstall|doctor`: put our server and hook into Claude Code, or take out.

Each command is worked out first as a `Plan` (a list of steps, nothing touched yet) and then
applied, so a bad file stops everything before anything is written and `--dry-run` can show
the plan. Only our own entries are ever added or removed (see `entries`); every write is atomic
(see `jsonfile`). What install had to create (a file, a directory, an empty `hooks` object) is
remembered in a small state file, so uninstall can take exactly that away again.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mdsel_claude import entries, jsonfile
from mdsel_claude.entries import EXECUTABLE_NAME, HOOK_EVENTS, SERVER_NAME, KeyPath
from mdsel_claude.jsonfile import JsonFileError, JSONObject

DEFAULT_MIN_WORDS = 200
"""Hook threshold when neither `--min-words` nor `MDSEL_MIN_WORDS` is given."""

CLAUDE_TIMEOUT_SECONDS = 120.0
"""How long one `claude mcp …` command may take (`get` starts the server to check its health)."""


class SetupError(Exception):
    """Something that stops install or uninstall before any change: exit status 1."""


# -- where things live ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Locations:
    """The files one scope uses."""

    scope: str
    """`project` or `user`."""
    mcp_config: Path | None
    """The project's `.mcp.json`; None for user scope, whose server the `claude` CLI manages."""
    settings: Path
    """The settings file that carries the hook."""
    settings_dir: Path
    """The directory of `settings`, created by install when missing."""


def user_config_dir(environ: Mapping[str, str]) -> Path:
    """Claude Code's user directory: `CLAUDE_CONFIG_DIR` when set, else `~/.claude`."""
    configured = environ.get("CLAUDE_CONFIG_DIR")
    return Path(configured).expanduser() if configured else Path.home() / ".claude"


def locations(scope: str, project_dir: Path, environ: Mapping[str, str]) -> Locations:
    """The files of `scope` for a project directory (user scope ignores the project)."""
    if scope == "project":
        claude_dir = project_dir / ".claude"
        return Locations(scope, project_dir / ".mcp.json", claude_dir / "settings.json", claude_dir)
    config_dir = user_config_dir(environ)
    return Locations(scope, None, config_dir / "settings.json", config_dir)


def state_path(environ: Mapping[str, str]) -> Path:
    """Where install records what it created: under `XDG_STATE_HOME` (`~/.local/state`)."""
    base = environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "mdsel-claude" / "installed.json"


def find_executable() -> str:
    """Absolute path of the installed `mdsel-claude` script that entries should run.

    The running script when we were started through it, else the one installed beside this
    interpreter, else the first on PATH. The path is absolute but symlinks are kept: a venv's
    `bin/` is the stable name.
    """
    argv0 = sys.argv[0] if sys.argv else ""
    candidates = []
    if os.path.basename(argv0) == EXECUTABLE_NAME:
        candidates.append(os.path.abspath(argv0))
    candidates.append(os.path.join(os.path.dirname(sys.executable), EXECUTABLE_NAME))
    candidates.append(os.path.join(sysconfig.get_path("scripts"), EXECUTABLE_NAME))
    for candidate in candidates:
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which(EXECUTABLE_NAME)
    if found:
        return os.path.abspath(found)
    raise SetupError(
        f"cannot find the {EXECUTABLE_NAME} executable (looked beside {sys.executable} and on "
        f"PATH); install the package with pip, then run this again"
    )


# -- the state record -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Created:
    """What install created in one file."""

    file: bool = False
    """The file itself did not exist before."""
    keys: tuple[KeyPath, ...] = ()
    """Containers inside it that did not exist before."""


@dataclass(frozen=True, slots=True)
class State:
    """Everything install created, by real file path, plus directories it made."""

    files: Mapping[str, Created] = field(default_factory=dict)
    dirs: tuple[str, ...] = ()

    def created(self, path: Path) -> Created:
        return self.files.get(str(jsonfile.write_target(path)), Created())

    def with_file(self, path: Path, created: Created) -> State:
        files = dict(self.files)
        key = str(jsonfile.write_target(path))
        if created.file or created.keys:
            files[key] = created
        else:
            files.pop(key, None)
        return State(files, self.dirs)

    def with_dir(self, path: Path, present: bool) -> State:
        dirs = [d for d in self.dirs if d != str(path)]
        if present:
            dirs.append(str(path))
        return State(self.files, tuple(dirs))

    def to_json(self) -> JSONObject:
        files: JSONObject = {
            path: {"created_file": created.file, "created_keys": [list(k) for k in created.keys]}
            for path, created in self.files.items()
        }
        return {"version": 1, "files": files, "dirs": list(self.dirs)}


def load_state(path: Path) -> State:
    """The state record, or an empty one; a damaged record counts as empty (it is only a hint)."""
    try:
        raw = jsonfile.load(path)
    except JsonFileError:
        return State()
    if raw is None or not isinstance(raw.get("files"), dict):
        return State()
    files: dict[str, Created] = {}
    recorded = raw["files"]
    assert isinstance(recorded, dict)
    for name, item in recorded.items():
        if not isinstance(item, dict):
            continue
        keys = item.get("created_keys")
        key_paths = tuple(
            tuple(k)
            for k in (keys if isinstance(keys, list) else [])
            if isinstance(k, list) and k and all(isinstance(part, str) for part in k)
        )
        files[name] = Created(item.get("created_file") is True, key_paths)
    dirs = raw.get("dirs")
    dir_names = tuple(d for d in (dirs if isinstance(dirs, list) else []) if isinstance(d, str))
    return State(files, dir_names)


# -- plans ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WriteFile:
    """Replace (or create) a JSON file with a new value."""

    path: Path
    value: JSONObject
    created: bool
    """The file does not exist yet."""
    what: str
    """What changes in it, for the message."""


@dataclass(frozen=True, slots=True)
class DeleteFile:
    """Delete a file install created, now that nothing is left in it."""

    path: Path


@dataclass(frozen=True, slots=True)
class MakeDir:
    path: Path


@dataclass(frozen=True, slots=True)
class RemoveDir:
    """Remove a directory install created, if it is empty."""

    path: Path


@dataclass(frozen=True, slots=True)
class RunClaude:
    """Run one `claude mcp …` command."""

    argv: tuple[str, ...]
    may_fail: bool = False
    """A failure only means there was nothing to do (removing what may not be there)."""


@dataclass(frozen=True, slots=True)
class Note:
    """Something to tell the user; changes nothing."""

    text: str


Step = WriteFile | DeleteFile | MakeDir | RemoveDir | RunClaude | Note


@dataclass(frozen=True, slots=True)
class Plan:
    """What one command will do, in order; `state` is the record to keep afterwards."""

    steps: tuple[Step, ...]
    state: State
    state_file: Path
    record_on_failure: bool
    """Keep `state` even if a step fails: install's record of what it created must not be lost
    once something may have been created; uninstall's is only dropped when it succeeded."""


def describe(step: Step, done: bool) -> str:
    """One line about a step: in the past tense once `done`, else as what would happen."""
    if isinstance(step, Note):
        return step.text
    if isinstance(step, WriteFile):
        verb = (
            ("created" if done else "create") if step.created else ("updated" if done else "update")
        )
        text = f"{verb} {step.path}: {step.what}"
    elif isinstance(step, DeleteFile):
        text = f"{'deleted' if done else 'delete'} {step.path} (install created it; now empty)"
    elif isinstance(step, MakeDir):
        text = f"{'created' if done else 'create'} directory {step.path}"
    elif isinstance(step, RemoveDir):
        text = f"{'removed' if done else 'remove'} empty directory {step.path}"
    else:
        text = f"{'ran' if done else 'run'}: {_show_command(step.argv)}"
    return text if done else f"would {text}"


def _file_step(path: Path, before: JSONObject | None, after: JSONObject, what: str) -> Step:
    if before == after:
        return Note(f"unchanged {path}: {what}")
    return WriteFile(path, after, before is None, what)


def _show_command(argv: Sequence[str]) -> str:
    return " ".join(shlex.quote(arg) for arg in argv)


@dataclass(frozen=True, slots=True)
class ClaudeServer:
    """What `claude mcp get mdsel` reports."""

    scope: str
    command: str
    args: str


def claude_get(claude: str) -> ClaudeServer | None:
    """Ask the `claude` CLI about the server named `mdsel`; None when it has none."""
    result = _run_claude([claude, "mcp", "get", SERVER_NAME])
    if result.returncode != 0:
        return None
    fields: dict[str, str] = {}
    for line in result.stdout.splitlines():
        name, sep, value = line.strip().partition(":")
        if sep:
            fields.setdefault(name.strip().lower(), value.strip())
    return ClaudeServer(fields.get("scope", ""), fields.get("command", ""), fields.get("args", ""))


def _user_scope(server: ClaudeServer) -> bool:
    # `get` prints e.g. "Scope: User config (available in all your projects)".
    return server.scope.lower().startswith("user")


def _run_claude(argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            list(argv),
            capture_output=True,
            text=True,
            timeout=CLAUDE_TIMEOUT_SECONDS,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise SetupError(f"`{_show_command(argv)}` did not finish in time") from None
    except OSError as error:
        raise SetupError(f"cannot run `{_show_command(argv)}`: {error}") from None


def _user_server_add(claude: str | None, executable: str) -> list[Step]:
    add = ("claude", "mcp", "add", "-s", "user", SERVER_NAME, "--", executable, "serve")
    if claude is None:
        return [
            Note(
                "the claude command is not on PATH, so the MCP server is not registered; "
                f"to register it, run:\n  {_show_command(add)}"
            )
        ]
    current = claude_get(claude)
    ours = (executable, "serve")
    if current is not None and _user_scope(current) and (current.command, current.args) == ours:
        return [Note(f"unchanged user MCP server {SERVER_NAME!r}: {executable} serve")]
    steps: list[Step] = []
    if current is not None:
        # `get` found some `mdsel`; clear a user-scope one (if that is what it was) before adding.
        steps.append(RunClaude((claude, "mcp", "remove", SERVER_NAME, "-s", "user"), True))
    steps.append(RunClaude((claude, *add[1:])))
    return steps


def _user_server_remove(claude: str | None) -> list[Step]:
    remove = ("claude", "mcp", "remove", SERVER_NAME, "-s", "user")
    if claude is None:
        return [
            Note(
                "the claude command is not on PATH; if you registered the MCP server, "
                f"remove it with:\n  {_show_command(remove)}"
            )
        ]
    if claude_get(claude) is None:
        return [Note(f"no MCP server named {SERVER_NAME!r} known to claude")]
    # `get` shows one scope's server even when several have one; remove the user one, if any.
    return [RunClaude((claude, *remove[1:]), may_fail=True)]


def plan_install(
    where: Locations,
    executable: str,
    min_words: int,
    event: str,
    state_file: Path,
    claude: str | None,
) -> Plan:
    """Work out an install: our server and hook in `where`, replacing earlier ones of ours."""
    state = load_state(state_file)
    steps: list[Step] = []
    if not where.settings_dir.is_dir():
        steps.append(MakeDir(where.settings_dir))
        state = state.with_dir(where.settings_dir, True)

    server = entries.server_entry(executable)
    if where.mcp_config is not None:
        before = jsonfile.load(where.mcp_config)
        added = entries.add_server(before or {}, server, where.mcp_config)
        state = _record(state, where.mcp_config, before, added)
        what = f"MCP server {SERVER_NAME!r} → {executable} serve"
        steps.append(_file_step(where.mcp_config, before, added.value, what))

    before = jsonfile.load(where.settings)
    old = state.created(where.settings)
    cleared, kept = entries.prune(entries.remove_hooks(before or {}, where.settings), old.keys)
    hook = entries.hook_entry(executable, min_words)
    added = entries.add_hook(cleared, event, hook, where.settings)
    created = Created(old.file or before is None, tuple(dict.fromkeys(kept + added.created)))
    state = state.with_file(where.settings, created)
    what = f"{event} hook on Read → {hook['command']}"
    steps.append(_file_step(where.settings, before, added.value, what))

    if where.mcp_config is None:
        steps.extend(_user_server_add(claude, executable))
    return Plan(tuple(steps), state, state_file, record_on_failure=True)


def _record(state: State, path: Path, before: JSONObject | None, added: entries.Added) -> State:
    old = state.created(path)
    keys = tuple(dict.fromkeys(old.keys + added.created))
    return state.with_file(path, Created(old.file or before is None, keys))


def _removal(
    state: State, path: Path, before: JSONObject | None, after: JSONObject, what: str
) -> tuple[State, Step | None]:
    """The step that takes our entry out of one file, pruning what install created there."""
    created = state.created(path)
    state = state.with_file(path, Created())
    if before is None:
        return state, None
    pruned, _ = entries.prune(after, created.keys)
    if created.file and pruned == {}:
        return state, DeleteFile(path)
    if pruned == before:
        return state, Note(f"nothing of mdsel-claude in {path}")
    return state, WriteFile(path, pruned, False, what)


def plan_uninstall(where: Locations, state_file: Path, claude: str | None) -> Plan:
    """Work out an uninstall: remove exactly our entries, and what install created for them."""
    state = load_state(state_file)
    steps: list[Step] = []
    if where.mcp_config is not None:
        before = jsonfile.load(where.mcp_config)
        after = entries.remove_server(before or {}, where.mcp_config)
        what = f"remove MCP server {SERVER_NAME!r}"
        state, step = _removal(state, where.mcp_config, before, after, what)
        steps.extend([step] if step else [])

    before = jsonfile.load(where.settings)
    after = entries.remove_hooks(before or {}, where.settings)
    state, step = _removal(state, where.settings, before, after, "remove the mdsel-claude hook")
    steps.extend([step] if step else [])

    if str(where.settings_dir) in state.dirs:
        state = state.with_dir(where.settings_dir, False)
        steps.append(RemoveDir(where.settings_dir))
    if where.mcp_config is None:
        steps.extend(_user_server_remove(claude))
    if not any(isinstance(s, (WriteFile, DeleteFile, RunClaude)) for s in steps):
        steps.append(Note(f"nothing of mdsel-claude is installed in {where.scope} scope"))
    return Plan(tuple(steps), state, state_file, record_on_failure=False)


def apply(plan: Plan, out: list[str]) -> None:
    """Carry out a plan's steps in order, then keep its state record; messages go to `out`."""
    try:
        _apply_steps(plan.steps, out)
    except BaseException:
        if plan.record_on_failure:
            _save_state(plan.state, plan.state_file)
        raise
    _save_state(plan.state, plan.state_file)


def _apply_steps(steps: Sequence[Step], out: list[str]) -> None:
    for step in steps:
        if isinstance(step, MakeDir):
            step.path.mkdir(parents=True, exist_ok=True)
        elif isinstance(step, WriteFile):
            jsonfile.write_atomic(step.path, step.value)
        elif isinstance(step, DeleteFile):
            jsonfile.delete(step.path)
        elif isinstance(step, RemoveDir):
            try:
                step.path.rmdir()
            except OSError:
                out.append(f"kept {step.path} (not empty)")
                continue
        elif isinstance(step, RunClaude):
            result = _run_claude(step.argv)
            if result.returncode != 0:
                detail = (result.stderr or result.stdout).strip()
                if not step.may_fail:
                    raise SetupError(f"`{_show_command(step.argv)}` failed: {detail}")
                out.append(f"nothing to do for: {_show_command(step.argv)} ({detail})")
                continue
        out.append(describe(step, done=True))


def _save_state(state: State, path: Path) -> None:
    if state.files or state.dirs:
        path.parent.mkdir(parents=True, exist_ok=True)
        jsonfile.write_atomic(path, state.to_json())
        return
    jsonfile.delete(path)
    # Not empty, or never made: either way nothing of ours is left to clean there.
    with contextlib.suppress(OSError):
        path.parent.rmdir()


# -- command line ---------------------------------------------------------------------------


def _min_words_default(environ: Mapping[str, str]) -> int:
    raw = environ.get("MDSEL_MIN_WORDS")
    if raw is None or not raw.strip():  # empty means unset, as for every MDSEL_* variable
        return DEFAULT_MIN_WORDS
    value = _non_negative(raw)
    if value is None:
        raise SetupError(f"MDSEL_MIN_WORDS={raw!r} is not a non-negative integer")
    return value


def _non_negative(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None


def _min_words_arg(text: str) -> int:
    value = _non_negative(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a non-negative integer")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=EXECUTABLE_NAME,
        description="Register the mdsel MCP server and Read hook in Claude Code, or remove them.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    install = commands.add_parser(
        "install", help="register the server and the hook (run again to update them)"
    )
    uninstall = commands.add_parser("uninstall", help="remove exactly what install added")
    for sub in (install, uninstall):
        sub.add_argument(
            "--scope",
            choices=("project", "user"),
            default="project",
            help="project: .mcp.json and .claude/settings.json here; "
            "user: ~/.claude/settings.json and `claude mcp add -s user` (default: project)",
        )
        sub.add_argument(
            "--dry-run", action="store_true", help="print what would change, change nothing"
        )
    install.add_argument(
        "--min-words",
        type=_min_words_arg,
        metavar="N",
        help="remind only for files over N words (default: MDSEL_MIN_WORDS, else 200)",
    )
    install.add_argument(
        "--event",
        choices=HOOK_EVENTS,
        default="PreToolUse",
        help="hook event: before the Read, or after it (default: PreToolUse)",
    )
    commands.add_parser("doctor", help="report what is installed where and check that it works")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """`install|uninstall|doctor [options]`: exit 0 on success, 1 on failure, 2 on bad usage."""
    args = _parser().parse_args(sys.argv[1:] if argv is None else list(argv))
    if args.command == "doctor":
        from mdsel_claude.doctor import run_doctor

        return run_doctor(Path.cwd(), os.environ, shutil.which("claude"))
    claude = shutil.which("claude")
    try:
        where = locations(args.scope, Path.cwd(), os.environ)
        state_file = state_path(os.environ)
        if args.command == "install":
            min_words = args.min_words
            if min_words is None:
                min_words = _min_words_default(os.environ)
            plan = plan_install(where, find_executable(), min_words, args.event, state_file, claude)
        else:
            plan = plan_uninstall(where, state_file, claude)
        if args.dry_run:
            for step in plan.steps:
                print(describe(step, done=False))
            return 0
        out: list[str] = []
        try:
            apply(plan, out)
        finally:
            for line in out:
                print(line)
    except JsonFileError as error:
        print(f"{EXECUTABLE_NAME}: {error}; left it untouched", file=sys.stderr)
        return 1
    except (SetupError, OSError) as error:
        print(f"{EXECUTABLE_NAME}: {error}", file=sys.stderr)
        return 1
    if args.command == "install":
        print(_next_steps(where))
    return 0


def _next_steps(where: Locations) -> str:
    if where.scope == "project":
        return (
            "Start (or restart) Claude Code in this directory; it asks once to approve the "
            "project's MCP server. Check with: mdsel-claude doctor"
        )
    return "Start (or restart) Claude Code to load them. Check with: mdsel-claude doctor"
