"""`mdsel-claude install|uninstall|doctor`: put our server and hook into Claude Code, or take out.

Each command is worked out first as a `Plan` (see `plan`: nothing is touched yet) and then
applied, so a bad file stops everything before anything is written and `--dry-run` can show
the plan. Only our own entries are ever added or removed (see `entries`); every write is atomic
(see `jsonfile`). What install had to create is noted (see `record`), so that uninstall can take
exactly that away again. The user-scope server goes through the `claude` command (`claude_cli`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from mdsel_claude.setup import claude_cli, entries, jsonfile, ledger
from mdsel_claude.setup.claude_cli import ClaudeError, show_command
from mdsel_claude.setup.entries import EXECUTABLE_NAME, HOOK_EVENTS, SERVER_NAME
from mdsel_claude.setup.jsonfile import JsonFileError, JSONObject
from mdsel_claude.setup.ledger import Created, State
from mdsel_claude.setup.steps import (
    DeleteFile,
    MakeDir,
    Note,
    Plan,
    RemoveDir,
    RunClaude,
    Step,
    WriteFile,
    apply,
    describe,
)

DEFAULT_MIN_WORDS = 200
"""Hook threshold when neither `--min-words` nor `MDSEL_MIN_WORDS` is given."""


class SetupError(Exception):
    """Something that stops install or uninstall (exit status 1), said in one line."""


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


def _file_step(path: Path, before: JSONObject | None, after: JSONObject, what: str) -> Step:
    if before == after:
        return Note(f"unchanged {path}: {what}")
    return WriteFile(path, after, before is None, what)


def _user_server_add(claude: str | None, executable: str) -> list[Step]:
    add = ("claude", "mcp", "add", "-s", "user", SERVER_NAME, "--", executable, "serve")
    if claude is None:
        return [
            Note(
                "the claude command is not on PATH, so the MCP server is not registered; "
                f"to register it, run:\n  {show_command(add)}"
            )
        ]
    current = claude_cli.get_server(claude)
    ours = (executable, "serve")
    if current is not None and current.user_scope and (current.command, current.args) == ours:
        return [Note(f"unchanged user MCP server {SERVER_NAME!r}: {executable} serve")]
    if current is not None and os.path.basename(current.command) != EXECUTABLE_NAME:
        return [
            Note(
                f"an MCP server named {SERVER_NAME!r} that is not mdsel-claude's is registered "
                f"({current.command}); left alone — remove or rename it, then install again"
            )
        ]
    steps: list[Step] = []
    if current is not None:
        # `get` found our `mdsel`; clear a user-scope one (if that is what it was) before adding.
        steps.append(RunClaude((claude, "mcp", "remove", SERVER_NAME, "-s", "user"), True))
    steps.append(RunClaude((claude, *add[1:])))
    return steps


def _user_server_remove(claude: str | None) -> list[Step]:
    remove = ("claude", "mcp", "remove", SERVER_NAME, "-s", "user")
    if claude is None:
        return [
            Note(
                "the claude command is not on PATH; if you registered the MCP server, "
                f"remove it with:\n  {show_command(remove)}"
            )
        ]
    current = claude_cli.get_server(claude)
    if current is None:
        return [Note(f"no MCP server named {SERVER_NAME!r} known to claude")]
    if os.path.basename(current.command) != EXECUTABLE_NAME:
        return [Note(f"the MCP server {SERVER_NAME!r} is not mdsel-claude's; left alone")]
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
    state = ledger.load(state_file)
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
    state = ledger.load(state_file)
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


@contextlib.contextmanager
def _exclusive(directory: Path) -> Iterator[None]:
    """Hold an exclusive lock on `directory` (flock on the directory itself: no lock file is
    left behind); where flock is unavailable, run unlocked."""
    try:
        import fcntl
    except ImportError:  # not POSIX
        yield
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def main(argv: Sequence[str] | None = None) -> int:
    """`install|uninstall|doctor [options]`: exit 0 on success, 1 on failure, 2 on bad usage."""
    args = _parser().parse_args(sys.argv[1:] if argv is None else list(argv))
    if args.command == "doctor":
        from mdsel_claude.setup.doctor import run_doctor

        return run_doctor(Path.cwd(), os.environ, shutil.which("claude"))
    claude = shutil.which("claude")
    try:
        where = locations(args.scope, Path.cwd(), os.environ)
        state_file = ledger.state_path(os.environ)
        # One install or uninstall at a time: each reads the record, changes it and writes it
        # back, so two at once would lose one's entries (and uninstall would then leave files).
        # The home directory: it exists (nothing is created just to lock it, so a refused or
        # dry run writes nothing) and every run of the same user locks the same one.
        home = Path.home()
        with _exclusive(home if home.is_dir() else Path(tempfile.gettempdir())):
            if args.command == "install":
                min_words = args.min_words
                if min_words is None:
                    min_words = _min_words_default(os.environ)
                executable = find_executable()
                plan = plan_install(where, executable, min_words, args.event, state_file, claude)
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
    except (SetupError, ClaudeError, OSError) as error:
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
