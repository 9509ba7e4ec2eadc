"""Codex's trust in our hook: hashed and keyed as Codex does; another's never overwritten."""

from __future__ import annotations

from pathlib import Path

import pytest

from mdsel_claude.setup import cli
from mdsel_claude.setup.clients.codex import trust_keys
from tests.mdsel_claude.setup.clients.codex.test_hook_tables import config_of, key, load

# Hashes the pinned Codex (0.169.0) itself reported for these hooks (`codex app-server`,
# `hooks/list` → `currentHash`): the trust install writes must be computed the same way.
CODEX_HASHES = [
    (
        "PreToolUse",
        "Bash",
        {"type": "command", "command": "/tmp/cxexp/hook.sh PreToolUse"},
        "sha256:ddcd82951b7bbd2e2a886aaf94b82c347f0de2cdf85af3acf2262d2d22cc07db",
    ),
    (
        "PostToolUse",
        "Bash",
        {"type": "command", "command": "/tmp/cxexp/hook.sh PostToolUse"},
        "sha256:cf5d7976ac611d5005b70b8d863eada0fb1263eaa5cb00b076b951516a30fd14",
    ),
]


@pytest.mark.parametrize(("event", "matcher", "hook", "digest"), CODEX_HASHES)
def test_the_trust_hash_is_codexs(
    event: str, matcher: str, hook: dict[str, object], digest: str
) -> None:
    assert trust_keys.trust_hash(event, hook, matcher) == digest
    # The default timeout written out is the same hook.
    assert trust_keys.trust_hash(event, {**hook, "timeout": 600}, matcher) == digest


def test_codex_home_is_named_by_its_real_path(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "link"))
    assert cli.main(["install", "--client", "codex"]) == 0
    hooks = load(real / "config.toml")["hooks"]
    assert isinstance(hooks, dict)
    assert list(hooks["state"]) == [f"{real}/config.toml:pre_tool_use:0:0"]
    assert cli.main(["uninstall", "--client", "codex"]) == 0
    assert not (real / "config.toml").exists()


def test_trust_changed_since_install_stays(home: Path) -> None:
    config = config_of(home)
    assert cli.main(["install", "--client", "codex"]) == 0
    text = config.read_text()
    config.write_text(text.replace('trusted_hash = "sha256:', 'trusted_hash = "sha256:0'))
    assert cli.main(["uninstall", "--client", "codex"]) == 0
    after = load(config)
    assert list(after) == ["hooks"]  # the server and the hook went; that trust is not ours
    hooks = after["hooks"]
    assert isinstance(hooks, dict)
    assert list(hooks) == ["state"]


def test_a_trust_entry_install_did_not_write_is_never_overwritten(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Left from a hook the user removed by hand: the position our hook would take.
    config = config_of(home)
    config.parent.mkdir()
    text = (
        f'[hooks.state."{key(home)}"]\n'
        'trusted_hash = "sha256:user-approved-old-hook"\nenabled = false\n'
    )
    config.write_text(text)
    assert cli.main(["install", "--client", "codex"]) == 1
    assert "install did not write it" in capsys.readouterr().err
    assert config.read_text() == text  # nothing changed, so nothing of theirs can be lost
