"""`mdsel-claude install|uninstall|doctor`: put our server and hook into Claude Code, or take out.

Each command is worked out first as a `Plan` (see `claude_plans`: nothing is touched yet) and then
applied (see `steps`), so a bad file stops everything before anything is written and
`--dry-run` can show the plan. Every write is atomic (see `jsonfile`).

Here: the arguments, and install or uninstall in one client's configuration (Claude Code's
scopes, or `--client`, whose adapter in `clients` does the work). The Agent Skill and
`uninstall --all` are `any_client`'s; the lock, `--dry-run` and the failure line every
command shares are `runner`'s.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from mdsel.settings import ConfigError, read_min_words
from mdsel_claude.dir_lock import exclusive
from mdsel_claude.setup import (
    any_client,
    arguments,
    doctor_clients,
    every_install,
    git_ignore,
    guards,
    ledger,
)
from mdsel_claude.setup.claude_plans import plan_install, plan_uninstall
from mdsel_claude.setup.clients import CLIENTS, Request
from mdsel_claude.setup.doctor import run_doctor
from mdsel_claude.setup.entries import EXECUTABLE_NAME
from mdsel_claude.setup.errors import SetupError
from mdsel_claude.setup.instructions import Target, with_block, without_block
from mdsel_claude.setup.jsonfile import ConfigFileError
from mdsel_claude.setup.paths import SCOPES, Locations, locations
from mdsel_claude.setup.program import find_executable, passing_warning, portable_executable
from mdsel_claude.setup.runner import carry_out, failure, left_over, lock_dir


def _min_words_default(environ: Mapping[str, str]) -> int:
    try:
        return read_min_words(environ)
    except ConfigError as error:
        raise SetupError(str(error)) from None


def main(argv: Sequence[str] | None = None) -> int:
    """`install|uninstall|doctor [options]`: exit 0 on success, 1 on failure, 2 on bad usage."""
    parser = arguments.parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else list(argv))
    if args.command == "install":
        outline = args.mode == "outline"
        if outline and args.event == "PreToolUse":
            # Before the Read there is no result to replace: the hook would only ever remind.
            parser.error("--mode outline needs --event PostToolUse (a result to replace)")
        if args.event is None:
            args.event = "PostToolUse" if outline else "PreToolUse"
    # `--client claude` names Claude Code, as the hook does; each check below still sees it.
    claude = args.client == arguments.CLAUDE
    if args.command == "doctor":
        return _doctor_main(args, claude)
    if args.command == "uninstall" and args.all:
        if args.scope or args.client:
            parser.error(
                "--all takes every scope and client the record knows: no --scope, --client"
            )
        return any_client.uninstall_all(args.dry_run)
    if args.skill:
        if getattr(args, "instructions", False):
            parser.error("--instructions goes with the server, not with --skill")
        if args.client or args.scope not in (None, "user", "project"):
            parser.error(
                "--skill goes where every agent looks: no --client; --scope user or project"
            )
        return any_client.skill_command(args.command, args.scope or "user", args.dry_run)
    if args.client is not None and not claude:
        return _client_main(args)
    leftovers: tuple[str, ...] = ()
    try:
        where = locations(args.scope or SCOPES[0], Path.cwd(), os.environ)
        state_file = ledger.state_path(os.environ)
        # One install or uninstall at a time: each reads the record, changes it and writes it
        # back, so two at once would lose one's entries (and uninstall would then leave files).
        with exclusive(lock_dir()):
            if args.command == "install":
                min_words = args.min_words
                if min_words is None:
                    min_words = _min_words_default(os.environ)
                if where.portable:
                    executable = portable_executable(os.environ)
                else:
                    executable = find_executable()
                    _warn_if_passing(executable)
                if not args.allow_duplicate:
                    guards.refuse_duplicates(where.scope, Path.cwd(), os.environ)
                plan = plan_install(
                    where, executable, min_words, args.event, state_file, args.mode,
                    args.allow_duplicate,
                )  # fmt: skip
                if where.scope == "local":  # settings.local.json holds a path of this machine
                    ignore = tuple(git_ignore.plan_ignore(os.environ))
                    plan = dataclasses.replace(plan, steps=plan.steps + ignore)
                if args.instructions:
                    plan = with_block(plan, _claude_instructions(where))
            else:
                plan = plan_uninstall(where, state_file, os.environ)
                plan = without_block(plan, _claude_instructions(where))
                leftovers = plan.leftovers
            carry_out(plan, args.dry_run)
    except (ConfigFileError, SetupError, OSError) as error:
        return failure(error)
    if leftovers:
        return left_over(leftovers, state_file)
    if args.command == "install" and not args.dry_run:
        print(_next_steps(where))
    return 0


def _claude_instructions(where: Locations) -> Target:
    assert where.instructions is not None  # every Claude Code scope has one
    return Target(where.instructions, f"{arguments.CLAUDE}:{where.scope}")


def _client_instructions(args: argparse.Namespace, scope: str) -> Target | None:
    """The client's instructions file for `scope`; for `install --instructions` where the
    client has none, a SetupError saying so."""
    client = CLIENTS[args.client]
    target = client.instructions(scope, Path.cwd(), os.environ)
    if target is None and getattr(args, "instructions", False):
        raise SetupError(
            f"--instructions: no instructions file that {client.title} reads could be "
            "verified, so none is written for it (docs/clients.md#instructions-files); run "
            "install without --instructions"
        )
    return target


def _warn_if_passing(executable: str) -> None:
    warning = passing_warning(executable, os.environ)
    if warning:
        print(f"{EXECUTABLE_NAME}: {warning}", file=sys.stderr)


def _doctor_main(args: argparse.Namespace, claude: bool) -> int:
    if args.all:
        report = every_install.report_all(ledger.state_path(os.environ), os.environ)
        report.say("all good" if not report.failed else "problems found (see above)")
        print("\n".join(report.lines))
        return 1 if report.failed else 0
    if args.client is not None and not claude:
        return doctor_clients.run_client_doctor(CLIENTS[args.client], Path.cwd(), os.environ)
    if args.plugin:
        return doctor_clients.run_plugin_doctor(Path.cwd(), os.environ)
    return run_doctor(Path.cwd(), os.environ)


def _client_main(args: argparse.Namespace) -> int:
    """install/uninstall `--client NAME`: our entries in another agent's configuration."""
    client = CLIENTS[args.client]
    scope = args.scope or client.scopes[0]
    try:
        path = client.config_file(scope, Path.cwd(), os.environ)
        instructions = _client_instructions(args, scope)
        state_file = ledger.state_path(os.environ)
        with exclusive(lock_dir()):
            executable = ""
            if args.command == "install":
                portable = scope == "project"
                executable = portable_executable(os.environ) if portable else find_executable()
                if not portable:
                    _warn_if_passing(executable)
            request = Request(
                scope, path, executable, state_file, Path.cwd(), os.environ,
                getattr(args, "min_words", None), getattr(args, "mode", "reminder"),
                getattr(args, "event", None) or "PreToolUse",
            )  # fmt: skip
            if args.command == "install":
                plan = client.plan_install(request)
                if args.instructions and instructions is not None:
                    plan = with_block(plan, instructions)
            else:
                plan = client.plan_uninstall(request)
                if instructions is not None:
                    plan = without_block(plan, instructions)
            carry_out(plan, args.dry_run)
    except (ConfigFileError, SetupError, OSError) as error:
        return failure(error)
    if args.command == "install" and not args.dry_run:
        print(client.next_steps())
    return 0


def _next_steps(where: Locations) -> str:
    if where.scope == "project":
        return (
            f"Start (or restart) Claude Code in {where.project_root}; it asks once to approve "
            "the project's MCP server. Commit .mcp.json and .claude/settings.json to share "
            "them. Check with: mdsel-claude doctor"
        )
    return "Start (or restart) Claude Code to load them. Check with: mdsel-claude doctor"
