"""`install --client cline`: the server in Cline's MCP settings, and our PostToolUse script."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from mdsel_claude.setup import cli
from mdsel_claude.setup.clients import CLIENTS, cline
from mdsel_claude.setup.program import find_executable

SETTINGS = ".cline/data/settings/cline_mcp_settings.json"
SCRIPT = "Documents/Cline/Hooks/PostToolUse"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    status = cli.main(list(argv))
    got = capsys.readouterr()
    return status, got.out + got.err


def payload(root: Path, name: str) -> str:
    """What the Cline CLI sends its PostToolUse hook after `read_files` of `name`."""
    files = [{"path": name}]
    return json.dumps({
        "hookName": "tool_result",
        "workspaceRoots": [str(root)],
        "tool_result": {"name": "read_files", "input": {"files": files}, "error": None},
        "postToolUse": {"toolName": "read_files", "parameters": {"files": json.dumps(files)},
                        "success": True},
    })  # fmt: skip


def test_the_server_and_the_script(home: Path) -> None:
    settings = home / SETTINGS
    settings.parent.mkdir(parents=True)
    settings.write_text('{\n  "mcpServers": {"fs": {"command": "npx"}},\n  "x": 1\n}\n')
    exe = find_executable()
    assert cli.main(["install", "--client", "cline", "--min-words", "150"]) == 0
    value = json.loads(settings.read_text())
    assert value["mcpServers"] == {
        "fs": {"command": "npx"},
        "mdsel": {"command": exe, "args": ["serve"], "timeout": 60},
    }
    script = home / SCRIPT
    text = script.read_text()
    assert text.startswith("#!/bin/sh\n")
    assert text.endswith(
        f"command -v {exe} >/dev/null 2>&1 || exit 0\n"
        f"exec {exe} hook --client cline --min-words 150\n"
    )
    assert script.stat().st_mode & 0o111 == 0o111 & ~_umask()
    assert cline.parse(text) == (exe, 150, "reminder")
    # Installing again with other options replaces our script, and only it.
    assert cli.main(["install", "--client", "cline", "--mode", "outline"]) == 0
    assert script.read_text().endswith("--min-words 200 --mode outline\n")
    assert cli.main(["uninstall", "--client", "cline"]) == 0
    assert json.loads(settings.read_text()) == {"mcpServers": {"fs": {"command": "npx"}}, "x": 1}
    assert sorted(os.listdir(home)) in ([".cline"], [".cline", ".local"])


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@pytest.mark.parametrize(
    ("variable", "value", "where"),
    [
        ("CLINE_DIR", "alt", "alt/data/settings/cline_mcp_settings.json"),
        ("CLINE_DATA_DIR", "data", "data/settings/cline_mcp_settings.json"),
        ("CLINE_MCP_SETTINGS_PATH", "mcp.json", "mcp.json"),
    ],
)
def test_cline_s_variables_move_the_settings(
    home: Path, monkeypatch: pytest.MonkeyPatch, variable: str, value: str, where: str
) -> None:
    monkeypatch.setenv(variable, f"  {home / value}  ")  # Cline trims them
    assert cli.main(["install", "--client", "cline"]) == 0
    assert "mdsel" in json.loads((home / where).read_text())["mcpServers"]
    assert (home / SCRIPT).is_file()
    assert cli.main(["uninstall", "--client", "cline"]) == 0
    assert not (home / where).exists()


def test_a_script_of_the_user_s_own_is_never_touched(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = home / SCRIPT
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\necho '{}'\n")
    status, out = run(capsys, "install", "--client", "cline")
    assert status == 1
    assert f"{script} is a PostToolUse hook of your own" in out
    assert "~/.cline/hooks/PostToolUse" in out and "nothing was changed" in out
    assert script.read_text() == "#!/bin/sh\necho '{}'\n"
    assert not (home / ".cline").exists()  # refused before anything was written
    assert run(capsys, "uninstall", "--client", "cline")[0] == 0
    assert script.read_text() == "#!/bin/sh\necho '{}'\n"


def test_a_changed_script_stays_on_uninstall(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install", "--client", "cline"]) == 0
    script = home / SCRIPT
    script.write_text(script.read_text() + "# mine\n")
    status, out = run(capsys, "uninstall", "--client", "cline")
    assert status == 0 and f"left alone: {script} was changed since install wrote it" in out
    assert script.read_text().endswith("# mine\n")
    assert not (home / SETTINGS).exists()  # install made it: gone with our server


def test_the_script_runs_our_hook_and_is_silent_once_it_is_gone(tmp_path: Path, home: Path) -> None:
    (tmp_path / "guide.md").write_text("word " * 300)
    assert cli.main(["install", "--client", "cline"]) == 0
    script = home / SCRIPT

    def hook(text: str) -> subprocess.CompletedProcess[str]:
        script.write_text(text)
        return subprocess.run(
            ["sh", str(script)], input=payload(tmp_path, "guide.md"), capture_output=True,
            text=True, timeout=60, check=False, env={**os.environ, "PATH": "/usr/bin:/bin"},
        )  # fmt: skip

    ran = hook(script.read_text())
    assert ran.returncode == 0 and ran.stderr == ""
    assert "Use mdsel_index" in json.loads(ran.stdout)["contextModification"]
    # mdsel-claude uninstalled (pipx uninstall): the script says nothing and exits 0.
    gone = str(tmp_path / "gone" / "mdsel-claude")
    ran = hook(cline.render(cline.hook_argv(gone, 200)))
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, "", "")


def test_doctor(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "doctor", "--client", "cline")
    assert status == 1 and f"PostToolUse hook ({home / SCRIPT}): none" in out
    assert cli.main(["install", "--client", "cline"]) == 0
    other = Path.cwd() / ".clinerules" / "hooks" / "PostToolUse.sh"
    other.parent.mkdir(parents=True)
    other.write_text("exit 0\n")
    status, out = run(capsys, "doctor", "--client", "cline")
    assert f"PostToolUse hook ({home / SCRIPT}): ours, runs " in out
    assert f"PostToolUse hook ({other}): not ours; Cline runs it too" in out
    assert status == 0, out
    (home / SCRIPT).write_text("#!/bin/sh\n")
    status, out = run(capsys, "doctor", "--client", "cline")
    assert status == 1 and "not ours, not run: not a script install writes" in out
    assert "run `mdsel-claude install --client cline`" in out


def test_no_project_scope(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert CLIENTS["cline"].scopes == ("user",)
    status, out = run(capsys, "install", "--client", "cline", "--scope", "project")
    assert status == 1 and "Cline has no project scope: use --scope user" in out
    assert os.listdir(home) == [] and os.listdir(".") == []


def test_uninstall_all_takes_both(home: Path) -> None:
    assert cli.main(["install", "--client", "cline"]) == 0
    assert cli.main(["uninstall", "--all"]) == 0
    assert not (home / SETTINGS).exists() and not (home / SCRIPT).exists()
    assert sorted(os.listdir(home)) in ([], [".local"])
