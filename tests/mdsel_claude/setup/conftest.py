"""Fixtures for the setup tests: a fake HOME and project, and a stand-in `claude` command."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake HOME with no `claude` on PATH, and the project directory as cwd."""
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    for name in ("XDG_STATE_HOME", "CLAUDE_CONFIG_DIR", "MDSEL_MIN_WORDS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(project)
    return home


FAKE_CLAUDE = """\
import json, os, sys
registry = os.environ["FAKE_CLAUDE_REGISTRY"]
with open(os.environ["FAKE_CLAUDE_LOG"], "a") as log:
    log.write(json.dumps(sys.argv[1:]) + "\\n")
servers = json.load(open(registry)) if os.path.exists(registry) else {}
args = sys.argv[1:]
if args[:2] == ["mcp", "get"]:
    name = args[2]
    if name not in servers:
        sys.exit(f'No MCP server named "{name}" found.')
    entry = servers[name]
    print(f"{name}:\\n  Scope: User config (available in all your projects)\\n"
          f"  Status: ok\\n  Type: stdio\\n  Command: {entry['command']}\\n"
          f"  Args: {' '.join(entry['args'])}\\n  Environment:\\n")
elif args[:4] == ["mcp", "add", "-s", "user"]:
    if os.environ.get("FAKE_CLAUDE_FAIL_ADD"):
        sys.exit("add refused")
    name, dashes, command, *rest = args[4:]
    assert dashes == "--"
    if name in servers:
        sys.exit(f"MCP server {name} already exists in user config")
    servers[name] = {"command": command, "args": rest}
elif args[:2] == ["mcp", "remove"] and args[3:] == ["-s", "user"]:
    if servers.pop(args[2], None) is None:
        sys.exit("not found")
else:
    sys.exit(f"unexpected {args}")
json.dump(servers, open(registry, "w"))
"""


@pytest.fixture
def fake_claude(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in `claude` on PATH that keeps user servers in a JSON file and logs its calls."""
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir()
    script = bin_dir / "claude"
    script.write_text(f"#!{sys.executable}\n{FAKE_CLAUDE}")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setenv("FAKE_CLAUDE_REGISTRY", str(tmp_path / "registry.json"))
    monkeypatch.setenv("FAKE_CLAUDE_LOG", str(tmp_path / "calls.log"))
    return tmp_path
