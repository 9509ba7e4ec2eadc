"""Our entries in Claude Code's files: the forms install writes, and what counts as one."""

from __future__ import annotations

import shlex

import pytest

from mdsel_claude.setup import entries

EXE = "/opt/mdsel tools/bin/mdsel-claude"  # a space, so quoting is exercised


@pytest.mark.parametrize(
    ("value", "ours"),
    [
        ({"type": "command", "command": f"{shlex.quote(EXE)} hook --min-words 10"}, True),
        ({"type": "command", "command": f"{shlex.quote(EXE)} hook --min-words 0"}, True),
        ({"type": "command", "command": f"{shlex.quote(EXE)} hook --min-words 010"}, False),
        ({"type": "command", "command": f"{shlex.quote(EXE)} hook --min-words 5 | tee x"}, False),
        ({"type": "command", "command": f"{shlex.quote(EXE)} hook --min-words 5; rm x"}, False),
        ({"type": "command", "command": f"{EXE} hook --min-words 5"}, False),  # unquoted
        ({"type": "command", "command": "mdsel-claude hook --min-words 5"}, False),
        ({"type": "command", "command": "/other/mdsel-claude hook --min-words 5"}, False),
        ({"type": "command", "command": f"{shlex.quote(EXE)} hook"}, False),
        (
            {"type": "command", "command": f"{shlex.quote(EXE)} hook --min-words 5", "timeout": 9},
            False,
        ),
        (
            {"type": "command", "command": f"{shlex.quote(EXE)} hook --min-words 5 --mode outline"},
            True,
        ),
        ({"type": "command", "command": f"{shlex.quote(EXE)} hook --min-words 5 --mode x"}, False),
        ({"type": "command", "command": f"{shlex.quote(EXE)} hook --mode outline"}, False),
        ({"type": "stdio", "command": EXE, "args": ["serve"]}, True),
        ({"command": EXE, "args": ["serve"]}, False),
        ({"type": "stdio", "command": EXE, "args": ["serve"], "env": {"A": "1"}}, False),
        ({"type": "stdio", "command": EXE, "args": ["serve"], "env": {}}, True),
        (None, False),
        ("text", False),
    ],
)
def test_the_forms_install_writes(value: object, ours: bool) -> None:
    assert entries.is_install_form(value, EXE) is ours


def test_hook_command_round_trips_through_the_shell() -> None:
    command = entries.hook_command(EXE, 123)
    assert command == "'/opt/mdsel tools/bin/mdsel-claude' hook --min-words 123"
    assert shlex.split(command) == [EXE, "hook", "--min-words", "123"]
    assert entries.is_install_form(entries.hook_entry(EXE, 123), EXE)
    assert entries.is_install_form(entries.hook_entry(EXE, 123, "outline"), EXE)
