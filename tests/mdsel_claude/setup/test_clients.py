"""`install --client NAME` for the JSON-configured clients: format, scopes, merge, reversal."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mdsel_claude.setup import cli
from mdsel_claude.setup.clients import CLIENTS
from mdsel_claude.setup.program import find_executable

JSON_CLIENTS = ["cursor", "vscode", "gemini", "opencode"]

USER_FILES = {
    "cursor": ".cursor/mcp.json",
    "vscode": ".config/Code/User/mcp.json",
    "gemini": ".gemini/settings.json",
    "opencode": ".config/opencode/opencode.json",
}
PROJECT_FILES = {
    "cursor": ".cursor/mcp.json",
    "vscode": ".vscode/mcp.json",
    "gemini": ".gemini/settings.json",
    "opencode": "opencode.json",
}


def expected_entry(name: str, exe: str) -> object:
    """Each client's documented shape for a stdio server."""
    if name == "opencode":
        return {"type": "local", "command": [exe, "serve"], "enabled": True}
    if name == "vscode":
        return {"type": "stdio", "command": exe, "args": ["serve"]}
    return {"command": exe, "args": ["serve"]}


@pytest.mark.parametrize("name", JSON_CLIENTS)
def test_user_scope_keeps_everything_else_and_uninstall_restores(home: Path, name: str) -> None:
    container = CLIENTS[name].container
    config = home / USER_FILES[name]
    config.parent.mkdir(parents=True)
    before = json.dumps(
        {"theme": "dark", container: {"other": {"command": "x"}}, "zz": [1, 2.5, None]}, indent=4
    )
    config.write_text(before)
    exe = find_executable()
    assert cli.main(["install", "--client", name]) == 0
    after = json.loads(config.read_text())
    # Gemini CLI's hook goes in the same file, after everything there (see
    # clients/gemini/test_after_tool.py).
    assert list(after) == ["theme", container, "zz", *(["hooks"] if name == "gemini" else [])]
    assert list(after[container]) == ["other", "mdsel"]
    assert after[container]["mdsel"] == expected_entry(name, exe)
    assert cli.main(["uninstall", "--client", name]) == 0
    assert json.loads(config.read_text()) == json.loads(before)
    assert os.listdir(".") == []


@pytest.mark.parametrize("name", JSON_CLIENTS)
def test_created_files_and_folders_go_again(home: Path, name: str) -> None:
    assert cli.main(["install", "--client", name]) == 0
    assert (home / USER_FILES[name]).is_file()
    assert cli.main(["uninstall", "--client", name]) == 0
    assert sorted(os.listdir(home)) in ([], [".local"])  # only the (emptied) state folder


