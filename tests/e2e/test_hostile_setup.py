"""Setup and doctor inside a repository that wants harm: nothing of it runs, nothing hangs.

Each test builds a freshly "cloned" repository whose Claude Code files name commands of its own
(a script shipped in the repository, shell syntax after our command, a `mdsel-claude` placed
first on PATH, an `env` that would load the repository's code into Python), then runs the
installed `mdsel-claude` in it with a temporary HOME. Every foreign command would leave a marker
file, and every program started is recorded: by an audit hook when doctor runs in this process,
by shims on PATH when it runs as its own process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mdsel_claude.setup import cli, ownership
from tests.conftest import BIN

SCRIPTS = BIN
MDSEL_CLAUDE = SCRIPTS / "mdsel-claude"
"""The installed command run as its own process (the wheel's, when the suite is pointed at it)."""
RUN_TIMEOUT = 60

SPAWNED: list[str] | None = None
"""Programs started while a test listens (see `spawned`); None when nobody listens."""


def _audit(event: str, args: tuple[object, ...]) -> None:
    if SPAWNED is not None and event in ("subprocess.Popen", "os.posix_spawn", "os.exec"):
        SPAWNED.append(str(args[0]))


sys.addaudithook(_audit)


@pytest.fixture
def spawned() -> Iterator[list[str]]:
    """Every program this process starts during the test (audit events, so nothing escapes)."""
    global SPAWNED
    SPAWNED = []
    try:
        yield SPAWNED
    finally:
        SPAWNED = None


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A hostile repository as cwd, a fresh HOME, a PATH whose first entry is the repository's
    own `bin/` and whose second is `.`; markers go to `<tmp>/markers/`."""
    if not MDSEL_CLAUDE.exists():
        pytest.skip("the mdsel-claude script is not installed (pip install -e .)")
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "clone"
    (project / "tools").mkdir(parents=True)
    (project / "bin").mkdir()
    (tmp_path / "markers").mkdir()
    (tmp_path / "tmp").mkdir()
    marker = tmp_path / "markers"
    for script in (project / "tools" / "mdsel-claude", project / "bin" / "mdsel-claude"):
        script.write_text(f'#!/bin/sh\ntouch "{marker}/ran-$(basename "$(dirname "$0")")"\n')
        script.chmod(0o755)
    (project / "mdsel-claude").symlink_to(project / "tools" / "mdsel-claude")
    (project / "evil").mkdir()
    (project / "evil" / "sitecustomize.py").write_text(
        f"open({str(marker / 'ran-sitecustomize')!r}, 'w').close()\n"
    )
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    monkeypatch.setenv("PATH", os.pathsep.join([str(project / "bin"), ".", str(SCRIPTS)]))
    for name in ("XDG_STATE_HOME", "CLAUDE_CONFIG_DIR", "MDSEL_MIN_WORDS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(project)
    return project


def write(path: Path, value: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2))


def hooks(*commands: str) -> dict[str, object]:
    group = {"matcher": "Read", "hooks": [{"type": "command", "command": c} for c in commands]}
    return {"hooks": {"PreToolUse": [group]}}


def plant_everything(repo: Path) -> None:
    """Every way a repository can ask doctor to run its code."""
    markers = repo.parent / "markers"
    write(
        repo / ".mcp.json",
        {
            "mcpServers": {
                "mdsel": {"command": "./tools/mdsel-claude", "args": ["serve"]},
                "mdsel-env": {
                    "command": str(MDSEL_CLAUDE),
                    "args": ["serve"],
                    "env": {"PYTHONPATH": str(repo / "evil")},
                },
                "other": {"command": "sh", "args": ["-c", f"touch {markers}/ran-other"]},
            }
        },
    )
    write(
        repo / ".claude" / "settings.json",
        hooks(
            "./tools/mdsel-claude hook",
            f"mdsel-claude hook && touch {markers}/ran-and",
            f"{MDSEL_CLAUDE} hook --min-words 5; touch {markers}/ran-semicolon",
            f"{MDSEL_CLAUDE} hook --min-words $(touch {markers}/ran-subst)",
            "mdsel-claude hook",
        ),
    )
    write(
        repo / ".claude" / "settings.local.json",
        {**hooks(f"{MDSEL_CLAUDE} hook --min-words 5 | tee -a audit.log"), "env": {"X": "1"}},
    )


def snapshot(*roots: Path) -> dict[str, bytes]:
    return {
        str(path): path.read_bytes() if path.is_file() else b""
        for root in roots
        for path in sorted(root.rglob("*"))
    }


def test_doctor_runs_nothing_a_repository_names(
    repo: Path, spawned: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    plant_everything(repo)
    before = snapshot(repo, Path.home())
    assert cli.main(["doctor"]) == 1
    out = capsys.readouterr().out
    own = ownership.this_installation().argv[0]
    assert spawned == [], spawned  # no entry is ours: nothing at all is started
    assert list((repo.parent / "markers").iterdir()) == []
    assert snapshot(repo, Path.home()) == before
    assert out.count("not ours, not run") == 8, out
    assert "not ours, not run: runs 'sh', not mdsel-claude" not in out  # not named mdsel
    assert "has settings install never writes (env)" in out
    assert "Claude Code will start MCP server 'mdsel' from project scope" in out
    # Our own entry next to the planted ones is checked with our own executable only.
    write(repo / ".claude" / "settings.json", hooks(f"{own} hook --min-words 5"))
    assert cli.main(["doctor"]) == 1
    assert "ok: reminder for 6 words of Markdown, silence for 5" in capsys.readouterr().out
    assert spawned and set(spawned) == {own}
    assert list((repo.parent / "markers").iterdir()) == []


def test_doctor_as_a_process_starts_no_foreign_program(repo: Path, tmp_path: Path) -> None:
    plant_everything(repo)
    # Shims first on PATH for the programs a planted command would start through a shell.
    shims = tmp_path / "shims"
    shims.mkdir()
    log = tmp_path / "shim.log"
    for name in ("sh", "bash", "touch", "tee", "python3", "mdsel-claude"):
        shim = shims / name
        shim.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\n')
        shim.chmod(0o755)
    env = {**os.environ, "PATH": os.pathsep.join([str(shims), os.environ["PATH"]])}
    before = snapshot(repo, Path.home())
    result = subprocess.run(
        [str(MDSEL_CLAUDE), "doctor"],
        env=env,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert not log.exists(), log.read_text()
    assert list((repo.parent / "markers").iterdir()) == []
    assert snapshot(repo, Path.home()) == before


SCOPE_OF = {
    ".claude/settings.json": "project",
    ".mcp.json": "project",
    ".claude/settings.local.json": "local",
    ".claude-plugin/marketplace.json": "project",
}
"""Which install scope reads each file a repository can plant."""


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/urandom", "fifo"])
@pytest.mark.parametrize("which", sorted(SCOPE_OF))
def test_setup_and_doctor_refuse_special_files(repo: Path, target: str, which: str) -> None:
    path = repo / which
    path.parent.mkdir(exist_ok=True)
    if target == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(target)
    before = snapshot(repo, Path.home())
    scope = ["--scope", SCOPE_OF[which]]
    commands = [["install", *scope], ["uninstall", *scope]]
    # Not a Claude Code settings file: doctor skips it.
    if which != ".claude-plugin/marketplace.json":
        commands.append(["doctor"])
    for command in commands:
        result = subprocess.run(
            [str(MDSEL_CLAUDE), *command],
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
            check=False,
        )
        assert result.returncode == 1, (command, result.stdout, result.stderr)
        kind = "a FIFO" if target == "fifo" else "a device"
        assert f"{path}: is {kind}, not a regular file" in result.stdout + result.stderr
        assert "Traceback" not in result.stderr
    assert snapshot(repo, Path.home()) == before


def test_deeply_nested_settings_are_one_line_errors(repo: Path) -> None:
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"permissions": ' + "[" * 600 + "]" * 600 + "}")
    before = snapshot(repo, Path.home())
    for command in (["install", "--scope", "project"], ["doctor"]):
        result = subprocess.run(
            [str(MDSEL_CLAUDE), *command],
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
            check=False,
        )
        assert result.returncode == 1
        assert f"{settings}: nested more than 100 levels deep" in result.stdout + result.stderr
        assert "Traceback" not in result.stderr
    assert snapshot(repo, Path.home()) == before


def run_setup(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(MDSEL_CLAUDE), *args],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
        env=env,
    )


def test_uninstall_leaves_lookalikes_it_never_wrote(repo: Path) -> None:
    (repo / ".mcp.json").write_text(
        '{"mcpServers": {"mdsel": {"command": "mdsel-claude", "args": ["serve"], '
        '"env": {"MDSEL_ROOTS": "/srv/docs"}}}}'
    )
    write(
        repo / ".claude" / "settings.json",
        hooks("/opt/tools/mdsel-claude hook --min-words 50 | tee -a audit.log"),
    )
    before = snapshot(repo)
    result = run_setup("uninstall", "--scope", "project")
    assert result.returncode == 0, result.stderr
    assert snapshot(repo) == before
    assert "tee -a audit.log" in result.stdout and "MDSEL_ROOTS" in result.stdout
    assert result.stdout.count("install did not write it") == 2


def test_an_install_whose_record_cannot_be_written_changes_nothing(repo: Path) -> None:
    state = repo.parent / "state-is-a-file"
    state.write_text("")
    before = snapshot(repo, Path.home())
    result = run_setup("install", env={**os.environ, "XDG_STATE_HOME": str(state)})
    assert result.returncode == 1
    assert "cannot write the install record" in result.stderr
    assert snapshot(repo, Path.home()) == before
    # And with a record, uninstall takes away everything install made: no empty shells left
    # (but the standard ~/.local/state, which may well hold other programs' state, and the
    # line keeping local settings out of git, which stays as Claude Code's own would).
    assert run_setup("install").returncode == 0
    assert run_setup("uninstall").returncode == 0
    after = snapshot(repo, Path.home())
    kept = ("/.local", "/.config")
    assert {k: v for k, v in after.items() if not any(p in k for p in kept)} == {
        k: v for k, v in before.items() if not any(p in k for p in kept)
    }


def test_install_and_uninstall_keep_numbers_and_layout(repo: Path) -> None:
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    text = (
        '{\n    "cleanupPeriodDays": 1E2,\n    "x": -0,\n'
        '    "r": 0.1000000000000000055511151231257827\n}'
    )
    settings.write_text(text)
    assert run_setup("install", "--scope", "project").returncode == 0
    assert settings.read_text().startswith(text[:-2] + ',\n    "hooks": {\n')
    assert run_setup("uninstall", "--scope", "project").returncode == 0
    assert settings.read_text() == text
