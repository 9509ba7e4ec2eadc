"""OpenCode's files read after ours: an `mcp.mdsel` there overrides our entry, so install says
so, doctor fails on it, and uninstall leaves it alone (install did not write it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mdsel_claude.setup import cli
from mdsel_claude.setup.clients.opencode import merge_order

DISABLING = """// kept by hand
{
  "mcp": {
    "mdsel": {"enabled": false,}, /* turned off */
  },
}
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    status = cli.main(list(argv))
    got = capsys.readouterr()
    return status, got.out + got.err


@pytest.fixture
def config(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """OpenCode's user folder: `~/.config/opencode` (no XDG_CONFIG_HOME)."""
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    return home / ".config" / "opencode"


def test_the_order_opencode_reads_its_files_in() -> None:
    user, project = Path("/h/.config/opencode/opencode.json"), Path("/p")
    assert merge_order.later_files("user", user) == [user.with_name("opencode.jsonc")]
    assert merge_order.later_files("user", user, project) == [
        user.with_name("opencode.jsonc"),
        project / "opencode.jsonc",
        project / ".opencode" / "opencode.json",
        project / ".opencode" / "opencode.jsonc",
    ]
    assert merge_order.later_files("project", project / "opencode.json") == [
        project / "opencode.jsonc",
        project / ".opencode" / "opencode.json",
        project / ".opencode" / "opencode.jsonc",
    ]
    home = Path("/h")  # its .opencode/ last of all, over the project's too
    assert merge_order.later_files("project", project / "opencode.json", home=home)[-2:] == [
        home / ".opencode" / "opencode.json",
        home / ".opencode" / "opencode.jsonc",
    ]


def test_the_files_opencodes_variables_name_take_their_place_in_the_order() -> None:
    user, project, home = Path("/h/.config/opencode/opencode.json"), Path("/p"), Path("/h")
    environ = {"OPENCODE_CONFIG": "/c/custom.json", "OPENCODE_CONFIG_DIR": "/d"}
    assert merge_order.later_files("user", user, project, home, environ) == [
        user.with_name("opencode.jsonc"),
        Path("/c/custom.json"),  # after the user's files, before the project's
        project / "opencode.jsonc",
        project / ".opencode" / "opencode.json",
        project / ".opencode" / "opencode.jsonc",
        home / ".opencode" / "opencode.json",
        home / ".opencode" / "opencode.jsonc",
        Path("/d/opencode.json"),  # after the home folder's
        Path("/d/opencode.jsonc"),
    ]
    later = merge_order.later_files("project", project / "opencode.json", None, home, environ)
    assert Path("/c/custom.json") not in later  # read before the project's own file
    assert later[-2:] == [Path("/d/opencode.json"), Path("/d/opencode.jsonc")]
    # A variable that names our own file adds nothing.
    assert merge_order.later_files("user", user, environ={"OPENCODE_CONFIG": str(user)}) == [
        user.with_name("opencode.jsonc")
    ]


def test_opencode_config_content_that_sets_ours_is_named(
    config: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(capsys, "install", "--client", "opencode")[0] == 0
    assert run(capsys, "doctor", "--client", "opencode")[0] == 0
    monkeypatch.setenv("OPENCODE_CONFIG_CONTENT", '{"mcp": {"mdsel": {"enabled": false}}}')
    status, out = run(capsys, "doctor", "--client", "opencode")
    assert status == 1
    assert "OPENCODE_CONFIG_CONTENT (in the environment) also sets mcp.mdsel" in out
    status, out = run(capsys, "install", "--client", "opencode")
    assert status == 0 and "OPENCODE_CONFIG_CONTENT (in the environment) also sets" in out
    monkeypatch.setenv("OPENCODE_CONFIG_CONTENT", "{not json")
    status, out = run(capsys, "doctor", "--client", "opencode")
    assert "OPENCODE_CONFIG_CONTENT (in the environment): " in out and "could not be checked" in out
    monkeypatch.setenv("OPENCODE_CONFIG_CONTENT", '{"mcp": {"other": {}}}')
    assert run(capsys, "doctor", "--client", "opencode")[0] == 0


def test_a_custom_file_before_the_projects_does_not_override_a_project_install(
    config: Path,
    on_path: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    custom = config.parent / "custom.json"
    custom.parent.mkdir(parents=True, exist_ok=True)
    custom.write_text('{"mcp": {"mdsel": {"enabled": false}}}')
    monkeypatch.setenv("OPENCODE_CONFIG", str(custom))
    assert run(capsys, "install", "--client", "opencode", "--scope", "project")[0] == 0
    status, out = run(capsys, "doctor", "--client", "opencode")
    assert status == 0, out
    assert f"{custom} also sets" not in out


def test_a_user_jsonc_that_turns_ours_off_is_named_by_install_and_doctor(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config.mkdir(parents=True)
    jsonc = config / "opencode.jsonc"
    jsonc.write_text(DISABLING, encoding="utf-8")
    status, out = run(capsys, "install", "--client", "opencode")
    assert status == 0
    assert (
        f"{jsonc} also sets mcp.mdsel, and OpenCode reads it after {config / 'opencode.json'}"
        in out
    )
    assert json.loads((config / "opencode.json").read_text())["mcp"]["mdsel"]["enabled"] is True
    status, out = run(capsys, "doctor", "--client", "opencode")
    assert status == 1, out
    assert f"{jsonc} also sets mcp.mdsel" in out and "overrides our entry" in out
    status, out = run(capsys, "uninstall", "--client", "opencode")
    assert status == 0
    assert f"left alone in {jsonc}: mcp.mdsel — install did not write it" in out
    assert jsonc.read_text(encoding="utf-8") == DISABLING


def test_a_jsonc_without_our_server_changes_nothing(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config.mkdir(parents=True)
    (config / "opencode.jsonc").write_text('{"mcp": {"other": {}}, // theirs\n}', "utf-8")
    status, out = run(capsys, "install", "--client", "opencode")
    assert status == 0 and "also sets mcp.mdsel" not in out
    status, out = run(capsys, "doctor", "--client", "opencode")
    assert status == 0, out
    assert "opencode.jsonc" not in out


@pytest.mark.parametrize("later", ["opencode.jsonc", ".opencode/opencode.json"])
def test_doctor_fails_on_a_project_file_over_a_user_install(
    config: Path, later: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (Path.cwd() / ".git").mkdir()
    assert run(capsys, "install", "--client", "opencode")[0] == 0
    file = Path.cwd() / later
    file.parent.mkdir(exist_ok=True)
    file.write_text('{"mcp": {"mdsel": {"type": "remote", "url": "http://x"}}}', "utf-8")
    status, out = run(capsys, "doctor", "--client", "opencode")
    assert status == 1, out
    assert (
        f"{file} also sets mcp.mdsel, and OpenCode reads it after {config / 'opencode.json'}" in out
    )


def test_a_project_install_is_overridden_by_the_projects_dot_opencode(
    on_path: str, config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (Path.cwd() / ".git").mkdir()
    later = Path.cwd() / ".opencode" / "opencode.jsonc"
    later.parent.mkdir()
    later.write_text(DISABLING, encoding="utf-8")
    status, out = run(capsys, "install", "--client", "opencode", "--scope", "project")
    assert status == 0
    assert f"{later} also sets mcp.mdsel" in out
    status, out = run(capsys, "doctor", "--client", "opencode")
    assert status == 1, out
    assert (
        f"{later} also sets mcp.mdsel, and OpenCode reads it after {Path.cwd() / 'opencode.json'}"
        in out
    )


def test_the_home_folders_dot_opencode_overrides_a_user_install(
    config: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "install", "--client", "opencode")[0] == 0
    last = home / ".opencode" / "opencode.json"
    last.parent.mkdir()
    last.write_text('{"mcp": {"mdsel": {"enabled": false}}}', "utf-8")
    status, out = run(capsys, "doctor", "--client", "opencode")
    assert status == 1, out
    assert f"{last} also sets mcp.mdsel, and OpenCode reads it after" in out


def test_an_unreadable_later_file_is_named_without_failing(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config.mkdir(parents=True)
    jsonc = config / "opencode.jsonc"
    jsonc.write_text('{"mcp": {} /* never closed', encoding="utf-8")
    status, out = run(capsys, "install", "--client", "opencode")
    assert status == 0
    assert f"{jsonc}: a /* comment on line 1 is never closed; whether it sets mcp.mdsel" in out
    status, out = run(capsys, "doctor", "--client", "opencode")
    assert status == 0, out
    assert "could not be checked" in out
