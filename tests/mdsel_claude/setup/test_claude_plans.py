"""claude_plans and plan_parts: install and uninstall in Claude Code's scopes; others'
settings survive, and uninstall undoes install exactly."""

from __future__ import annotations

import copy
import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mdsel_claude.setup import claude_plans, cli, entries, entry_edits, paths, steps
from mdsel_claude.setup.entries import HOOK_EVENTS
from mdsel_claude.setup.jsonfile import ConfigFileError, JSONObject

# -- strategies ------------------------------------------------------------------------------------


EXE = "/opt/mdsel tools/bin/mdsel-claude"  # a space, so quoting is exercised


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
        # Look-alikes: install never wrote them, so neither install nor uninstall touches them.
        "mdsel-claude hook",
        "/opt/tools/mdsel-claude hook --min-words 50 | tee -a audit.log",
        "/old/bin/mdsel-claude hook --min-words 50",
    ]
) | st.text(max_size=12)


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


EVENT_NAMES = st.sampled_from(
    [*HOOK_EVENTS, "PostToolUseFailure", "Stop", "UserPromptSubmit", "SessionStart"]
)


@st.composite
def with_key_at_random_place(
    draw: st.DrawFn, key: str, value: st.SearchStrategy[object]
) -> JSONObject:
    """Unrelated top-level keys, with `key` (if drawn) at some position among them."""
    others = draw(st.dictionaries(NAMES.filter(lambda k: k != key), JSON_VALUES, max_size=4))
    items: list[tuple[str, object]] = list(others.items())
    if draw(st.booleans()):
        items.insert(draw(st.integers(0, len(items))), (key, draw(value)))
    return dict(items)


MCP_CONFIGS = st.none() | with_key_at_random_place(
    "mcpServers",
    st.dictionaries(
        NAMES.filter(lambda n: n != entries.SERVER_KEY),
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


# -- helpers ---------------------------------------------------------------------------------------


class Project:
    """A project directory and a state file under one temporary directory."""

    def __init__(self, root: Path) -> None:
        self.dir = root / "project"
        self.dir.mkdir()
        self.state = root / "state" / "mdsel-claude" / "installed.json"
        self.where = paths.locations("project", self.dir, {})

    @property
    def mcp(self) -> Path:
        return self.where.mcp_config

    @property
    def settings(self) -> Path:
        return self.where.settings

    def write(self, path: Path, value: JSONObject | None) -> None:
        if value is not None:
            path.parent.mkdir(exist_ok=True)
            path.write_text(json.dumps(value, indent=4))

    def bytes_of(self, path: Path) -> bytes | None:
        return path.read_bytes() if path.exists() else None

    def read(self, path: Path) -> JSONObject | None:
        return json.loads(path.read_text()) if path.exists() else None

    def install(
        self, min_words: int = 200, event: str = "PreToolUse", allow_duplicate: bool = True
    ) -> list[str]:
        out: list[str] = []
        plan = claude_plans.plan_install(
            self.where, EXE, min_words, event, self.state, allow_duplicate=allow_duplicate
        )
        steps.apply(plan, out)
        return out

    def uninstall(self) -> list[str]:
        out: list[str] = []
        steps.apply(claude_plans.plan_uninstall(self.where, self.state), out)
        return out


def without_our_server(after: JSONObject, before: JSONObject | None) -> JSONObject:
    stripped = copy.deepcopy(after)
    servers = stripped["mcpServers"]
    assert isinstance(servers, dict)
    assert servers.pop(entries.SERVER_KEY) == entries.server_entry(EXE)
    if before is None or "mcpServers" not in before:
        assert servers == {}
        del stripped["mcpServers"]
    return stripped


def our_hooks(settings: JSONObject) -> list[tuple[str, object, object]]:
    """(event, matcher, command) of every hook written with EXE, in file order."""
    found = []
    hooks = settings.get("hooks")
    assert isinstance(hooks, dict)
    for event, groups in hooks.items():
        for group in groups if isinstance(groups, list) else []:
            for hook in group.get("hooks", []) if isinstance(group, dict) else []:
                if entries.is_install_form(hook, EXE):
                    found.append((event, group.get("matcher"), hook["command"]))
    return found


def placements(event: str) -> list[tuple[str, str]]:
    """Where install puts our hook for `event`, typed out (not taken from `entries`)."""
    main = (event, "Read|Bash")
    return [main, ("PostToolUseFailure", "Read")] if event == "PostToolUse" else [main]


def without_our_hook(
    after: JSONObject, before: JSONObject | None, event: str, n: int
) -> JSONObject:
    stripped = copy.deepcopy(after)
    hooks = stripped["hooks"]
    assert isinstance(hooks, dict)
    for name, matcher in entries.hook_placements(event):
        groups = hooks[name]
        assert isinstance(groups, list)
        assert groups.pop() == {"matcher": matcher, "hooks": [entries.hook_entry(EXE, n)]}
        before_hooks = (before or {}).get("hooks")
        if not isinstance(before_hooks, dict) or name not in before_hooks:
            assert groups == []
            del hooks[name]
    if before is None or "hooks" not in before:
        assert hooks == {}
        del stripped["hooks"]
    return stripped


# -- properties ------------------------------------------------------------------------------------


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
        original = (project.bytes_of(project.mcp), project.bytes_of(project.settings))

        # A hook of theirs that runs ours: install adds no second one unless asked to.
        theirs = entry_edits.matched_hooks_in(user_settings or {})
        if any(entries.runs_our_hook(hook) for _, _, hook in theirs):
            with pytest.raises(ConfigFileError, match="remind the agent twice"):
                project.install(min_words, events[0], allow_duplicate=False)
            assert (project.bytes_of(project.mcp), project.bytes_of(project.settings)) == original
        for event in events:  # install again, possibly switching event: never a duplicate
            project.install(min_words, event)
        after_mcp = project.read(project.mcp)
        after_settings = project.read(project.settings)
        assert after_mcp is not None and after_settings is not None
        assert ordered(without_our_server(after_mcp, mcp)) == ordered(mcp or {})
        command = entries.hook_command(EXE, min_words)
        # At PostToolUse, a second entry on PostToolUseFailure for the Read that fails.
        placed = [(event, matcher, command) for event, matcher in placements(events[-1])]
        assert sorted(our_hooks(after_settings), key=str) == sorted(placed, key=str)
        assert ordered(
            without_our_hook(after_settings, user_settings, events[-1], min_words)
        ) == ordered(user_settings or {})

        # Idempotent: the same install again changes no byte.
        snapshot = (project.mcp.read_bytes(), project.settings.read_bytes())
        project.install(min_words, events[-1])
        assert (project.mcp.read_bytes(), project.settings.read_bytes()) == snapshot

        project.uninstall()
        assert (project.bytes_of(project.mcp), project.bytes_of(project.settings)) == original
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
        with pytest.raises(ConfigFileError):
            claude_plans.plan_install(project.where, EXE, 200, "PreToolUse", project.state)
        with pytest.raises(ConfigFileError):
            claude_plans.plan_uninstall(project.where, project.state)
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
    ours = entries.hook_entry(EXE, 50)  # exactly what this install writes: replaced
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
                {"matcher": "Read|Bash", "hooks": [entries.hook_entry(EXE, 200)]},
            ]
        }
    }
    project.uninstall()
    assert project.read(project.settings) == {
        "hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [other]}]}
    }


