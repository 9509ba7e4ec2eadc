"""Codex CLI's config.toml: our table (and hook) in and out again, the rest of the file byte
for byte."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from mdsel_claude.setup import cli
from mdsel_claude.setup.program import find_executable

BEFORE = [
    None,
    "",
    'model = "o3"\n',
    '# my settings\nmodel = "o3"  # the default\n\n[mcp_servers.other]\ncommand = "x"\n',
    '[mcp_servers]\n\n[mcp_servers.other]\ncommand = "x"\nargs = ["a"]\n\n[profiles.fast]\nm = 1\n',
    'mcp_servers.other.command = "x"\n',
]


@pytest.mark.parametrize("before", BEFORE)
def test_install_adds_our_table_and_uninstall_restores_the_file(
    home: Path, before: str | None
) -> None:
    config = home / ".codex" / "config.toml"
    if before is not None:
        config.parent.mkdir()
        config.write_text(before)
    exe = find_executable()
    assert cli.main(["install", "--client", "codex"]) == 0
    after = tomllib.loads(config.read_text())
    assert after["mcp_servers"]["mdsel"] == {"command": exe, "args": ["serve"]}
    expected_rest = tomllib.loads(before or "")
    del after["mcp_servers"]["mdsel"]
    # The hook and Codex's trust in it (test_hook_tables.py and test_trust_keys.py in detail).
    hooks = after.pop("hooks")
    assert set(hooks) == {"PreToolUse", "state"}
    if "mcp_servers" not in expected_rest:
        assert after.pop("mcp_servers") == {}
    assert after == expected_rest
    snapshot = config.read_bytes()
    assert cli.main(["install", "--client", "codex"]) == 0  # again: nothing changes
    assert config.read_bytes() == snapshot

    assert cli.main(["uninstall", "--client", "codex"]) == 0
    if before is None:
        assert not config.parent.exists()
    else:
        assert config.read_text() == before
    assert os.listdir(".") == []


def test_a_file_of_crlf_lines_gets_crlf_lines(home: Path) -> None:
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    before = b'# mine\r\nmodel = "o3"\r\n\r\n[mcp_servers.other]\r\ncommand = "x"\r\n'
    config.write_bytes(before)
    assert cli.main(["install", "--client", "codex"]) == 0
    after = config.read_bytes()
    assert after.count(b"\n") == after.count(b"\r\n") > before.count(b"\n")
    assert tomllib.loads(after.decode())["mcp_servers"]["mdsel"]["args"] == ["serve"]
    assert cli.main(["uninstall", "--client", "codex"]) == 0
    assert config.read_bytes() == before
    mixed = b'model = "o3"\r\nother = 1\n'  # mixed already: left to tomlkit's own
    config.write_bytes(mixed)
    assert cli.main(["install", "--client", "codex"]) == 0
    assert config.read_bytes().startswith(mixed)
    assert cli.main(["uninstall", "--client", "codex"]) == 0
    assert config.read_bytes() == mixed


def test_codex_home_is_honoured(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CODEX_HOME", str(home / "codex-elsewhere"))
    assert cli.main(["install", "--client", "codex"]) == 0
    assert (home / "codex-elsewhere" / "config.toml").is_file()
    assert cli.main(["uninstall", "--client", "codex"]) == 0
    assert not (home / "codex-elsewhere").exists()


def test_uninstall_names_an_install_under_another_codex_home(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = home / "codex-elsewhere" / "config.toml"
    monkeypatch.setenv("CODEX_HOME", str(elsewhere.parent))
    assert cli.main(["install", "--client", "codex"]) == 0
    monkeypatch.delenv("CODEX_HOME")
    capsys.readouterr()
    assert cli.main(["uninstall", "--client", "codex"]) == 0
    out = capsys.readouterr().out
    assert "nothing of mdsel-claude is installed for Codex CLI" in out
    assert f"the install record lists Codex CLI entries in {elsewhere} (installed with " in out
    assert elsewhere.is_file()  # named, not touched
    monkeypatch.setenv("CODEX_HOME", str(elsewhere.parent))
    assert cli.main(["uninstall", "--client", "codex"]) == 0
    assert not elsewhere.exists()
    monkeypatch.delenv("CODEX_HOME")
    capsys.readouterr()
    assert cli.main(["uninstall", "--client", "codex"]) == 0
    assert "the install record lists" not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("model = \n", "not valid TOML"),
        ('mcp_servers = "none"\n', "mcp_servers should be a table"),
        ('[mcp_servers.mdsel]\ncommand = "npx"\n', "install did not write it"),
    ],
)
def test_files_it_cannot_use_are_left_untouched(
    home: Path, capsys: pytest.CaptureFixture[str], text: str, problem: str
) -> None:
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(text)
    assert cli.main(["install", "--client", "codex"]) == 1
    err = capsys.readouterr().err
    assert problem in err and str(config) in err
    assert config.read_text() == text
    assert cli.main(["uninstall", "--client", "codex"]) in (0, 1)
    assert config.read_text() == text


def test_codex_has_no_project_scope(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["install", "--client", "codex", "--scope", "project"]) == 1
    assert "Codex CLI has no project scope" in capsys.readouterr().err


def test_a_lookalike_table_is_left_alone(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    exe = find_executable()
    text = f'[mcp_servers.mdsel]\ncommand = "{exe}"\nargs = ["serve"]\nenv = {{ A = "1" }}\n'
    config.write_text(text)
    assert cli.main(["uninstall", "--client", "codex"]) == 0
    assert "left alone in" in capsys.readouterr().out
    assert config.read_text() == text


LAYOUTS = [
    'model = "o3"',  # no final line ending
    '[mcp_servers.other]\ncommand = "x"',
    '[mcp_servers.other]\ncommand = "x"\n[profiles.a]\nm = 1\n',  # no blank line after a table
    '[mcp_servers]\n[mcp_servers.other]\ncommand = "x"\n[x]\ny = 2',
    'model = "o3"\n["hooks"]\n',
    'model = "o3"\n\n["hooks"]\n[[hooks.PreToolUse]]\nmatcher = "a"',  # a quoted table name
    "a = 1\n\n\n",  # blank lines at the end
    'a = 1\r\n[mcp_servers.o]\r\ncommand = "x"',
    "# only a comment",
]


@pytest.mark.parametrize("before", LAYOUTS)
def test_every_layout_comes_back_byte_for_byte(home: Path, before: str) -> None:
    """Install, install again with other settings, uninstall: the file as it was, every byte;
    and a table the user (or Codex) adds meanwhile stays, the rest byte for byte."""
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_bytes(before.encode())
    assert cli.main(["install", "--client", "codex"]) == 0
    installed = config.read_bytes()
    assert cli.main(["install", "--client", "codex", "--min-words", "50"]) == 0
    assert cli.main(["install", "--client", "codex"]) == 0
    assert config.read_bytes() == installed
    assert cli.main(["uninstall", "--client", "codex"]) == 0
    assert config.read_bytes() == before.encode()

    assert cli.main(["install", "--client", "codex"]) == 0
    added = b'\n[projects."/work"]\ntrust_level = "trusted"\n'
    config.write_bytes(config.read_bytes() + added)
    assert cli.main(["uninstall", "--client", "codex"]) == 0
    assert tomllib.loads(config.read_text()) == tomllib.loads(before + added.decode())
    ending = (b"\r\n" if "\r" in before else b"\n") if not before.endswith("\n") else b""
    assert config.read_bytes() == before.encode() + ending + added
