"""install, uninstall, doctor: others' settings survive; uninstall undoes install exactly."""

from __future__ import annotations

import copy
import json
import os
import stat
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdsel_claude.setup import entries
from mdsel_claude.setup import planner as install
from mdsel_claude.setup.doctor import run_doctor
from mdsel_claude.setup.entries import HOOK_EVENTS
from mdsel_claude.setup.jsonfile import JsonFileError, JSONObject

EXE = "/opt/mdsel tools/bin/mdsel-claude"  # a space, so quoting is exercised

# -- strategies -----------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=10,
)
NAMES = st.text(alphabet="abcmdsel-_ AZ09", min_size=1, max_size=8)
OTHER_COMMANDS = st.sampled_from(
    [
        "echo hi",
        "mdsel-claude",
        "mdsel-claude hooks",
        "mdsel-claude serve",
        "/usr/bin/mdsel hook",
        "python3 -m mdsel_claude hook",
        "mdsel-claude-extra hook",
        "'unbalanced",
        "",
    ]
) | st.text(max_size=12).filter(lambda c: not entries.is_our_hook_command(c))
HOOK_OBJECTS = st.fixed_dictionaries(
    {"type": st.just("command"), "command": OTHER_COMMANDS},
    optional={"timeout": st.integers(1, 60)},
)
GROUPS = st.one_of(
    st.fixed_dictionaries(
        {
            "matcher": st.sampled_from(["Read", "Write", "Edit|Write", "*", "", "Read|Grep"]),
            "hooks": st.lists(HOOK_OBJECTS, max_size=3),
        }
    ),
    st.fixed_dictionaries({"hooks": st.lists(HOOK_OBJECTS, min_size=1, max_size=2)}),
)
EVENT_NAMES = st.sampled_from([*HOOK_EVENTS, "Stop", "UserPromptSubmit", "SessionStart"])


@st.composite
def with_key_at_random_place(
    draw: st.DrawFn, key: str, value: st.SearchStrategy[object]
) -> JSONObject:
    """Unrelated top-level keys, with `key` (if drawn) at some position among them."""
    others = draw(st.dictionaries(NAMES.filter(lambda k: k != key), JSON_VALUES, max_size=4))
    items = list(others.items())
    if draw(st.booleans()):
        items.insert(draw(st.integers(0, len(items))), (key, draw(value)))
    return dict(items)


MCP_CONFIGS = st.none() | with_key_at_random_place(
    "mcpServers",
    st.dictionaries(
        NAMES.filter(lambda n: n != entries.SERVER_NAME),
        st.fixed_dictionaries(
            {"command": st.text(max_size=8), "args": st.lists(st.text(max_size=4), max_size=2)}
        )
        | JSON_VALUES,
        max_size=4,
    ),
)
SETTINGS = st.none() | with_key_at_random_place(
    "hooks", st.dictionaries(EVENT_NAMES, st.lists(GROUPS, max_size=3), max_size=4)
)


def ordered(value: object) -> str:
    """Canonical text keeping key order: equal means same JSON value in the same order."""
    return json.dumps(value)


# -- helpers --------------------------------------------------------------------------------


class Project:
    """A project directory and a state file under one temporary directory."""

    def __init__(self, root: Path) -> None:
        self.dir = root / "project"
        self.dir.mkdir()
        self.state = root / "state" / "mdsel-claude" / "installed.json"
        self.where = install.locations("project", self.dir, {})

    @property
    def mcp(self) -> Path:
        assert self.where.mcp_config is not None
        return self.where.mcp_config

    @property
    def settings(self) -> Path:
        return self.where.settings

    def write(self, path: Path, value: JSONObject | None) -> None:
        if value is not None:
            path.parent.mkdir(exist_ok=True)
            path.write_text(json.dumps(value, indent=4))

    def read(self, path: Path) -> JSONObject | None:
        return json.loads(path.read_text()) if path.exists() else None

    def install(self, min_words: int = 200, event: str = "PreToolUse") -> list[str]:
        out: list[str] = []
        plan = install.plan_install(self.where, EXE, min_words, event, self.state, None)
        install.apply(plan, out)
        return out

    def uninstall(self) -> list[str]:
        out: list[str] = []
        install.apply(install.plan_uninstall(self.where, self.state, None), out)
        return out


