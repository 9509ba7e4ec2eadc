"""Our plugin inside the real OpenCode: what reaches the model after a `read` or a `bash` call.

`opencode run` (the version pinned in tools/clients) runs against a stand-in Chat Completions
API on 127.0.0.1 (opencode_stub.py: a provider of type `@ai-sdk/openai-compatible`, which the
OpenCode binary carries inside it, given as `OPENCODE_CONFIG_CONTENT`) whose first answer calls
`read` (or `bash`) on a Markdown file; the request OpenCode sends next carries the tool's output
as the model is shown it. The plugin is written by the real `mdsel-claude install --client
opencode` in a temporary HOME (XDG folders inside it).

Nothing uses the network. OpenCode itself, whenever a configuration folder holds a plugin,
installs its `@opencode-ai/plugin` package there with npm before loading plugins; offline that
waits for npm's retries to fail (about 70 s per start, measured in a network namespace).
`npm_config_offline=true` makes that install fail at once (OpenCode goes on; our plugin needs no
package), so the runs stay offline and quick.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import mdsel
from tests.conftest import environ_without
from tests.e2e.opencode_stub import MODEL, Stub, chat_api, provider_config
from tests.e2e.test_claude_cli import client
from tests.e2e.test_claude_read_hook import body_lines, guide

REMINDER = (
    "This is a Markdown file over the configured size threshold.\n"
    "Use mdsel_index and mdsel_select instead of Read."
)
APPENDED = f"\n\n{REMINDER}"
"""How the plugin adds the reminder to a tool's output."""
PLUGIN = Path(".config", "opencode", "plugin", "mdsel-claude.js")
"""Where user-scope install writes the plugin, under HOME."""


@pytest.fixture(scope="module")
def opencode_cli() -> str:
    return client("opencode")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    if not (Path(sys.executable).parent / "mdsel-claude").exists():
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    project = tmp_path / "project"
    project.mkdir()
    (project / "guide.md").write_text(guide(), encoding="utf-8")
    (project / "small.md").write_text("# Notes\n\nA few words only.\n", encoding="utf-8")
    (tmp_path / "home").mkdir()
    return project


def environment(project: Path) -> dict[str, str]:
    env = environ_without("OPENCODE", "MDSEL_", "XDG_", "npm_config_", "NPM_CONFIG_")
    home = project.parent / "home"
    # A temporary directory of the test's own: the checkout (whose mdsel-claude is installed)
    # may itself lie in the system's, where setup would take it for short-lived.
    (project.parent / "tmp").mkdir(exist_ok=True)
    env.update(
        TMPDIR=str(project.parent / "tmp"),
        # `opencode run` takes its project from PWD (before the working directory).
        PWD=str(project),
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
        XDG_CACHE_HOME=str(home / ".cache"),
        PATH=os.pathsep.join([str(Path(sys.executable).parent), "/usr/bin", "/bin"]),
        OPENCODE_DISABLE_MODELS_FETCH="1",
        OPENCODE_DISABLE_AUTOUPDATE="1",
        OPENCODE_DISABLE_LSP_DOWNLOAD="1",
        npm_config_offline="true",
    )
    return env


