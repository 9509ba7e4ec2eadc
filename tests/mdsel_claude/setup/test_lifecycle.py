"""Removal, upgrade and checks beyond one scope: `uninstall --all`, `doctor --all|--client|
--plugin`, a missing record, a program that is gone, duplicates, short-lived executables."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mdsel_claude import dir_lock, provision_state
from mdsel_claude.setup import cli, entries, ownership
from mdsel_claude.setup.clients import CLIENTS
from mdsel_claude.setup.program import find_executable, passing_place
from tests.mdsel_claude.setup.conftest import claude_json


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = cli.main(list(argv))
    got = capsys.readouterr()
    return status, got.out, got.err


def fake_install(folder: Path) -> Path:
    """An `mdsel-claude` in `folder` that is this installation under another name (a link),
    as pipx or a second venv would put it: deleting it is `pipx uninstall`."""
    folder.mkdir(parents=True)
    link = folder / "mdsel-claude"
    link.symlink_to(find_executable())
    return link


def run_exe(
    exe: Path, cwd: Path, env: dict[str, str], *argv: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(exe), *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip


# -- item: removal that leaves nothing broken ------------------------------------------------


def test_uninstall_all_after_the_program_is_gone(tmp_path: Path, home: Path) -> None:
    """Install with one mdsel-claude in two projects, user scope and Gemini CLI; that one is
    removed (`pipx uninstall`); another installation's doctor names the broken entries and
    the fix, and its `uninstall --all` removes every one, in every project and client."""
    old = fake_install(tmp_path / "old-venv" / "bin")
    env = {**os.environ, "HOME": str(home), "PATH": "/usr/bin:/bin"}
    projects = [tmp_path / "p1", tmp_path / "p2"]
    for project in projects:
        project.mkdir()
        (project / ".claude").mkdir()
        (project / ".claude" / "settings.local.json").write_text('{"model": "x"}\n')
        done = run_exe(old, project, env, "install")
        assert done.returncode == 0, done.stderr
    assert run_exe(old, tmp_path, env, "install", "--client", "gemini").returncode == 0
    assert (
        run_exe(old, tmp_path, env, "install", "--scope", "user", "--allow-duplicate").returncode
        == 0
    )
    old.unlink()
    new = find_executable()

    doctor = run_exe(Path(new), projects[0], env, "doctor")
    assert doctor.returncode == 1
    assert f"runs {old}, which no longer exists" in doctor.stdout
    assert "`mdsel-claude uninstall` removes it (or `uninstall --all`" in doctor.stdout
    everywhere = run_exe(Path(new), tmp_path, env, "doctor", "--all")
    assert everywhere.returncode == 1
    # Two projects (server and hook each), user scope (both), and Gemini CLI's (both).
    assert everywhere.stdout.count("which no longer exists") == 8, everywhere.stdout
    assert "mdsel-claude uninstall --all" in everywhere.stdout

    dry = run_exe(Path(new), tmp_path, env, "uninstall", "--all", "--dry-run")
    assert dry.returncode == 0 and "would update" in dry.stdout
    assert "mdsel-claude" in (home / ".claude.json").read_text()
    removed = run_exe(Path(new), tmp_path, env, "uninstall", "--all")
    assert removed.returncode == 0, removed.stderr
    for project in projects:
        assert (project / ".claude" / "settings.local.json").read_text() == '{"model": "x"}\n'
    assert not (home / ".claude.json").exists()
    assert not (home / ".gemini").exists() and not (home / ".claude").exists()
    assert not (home / ".local" / "state" / "mdsel-claude").exists()
    after = run_exe(Path(new), tmp_path, env, "doctor", "--all")
    assert after.returncode == 0 and "it lists nothing" in after.stdout


def test_uninstall_all_says_what_it_could_not_find(
    on_path: str, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install"]) == 0
    assert cli.main(["install", "--client", "cursor"]) == 0
    Path(".claude/settings.local.json").write_text('{"hooks": {}, "model": "x"}')  # by hand
    os.remove(home / ".cursor" / "mcp.json")
    status, out, _ = run(capsys, "uninstall", "--all")
    assert status == 0
    assert "not found: PreToolUse hook" in out and "(removed or changed since install)" in out
    assert f"not found: {home / '.cursor' / 'mcp.json'} (recorded by install; gone already)" in out
    assert claude_json(home) is None  # the server in ~/.claude.json went
    # The "hooks" object install created goes with it, now empty; the rest stays.
    assert json.loads(Path(".claude/settings.local.json").read_text()) == {"model": "x"}


def test_uninstall_all_keeps_going_past_a_bad_file(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install"]) == 0
    assert cli.main(["install", "--client", "gemini"]) == 0
    Path(".claude/settings.local.json").write_text("{broken")
    status, _, err = run(capsys, "uninstall", "--all")
    assert status == 1
    assert "settings.local.json: not valid JSON" in err and "stays in the record" in err
    assert not (home / ".gemini").exists()  # the other files were done
    assert Path(".claude/settings.local.json").read_text() == "{broken"
    Path(".claude/settings.local.json").write_text("{}")
    assert run(capsys, "uninstall", "--all")[0] == 0
    assert not (home / ".local" / "state" / "mdsel-claude").exists()


def test_uninstall_all_refuses_a_scope(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["uninstall", "--all", "--scope", "user"])
    assert exited.value.code == 2


@pytest.mark.parametrize("scope", ["local", "user", "project"])
def test_a_missing_record_never_passes_for_success(
    on_path: str,
    home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    scope: str,
) -> None:
    """Installed with one XDG_STATE_HOME, uninstalled with another: the entries doctor calls
    ours stay (the record is what says what install wrote), and uninstall fails naming them
    and the fix; that fix then works."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state-a"))
    assert cli.main(["install", "--scope", scope]) == 0
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state-b"))
    status, _, err = run(capsys, "uninstall", "--scope", scope)
    assert status == 1
    assert "does not list them: MCP server 'mdsel' in" in err
    assert "hook" in err and "install did not write it: delete it by hand" in err
    assert "another XDG_STATE_HOME" in err
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state-a"))
    assert run(capsys, "uninstall", "--scope", scope)[0] == 0
    assert claude_json(home) is None and os.listdir(".") == []


