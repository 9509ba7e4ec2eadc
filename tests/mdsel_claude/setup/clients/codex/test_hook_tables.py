"""Codex CLI's hook in `config.toml`: the group, trusted, in and out again exactly."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from mdsel_claude.setup import cli, ledger
from mdsel_claude.setup.clients.codex import trust_keys
from mdsel_claude.setup.program import find_executable


def config_of(home: Path) -> Path:
    return home / ".codex" / "config.toml"


def load(path: Path) -> dict[str, object]:
    return tomllib.loads(path.read_text())


def key(home: Path, event: str = "pre_tool_use", group: int = 0) -> str:
    return f"{home}/.codex/config.toml:{event}:{group}:0"


def test_install_writes_the_hook_and_its_trust(home: Path) -> None:
    exe = find_executable()
    assert cli.main(["install", "--client", "codex", "--min-words", "150"]) == 0
    hooks = load(config_of(home))["hooks"]
    assert isinstance(hooks, dict)
    hook = {
        "type": "command",
        "command": f"{exe} hook --client codex --min-words 150",
        "timeout": 30,
    }
    assert hooks["PreToolUse"] == [{"matcher": "^Bash$", "hooks": [hook]}]
    digest = trust_keys.trust_hash("PreToolUse", hook)
    assert hooks["state"] == {key(home): {"trusted_hash": digest}}


def test_other_hooks_and_their_trust_are_kept_byte_for_byte(home: Path) -> None:
    config = config_of(home)
    config.parent.mkdir()
    before = (
        '# mine\nmodel = "o3"\n\n'
        '[[hooks.PreToolUse]]\nmatcher = "Bash"\n\n'
        '[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "audit.sh"  # logs\n\n'
        f'[hooks.state."{key(home)}"]\ntrusted_hash = "sha256:abc"\n'
    )
    config.write_text(before)
    assert cli.main(["install", "--client", "codex"]) == 0
    after = load(config)
    hooks = after["hooks"]
    assert isinstance(hooks, dict)
    assert [group["matcher"] for group in hooks["PreToolUse"]] == ["Bash", "^Bash$"]
    # Ours is the second group of its event: its trust is named so.
    assert set(hooks["state"]) == {key(home), key(home, group=1)}
    assert hooks["state"][key(home)] == {"trusted_hash": "sha256:abc"}
    assert cli.main(["uninstall", "--client", "codex"]) == 0
    assert config.read_text() == before


def test_install_again_keeps_the_place_and_moves_the_trust(home: Path) -> None:
    config = config_of(home)
    assert cli.main(["install", "--client", "codex", "--min-words", "100"]) == 0
    # The user adds a group of their own after ours.
    text = config.read_text()
    text += '\n[[hooks.PreToolUse]]\nmatcher = "x"\n[[hooks.PreToolUse.hooks]]\n'
    text += 'type = "command"\ncommand = "other.sh"\n'
    config.write_text(text)
    assert cli.main(["install", "--client", "codex", "--min-words", "300"]) == 0
    hooks = load(config)["hooks"]
    assert isinstance(hooks, dict)
    groups = hooks["PreToolUse"]
    assert [group["matcher"] for group in groups] == ["^Bash$", "x"]
    assert groups[0]["hooks"][0]["command"].endswith("--min-words 300")
    digest = trust_keys.trust_hash("PreToolUse", groups[0]["hooks"][0])
    assert hooks["state"] == {key(home): {"trusted_hash": digest}}
    # Another event: the hook moves there, its old trust goes with it.
    assert cli.main(["install", "--client", "codex", "--event", "PostToolUse"]) == 0
    hooks = load(config)["hooks"]
    assert isinstance(hooks, dict)
    assert [group["matcher"] for group in hooks["PreToolUse"]] == ["x"]
    assert [group["matcher"] for group in hooks["PostToolUse"]] == ["^Bash$"]
    assert list(hooks["state"]) == [key(home, "post_tool_use")]
    assert cli.main(["uninstall", "--client", "codex"]) == 0
    after = load(config)
    assert after == {
        "hooks": {
            "PreToolUse": [{"matcher": "x", "hooks": [{"type": "command", "command": "other.sh"}]}]
        }
    }


def test_outline_mode_is_refused(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["install", "--client", "codex", "--mode", "outline"]) == 1
    assert "only for MCP tools" in capsys.readouterr().err
    assert not config_of(home).exists()


def test_a_lookalike_hook_is_left_alone(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Another program's hook that runs mdsel-claude's: not ours to replace, and a second one
    beside it would remind twice, so install refuses and changes nothing."""
    config = config_of(home)
    config.parent.mkdir()
    text = (
        '[[hooks.PreToolUse]]\nmatcher = "^Bash$"\n[[hooks.PreToolUse.hooks]]\n'
        'type = "command"\ncommand = "/elsewhere/mdsel-claude hook --client codex --min-words 9"\n'
        "timeout = 30\n"
    )
    config.write_text(text)
    assert cli.main(["uninstall", "--client", "codex"]) == 0
    assert config.read_text() == text
    capsys.readouterr()
    assert cli.main(["install", "--client", "codex"]) == 1
    err = capsys.readouterr().err
    assert "'/elsewhere/mdsel-claude hook --client codex --min-words 9'" in err
    assert "with command changed" in err and "remind the agent twice" in err
    assert config.read_text() == text


