"""One contract, run over every client the registry lists: what install, uninstall and doctor
promise whatever the agent (each client's own tests hold its format and its hooks)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mdsel_claude.setup import cli
from mdsel_claude.setup.clients import CLIENTS


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every file's bytes and every folder (None) under `root`."""
    return {
        str(p.relative_to(root)): None if p.is_dir() else p.read_bytes() for p in root.rglob("*")
    }


def theirs(name: str) -> bytes:
    """A configuration of the user's own in the client's format, with no final line end."""
    if CLIENTS[name].user_file({"HOME": "/h"}).suffix == ".toml":
        return b'# mine\nmodel = "o3"'
    return b'{\n  "theme": "dark", "n": 1E2\n}'


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    status = cli.main(list(argv))
    got = capsys.readouterr()
    return status, got.out + got.err


@pytest.mark.parametrize("name", sorted(CLIENTS))
def test_every_client_keeps_the_promises(
    home: Path, tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    client = CLIENTS[name]
    config = client.user_file({"HOME": str(home)})
    config.parent.mkdir(parents=True)
    config.write_bytes(theirs(name))
    before = snapshot(tmp_path)

    status, out = run(capsys, "doctor", "--client", name)
    assert status == 1 and f"`mdsel-claude install --client {name}`" in out

    assert run(capsys, "install", "--client", name, "--dry-run")[0] == 0
    assert snapshot(tmp_path) == before  # a dry run writes nothing

    assert run(capsys, "install", "--client", name)[0] == 0
    installed = snapshot(tmp_path)
    assert run(capsys, "install", "--client", name)[0] == 0
    assert snapshot(tmp_path) == installed  # twice is once

    status, out = run(capsys, "doctor", "--client", name)
    assert f"MCP server 'mdsel' user ({config}): ours" in out

    assert run(capsys, "uninstall", "--client", name)[0] == 0
    after = snapshot(tmp_path)
    after.pop("home/.local/state", None)  # the standard folder the record went in
    after.pop("home/.local", None)
    assert after == before  # every byte given back, every folder made removed


HOSTILE = {
    ".json": [b"{broken", b"\xff\xfe", b'["a list"]', b'{"mcpServers": 1, "servers": 1, "mcp": 1}'],
    ".toml": [b"[[x]\n", b"\xff\xfe", b"mcp_servers = 1\n", b"a = 1\na = 2\n"],
}


@pytest.mark.parametrize("name", sorted(CLIENTS))
@pytest.mark.parametrize("which", range(4))
def test_every_client_refuses_a_config_it_cannot_read_and_leaves_it(
    home: Path, name: str, which: int, capsys: pytest.CaptureFixture[str]
) -> None:
    config = CLIENTS[name].user_file({"HOME": str(home)})
    hostile = HOSTILE[config.suffix][which]
    config.parent.mkdir(parents=True)
    config.write_bytes(hostile)
    status, out = run(capsys, "install", "--client", name)
    assert status == 1 and str(config) in out
    assert config.read_bytes() == hostile
    assert run(capsys, "uninstall", "--client", name)[0] == 1
    assert config.read_bytes() == hostile


@pytest.mark.parametrize("name", sorted(CLIENTS))
def test_every_client_leaves_what_is_already_there_as_ours_to_the_user(
    home: Path, tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Everything install would write is there already, but not on its record (written by
    hand, or by an install whose record is kept elsewhere): servers, hooks and their trust,
    plugin files. Install takes none of it over, so uninstall deletes none of it."""
    config = CLIENTS[name].user_file({"HOME": str(home)})
    config.parent.mkdir(parents=True)
    config.write_bytes(theirs(name))
    assert run(capsys, "install", "--client", name)[0] == 0
    (home / ".local" / "state" / "mdsel-claude" / "installed.json").unlink()
    written = users(home)

    status, out = run(capsys, "install", "--client", name)
    assert status == 0 and "it stays yours (uninstall leaves it)" in out
    assert "would" not in out and "wrote " not in out and "created " not in out
    assert users(home) == written  # nothing rewritten
    assert not (home / ".local" / "state" / "mdsel-claude" / "installed.json").exists()
    run(capsys, "uninstall", "--client", name)
    assert users(home) == written  # and nothing of the user's deleted


def users(home: Path) -> dict[str, bytes | None]:
    """`snapshot` of the home but for the folder of the install record."""
    return {k: v for k, v in snapshot(home).items() if not k.startswith(".local")}