def test_entries_written_by_hand_exactly_as_install_writes_them_stay_the_users(
    on_path: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server and a hook the user wrote, identical to install's: install leaves them and
    does not note them, so uninstall deletes neither (and says they are still there)."""
    group = {"matcher": "Read|Bash", "hooks": [entries.hook_entry(on_path, 200)]}
    Path(".claude").mkdir()
    settings = json.dumps({"hooks": {"PreToolUse": [group]}}, indent=2) + "\n"
    Path(".claude/settings.local.json").write_text(settings)
    project = str(Path.cwd().resolve())
    server = {"projects": {project: {"mcpServers": {"mdsel": entries.server_entry(on_path)}}}}
    (home / ".claude.json").write_text(json.dumps(server))
    status, out, _ = run(capsys, "install")
    assert status == 0
    assert out.count("it stays yours (uninstall leaves it)") == 2
    assert Path(".claude/settings.local.json").read_text() == settings
    assert (home / ".claude.json").read_text() == json.dumps(server)
    status, _, err = run(capsys, "uninstall")
    assert status == 1 and "install did not write it: delete it by hand" in err
    assert Path(".claude/settings.local.json").read_text() == settings
    assert (home / ".claude.json").read_text() == json.dumps(server)


@pytest.mark.parametrize("twins", [("PostToolUse", "PostToolUseFailure"), ("PostToolUseFailure",)])
def test_a_hand_written_twin_of_the_failure_hook_stays_the_users(
    on_path: str, home: Path, capsys: pytest.CaptureFixture[str], twins: tuple[str, ...]
) -> None:
    """Ours are known by their value, and at PostToolUse install writes the same hook twice
    (on PostToolUseFailure too): beside a twin written by hand under either, it writes neither,
    so that uninstall, removing by value, never takes the user's."""
    hook = entries.hook_entry(on_path, 200, "outline")
    matchers = {"PostToolUse": "Read|Bash", "PostToolUseFailure": "Read"}
    written = {event: [{"matcher": matchers[event], "hooks": [hook]}] for event in twins}
    Path(".claude").mkdir()
    settings = json.dumps({"hooks": written}, indent=2) + "\n"
    Path(".claude/settings.local.json").write_text(settings)
    status, out, _ = run(capsys, "install", "--mode", "outline")
    assert status == 0 and "it stays yours (uninstall leaves it)" in out
    assert Path(".claude/settings.local.json").read_text() == settings
    assert run(capsys, "uninstall")[0] == 1  # still there, as uninstall says
    assert Path(".claude/settings.local.json").read_text() == settings


def test_outline_mode_installs_and_uninstalls_both_hooks_exactly(
    on_path: str, capsys: pytest.CaptureFixture[str]
) -> None:
    Path(".claude").mkdir()
    theirs = {
        "hooks": {
            "PostToolUseFailure": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "log"}]}
            ]
        }
    }
    original = json.dumps(theirs, indent=4) + "\n"
    Path(".claude/settings.local.json").write_text(original)
    assert run(capsys, "install", "--mode", "outline")[0] == 0
    first = Path(".claude/settings.local.json").read_bytes()
    hooks = json.loads(first)["hooks"]
    assert [g["matcher"] for g in hooks["PostToolUseFailure"]] == ["Bash", "Read"]
    assert run(capsys, "install", "--mode", "outline")[0] == 0  # idempotent
    assert Path(".claude/settings.local.json").read_bytes() == first
    assert run(capsys, "uninstall")[0] == 0
    assert Path(".claude/settings.local.json").read_text() == original


