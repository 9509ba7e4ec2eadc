"""What every command does around its plan: one at a time, shown or carried out, and how it ends.

The lock keeps two commands from changing the install record at once; `--dry-run` shows the
steps instead of taking them; a failure is one line on stderr, with exit status 1.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from mdsel_claude.setup.entries import EXECUTABLE_NAME
from mdsel_claude.setup.jsonfile import ConfigFileError
from mdsel_claude.setup.steps import Plan, apply, change, describe


def lock_dir() -> Path:
    # The home directory: it exists (nothing is created just to lock it, so a refused or
    # dry run writes nothing) and every run of the same user locks the same one.
    home = Path.home()
    return home if home.is_dir() else Path(tempfile.gettempdir())


def carry_out(plan: Plan, dry_run: bool) -> None:
    if dry_run:
        for step in plan.steps:
            print(describe(step, done=False))
            for line in change(step):
                print(line)
        return
    out: list[str] = []
    try:
        apply(plan, out)
    finally:
        for line in out:
            print(line)


def failure(error: Exception) -> int:
    """Exit status 1 with one line naming what went wrong (a settings file is never touched)."""
    untouched = "; left it untouched" if isinstance(error, ConfigFileError) else ""
    print(f"{EXECUTABLE_NAME}: {error}{untouched}", file=sys.stderr)
    return 1


def left_over(leftovers: Sequence[str], state_file: Path) -> int:
    """Exit 1: entries exactly like ours are still there, and the record does not list them."""
    print(
        f"{EXECUTABLE_NAME}: left in place, because the install record ({state_file}) does "
        "not list them: " + "; ".join(leftovers) + ". If install wrote them with another "
        "XDG_STATE_HOME, run uninstall with that one",
        file=sys.stderr,
    )
    return 1