def setup(
    project: Path, *args: str, extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`mdsel-claude *args` as the user would run it in the project (`extra`: more variables)."""
    return subprocess.run(
        ["mdsel-claude", *args],
        env={**environment(project), **(extra or {})},
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def install(project: Path, *args: str) -> None:
    done = setup(project, "install", "--client", "opencode", "--min-words", "200", *args)
    assert done.returncode == 0, done.stdout + done.stderr


def run_opencode(opencode_cli: str, project: Path, tool: str, **arguments: Any) -> Stub:
    """One `opencode run` turn whose model calls `tool` with `arguments`; the API traffic."""
    env = environment(project)
    with chat_api(tool, **arguments) as (url, stub):
        env["OPENCODE_CONFIG_CONTENT"] = json.dumps(provider_config(url))
        done = subprocess.run(
            [opencode_cli, "run", "--model", MODEL, "Read the document."],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    assert stub.tool_result(), f"the session never ran {tool}: {done.stderr[-2000:]}"
    return stub


def assert_whole_file(shown: str, document: Path) -> None:
    prose = body_lines(document)
    assert len(prose) > 20
    assert all(line in shown for line in prose)


def test_a_large_markdown_read_carries_the_reminder(opencode_cli: str, project: Path) -> None:
    install(project)
    guide_md = project / "guide.md"
    shown = run_opencode(opencode_cli, project, "read", filePath=str(guide_md)).tool_result()
    assert shown.endswith(APPENDED)
    assert shown.count(REMINDER) == 1
    assert_whole_file(shown, guide_md)


def test_a_small_markdown_read_carries_none(opencode_cli: str, project: Path) -> None:
    install(project)
    shown = run_opencode(opencode_cli, project, "read", filePath=str(project / "small.md"))
    assert "A few words only." in shown.tool_result()
    assert "Use mdsel_index" not in shown.tool_result()


def test_a_bash_cat_of_a_large_markdown_file_carries_the_reminder(
    opencode_cli: str, project: Path
) -> None:
    install(project)
    stub = run_opencode(opencode_cli, project, "bash", command="cat guide.md", description="Show")
    shown = stub.tool_result()
    assert shown.endswith(APPENDED)
    assert_whole_file(shown, project / "guide.md")


def test_outline_mode_shows_the_index_instead_of_the_file(opencode_cli: str, project: Path) -> None:
    install(project, "--mode", "outline")
    guide_md = project / "guide.md"
    shown = run_opencode(opencode_cli, project, "read", filePath=str(guide_md)).tool_result()
    index = mdsel.run_command("index", None, [str(guide_md)]).stdout
    assert shown == f"{index}{REMINDER}"
    assert not [line for line in body_lines(guide_md) if line in shown]


def test_outline_mode_leaves_a_partial_read_alone(opencode_cli: str, project: Path) -> None:
    install(project, "--mode", "outline")
    guide_md = project / "guide.md"
    stub = run_opencode(opencode_cli, project, "read", filePath=str(guide_md), offset=10, limit=5)
    shown = stub.tool_result()
    lines = guide_md.read_text(encoding="utf-8").splitlines()
    assert f"10: {lines[9]}" in shown
    assert f"14: {lines[13]}" in shown
    assert "Use mdsel_index" not in shown


def test_project_scope_runs_mdsel_claude_from_path(opencode_cli: str, project: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed (the project must be a repository)")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True, timeout=30)
    install(project, "--scope", "project")
    plugin = project / ".opencode" / "plugin" / "mdsel-claude.js"
    assert '["mdsel-claude", "hook", "--client", "opencode", "--min-words", "200"]' in (
        plugin.read_text(encoding="utf-8")
    )
    shown = run_opencode(opencode_cli, project, "read", filePath="guide.md").tool_result()
    assert shown.endswith(APPENDED)


def test_doctor_then_uninstall(opencode_cli: str, project: Path) -> None:
    install(project)
    plugin = project.parent / "home" / PLUGIN
    assert plugin.is_file()
    doctor = setup(project, "doctor", "--client", "opencode")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert f"plugin user ({plugin}): ours" in doctor.stdout
    assert "ok: reminder for 201 words of Markdown, silence for 200" in doctor.stdout

    removed = setup(project, "uninstall", "--client", "opencode")
    assert removed.returncode == 0, removed.stdout + removed.stderr
    assert not plugin.exists()
    shown = run_opencode(opencode_cli, project, "read", filePath=str(project / "guide.md"))
    assert "Use mdsel_index" not in shown.tool_result()


def debug_config(
    opencode_cli: str, project: Path, extra: dict[str, str] | None = None
) -> dict[str, Any]:
    """The configuration OpenCode itself resolves for the project (`opencode debug config`)."""
    done = subprocess.run(
        [opencode_cli, "debug", "config"],
        cwd=project,
        env={**environment(project), **(extra or {})},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    config: dict[str, Any] = json.loads(done.stdout)
    return config


def test_a_user_jsonc_overrides_our_entry_in_opencode_and_doctor_says_so(
    opencode_cli: str, project: Path
) -> None:
    """OpenCode reads `opencode.jsonc` after `opencode.json` and merges key by key: a hand-kept
    `mcp.mdsel.enabled: false` there turns our server off (as `opencode debug config` shows),
    which doctor must not call all good."""
    install(project)
    jsonc = project.parent / "home" / ".config" / "opencode" / "opencode.jsonc"
    jsonc.write_text('// by hand\n{"mcp": {"mdsel": {"enabled": false,},},}\n', encoding="utf-8")
    server = debug_config(opencode_cli, project)["mcp"]["mdsel"]
    assert server["enabled"] is False
    assert server["command"][1:] == ["serve"]  # the rest of our entry, merged under it
    doctor = setup(project, "doctor", "--client", "opencode")
    assert doctor.returncode == 1, doctor.stdout
    assert f"{jsonc} also sets mcp.mdsel" in doctor.stdout
    # The home folder's .opencode/ is read last of all: the same override from there.
    jsonc.unlink()
    last = project.parent / "home" / ".opencode" / "opencode.json"
    last.parent.mkdir()
    last.write_text('{"mcp": {"mdsel": {"enabled": false}}}', encoding="utf-8")
    assert debug_config(opencode_cli, project)["mcp"]["mdsel"]["enabled"] is False
    doctor = setup(project, "doctor", "--client", "opencode")
    assert doctor.returncode == 1 and f"{last} also sets mcp.mdsel" in doctor.stdout


def test_the_files_and_json_opencodes_variables_name_are_read_after_ours(
    opencode_cli: str, project: Path
) -> None:
    """OPENCODE_CONFIG (a file), OPENCODE_CONFIG_DIR (a folder) and OPENCODE_CONFIG_CONTENT
    (JSON) are each merged after the user's file: one that turns ours off does so in OpenCode,
    and doctor names it; without it, all good."""
    install(project)
    off = '{"mcp": {"mdsel": {"enabled": false}}}'
    custom = project.parent / "custom.json"
    custom.write_text(off, encoding="utf-8")
    folder = project.parent / "folder"
    folder.mkdir()
    (folder / "opencode.jsonc").write_text(off, encoding="utf-8")
    for extra, named in [
        ({"OPENCODE_CONFIG": str(custom)}, str(custom)),
        ({"OPENCODE_CONFIG_DIR": str(folder)}, str(folder / "opencode.jsonc")),
        ({"OPENCODE_CONFIG_CONTENT": off}, "OPENCODE_CONFIG_CONTENT (in the environment)"),
    ]:
        assert debug_config(opencode_cli, project, extra)["mcp"]["mdsel"]["enabled"] is False
        doctor = setup(project, "doctor", "--client", "opencode", extra=extra)
        assert doctor.returncode == 1, doctor.stdout
        assert f"{named} also sets mcp.mdsel" in doctor.stdout
    assert setup(project, "doctor", "--client", "opencode").returncode == 0
