"""The user-scope server through the `claude` command (a stand-in that keeps a registry)."""

from __future__ import annotations

import json
from pathlib import Path

from mdsel_claude.setup import cli, paths


def calls(fake: Path) -> list[list[str]]:
    log = fake / "calls.log"
    lines = log.read_text().splitlines() if log.exists() else []
    log.unlink(missing_ok=True)
    return [json.loads(line) for line in lines]


def registry(fake: Path) -> object:
    return json.loads((fake / "registry.json").read_text())


def test_user_scope_with_claude(fake_claude: Path, home: Path) -> None:
    exe = paths.find_executable()
    assert cli.main(["install", "--scope", "user"]) == 0
    assert calls(fake_claude) == [
        ["mcp", "get", "mdsel"],
        ["mcp", "add", "-s", "user", "mdsel", "--", exe, "serve"],
    ]
    assert registry(fake_claude) == {"mdsel": {"command": exe, "args": ["serve"]}}

    assert cli.main(["install", "--scope", "user"]) == 0  # already there: only checked
    assert calls(fake_claude) == [["mcp", "get", "mdsel"]]

    (fake_claude / "registry.json").write_text(
        json.dumps({"mdsel": {"command": "/old/mdsel-claude", "args": ["serve"]}, "x": {}})
    )
    assert cli.main(["install", "--scope", "user"]) == 0  # an old one of ours: replaced
    assert calls(fake_claude)[1:] == [
        ["mcp", "remove", "mdsel", "-s", "user"],
        ["mcp", "add", "-s", "user", "mdsel", "--", exe, "serve"],
    ]
    assert cli.main(["uninstall", "--scope", "user"]) == 0
    assert calls(fake_claude) == [["mcp", "get", "mdsel"], ["mcp", "remove", "mdsel", "-s", "user"]]
    assert registry(fake_claude) == {"x": {}}
    assert not (home / ".claude").exists()
