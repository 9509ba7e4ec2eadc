"""`mdsel-claude install|uninstall|doctor`: put our server and hook into Claude Code, or take out.

Each command is worked out first as a `Plan` (see `planner`: nothing is touched yet) and then
applied (see `steps`), so a bad file stops everything before anything is written and
`--dry-run` can show the plan. Every write is atomic (see `jsonfile`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from mdsel.settings import DEFAULT_MIN_WORDS, ConfigError, parse_count, read_min_words
from mdsel_claude.hook import MODES as HOOK_MODES
from mdsel_claude.setup import clients, ledger
from mdsel_claude.setup.clients import CLIENTS
from mdsel_claude.setup.doctor import run_doctor
from mdsel_claude.setup.entries import EXECUTABLE_NAME, HOOK_EVENTS
from mdsel_claude.setup.jsonfile import JsonFileError
from mdsel_claude.setup.paths import (
    SCOPES,
    Locations,
    SetupError,
    find_executable,
    locations,
    portable_executable,
)
from mdsel_claude.setup.planner import plan_install, plan_uninstall
from mdsel_claude.setup.steps import Plan, apply, describe


def _min_words_default(environ: Mapping[str, str]) -> int:
    try:
        return read_min_words(environ)
    except ConfigError as error:
        raise SetupError(str(error)) from None


def _min_words_arg(text: str) -> int:
    value = parse_count(text)
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
            choices=SCOPES,
            help="as for `claude mcp add`: local (the default) is you in this project "
            "(~/.claude.json and .claude/settings.local.json); project is everyone who clones "
            "it (.mcp.json and .claude/settings.json at the project root, running "
            "mdsel-claude from PATH); user is you in every project (~/.claude.json and "
            "~/.claude/settings.json). With --client: user (the default) or project",
        )
        sub.add_argument(
            "--client",
            choices=sorted(CLIENTS),
            help="another MCP client instead of Claude Code: its MCP configuration gets the "
            "server (no hook); see docs/clients.md",
        )
        sub.add_argument(
            "--dry-run", action="store_true", help="print what would change, change nothing"
        )
    install.add_argument(
        "--min-words",
        type=_min_words_arg,
        metavar="N",
        help="remind only for files over N words (default: MDSEL_MIN_WORDS, else "
        f"{DEFAULT_MIN_WORDS})",
    )
    install.add_argument(
        "--event",
        choices=HOOK_EVENTS,
        help="hook event: before the Read, or after it "
        "(default: PreToolUse; PostToolUse with --mode outline)",
    )
    install.add_argument(
        "--mode",
        choices=HOOK_MODES,
        default=HOOK_MODES[0],
        help="reminder: add the reminder to a large Markdown Read; outline: show the "
        "document's index in place of a whole-file Read's result (PostToolUse only) "
        "(default: reminder)",
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
    parser = _parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else list(argv))
    if args.command == "install":
        outline = args.mode == "outline"
        if outline and args.event == "PreToolUse":
            # Before the Read there is no result to replace: the hook would only ever remind.
            parser.error("--mode outline needs --event PostToolUse (a result to replace)")
        if args.event is None:
            args.event = "PostToolUse" if outline else "PreToolUse"
    if args.command == "doctor":
        return run_doctor(Path.cwd(), os.environ)
    if args.client is not None:
        return _client_main(args)
    try:
        where = locations(args.scope or SCOPES[0], Path.cwd(), os.environ)
        state_file = ledger.state_path(os.environ)
        # One install or uninstall at a time: each reads the record, changes it and writes it
        # back, so two at once would lose one's entries (and uninstall would then leave files).
        with _exclusive(_lock_dir()):
            if args.command == "install":
                min_words = args.min_words
                if min_words is None:
                    min_words = _min_words_default(os.environ)
                if where.portable:
                    executable = portable_executable(os.environ)
                else:
                    executable = find_executable()
                plan = plan_install(where, executable, min_words, args.event, state_file, args.mode)
            else:
                plan = plan_uninstall(where, state_file)
            _carry_out(plan, args.dry_run)
    except (JsonFileError, SetupError, OSError) as error:
        return _failed(error)
    if args.command == "install" and not args.dry_run:
        print(_next_steps(where))
    return 0


def _failed(error: Exception) -> int:
    """Exit status 1 with one line naming what went wrong (a settings file is never touched)."""
    untouched = "; left it untouched" if isinstance(error, JsonFileError) else ""
    print(f"{EXECUTABLE_NAME}: {error}{untouched}", file=sys.stderr)
    return 1


def _lock_dir() -> Path:
    # The home directory: it exists (nothing is created just to lock it, so a refused or
    # dry run writes nothing) and every run of the same user locks the same one.
    home = Path.home()
    return home if home.is_dir() else Path(tempfile.gettempdir())


def _carry_out(plan: Plan, dry_run: bool) -> None:
    if dry_run:
        for step in plan.steps:
            print(describe(step, done=False))
        return
    out: list[str] = []
    try:
        apply(plan, out)
    finally:
        for line in out:
            print(line)


def _client_main(args: argparse.Namespace) -> int:
    """install/uninstall `--client NAME`: the MCP server in another client's configuration."""
    client = CLIENTS[args.client]
    scope = args.scope or "user"
    try:
        path = clients.config_file(client, scope, Path.cwd(), os.environ)
        state_file = ledger.state_path(os.environ)
        with _exclusive(_lock_dir()):
            if args.command == "install":
                portable = scope == "project"
                executable = portable_executable(os.environ) if portable else find_executable()
                plan = clients.plan_install(client, path, executable, state_file)
            else:
                plan = clients.plan_uninstall(client, path, state_file)
            _carry_out(plan, args.dry_run)
    except (JsonFileError, SetupError, OSError) as error:
        return _failed(error)
    if args.command == "install" and not args.dry_run:
        print(
            f"Start (or restart) {client.title} to load it. Its MCP tools: mdsel_index, "
            "mdsel_select (no Read hook outside Claude Code)."
        )
    return 0


def _next_steps(where: Locations) -> str:
    if where.scope == "project":
        return (
            f"Start (or restart) Claude Code in {where.project_root}; it asks once to approve "
            "the project's MCP server. Commit .mcp.json and .claude/settings.json to share "
            "them. Check with: mdsel-claude doctor"
        )
    return "Start (or restart) Claude Code to load them. Check with: mdsel-claude doctor"