def test_a_missing_record_and_a_program_gone(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gone = str(tmp_path / "gone" / "mdsel-claude")
    Path(".claude").mkdir()
    group = {"matcher": "Read", "hooks": [entries.hook_entry(gone, 200)]}
    Path(".claude/settings.local.json").write_text(json.dumps({"hooks": {"PreToolUse": [group]}}))
    status, _, err = run(capsys, "uninstall")
    assert status == 1
    assert f"its program {gone} no longer exists; delete the entry by hand" in err
    # A look-alike (not install's exact form) is named but never makes uninstall fail.
    group["hooks"] = [{"type": "command", "command": f"{gone} hook | tee log"}]
    Path(".claude/settings.local.json").write_text(json.dumps({"hooks": {"PreToolUse": [group]}}))
    status, out, _ = run(capsys, "uninstall")
    assert status == 0 and "left alone in" in out


def test_reinstall_replaces_entries_whose_program_is_recorded(tmp_path: Path, home: Path) -> None:
    """Upgrade by moving: install with a new mdsel-claude replaces the recorded old entries."""
    old = fake_install(tmp_path / "old" / "bin")
    env = {**os.environ, "HOME": str(home), "PATH": "/usr/bin:/bin"}
    project = Path.cwd()
    assert run_exe(old, project, env, "install").returncode == 0
    old.unlink()
    assert run_exe(Path(find_executable()), project, env, "install").returncode == 0
    text = Path(".claude/settings.local.json").read_text()
    assert str(old) not in text and text.count("mdsel-claude hook") == 1
    assert str(old) not in (home / ".claude.json").read_text()


# -- item: teammates without the tool; duplicates ------------------------------------------


def test_project_hook_is_silent_where_mdsel_claude_is_missing(on_path: str, home: Path) -> None:
    assert cli.main(["install", "--scope", "project"]) == 0
    settings = json.loads(Path(".claude/settings.json").read_text())
    command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    assert command == (
        "sh -c 'command -v mdsel-claude >/dev/null 2>&1 || exit 0; "
        "exec mdsel-claude hook --min-words 200'"
    )
    big = Path("big.md")
    big.write_text("word " * 300)
    read = {"file_path": str(big.resolve())}
    payload = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": read})
    for path, reminds in (
        (os.path.dirname(on_path) + ":/usr/bin:/bin", True),
        ("/usr/bin:/bin", False),
    ):
        done = subprocess.run(
            ["/bin/sh", "-c", command], input=payload, capture_output=True, text=True,
            env={"PATH": path}, timeout=30, check=False,
        )  # fmt: skip
        assert done.returncode == 0 and done.stderr == ""
        assert ("mdsel_index" in done.stdout) is reminds
    # doctor calls it ours and runs it; uninstall removes it, as the old bare form before it.
    me = ownership.this_installation()
    assert ownership.judge_hook(command, me, os.environ).args == ("hook", "--min-words", "200")
    big.unlink()
    assert cli.main(["uninstall", "--scope", "project"]) == 0
    assert os.listdir(".") == []


def test_the_bare_project_hook_of_earlier_installs_is_still_ours(on_path: str, home: Path) -> None:
    value = {"type": "command", "command": "mdsel-claude hook --min-words 200"}
    assert entries.is_install_form(value, "mdsel-claude")
    Path(".claude").mkdir()
    group = {"matcher": "Read", "hooks": [value]}
    Path(".claude/settings.json").write_text(json.dumps({"hooks": {"PreToolUse": [group]}}))
    assert cli.main(["install", "--scope", "project"]) == 0  # replaced, not doubled
    text = Path(".claude/settings.json").read_text()
    assert text.count("mdsel-claude hook") == 1 and "sh -c" in text


@pytest.mark.parametrize(("first", "second"), [("local", "project"), ("project", "user")])
def test_install_refuses_a_second_scope(
    on_path: str, home: Path, capsys: pytest.CaptureFixture[str], first: str, second: str
) -> None:
    assert cli.main(["install", "--scope", first]) == 0
    before = {p: p.read_bytes() for p in Path(".").rglob("*") if p.is_file()}
    status, _, err = run(capsys, "install", "--scope", second)
    assert status == 1
    assert f"MCP server 'mdsel' in {first} scope" in err
    assert f"`mdsel-claude uninstall --scope {first}`" in err and "--allow-duplicate" in err
    assert {p: p.read_bytes() for p in Path(".").rglob("*") if p.is_file()} == before
    assert run(capsys, "install", "--scope", first)[0] == 0  # the same scope: an update
    assert run(capsys, "uninstall", "--scope", first)[0] == 0
    assert run(capsys, "install", "--scope", second)[0] == 0


def test_install_again_refuses_beside_our_hook_changed_by_hand(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A `timeout` added to our hook makes it the user's: install neither drops the change
    nor adds a second hook (the reminder twice) unless --allow-duplicate says so."""
    assert cli.main(["install"]) == 0
    settings = Path(".claude", "settings.local.json")
    value = json.loads(settings.read_text())
    value["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] = 30
    settings.write_text(json.dumps(value))
    before = settings.read_bytes()
    status, _, err = run(capsys, "install")
    assert status == 1
    assert "runs mdsel-claude's hook, with timeout added" in err and "--allow-duplicate" in err
    assert settings.read_bytes() == before
    assert run(capsys, "install", "--allow-duplicate")[0] == 0
    hooks = json.loads(settings.read_text())["hooks"]["PreToolUse"]
    assert [group["hooks"][0].get("timeout") for group in hooks] == [30, None]


def test_install_refuses_beside_the_enabled_plugin(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plugin_copy = plant_plugin(home)
    status, _, err = run(capsys, "install")
    assert status == 1 and "plugin mdsel-claude@market" in err
    assert "`claude plugin uninstall mdsel-claude@market`" in err
    assert plugin_copy.is_dir()


# -- item: short-lived executables ----------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "environ", "place"),
    [
        ("/tmp/tmpab12/bin/mdsel-claude", {}, "the temporary directory"),
        ("/home/me/.cache/uv/archive-v0/x/bin/mdsel-claude", {}, "the user's cache"),
        (
            "/srv/uvcache/archive-v0/x/bin/mdsel-claude",
            {"UV_CACHE_DIR": "/srv/uvcache"},
            "$UV_CACHE_DIR",
        ),
        ("/home/me/.local/pipx/.cache/ab12/bin/mdsel-claude", {}, "pipx's `pipx run` cache"),
        ("/home/me/.local/share/pipx/.cache/ab12/bin/mdsel-claude", {}, "`pipx run`"),
        ("/c/xdg/uv/x/bin/mdsel-claude", {"XDG_CACHE_HOME": "/c/xdg"}, "the user's cache"),
        ("/home/me/.local/bin/mdsel-claude", {}, None),
        ("/home/me/.local/pipx/venvs/mdsel-claude/bin/mdsel-claude", {}, None),
        ("/home/me/.local/share/uv/tools/mdsel-claude/bin/mdsel-claude", {}, None),
        ("/home/me/project/.venv/bin/mdsel-claude", {}, None),
        ("/tmpfoo/bin/mdsel-claude", {}, None),
    ],
)
def test_passing_places(path: str, environ: dict[str, str], place: str | None) -> None:
    found = passing_place(path, {"HOME": "/home/me", **environ})
    assert (found is None) if place is None else (found is not None and place in found)


def test_a_link_into_a_cache_is_short_lived(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    fake_install(cache / "env" / "bin")
    durable = tmp_path / "durable" / "bin"
    durable.mkdir(parents=True)
    (durable / "mdsel-claude").symlink_to(cache / "env" / "bin" / "mdsel-claude")
    environ = {"HOME": "/home/me", "UV_CACHE_DIR": str(cache)}
    assert passing_place(str(durable / "mdsel-claude"), environ) is not None


def test_install_warns_and_project_scope_refuses(tmp_path: Path, home: Path) -> None:
    uvx = fake_install(home / ".cache" / "uv" / "archive-v0" / "x" / "bin")
    env = {**os.environ, "HOME": str(home), "PATH": f"{uvx.parent}:/usr/bin:/bin"}
    env.pop("XDG_CACHE_HOME", None)
    project = Path.cwd()
    done = run_exe(uvx, project, env, "install")
    assert done.returncode == 0
    assert "warning:" in done.stderr and f"{uvx} is inside" in done.stderr
    assert "`pipx install .` (or `uv tool install .`) in a checkout of mdsel-claude" in done.stderr
    assert run_exe(uvx, project, env, "uninstall").returncode == 0
    refused = run_exe(uvx, project, env, "install", "--scope", "project")
    assert refused.returncode == 1 and "will not stay" in refused.stderr
    assert "`pipx install .`" in refused.stderr and os.listdir(project) == []
    client = run_exe(uvx, project, env, "install", "--client", "cursor")
    assert client.returncode == 0 and "warning:" in client.stderr


# -- item: doctor for every client, and for the plugin ---------------------------------------


@pytest.mark.parametrize("name", sorted(CLIENTS))
def test_doctor_client(
    name: str, tmp_path: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "doctor", "--client", name)
    assert status == 1 and "no MCP server of this installation is registered" in out
    assert f"`mdsel-claude install --client {name}`" in out
    assert run(capsys, "install", "--client", name)[0] == 0
    status, out, _ = run(capsys, "doctor", "--client", name)
    assert "MCP server 'mdsel' user (" in out and ": ours, runs " in out
    assert "ok: answers initialize" in out
    assert status == 0, out
    assert run(capsys, "uninstall", "--client", name)[0] == 0

    old = fake_install(tmp_path / "old" / "bin")
    env = {**os.environ, "HOME": str(home), "PATH": "/usr/bin:/bin"}
    assert run_exe(old, Path.cwd(), env, "install", "--client", name).returncode == 0
    old.unlink()
    status, out, _ = run(capsys, "doctor", "--client", name)
    assert status == 1 and f"runs {old}, which no longer exists" in out
    assert f"`mdsel-claude install --client {name}`" in out


def plant_plugin(home: Path, provisioned: bool = False) -> Path:
    """The plugin as Claude Code installs and enables it: its files in the plugin cache,
    recorded in installed_plugins.json, enabled in the user's settings."""
    root = Path(__file__).resolve().parents[3]
    source = root / "plugin" if (root / "plugin" / "hooks").is_dir() else root
    plugins = home / ".claude" / "plugins"
    copy = plugins / "cache" / "market" / "mdsel-claude" / "0.1.0"
    (copy / "hooks").mkdir(parents=True, exist_ok=True)
    (copy / "hooks" / "hooks.json").write_bytes((source / "hooks" / "hooks.json").read_bytes())
    mcp = source / ".mcp.json" if (source / ".mcp.json").exists() else root / ".mcp.json"
    (copy / ".mcp.json").write_bytes(mcp.read_bytes())
    (copy / "requirements.lock").write_bytes((root / "requirements.lock").read_bytes())
    records = {"version": 2, "plugins": {"mdsel-claude@market": [{"installPath": str(copy)}]}}
    (plugins / "installed_plugins.json").write_text(json.dumps(records))
    settings = {"enabledPlugins": {"mdsel-claude@market": True}}
    (home / ".claude" / "settings.json").write_text(json.dumps(settings))
    if provisioned:  # as the launcher makes it, for the Python on PATH
        lock = (copy / "requirements.lock").read_bytes()
        [python] = [p for p in ("python3.13", "python3.12", "python3.11", "python3")
                    if shutil.which(p)][:1]  # fmt: skip
        version = subprocess.run(
            [python, "-S", "-c", "import sys; print(sys.version, end='')"],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        venv = plugins / "data" / "mdsel-claude-market" / provision_state.env_name(lock, version)
        (venv / "bin").mkdir(parents=True)
        (venv / "bin" / "python").symlink_to(shutil.which(python) or python)
        mark = {"lock_sha256": hashlib.sha256(lock).hexdigest()}
        (venv / "ready").write_text(json.dumps(mark))
    return copy


def test_doctor_plugin(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", "/nowhere")
    status, out, _ = run(capsys, "doctor", "--plugin")
    assert "the plugin needs Python 3.11 or later on PATH" in out and "no python3" in out
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable))
    status, out, _ = run(capsys, "doctor", "--plugin")
    assert status == 1 and "plugin is not installed" in out and "/plugin install" in out
    plant_plugin(home)
    status, out, _ = run(capsys, "doctor", "--plugin")
    assert "mdsel-claude@market: enabled" in out
    assert "the plugin's launcher" in out and "not provisioned yet" in out
    assert "ok: answers initialize" in out and "ok: reminder for 201 words" in out
    assert status == 0, out
    plant_plugin(home, provisioned=True)
    status, out, _ = run(capsys, "doctor", "--plugin")
    assert "server environment ready:" in out and status == 0, out
    (home / ".claude" / "settings.json").write_text('{"enabledPlugins": {}}')
    status, out, _ = run(capsys, "doctor", "--plugin")
    assert status == 1 and "installed, not enabled" in out
    assert "claude plugin enable mdsel-claude@market" in out


def test_doctor_plugin_says_how_the_install_went_and_whether_claude_code_skips_it(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable))
    plant_plugin(home)
    data = home / ".claude" / "plugins" / "data" / "mdsel-claude-market"
    data.mkdir(parents=True)
    now = time.time()
    failed = provision_state.Attempt(
        "venv-x", 1, now - 30, "pip install", "failed", "pip could not reach the package index", now
    )
    provision_state.write_attempt(data, failed)
    status, out, _ = run(capsys, "doctor", "--plugin")
    assert status == 1
    assert (
        "FAIL: the plugin's server could not install its dependencies: pip could not reach" in out
    )
    running = provision_state.Attempt(
        "venv-x",
        os.getpid(),
        now - 75,
        "installing the locked packages with pip",
        "running",
        "",
        now,
    )
    provision_state.write_attempt(data, running)
    with dir_lock.exclusive(data):  # as the install holds it while at work
        status, out, _ = run(capsys, "doctor", "--plugin")
    assert (
        "server environment being installed: installing the locked packages with pip, 1 min" in out
    )
    assert status == 0, out
    skip = home / ".claude" / "mcp-needs-auth-cache.json"
    entry = {"plugin:mdsel-claude:mdsel": {"timestamp": (now - 60) * 1000, "id": "x"}}
    skip.write_text(json.dumps(entry))
    status, out, _ = run(capsys, "doctor", "--plugin")
    assert (
        status == 1
        and "Claude Code is skipping the plugin's server 'plugin:mdsel-claude:mdsel'" in out
    )
    assert "reconnect it in /mcp" in out and str(skip) in out
    entry["plugin:mdsel-claude:mdsel"]["timestamp"] = (now - 16 * 60) * 1000  # skipped no longer
    skip.write_text(json.dumps(entry))
    assert run(capsys, "doctor", "--plugin")[0] == 0


def test_doctor_plugin_flags_an_install_beside_it(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install"]) == 0
    plant_plugin(home)
    status, out, _ = run(capsys, "doctor", "--plugin")
    assert status == 1 and "an mdsel-claude install is active too (local scope)" in out
    assert "`mdsel-claude uninstall --scope local`" in out


@pytest.mark.parametrize("command", ["install", "uninstall", "doctor"])
def test_each_command_has_a_description(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    first = {"install": "Register the mdsel MCP server", "uninstall": "Remove exactly what",
             "doctor": "Report what is registered where"}[command]  # fmt: skip
    assert first in text
    if command != "install":
        assert "--all" in text
    if command == "doctor":
        assert "--client" in text and "--plugin" in text


def test_doctor_all_reports_a_file_whose_shape_changed(
    on_path: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install"]) == 0
    state = json.loads((home / ".claude.json").read_text())
    for project in state["projects"].values():
        project["mcpServers"] = []  # an array where install wrote an object
    (home / ".claude.json").write_text(json.dumps(state))
    status, out, err = run(capsys, "doctor", "--all")
    assert status == 1 and "Traceback" not in err
    assert "cannot be checked" in out and "should be an object, found an array" in out


def test_uninstall_all_with_another_record_is_no_success_over_our_entries(
    on_path: str, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install"]) == 0
    os.environ["XDG_STATE_HOME"] = str(tmp_path / "another-state")
    try:
        dry = run(capsys, "uninstall", "--all", "--dry-run")  # says what the run will say
        status, _out, err = run(capsys, "uninstall", "--all")
    finally:
        del os.environ["XDG_STATE_HOME"]
    assert dry[0] == status == 1 and dry[2] == err
    assert status == 1
    assert "left in place, because the install record" in err and "MCP server 'mdsel'" in err
    assert claude_json(home) is not None  # nothing it has no record of was removed
    status, _out, _err = run(capsys, "uninstall", "--all")  # with the record: all gone
    assert status == 0 and claude_json(home) is None


def test_uninstall_all_follows_a_settings_file_moved_and_linked_back(
    on_path: str, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["install"]) == 0
    moved = tmp_path / "dotfiles" / "settings.local.json"
    moved.parent.mkdir()
    os.replace(".claude/settings.local.json", moved)
    os.symlink(moved, ".claude/settings.local.json")
    status, _out, _err = run(capsys, "uninstall", "--all")
    assert status == 0
    assert json.loads(moved.read_text()) == {}  # our hook gone, the user's file kept
    assert os.path.islink(".claude/settings.local.json")
    status, out, _err = run(capsys, "doctor", "--all")
    assert "it lists nothing" in out


def test_doctor_all_finds_a_program_gone_in_every_clients_shape(tmp_path: Path, home: Path) -> None:
    old = fake_install(tmp_path / "old-venv" / "bin")
    env = {**os.environ, "HOME": str(home), "PATH": "/usr/bin:/bin"}
    for client in ("gemini", "cursor", "opencode", "vscode"):
        done = run_exe(old, tmp_path, env, "install", "--client", client)
        assert done.returncode == 0, done.stderr
    old.unlink()
    everywhere = run_exe(Path(find_executable()), tmp_path, env, "doctor", "--all")
    assert everywhere.returncode == 1
    # Each client's server, and Gemini CLI's hook.
    assert everywhere.stdout.count(f"runs {old}, which no longer exists") == 5, everywhere.stdout


def test_doctor_all_finds_a_codex_program_gone(tmp_path: Path, home: Path) -> None:
    """Codex CLI's config.toml is checked like the JSON files: a server and hook whose program
    was removed fail `doctor --all` (it said "all good" before)."""
    old = fake_install(tmp_path / "old-venv" / "bin")
    env = {**os.environ, "HOME": str(home), "PATH": "/usr/bin:/bin"}
    done = run_exe(old, tmp_path, env, "install", "--client", "codex")
    assert done.returncode == 0, done.stderr
    me = Path(find_executable())
    kept = run_exe(old, tmp_path, env, "doctor", "--all")
    assert kept.returncode == 0, kept.stdout
    assert kept.stdout.count(f"ours, runs {old}") == 2, kept.stdout
    old.unlink()
    everywhere = run_exe(me, tmp_path, env, "doctor", "--all")
    assert everywhere.returncode == 1, everywhere.stdout
    assert everywhere.stdout.count(f"runs {old}, which no longer exists") == 2, everywhere.stdout


def test_uninstall_all_keeps_the_folders_of_a_file_it_could_not_do(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file uninstall --all cannot edit stays in the record, and so do the folders install
    made for it: once the file is fixed, the next run removes them too."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    assert run(capsys, "install", "--client", "vscode")[0] == 0
    target = home / ".config" / "Code" / "User" / "mcp.json"
    text = target.read_text()
    target.write_text("// a comment VS Code allows\n" + text)
    assert run(capsys, "uninstall", "--all")[0] == 1
    target.write_text(text)
    assert run(capsys, "uninstall", "--all")[0] == 0
    assert not (home / ".config").exists()


def test_doctor_plugin_under_managed_settings(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plugin's server does not start beside a managed-mcp.json; its hook runs under
    allowManagedHooksOnly only when the managed settings enable the plugin."""
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable))
    plant_plugin(home)
    assert run(capsys, "doctor", "--plugin")[0] == 0
    folder = home.parent / "managed"
    folder.mkdir()
    (folder / "managed-mcp.json").write_text('{"mcpServers": {}}')
    status, out, _ = run(capsys, "doctor", "--plugin")
    assert status == 1
    assert f"does not start the plugin's server: {folder / 'managed-mcp.json'} is present" in out
    (folder / "managed-mcp.json").unlink()
    settings = folder / "managed-settings.json"
    settings.write_text('{"allowManagedHooksOnly": true}')
    status, out, _ = run(capsys, "doctor", "--plugin")
    assert status == 1 and "the plugin's hook never runs: allowManagedHooksOnly in" in out
    enabled = {"allowManagedHooksOnly": True, "enabledPlugins": {"mdsel-claude@market": True}}
    settings.write_text(json.dumps(enabled))
    status, out, _ = run(capsys, "doctor", "--plugin")
    assert status == 0, out
