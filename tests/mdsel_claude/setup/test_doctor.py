"""`mdsel-claude doctor`: what it finds installed, and what it reports as broken or twice."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mdsel_claude.setup import cli, entries
from mdsel_claude.setup.doctor import run_doctor


def test_doctor_after_project_install(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["install", "--min-words", "30"]) == 0
    capsys.readouterr()
    status = run_doctor(Path.cwd(), os.environ, None)
    out = capsys.readouterr().out
    assert "ok: answers initialize (mdsel-claude" in out
    assert "ok: reminder for 31 words of Markdown, silence for 30" in out
    assert out.rstrip().endswith("all good") and status == 0


def test_doctor_nothing_installed(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_doctor(Path.cwd(), os.environ, None) == 1
    assert "nothing installed" in capsys.readouterr().out


def test_doctor_broken_commands(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Path(".mcp.json").write_text(
        json.dumps({"mcpServers": {"mdsel": {"command": "/nowhere/mdsel-claude", "args": []}}})
    )
    Path(".claude").mkdir()
    Path(".claude/settings.local.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {"matcher": "Read", "hooks": [entries.hook_entry("/bin/mdsel-claude", 5)]}
                    ]
                }
            }
        )
    )
    assert run_doctor(Path.cwd(), os.environ, None) == 1
    out = capsys.readouterr().out
    assert "FAIL: '/nowhere/mdsel-claude' not found" in out
    assert "FAIL: '/bin/mdsel-claude' not found" in out


def test_doctor_flags_duplicates(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["install"]) == 0
    assert cli.main(["install", "--scope", "user"]) == 0
    capsys.readouterr()
    assert run_doctor(Path.cwd(), os.environ, None) == 1
    assert "duplicate: 2 Read hooks are registered" in capsys.readouterr().out


def test_doctor_fails_a_hook_that_never_runs_on_read(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install"]) == 0
    settings = json.loads(Path(".claude/settings.local.json").read_text())
    settings["hooks"]["PreToolUse"][0]["matcher"] = "Write"
    Path(".claude/settings.local.json").write_text(json.dumps(settings))
    capsys.readouterr()
    assert cli.main(["doctor"]) == 1
    assert "never runs when the agent uses Read" in capsys.readouterr().out