def without_our_server(after: JSONObject, before: JSONObject | None) -> JSONObject:
    stripped = copy.deepcopy(after)
    servers = stripped["mcpServers"]
    assert isinstance(servers, dict)
    assert servers.pop(entries.SERVER_NAME) == entries.server_entry(EXE)
    if before is None or "mcpServers" not in before:
        assert servers == {}
        del stripped["mcpServers"]
    return stripped


def without_our_hook(
    after: JSONObject, before: JSONObject | None, event: str, n: int
) -> JSONObject:
    stripped = copy.deepcopy(after)
    hooks = stripped["hooks"]
    assert isinstance(hooks, dict)
    groups = hooks[event]
    assert isinstance(groups, list)
    assert groups.pop() == {"matcher": "Read", "hooks": [entries.hook_entry(EXE, n)]}
    before_hooks = (before or {}).get("hooks")
    if not isinstance(before_hooks, dict) or event not in before_hooks:
        assert groups == []
        del hooks[event]
    if before is None or "hooks" not in before:
        assert hooks == {}
        del stripped["hooks"]
    return stripped


# -- properties -----------------------------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mcp=MCP_CONFIGS,
    user_settings=SETTINGS,
    claude_dir_exists=st.booleans(),
    events=st.lists(st.sampled_from(HOOK_EVENTS), min_size=1, max_size=3),
    min_words=st.integers(0, 10_000),
)
def test_install_keeps_everything_else_and_uninstall_restores(
    mcp: JSONObject | None,
    user_settings: JSONObject | None,
    claude_dir_exists: bool,
    events: list[str],
    min_words: int,
) -> None:
    with tempfile.TemporaryDirectory() as temp:
        project = Project(Path(temp))
        project.write(project.mcp, mcp)
        if claude_dir_exists:
            project.where.settings_dir.mkdir()
        project.write(project.settings, user_settings)

        for event in events:  # install again, possibly switching event: never a duplicate
            project.install(min_words, event)
        after_mcp = project.read(project.mcp)
        after_settings = project.read(project.settings)
        assert after_mcp is not None and after_settings is not None
        assert ordered(without_our_server(after_mcp, mcp)) == ordered(mcp or {})
        assert entries.our_hooks(after_settings, project.settings) == [
            (events[-1], "Read", entries.hook_command(EXE, min_words))
        ]
        assert ordered(
            without_our_hook(after_settings, user_settings, events[-1], min_words)
        ) == ordered(user_settings or {})

        # Idempotent: the same install again changes no byte.
        snapshot = (project.mcp.read_bytes(), project.settings.read_bytes())
        project.install(min_words, events[-1])
        assert (project.mcp.read_bytes(), project.settings.read_bytes()) == snapshot

        project.uninstall()
        assert ordered(project.read(project.mcp)) == ordered(mcp)
        assert ordered(project.read(project.settings)) == ordered(user_settings)
        assert project.where.settings_dir.exists() == (
            claude_dir_exists or user_settings is not None
        )
        assert not project.state.exists()