def test_a_foreign_server_named_mdsel_is_never_replaced_or_removed(
    on_path: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    foreign = {"mcpServers": {"mdsel": {"command": "npx", "args": ["-y", "mdsel-mcp"]}}}
    Path(".mcp.json").write_text(json.dumps(foreign))
    before = Path(".mcp.json").read_bytes()
    assert cli.main(["install", "--scope", "project"]) == 1
    assert "install did not write it" in capsys.readouterr().err
    assert Path(".mcp.json").read_bytes() == before
    assert cli.main(["uninstall", "--scope", "project"]) == 0
    assert json.loads(Path(".mcp.json").read_text()) == foreign
    assert not Path(".claude").exists()


def test_lookalikes_are_reported_and_never_removed(tmp_path: Path) -> None:
    project = Project(tmp_path)
    piped = {
        "type": "command",
        "command": "/opt/tools/mdsel-claude hook --min-words 50 | tee -a audit.log",
    }
    other_install = entries.hook_entry("/old/bin/mdsel-claude", 50)
    hand_written: JSONObject = {
        "mcpServers": {"mdsel": {**entries.server_entry(EXE), "env": {"A": "1"}}}
    }
    project.write(project.mcp, hand_written)
    groups: list[object] = [{"matcher": "Read", "hooks": [piped]}, {"hooks": [other_install]}]
    project.write(project.settings, {"hooks": {"PreToolUse": groups}})
    original = (project.mcp.read_bytes(), project.settings.read_bytes())
    out = project.uninstall()  # install never ran
    assert (project.mcp.read_bytes(), project.settings.read_bytes()) == original
    assert any("left alone in" in line and "tee -a audit.log" in line for line in out)
    assert any("left alone in" in line and "'A': '1'" in line for line in out)
    with pytest.raises(ConfigFileError, match="install did not write it"):
        project.install()
    project.mcp.unlink()
    with pytest.raises(ConfigFileError, match=r"/opt/tools/mdsel-claude hook .* twice"):
        project.install(allow_duplicate=False)
    assert project.settings.read_bytes() == original[1] and not project.mcp.exists()
    out = project.install()  # --allow-duplicate
    assert any("left alone in" in line and "/old/bin/mdsel-claude" in line for line in out)
    project.uninstall()
    assert project.settings.read_bytes() == original[1] and not project.mcp.exists()
