"""`doctor --client codex`: what keeps Codex CLI from running our hook."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from mdsel_claude.setup import cli
from mdsel_claude.setup.clients.codex import plans


@pytest.mark.parametrize(
    ("features", "off"),
    [
        ("hooks = false", "hooks"),
        ("codex_hooks = false", "codex_hooks"),
        ("hooks = true\ncodex_hooks = false", None),
        ("codex_hooks = false\nhooks = true", None),
        ("codex_hooks = true", None),
        ('hooks = "false"', None),  # not a switch (Codex refuses such a file altogether)
    ],
)
def test_hooks_switched_off_as_codex_features_list_says(features: str, off: str | None) -> None:
    # `codex features list` (0.169) shows `hooks … false` for exactly the first two.
    assert plans.hooks_switched_off(tomllib.loads(f"[features]\n{features}\n")) == off


def test_doctor_fails_when_features_switch_hooks_off(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install", "--client", "codex"]) == 0
    config = home / ".codex" / "config.toml"
    config.write_text(config.read_text() + "\n[features]\nhooks = false\n")
    capsys.readouterr()
    assert cli.main(["doctor", "--client", "codex"]) == 1
    assert "hooks are switched off" in capsys.readouterr().out


def test_doctor_reads_the_switch_in_the_trusted_projects_files(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install", "--client", "codex"]) == 0
    project = Path.cwd()
    (project / ".git").mkdir()
    (project / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (project / ".codex").mkdir()
    switch = project / ".codex" / "config.toml"
    switch.write_text("[features]\nhooks = false\n")
    config = home / ".codex" / "config.toml"
    installed = config.read_text()
    capsys.readouterr()
    cli.main(["doctor", "--client", "codex"])
    assert "hooks are switched off" not in capsys.readouterr().out  # not trusted: not read
    config.write_text(installed + f'\n[projects."{project}"]\ntrust_level = "trusted"\n')
    assert cli.main(["doctor", "--client", "codex"]) == 1
    assert f"hooks are switched off in {switch}" in capsys.readouterr().out
    # The user's file switching them off, the trusted project's on again: they run.
    user_off = installed.replace("[mcp_servers", "[features]\nhooks = false\n\n[mcp_servers", 1)
    assert user_off != installed
    config.write_text(user_off + f'\n[projects."{project}"]\ntrust_level = "trusted"\n')
    switch.write_text("[features]\nhooks = true\n")
    cli.main(["doctor", "--client", "codex"])
    assert "hooks are switched off" not in capsys.readouterr().out
