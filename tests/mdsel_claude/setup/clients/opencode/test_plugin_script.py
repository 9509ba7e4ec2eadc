"""`install --client opencode` writes our OpenCode plugin beside the server; uninstall,
`uninstall --all` and doctor know it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from mdsel_claude.setup import cli, whole_files
from mdsel_claude.setup.clients.opencode import plugin_script
from mdsel_claude.setup.program import find_executable

COMMAND_LINE = "const COMMAND = {};"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = cli.main(list(argv))
    got = capsys.readouterr()
    return status, got.out, got.err


@pytest.fixture
def config(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """OpenCode's user folder: `~/.config/opencode` (no XDG_CONFIG_HOME)."""
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    return home / ".config" / "opencode"


def plugin_of(folder: Path) -> Path:
    return folder / "plugin" / "mdsel-claude.js"


def command(exe: str, *tail: str) -> list[str]:
    return [exe, "hook", "--client", "opencode", "--min-words", *(tail or ("200",))]


def record(home: Path) -> dict[str, object]:
    path = home / ".local" / "state" / "mdsel-claude" / "installed.json"
    files = json.loads(path.read_text())["files"]
    assert isinstance(files, dict)
    return files


def test_install_writes_the_plugin_and_uninstall_removes_everything(
    config: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exe = find_executable()
    status, out, _ = run(capsys, "install", "--client", "opencode")
    assert status == 0
    assert "OpenCode plugin →" in out and "doctor --client opencode" in out
    text = plugin_of(config).read_text(encoding="utf-8")
    assert COMMAND_LINE.format(json.dumps(command(exe))) in text.splitlines()
    assert text == plugin_script.render(command(exe))
    server = json.loads((config / "opencode.json").read_text())["mcp"]["mdsel"]
    assert server["command"] == [exe, "serve"]
    written = record(home)[str(plugin_of(config))]
    assert written["written"] == [  # type: ignore[index]
        {
            "at": ["(whole file)"],
            "hook": False,
            "value": {"sha256": whole_files.digest(text.encode())},
        }
    ]
    status, out, _ = run(capsys, "uninstall", "--client", "opencode")
    assert status == 0
    assert f"deleted {plugin_of(config)}" in out
    assert "nothing of mdsel-claude is installed" not in out
    assert not (home / ".config").exists()


def test_install_again_bakes_in_the_new_threshold_and_mode(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exe = find_executable()
    assert run(capsys, "install", "--client", "opencode")[0] == 0
    assert (
        run(capsys, "install", "--client", "opencode", "--min-words", "50", "--mode", "outline")[0]
        == 0
    )
    text = plugin_of(config).read_text(encoding="utf-8")
    assert plugin_script.parse(text) == (exe, 50, "outline")
    assert command(exe, "50", "--mode", "outline") == json.loads(
        text.split("const COMMAND = ", 1)[1].split(";", 1)[0]
    )
    assert sorted(os.listdir(plugin_of(config).parent)) == ["mdsel-claude.js"]


def test_threshold_default_is_mdsel_min_words(
    config: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MDSEL_MIN_WORDS", "321")
    assert run(capsys, "install", "--client", "opencode")[0] == 0
    parsed = plugin_script.parse(plugin_of(config).read_text(encoding="utf-8"))
    assert parsed == (find_executable(), 321, "reminder")


def test_xdg_config_home_is_honoured(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert run(capsys, "install", "--client", "opencode")[0] == 0
    assert plugin_of(tmp_path / "xdg" / "opencode").is_file()
    assert not (home / ".config").exists()
    assert run(capsys, "uninstall", "--client", "opencode")[0] == 0
    assert not (tmp_path / "xdg").exists()


def test_project_scope_runs_the_bare_name(
    on_path: str, config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = Path.cwd()
    (root / ".git").mkdir()
    assert run(capsys, "install", "--client", "opencode", "--scope", "project")[0] == 0
    text = plugin_of(root / ".opencode").read_text(encoding="utf-8")
    assert plugin_script.parse(text) == ("mdsel-claude", 200, "reminder")
    assert not config.exists()
    assert run(capsys, "uninstall", "--client", "opencode", "--scope", "project")[0] == 0
    assert sorted(os.listdir(root)) == [".git"]


def test_a_folder_opencode_filled_stays(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # OpenCode installs its own plugin package into the folder on start: that is not ours.
    assert run(capsys, "install", "--client", "opencode")[0] == 0
    (config / "package.json").write_text("{}")
    status, out, _ = run(capsys, "uninstall", "--client", "opencode")
    assert status == 0
    assert not plugin_of(config).parent.exists()
    assert sorted(os.listdir(config)) == ["package.json"]
    assert f"removed empty directory {plugin_of(config).parent}" in out


def test_a_file_install_did_not_write_is_refused_before_anything(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plugin = plugin_of(config)
    plugin.parent.mkdir(parents=True)
    plugin.write_text("export const Mine = async () => ({});\n")
    status, _, err = run(capsys, "install", "--client", "opencode")
    assert status == 1
    assert f"left alone: {plugin} exists and mdsel-claude did not write it" in err
    assert plugin.read_text() == "export const Mine = async () => ({});\n"
    assert not (config / "opencode.json").exists()


def test_a_plugin_changed_since_install_is_named_and_left(
    config: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "install", "--client", "opencode")[0] == 0
    plugin = plugin_of(config)
    plugin.write_text(plugin.read_text() + "// mine now\n")
    status, out, _ = run(capsys, "uninstall", "--client", "opencode")
    assert status == 0
    assert f"left alone: {plugin} was changed since install wrote it" in out
    assert plugin.read_text().endswith("// mine now\n")
    assert not (config / "opencode.json").exists()
    # Forgotten by the record: a later install does not take the user's file over.
    assert run(capsys, "install", "--client", "opencode")[0] == 1


def test_uninstall_all_removes_the_plugin(
    config: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "install", "--client", "opencode", "--mode", "outline")[0] == 0
    status, out, _ = run(capsys, "uninstall", "--all")
    assert status == 0, out
    assert not plugin_of(config).exists()
    assert not (home / ".config").exists()


def test_dry_run_shows_both_files_and_writes_nothing(
    config: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "install", "--client", "opencode", "--dry-run")
    assert status == 0
    assert f"would create {config / 'opencode.json'}" in out
    assert f"would create {plugin_of(config)}: OpenCode plugin →" in out
    assert out.count(f"would create directory {config}\n") == 1
    assert not (home / ".config").exists()


def test_doctor_checks_the_plugin_and_runs_its_hook(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "install", "--client", "opencode")[0] == 0
    status, out, _ = run(capsys, "doctor", "--client", "opencode")
    assert status == 0, out
    assert f"plugin user ({plugin_of(config)}): ours, runs " in out
    assert "ok: reminder for 201 words of Markdown, silence for 200" in out


def test_doctor_fails_without_the_plugin(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "install", "--client", "opencode")[0] == 0
    plugin_of(config).write_text("// emptied\n")
    status, out, _ = run(capsys, "doctor", "--client", "opencode")
    assert status == 1
    assert "not ours, not run: not a plugin install writes" in out
    assert "no plugin of this installation: run `mdsel-claude install --client opencode`" in out


def test_doctor_names_a_plugin_in_both_scopes(
    on_path: str, config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (Path.cwd() / ".git").mkdir()
    assert run(capsys, "install", "--client", "opencode")[0] == 0
    assert run(capsys, "install", "--client", "opencode", "--scope", "project")[0] == 0
    status, out, _ = run(capsys, "doctor", "--client", "opencode")
    assert status == 1
    assert "the reminder would come twice" in out


WEIRD_PATHS = [
    "/opt/mdsel claude/bin/mdsel-claude",
    '/home/o"brien/bin/mdsel-claude',
    "/home/x/back\\slash/mdsel-claude",
    "/home/jörg/bin/mdsel-claude",
    "/home/x/line\u2028sep/mdsel-claude",
    "/home/x/*/ ;`$(rm -rf ~)`/mdsel-claude",
]


@pytest.mark.parametrize("exe", WEIRD_PATHS)
@pytest.mark.parametrize("mode", ["reminder", "outline"])
def test_render_and_parse_round_trip(exe: str, mode: str) -> None:
    text = plugin_script.render(plugin_script.hook_command(exe, 7, mode))
    assert text.isascii()
    assert plugin_script.parse(text) == (exe, 7, mode)


@pytest.mark.parametrize(
    "edit",
    [
        lambda t: t + "\n",
        lambda t: t.replace('"--min-words", "7"', '"--min-words", "x"'),
        lambda t: t.replace('"--client", "opencode"', '"--client", "claude"'),
        lambda t: t.replace("const COMMAND = ", "const COMMAND  = "),
        lambda t: t.replace('"bash"', '"bash", "write"'),
        lambda t: t.replace("const COMMAND = [", "const COMMAND = [[").replace("];", "]];", 1),
        lambda t: "",
    ],
)
def test_parse_refuses_anything_else(edit: object) -> None:
    text = plugin_script.render(plugin_script.hook_command("/x/mdsel-claude", 7))
    assert callable(edit)
    assert plugin_script.parse(edit(text)) is None


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("exe", WEIRD_PATHS)
def test_the_plugin_is_valid_javascript_with_one_function_export(exe: str, tmp_path: Path) -> None:
    # OpenCode imports the file as a module and calls every export as a plugin.
    plugin = tmp_path / "mdsel-claude.mjs"
    plugin.write_text(plugin_script.render(plugin_script.hook_command(exe, 200)))
    probe = (
        f"const m = await import({json.dumps(plugin.as_uri())});"
        "const hooks = await Object.values(m)[0]({ directory: '/' });"
        "console.log(JSON.stringify([Object.keys(m), typeof Object.values(m)[0],"
        " Object.keys(hooks)]));"
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", probe],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [["MdselClaude"], "function", ["tool.execute.after"]]


def test_a_plugin_of_install_form_is_taken_over_when_the_record_is_lost(
    config: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "install", "--client", "opencode")[0] == 0
    (home / ".local" / "state" / "mdsel-claude" / "installed.json").unlink()
    status, _, _ = run(capsys, "install", "--client", "opencode", "--min-words", "300")
    assert status == 0
    assert '"--min-words", "300"' in plugin_of(config).read_text(encoding="utf-8")
    assert run(capsys, "uninstall", "--client", "opencode")[0] == 0
    assert not plugin_of(config).exists()


def test_a_plugin_written_by_hand_exactly_as_ours_stays_the_users(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exe = find_executable()
    text = plugin_script.render(command(exe))
    plugin_of(config).parent.mkdir(parents=True)
    plugin_of(config).write_text(text, encoding="utf-8")
    status, out, _ = run(capsys, "install", "--client", "opencode")
    assert status == 0
    assert f"unchanged {plugin_of(config)}: OpenCode plugin →" in out
    assert "it stays yours (uninstall leaves it)" in out
    assert run(capsys, "uninstall", "--client", "opencode")[0] == 0
    assert plugin_of(config).read_text(encoding="utf-8") == text  # the server alone went
    assert not (config / "opencode.json").exists()
