"""The commands that are no one client's: the Agent Skill (`--skill`) and `uninstall --all`.

The skill goes where every agent that reads skills looks; `uninstall --all` takes whatever the
install record lists, in every scope and client (see `every_install`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from mdsel_claude.dir_lock import exclusive
from mdsel_claude.setup import every_install, ledger
from mdsel_claude.setup.claude_plans import plan_uninstall
from mdsel_claude.setup.entries import EXECUTABLE_NAME
from mdsel_claude.setup.errors import SetupError
from mdsel_claude.setup.jsonfile import ConfigFileError
from mdsel_claude.setup.paths import locations
from mdsel_claude.setup.runner import carry_out, failure, left_over, lock_dir


def skill_command(command: str, scope: str, dry_run: bool) -> int:
    """`install --skill` / `uninstall --skill`: the Agent Skill's two copies (see `skill`)."""
    from mdsel_claude.setup import skill

    try:
        paths = skill.targets(scope, Path.cwd(), os.environ)
        state_file = ledger.state_path(os.environ)
        with exclusive(lock_dir()):
            refused = False
            if command == "install":
                plan, refused = skill.plan_install(paths, state_file)
            else:
                plan = skill.plan_uninstall(paths, state_file)
            carry_out(plan, dry_run)
    except (ConfigFileError, SetupError, OSError) as error:
        return failure(error)
    if refused:
        return 1
    if command == "install" and not dry_run:
        print(
            "Agents that read skills (Claude Code, Gemini CLI, Codex CLI, OpenCode, Copilot CLI, "
            "Cline, and Qwen Code and Factory Droid where their folder is) load it at their next "
            "start; it needs the mdsel command on their PATH."
        )
    return 0


def uninstall_all(dry_run: bool) -> int:
    """`uninstall --all`: every recorded file, one plan each; exit 1 if any could not be done."""
    state_file = ledger.state_path(os.environ)
    failed = False
    with exclusive(lock_dir()):
        files = every_install.recorded_files(ledger.load(state_file))
        if not files:
            print(f"the install record ({state_file}) lists nothing: nothing to remove")
        for path in files:
            try:
                carry_out(every_install.plan_file(path, state_file), dry_run)
            except (ConfigFileError, SetupError, OSError) as error:
                failure(error)
                failed = True
        try:
            carry_out(every_install.plan_dirs(state_file), dry_run)
        except OSError as error:
            failure(error)
            failed = True
        # What the record does not know but is ours, here: another record made it, or it was
        # lost. As for one scope, that is never a success.
        leftovers: list[str] = []
        for scope in ("local", "project", "user"):
            try:
                where = locations(scope, Path.cwd(), os.environ)
                leftovers += plan_uninstall(where, state_file, os.environ).leftovers
            except (ConfigFileError, SetupError, OSError):
                continue  # refused or unreadable: the sweep above reported what it could
    if failed:
        print(
            f"{EXECUTABLE_NAME}: what could not be removed stays in the record; fix it and run "
            "`mdsel-claude uninstall --all` again",
            file=sys.stderr,
        )
    if leftovers:  # a dry run ends as the run would, as for one scope
        return left_over(leftovers, state_file)
    return 1 if failed else 0