def test_our_hook_changed_by_hand_is_named_not_doubled(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = config_of(home)
    assert cli.main(["install", "--client", "codex"]) == 0
    changed = config.read_text().replace("timeout = 30", "timeout = 60")
    config.write_text(changed)
    capsys.readouterr()
    assert cli.main(["install", "--client", "codex"]) == 1
    assert "with timeout changed" in capsys.readouterr().err
    assert config.read_text() == changed


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('hooks = "none"\n', "hooks should be a table"),
        ('[hooks]\nPreToolUse = "x"\n', "hooks.PreToolUse should be a list of tables"),
        ('[hooks]\nstate = 3\n[[hooks.PreToolUse]]\nmatcher = "a"\n', "hooks.state should be"),
        ("hooks = {}\n", "cannot be edited in its layout"),
        (
            '[hooks]\nPreToolUse = [{ matcher = "a", hooks = [{ type = "command" }] }]\n',
            "cannot be edited in its layout",
        ),
    ],
)
def test_files_it_cannot_use_are_left_untouched(
    home: Path, capsys: pytest.CaptureFixture[str], text: str, problem: str
) -> None:
    config = config_of(home)
    config.parent.mkdir()
    config.write_text(text)
    assert cli.main(["install", "--client", "codex"]) == 1
    assert problem in capsys.readouterr().err
    assert config.read_text() == text


def test_uninstall_all_takes_the_hook_too(home: Path) -> None:
    config = config_of(home)
    config.parent.mkdir()
    config.write_text('model = "o3"\n')
    assert cli.main(["install", "--client", "codex"]) == 0
    assert cli.main(["uninstall", "--all"]) == 0
    assert config.read_text() == 'model = "o3"\n'
    assert ledger.load(ledger.state_path(os.environ)).files == {}


def test_doctor_all_reads_the_toml_and_checks_programs_not_the_trust(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The record lists config.toml: doctor --all reads it as TOML (Codex's own reader, through
    its client), checks the server and the hook it runs, and leaves the trust entry to
    `doctor --client codex`; once the file is gone it says so."""
    config = config_of(home)
    assert cli.main(["install", "--client", "codex"]) == 0
    capsys.readouterr()
    assert cli.main(["doctor", "--all"]) == 0
    out = capsys.readouterr().out
    assert "Codex CLI configuration (trust and more: `doctor --client codex`)" in out
    assert "MCP server 'mdsel'" in out and "PreToolUse hook" in out
    assert "trusted_hash" not in out
    config.unlink()
    assert cli.main(["doctor", "--all"]) == 0
    assert "gone (deleted since install)" in capsys.readouterr().out


def test_doctor_says_whether_codex_trusts_it(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = config_of(home)
    assert cli.main(["doctor", "--client", "codex"]) == 1
    assert "no hook of this installation" in capsys.readouterr().out
    assert cli.main(["install", "--client", "codex"]) == 0
    capsys.readouterr()
    assert cli.main(["doctor", "--client", "codex"]) == 0
    out = capsys.readouterr().out
    assert "ours, trusted" in out
    assert "ok: reminder for 201 words of Markdown, silence for 200" in out
    text = config.read_text()
    config.write_text(text.replace('trusted_hash = "sha256:', 'trusted_hash = "sha256:0'))
    assert cli.main(["doctor", "--client", "codex"]) == 1
    assert "not trusted where it now sits" in capsys.readouterr().out
    config.write_text(text.replace("trusted_hash =", "enabled = false\ntrusted_hash ="))
    assert cli.main(["doctor", "--client", "codex"]) == 1
    assert "disabled in Codex" in capsys.readouterr().out


def test_a_hook_written_by_hand_exactly_as_ours_stays_the_users(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The user's own hook (and their trust in it) is exactly the one install would write:
    install adds the server only, and uninstall gives the file back byte for byte."""
    exe = find_executable()
    command = f"{exe} hook --client codex --min-words 150"
    digest = trust_keys.trust_hash("PreToolUse", {"command": command, "timeout": 30})
    config = config_of(home)
    config.parent.mkdir()
    before = (
        '# mine\nmodel = "o3"\n\n'
        '[[hooks.PreToolUse]]\nmatcher = "^Bash$"\n\n'
        f'[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "{command}"  # by hand\n'
        "timeout = 30\n\n"
        f'[hooks.state."{key(home)}"]\ntrusted_hash = "{digest}"\n'
    )
    config.write_text(before)
    capsys.readouterr()
    assert cli.main(["install", "--client", "codex", "--min-words", "150"]) == 0
    out = capsys.readouterr().out
    assert f"the PreToolUse hook → {command} is there already" in out
    assert "it stays yours (uninstall leaves it)" in out
    after = load(config)
    assert after["hooks"] == load_text(before)["hooks"]  # not doubled, its trust as it was
    assert "mdsel" in after["mcp_servers"]  # type: ignore[operator]
    assert cli.main(["uninstall", "--client", "codex"]) == 0
    assert config.read_text() == before


def load_text(text: str) -> dict[str, object]:
    return tomllib.loads(text)