@pytest.mark.parametrize("name", JSON_CLIENTS)
def test_project_scope_is_portable_and_where_the_client_reads_it(
    on_path: str, home: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """At the project root; for Gemini CLI, which reads `.gemini/settings.json` only in the
    folder it starts in, in the current folder (and doctor looks there)."""
    root = Path.cwd()
    (root / ".git").mkdir()
    (root / "src").mkdir()
    os.chdir(root / "src")
    assert cli.main(["install", "--client", name, "--scope", "project"]) == 0
    folder = root / "src" if name == "gemini" else root
    config = folder / PROJECT_FILES[name]
    entry = json.loads(config.read_text())[CLIENTS[name].container]["mdsel"]
    assert entry == expected_entry(name, "mdsel-claude")
    capsys.readouterr()
    cli.main(["doctor", "--client", name])
    assert f"MCP server 'mdsel' project ({config})" in capsys.readouterr().out
    assert cli.main(["uninstall", "--client", name, "--scope", "project"]) == 0
    assert sorted(os.listdir(root)) == [".git", "src"]
    assert os.listdir(root / "src") == []


def test_vscode_uses_servers_not_mcp_servers(home: Path) -> None:
    config = home / USER_FILES["vscode"]
    config.parent.mkdir(parents=True)
    config.write_text('{"mcpServers": {"mdsel": {"command": "npx"}}}')
    assert cli.main(["install", "--client", "vscode"]) == 0
    value = json.loads(config.read_text())
    assert value["mcpServers"] == {"mdsel": {"command": "npx"}}
    assert value["servers"]["mdsel"]["args"] == ["serve"]


@pytest.mark.parametrize("name", JSON_CLIENTS)
def test_a_foreign_mdsel_server_is_left_alone(
    home: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    config = home / USER_FILES[name]
    config.parent.mkdir(parents=True)
    text = json.dumps({CLIENTS[name].container: {"mdsel": {"command": ["npx", "mdsel-mcp"]}}})
    config.write_text(text)
    assert cli.main(["install", "--client", name]) == 1
    assert "install did not write it" in capsys.readouterr().err
    assert cli.main(["uninstall", "--client", name]) == 0
    assert config.read_text() == text


def test_clients_have_no_local_scope(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["install", "--client", "cursor", "--scope", "local"]) == 1
    assert "Cursor has no local scope: use --scope user (the default) or project" in (
        capsys.readouterr().err
    )
    assert sorted(os.listdir(home)) == []


@pytest.mark.timeout(300)  # a read of the FIFO would block forever
@pytest.mark.parametrize("command", [["install"], ["uninstall"], ["doctor"]])
def test_a_codex_config_that_is_a_fifo_is_refused_not_read(
    home: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    os.mkfifo(config)
    assert cli.main([*command, "--client", "codex"]) == 1
    assert f"{config}: is a FIFO, not a regular file" in "".join(capsys.readouterr())


def test_gemini_cli_home_moves_the_user_file(tmp_path: Path) -> None:
    # Gemini CLI 0.61 reads `$GEMINI_CLI_HOME/.gemini/settings.json` when it is set.
    from mdsel_claude.setup.clients import CLIENTS

    gemini = CLIENTS["gemini"]
    moved = {"HOME": str(tmp_path / "h"), "GEMINI_CLI_HOME": str(tmp_path / "g")}
    assert gemini.user_file(moved) == tmp_path / "g" / ".gemini" / "settings.json"
    assert gemini.user_file({"HOME": str(tmp_path / "h")}) == (
        tmp_path / "h" / ".gemini" / "settings.json"
    )


def test_a_jsonc_file_is_left_as_it_is_and_the_refusal_says_why(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """VS Code reads comments and trailing commas in mcp.json; setup edits strict JSON only, so
    it refuses such a file untouched and says what it holds and what to do."""
    config = home / USER_FILES["vscode"]
    config.parent.mkdir(parents=True)
    text = '{\n  // mine\n  "servers": {"other": {"command": "x"},},\n}\n'
    config.write_text(text)
    assert cli.main(["install", "--client", "vscode"]) == 1
    err = capsys.readouterr().err
    assert "comments or trailing commas (JSONC" in err and "by hand" in err
    assert config.read_text() == text
    config.write_text('{"servers": {"other": {"command": "x"}}\n')  # broken, no JSONC sign
    assert cli.main(["install", "--client", "vscode"]) == 1
    assert "JSONC" not in capsys.readouterr().err


@pytest.mark.parametrize("name", [*JSON_CLIENTS, "codex"])
def test_a_server_written_by_hand_exactly_as_ours_stays_the_users(
    home: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Install finds the server it would write, but did not write it: it is not noted, so
    uninstall leaves it (and the file is as it was)."""
    exe = find_executable()
    client = CLIENTS[name]
    config = client.user_file({"HOME": str(home)})
    config.parent.mkdir(parents=True)
    if name == "codex":
        before = f'[mcp_servers.mdsel]\ncommand = "{exe}"\nargs = ["serve"]\n'
    else:
        before = json.dumps({client.container: {"mdsel": expected_entry(name, exe)}}) + "\n"
    config.write_text(before)
    assert cli.main(["install", "--client", name]) == 0
    assert "it stays yours (uninstall leaves it)" in capsys.readouterr().out
    assert cli.main(["uninstall", "--client", name]) == 0
    assert config.read_text() == before