@settings(max_examples=100, deadline=None)
@given(
    value=st.one_of(MCP_CONFIGS.filter(bool), SETTINGS.filter(bool)),
    cut=st.integers(min_value=1),
    which=st.sampled_from(["mcp", "settings"]),
)
def test_invalid_json_is_refused_untouched(value: JSONObject, cut: int, which: str) -> None:
    text = json.dumps(value, indent=2)
    broken = text[: len(text) - 1 - cut % len(text)]  # cut short: never valid JSON
    with tempfile.TemporaryDirectory() as temp:
        project = Project(Path(temp))
        project.where.settings_dir.mkdir()
        target = project.mcp if which == "mcp" else project.settings
        target.write_text(broken)
        with pytest.raises(JsonFileError):
            install.plan_install(project.where, EXE, 200, "PreToolUse", project.state, None)
        with pytest.raises(JsonFileError):
            install.plan_uninstall(project.where, project.state, None)
        assert target.read_text() == broken
        assert sorted(p.name for p in project.dir.rglob("*")) == sorted([".claude", target.name])


def test_created_files_are_deleted_and_preexisting_empty_ones_kept(tmp_path: Path) -> None:
    project = Project(tmp_path)
    project.install()
    assert project.mcp.exists() and project.settings.exists()
    project.uninstall()
    assert sorted(os.listdir(project.dir)) == []

    project.write(project.mcp, {})
    project.write(project.settings, {"hooks": {"PreToolUse": []}})
    project.install()
    project.uninstall()
    assert project.read(project.mcp) == {}
    assert project.read(project.settings) == {"hooks": {"PreToolUse": []}}


def test_things_added_after_install_survive_uninstall(tmp_path: Path) -> None:
    project = Project(tmp_path)
    project.install()
    mcp = project.read(project.mcp)
    settings_now = project.read(project.settings)
    assert mcp is not None and settings_now is not None
    mcp["mcpServers"]["later"] = {"command": "later"}  # type: ignore[index]
    later_group = {"matcher": "Read", "hooks": [{"type": "command", "command": "echo later"}]}
    settings_now["hooks"]["PreToolUse"].insert(0, later_group)  # type: ignore[index]
    project.write(project.mcp, mcp)
    project.write(project.settings, settings_now)
    project.uninstall()
    assert project.read(project.mcp) == {"mcpServers": {"later": {"command": "later"}}}
    assert project.read(project.settings) == {"hooks": {"PreToolUse": [later_group]}}
    assert project.where.settings_dir.is_dir()


