"""`doctor --client codex`: what keeps Codex CLI from running our hook."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from mdsel_claude.setup import cli, codex_setup


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
    assert codex_setup.hooks_switched_off(tomllib.loads(f"[features]\n{features}\n")) == off


def test_doctor_fails_when_features_switch_hooks_off(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install", "--client", "codex"]) == 0
    config = home / ".codex" / "config.toml"
    config.write_text(config.read_text() + "\n[features]\nhooks = false\n")
    capsys.readouterr()
    assert cli.main(["doctor", "--client", "codex"]) == 1
    assert "hooks are switched off" in capsys.readouterr().out
