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


@pytest.mark.parametrize("client", [None, "gemini", "codex", "copilot", "cline", "opencode"])
@pytest.mark.parametrize("mode", ["reminder", "outline"])
@pytest.mark.parametrize("executable", [EXE, entries.EXECUTABLE_NAME])
def test_every_hook_line_install_writes_reads_back(
    client: str | None, mode: str, executable: str
) -> None:
    command = entries.hook_command(executable, 4321, mode, client)
    assert entries.parse_hook_command(command, client) == (executable, 4321, mode)
    argv = [executable, *entries.hook_args(4321, mode, client)]
    assert entries.parse_hook_argv(argv, client) == (executable, 4321, mode)


@pytest.mark.parametrize(
    "argv",
    [
        [EXE, "hook", "--client", "cline", "--min-words", "5"],  # another client's line
        [EXE, "hook", "--min-words", "05"],  # not as install spells a number
        [EXE, "hook", "--min-words", "٣"],  # a digit, but not an ASCII one
        [EXE, "hook", "--min-words", "1" * 19],  # longer than any threshold install writes
        [EXE, "hook", "--min-words", "5", "--mode", "reminder"],  # the default is never spelled
        [EXE, "hook", "--min-words", "5", "--mode"],
        [EXE, "hook", "--min-words", "5", "--verbose"],
        [EXE, "hook", "--min-words"],
        [EXE, "serve", "--min-words", "5"],
        [EXE, "hook", "--min-words", 5],  # not a word: a JSON array may hold anything
        [],
    ],
)
def test_a_line_install_does_not_write_is_not_ours(argv: list[object]) -> None:
    assert entries.parse_hook_argv(argv, None) is None


def test_a_command_that_does_not_split_is_not_ours() -> None:
    assert entries.parse_hook_command(f"{shlex.quote(EXE)} hook --min-words 5 'open") is None
    assert entries.parse_hook_command(None) is None