def test_shared_matcher_group_keeps_other_hooks(tmp_path: Path) -> None:
    project = Project(tmp_path)
    ours = entries.hook_entry("/old/bin/mdsel-claude", 50)
    other = {"type": "command", "command": "echo other"}
    project.write(
        project.settings,
        {"hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [other, ours]}]}},
    )
    project.install()
    settings_after = project.read(project.settings)
    assert settings_after == {
        "hooks": {
            "PreToolUse": [
                {"matcher": "Read", "hooks": [other]},
                {"matcher": "Read", "hooks": [entries.hook_entry(EXE, 200)]},
            ]
        }
    }
    project.uninstall()
    assert project.read(project.settings) == {
        "hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [other]}]}
    }


@pytest.mark.parametrize(
    ("command", "ours"),
    [
        ("mdsel-claude hook", True),
        ("/usr/local/bin/mdsel-claude hook --min-words 10", True),
        ("'/opt/my tools/mdsel-claude' hook", True),
        ("mdsel-claude serve", False),
        ("mdsel-claude", False),
        ("mdsel hook", False),
        ("python -m mdsel_claude hook", False),
        ("echo mdsel-claude hook", False),
        ("'unbalanced", False),
        (None, False),
        (42, False),
    ],
)
def test_recognising_our_hook(command: object, ours: bool) -> None:
    assert entries.is_our_hook_command(command) is ours


def test_hook_command_round_trips_through_the_shell() -> None:
    command = entries.hook_command(EXE, 123)
    assert command == "'/opt/mdsel tools/bin/mdsel-claude' hook --min-words 123"
    assert entries.is_our_hook_command(command)


# -- command line ---------------------------------------------------------------------------


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


def test_main_install_and_uninstall_project(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exe = install.find_executable()
    assert install.main(["install", "--min-words", "321"]) == 0
    out = capsys.readouterr().out
    assert "created" in out and ".mcp.json" in out
    assert json.loads(Path(".mcp.json").read_text()) == {
        "mcpServers": {"mdsel": {"type": "stdio", "command": exe, "args": ["serve"]}}
    }
    settings_after = json.loads(Path(".claude/settings.json").read_text())
    assert settings_after["hooks"]["PreToolUse"][0]["hooks"][0]["command"] == (
        f"{exe} hook --min-words 321"
    )
    assert (home / ".local" / "state" / "mdsel-claude" / "installed.json").exists()
    assert install.main(["uninstall"]) == 0
    assert os.listdir(".") == []
    assert not (home / ".local" / "state" / "mdsel-claude").exists()


def test_dry_run_changes_nothing(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert install.main(["install", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "would create" in out
    assert os.listdir(".") == [] and not (home / ".local").exists()


def test_min_words_from_environment(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MDSEL_MIN_WORDS", "77")
    assert install.main(["install"]) == 0
    assert "--min-words 77" in Path(".claude/settings.json").read_text()


def test_invalid_min_words(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        install.main(["install", "--min-words", "-5"])
    assert exited.value.code == 2
    monkeypatch.setenv("MDSEL_MIN_WORDS", "many")
    assert install.main(["install"]) == 1
    assert "MDSEL_MIN_WORDS='many'" in capsys.readouterr().err
    assert os.listdir(".") == []


@pytest.mark.parametrize(
    ("mcp_text", "settings_text", "problem"),
    [
        ('{"mcpServers": {,}}', None, ".mcp.json: not valid JSON (line 1, column 17"),
        ('{"a": 1, "a": 2}', None, ".mcp.json: duplicate key 'a'"),
        ('{"mcpServers": []}', None, '"mcpServers" should be an object, found an array'),
        ("{}", '{"hooks": {"PreToolUse": {}}}', '"hooks"."PreToolUse" should be an array'),
        ("{}", '{"hooks": [], "x": 1, "x": 2}', "settings.json: duplicate key 'x'"),
        ("{}", "[1]", "settings.json: expected a JSON object"),
        (None, '{"hooks": "none"}', '"hooks" should be an object, found a string'),
    ],
)
@pytest.mark.parametrize("command", ["install", "uninstall"])
def test_bad_files_are_left_untouched(
    home: Path,
    capsys: pytest.CaptureFixture[str],
    mcp_text: str | None,
    settings_text: str | None,
    problem: str,
    command: str,
) -> None:
    if mcp_text is not None:
        Path(".mcp.json").write_text(mcp_text)
    if settings_text is not None:
        Path(".claude").mkdir()
        Path(".claude/settings.json").write_text(settings_text)
    before = {str(p): p.read_bytes() for p in Path(".").rglob("*") if p.is_file()}
    status = install.main([command])
    err = capsys.readouterr().err
    if command == "uninstall" and "hooks" in problem and "PreToolUse" in problem:
        # Uninstall never needs the PreToolUse list to be an array: nothing of ours is there.
        assert status == 0
        return
    assert status == 1
    assert problem in err and "left it untouched" in err
    after = {str(p): p.read_bytes() for p in Path(".").rglob("*") if p.is_file()}
    assert after == before
    assert not (home / ".local").exists()


def test_symlinked_settings_and_mode_are_kept(home: Path, tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "settings.json"
    real.parent.mkdir()
    real.write_text('{"model": "x"}')
    real.chmod(0o600)
    Path(".claude").mkdir()
    Path(".claude/settings.json").symlink_to(real)
    assert install.main(["install"]) == 0
    assert Path(".claude/settings.json").is_symlink()
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    assert json.loads(real.read_text())["model"] == "x"
    assert install.main(["uninstall"]) == 0
    assert Path(".claude/settings.json").is_symlink()
    assert json.loads(real.read_text()) == {"model": "x"}


def test_user_scope_without_claude_prints_the_command(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    exe = install.find_executable()
    assert install.main(["install", "--scope", "user"]) == 0
    out = capsys.readouterr().out
    assert f"claude mcp add -s user mdsel -- {exe} serve" in out
    settings_after = json.loads((home / ".claude" / "settings.json").read_text())
    assert entries.our_hooks(settings_after, Path("x")) == [
        ("PreToolUse", "Read", f"{exe} hook --min-words 200")
    ]
    assert os.listdir(".") == []  # nothing in the project
    assert install.main(["uninstall", "--scope", "user"]) == 0
    assert "claude mcp remove mdsel -s user" in capsys.readouterr().out
    assert not (home / ".claude").exists()

    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / "elsewhere"))
    assert install.main(["install", "--scope", "user"]) == 0
    assert (home / "elsewhere" / "settings.json").exists()


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


def calls(fake: Path) -> list[list[str]]:
    log = fake / "calls.log"
    lines = log.read_text().splitlines() if log.exists() else []
    log.unlink(missing_ok=True)
    return [json.loads(line) for line in lines]


def registry(fake: Path) -> object:
    return json.loads((fake / "registry.json").read_text())


def test_user_scope_with_claude(fake_claude: Path, home: Path) -> None:
    exe = install.find_executable()
    assert install.main(["install", "--scope", "user"]) == 0
    assert calls(fake_claude) == [
        ["mcp", "get", "mdsel"],
        ["mcp", "add", "-s", "user", "mdsel", "--", exe, "serve"],
    ]
    assert registry(fake_claude) == {"mdsel": {"command": exe, "args": ["serve"]}}

    assert install.main(["install", "--scope", "user"]) == 0  # already there: only checked
    assert calls(fake_claude) == [["mcp", "get", "mdsel"]]

    (fake_claude / "registry.json").write_text(
        json.dumps({"mdsel": {"command": "/old/mdsel-claude", "args": ["serve"]}, "x": {}})
    )
    assert install.main(["install", "--scope", "user"]) == 0  # an old one of ours: replaced
    assert calls(fake_claude)[1:] == [
        ["mcp", "remove", "mdsel", "-s", "user"],
        ["mcp", "add", "-s", "user", "mdsel", "--", exe, "serve"],
    ]
    assert install.main(["uninstall", "--scope", "user"]) == 0
    assert calls(fake_claude) == [["mcp", "get", "mdsel"], ["mcp", "remove", "mdsel", "-s", "user"]]
    assert registry(fake_claude) == {"x": {}}
    assert not (home / ".claude").exists()


def test_failed_claude_add_keeps_the_record(
    fake_claude: Path,
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("FAKE_CLAUDE_FAIL_ADD", "1")
    assert install.main(["install", "--scope", "user"]) == 1
    assert "failed: add refused" in capsys.readouterr().err
    assert (home / ".claude" / "settings.json").exists()  # written before the server step
    monkeypatch.delenv("FAKE_CLAUDE_FAIL_ADD")
    assert install.main(["uninstall", "--scope", "user"]) == 0
    assert not (home / ".claude").exists()  # still known as created by install


def test_uninstall_with_nothing_installed(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Path(".mcp.json").write_text('{"mcpServers": {"other": {"command": "x"}}}')
    assert install.main(["uninstall"]) == 0
    out = capsys.readouterr().out
    assert "nothing of mdsel-claude in" in out and "is installed in project scope" in out
    assert Path(".mcp.json").read_text() == '{"mcpServers": {"other": {"command": "x"}}}'


# -- doctor ---------------------------------------------------------------------------------


def test_doctor_after_project_install(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert install.main(["install", "--min-words", "30"]) == 0
    capsys.readouterr()
    status = run_doctor(Path.cwd(), os.environ, None)
    out = capsys.readouterr().out
    assert "ok: answers initialize (mdsel-claude" in out
    assert "ok: reminder for 31 words of Markdown, silence for 30" in out
    assert out.rstrip().endswith("all good") and status == 0


def test_doctor_nothing_installed(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_doctor(Path.cwd(), os.environ, None) == 1
    assert "nothing installed" in capsys.readouterr().out


def test_doctor_broken_commands(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Path(".mcp.json").write_text(
        json.dumps({"mcpServers": {"mdsel": {"command": "/nowhere/mdsel-claude", "args": []}}})
    )
    Path(".claude").mkdir()
    Path(".claude/settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {"matcher": "Read", "hooks": [entries.hook_entry("/bin/mdsel-claude", 5)]}
                    ]
                }
            }
        )
    )
    assert run_doctor(Path.cwd(), os.environ, None) == 1
    out = capsys.readouterr().out
    assert "FAIL: '/nowhere/mdsel-claude' not found" in out
    assert "FAIL: '/bin/mdsel-claude' not found" in out


def test_doctor_flags_duplicates(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert install.main(["install"]) == 0
    assert install.main(["install", "--scope", "user"]) == 0
    capsys.readouterr()
    assert run_doctor(Path.cwd(), os.environ, None) == 1
    assert "duplicate: 2 Read hooks are registered" in capsys.readouterr().out


def test_a_foreign_server_named_mdsel_is_never_replaced_or_removed(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    foreign = {"mcpServers": {"mdsel": {"command": "npx", "args": ["-y", "mdsel-mcp"]}}}
    Path(".mcp.json").write_text(json.dumps(foreign))
    before = Path(".mcp.json").read_bytes()
    assert install.main(["install"]) == 1
    assert "not mdsel-claude's" in capsys.readouterr().err
    assert Path(".mcp.json").read_bytes() == before
    assert install.main(["uninstall"]) == 0
    assert json.loads(Path(".mcp.json").read_text()) == foreign


def test_doctor_fails_a_hook_that_never_runs_on_read(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert install.main(["install"]) == 0
    settings = json.loads(Path(".claude/settings.json").read_text())
    settings["hooks"]["PreToolUse"][0]["matcher"] = "Write"
    Path(".claude/settings.json").write_text(json.dumps(settings))
    capsys.readouterr()
    assert install.main(["doctor"]) == 1
    assert "never runs when the agent uses Read" in capsys.readouterr().out


def test_concurrent_installs_keep_every_record(tmp_path: Path) -> None:
    import subprocess

    exe = str(Path(sys.executable).with_name("mdsel-claude"))
    env = {**os.environ, "HOME": str(tmp_path / "home"), "XDG_STATE_HOME": str(tmp_path / "st")}
    projects = [tmp_path / f"p{i}" for i in range(6)]
    for project in projects:
        project.mkdir()
    running = [
        subprocess.Popen([exe, "install"], cwd=p, env=env, stdout=subprocess.DEVNULL)
        for p in projects
    ]
    assert [process.wait(timeout=60) for process in running] == [0] * len(projects)
    for project in projects:
        subprocess.run([exe, "uninstall"], cwd=project, env=env, check=True, capture_output=True)
        assert list(project.iterdir()) == []


def test_an_unwritable_target_stops_install_before_anything_is_written(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path(".claude").mkdir()
    Path(".claude/settings.json").symlink_to("/nonexistent-dir/settings.json")
    assert install.main(["install"]) == 1
    err = capsys.readouterr().err
    assert "/nonexistent-dir/settings.json" in err and ".tmp" not in err
    assert not Path(".mcp.json").exists()


def test_a_read_only_settings_file_is_refused(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path(".claude").mkdir()
    settings = Path(".claude/settings.json")
    settings.write_text('{"model": "x"}')
    settings.chmod(0o444)
    assert install.main(["install"]) == 1
    assert "read-only" in capsys.readouterr().err
    assert settings.read_text() == '{"model": "x"}'
    assert not Path(".mcp.json").exists()
