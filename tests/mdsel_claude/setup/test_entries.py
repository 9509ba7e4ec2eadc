"""Our entries in Claude Code's files: recognising our hook command among others'."""

from __future__ import annotations

import pytest

from mdsel_claude.setup import entries

EXE = "/opt/mdsel tools/bin/mdsel-claude"  # a space, so quoting is exercised


@pytest.mark.parametrize(
    ("command", "ours"),
    [
        ("mdsel-claude hook", True),
        ("/usr/local/bin/mdsel-claude hook --min-words 10", True),
        ("'/opt/my tools/mdsel-claude' hook", True),
        ("mdsel-claude serve", False),
        ("mdsel-claude", False),
        ("mdsel hook", False),
        ("python -m mdsel_claude hook", False),
        ("echo mdsel-claude hook", False),
        ("'unbalanced", False),
        (None, False),
        (42, False),
    ],
)
def test_recognising_our_hook(command: object, ours: bool) -> None:
    assert entries.is_our_hook_command(command) is ours


def test_hook_command_round_trips_through_the_shell() -> None:
    command = entries.hook_command(EXE, 123)
    assert command == "'/opt/mdsel tools/bin/mdsel-claude' hook --min-words 123"
    assert entries.is_our_hook_command(command)
