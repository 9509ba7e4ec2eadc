"""Our entries put into a parsed config and taken out again: add then remove gives the value
back, key order and all; only containers the add created go, and only when left empty; a
look-alike stays; a wrong shape is a ConfigFileError."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mdsel_claude.setup import entries, ledger
from mdsel_claude.setup.entries import HOOK_MATCHER, SERVER_KEY, KeyPath, Ours
from mdsel_claude.setup.entry_edits import (
    add_hook,
    add_server,
    hooks_in,
    matched_hooks_in,
    prune,
    remove_hooks,
    remove_server,
    servers_in,
)
from mdsel_claude.setup.jsonfile import ConfigFileError, JSONObject

EXE = "/opt/mdsel tools/bin/mdsel-claude"
PATH = Path("/nowhere/settings.json")  # named in errors only: these functions never read files
SERVER = entries.server_entry(EXE)
HOOK = entries.hook_entry(EXE, 200)
OTHER_HOOK: JSONObject = {"type": "command", "command": "echo other"}
LOCAL: KeyPath = ("projects", "/work/p")


def exactly(value: object) -> Ours:
    """What the install record says is ours: that value and nothing else."""
    return lambda candidate: ledger.same_value(candidate, value)


def ordered(value: object) -> str:
    """Equal text means the same JSON value with keys in the same order."""
    return json.dumps(value)


# -- MCP servers -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "at", "container", "created"),
    [
        ({}, (), "mcpServers", (("mcpServers",),)),
        (
            {"a": 1, "mcpServers": {"x": {"command": "x"}}, "z": [1, {"y": None}]},
            (),
            "mcpServers",
            (),
        ),
        ({"mcpServers": {}}, (), "mcpServers", ()),  # the user's empty object stays
        ({"servers": {"x": {}}, "inputs": []}, (), "servers", ()),  # VS Code's name
        ({"$schema": "s", "mcp": {}}, (), "mcp", ()),  # OpenCode's name
        (
            {"numStartups": 3, "projects": {"/other": {"mcpServers": {"x": {}}}}, "tips": {}},
            LOCAL,
            "mcpServers",
            (LOCAL, (*LOCAL, "mcpServers")),
        ),
        ({"projects": {}}, LOCAL, "mcpServers", (LOCAL, (*LOCAL, "mcpServers"))),
        ({}, LOCAL, "mcpServers", (("projects",), LOCAL, (*LOCAL, "mcpServers"))),
        (
            {"projects": {"/work/p": {"allowedTools": [], "mcpServers": {"x": {}}}}},
            LOCAL,
            "mcpServers",
            (),
        ),
    ],
)
def test_add_then_remove_server_gives_the_value_back(
    config: JSONObject, at: KeyPath, container: str, created: tuple[KeyPath, ...]
) -> None:
    original = copy.deepcopy(config)
    added = add_server(config, SERVER, PATH, exactly(SERVER), at, container)
    assert ordered(config) == ordered(original)  # the argument is never changed
    assert added.created == created
    servers = servers_in(added.value, PATH, at, container)
    assert list(servers)[-1] == SERVER_KEY and servers[SERVER_KEY] == SERVER
    removed = remove_server(added.value, PATH, exactly(SERVER), at, container)
    back, remaining = prune(removed, added.created)
    assert ordered(back) == ordered(original)
    assert remaining == ()


def test_our_server_is_replaced_where_it_stands() -> None:
    older = entries.server_entry("/old/bin/mdsel-claude")
    config: JSONObject = {"mcpServers": {"a": {}, SERVER_KEY: older, "b": {}}}
    added = add_server(config, SERVER, PATH, exactly(older))
    assert added.value == {"mcpServers": {"a": {}, SERVER_KEY: SERVER, "b": {}}}
    assert list(servers_in(added.value, PATH)) == ["a", SERVER_KEY, "b"]
    assert added.created == ()


def test_the_added_entry_is_a_copy() -> None:
    entry = copy.deepcopy(SERVER)
    added = add_server({}, entry, PATH, exactly(SERVER))
    servers = servers_in(added.value, PATH)
    args = servers[SERVER_KEY]["args"]  # type: ignore[index]
    args.append("changed later")
    assert entry == SERVER


@pytest.mark.parametrize(
    "foreign",
    [
        {"command": "npx", "args": ["-y", "mdsel-mcp"]},
        {**SERVER, "env": {"A": "1"}},  # looks like ours, but install never wrote an env
        "not even an object",
    ],
)
def test_a_server_named_mdsel_that_is_not_ours_is_refused_and_never_removed(
    foreign: object,
) -> None:
    config: JSONObject = {"mcpServers": {"x": {}, SERVER_KEY: foreign}}
    original = copy.deepcopy(config)
    with pytest.raises(ConfigFileError, match="install did not write it") as refused:
        add_server(config, SERVER, PATH, exactly(SERVER))
    assert refused.value.path == PATH
    assert config == original
    assert ordered(remove_server(config, PATH, exactly(SERVER))) == ordered(original)


def test_remove_server_with_nothing_there_changes_nothing() -> None:
    configs: list[JSONObject] = [{}, {"projects": {}}, {"projects": {"/work/p": {}}}, {"other": 1}]
    for config in configs:
        assert remove_server(config, PATH, exactly(SERVER), LOCAL) == config
        assert servers_in(config, PATH, LOCAL) == {}


# -- wrong shapes ----------------------------------------------------------------------------


Edit = Callable[[JSONObject], object]


WRONG_SHAPES: list[tuple[str, Edit, JSONObject, str]] = [
    (
        "servers_in",
        lambda c: servers_in(c, PATH),
        {"mcpServers": [SERVER]},
        '"mcpServers" should be an object, found an array',
    ),
    (
        "servers_in",
        lambda c: servers_in(c, PATH, LOCAL),
        {"projects": ["/work/p"]},
        '"projects" should be an object, found an array',
    ),
    (
        "servers_in",
        lambda c: servers_in(c, PATH, LOCAL),
        {"projects": {"/work/p": 3}},
        '"projects"."/work/p" should be an object, found a number',
    ),
    (
        "add_server",
        lambda c: add_server(c, SERVER, PATH, exactly(SERVER), LOCAL),
        {"projects": {"/work/p": {"mcpServers": "none"}}},
        '"projects"."/work/p"."mcpServers" should be an object, found a string',
    ),
    (
        "add_server",
        lambda c: add_server(c, SERVER, PATH, exactly(SERVER), LOCAL),
        {"projects": None},
        '"projects" should be an object, found null',
    ),
    (
        "remove_server",
        lambda c: remove_server(c, PATH, exactly(SERVER)),
        {"mcpServers": [SERVER]},
        '"mcpServers" should be an object, found an array',
    ),
    (
        "remove_server",
        lambda c: remove_server(c, PATH, exactly(SERVER), LOCAL),
        {"projects": {"/work/p": True}},
        '"projects"."/work/p" should be an object, found a boolean',
    ),
    (
        "add_hook",
        lambda s: add_hook(s, "PreToolUse", HOOK, PATH, exactly(HOOK)),
        {"hooks": []},
        '"hooks" should be an object, found an array',
    ),
    (
        "add_hook",
        lambda s: add_hook(s, "PreToolUse", HOOK, PATH, exactly(HOOK)),
        {"hooks": {"PreToolUse": {"matcher": "Read"}}},
        '"hooks"."PreToolUse" should be an array, found an object',
    ),
    (
        "remove_hooks",
        lambda s: remove_hooks(s, PATH, exactly(HOOK)),
        {"hooks": "none"},
        '"hooks" should be an object, found a string',
    ),
]


@pytest.mark.parametrize(
    ("edit", "value", "problem"),
    [case[1:] for case in WRONG_SHAPES],
    ids=[f"{case[0]}-{i}" for i, case in enumerate(WRONG_SHAPES)],
)
def test_a_wrong_shape_is_refused_with_the_file_named(
    edit: Edit, value: JSONObject, problem: str
) -> None:
    original = copy.deepcopy(value)
    with pytest.raises(ConfigFileError) as refused:
        edit(value)
    assert refused.value.problem == problem
    assert refused.value.path == PATH and str(refused.value).startswith(f"{PATH}: ")
    assert value == original


def test_remove_hooks_leaves_alone_what_it_cannot_judge() -> None:
    """Only `"hooks"` itself must be an object; any other odd shape under it is the user's, and
    stays as it is (Claude Code reports it), even beside a hook of ours that goes."""
    odd: JSONObject = {
        "hooks": {
            "PreToolUse": {"matcher": "Read", "hooks": [HOOK]},
            "Stop": [3, "x", None, [HOOK], {"matcher": "Read"}, {"hooks": HOOK}],
            "PostToolUse": [{"matcher": "Read", "hooks": []}, {"hooks": [OTHER_HOOK, 7]}],
        },
        "model": "x",
    }
    assert ordered(remove_hooks(odd, PATH, exactly(HOOK))) == ordered(odd)
    odd["hooks"]["Stop"].append({"matcher": "Read|Bash", "hooks": [HOOK]})  # type: ignore[index]
    after = remove_hooks(odd, PATH, exactly(HOOK))
    assert after["hooks"]["Stop"] == [3, "x", None, [HOOK], {"matcher": "Read"}, {"hooks": HOOK}]  # type: ignore[index]


# -- hooks -----------------------------------------------------------------------------------


def test_hooks_in_lists_every_hook_object_and_skips_wrong_shapes() -> None:
    a: JSONObject = {"type": "command", "command": "a"}
    b: JSONObject = {"type": "command", "command": "b"}
    value: JSONObject = {
        "hooks": {
            "PreToolUse": [{"matcher": "Read", "hooks": [a, "text", None, b]}, 5, {"hooks": 1}],
            "Stop": "not a list",
            "PostToolUse": [{"hooks": [HOOK]}, {"matcher": 0, "hooks": [{}]}],
        }
    }
    assert matched_hooks_in(value) == [
        ("PreToolUse", "Read", a),
        ("PreToolUse", "Read", b),
        ("PostToolUse", None, HOOK),
        ("PostToolUse", 0, {}),
    ]
    assert hooks_in(value) == [
        ("PreToolUse", a),
        ("PreToolUse", b),
        ("PostToolUse", HOOK),
        ("PostToolUse", {}),
    ]
    wrongs: list[JSONObject] = [{}, {"hooks": []}, {"hooks": "x"}, {"hooks": None}]
    wrongs.append({"hooks": {"E": {}}})
    for wrong in wrongs:
        assert hooks_in(wrong) == [] and matched_hooks_in(wrong) == []


SETTINGS_CASES: list[tuple[JSONObject, tuple[KeyPath, ...]]] = [
    ({}, (("hooks",), ("hooks", "PreToolUse"))),
    ({"model": "x", "env": {"A": "1"}}, (("hooks",), ("hooks", "PreToolUse"))),
    ({"hooks": {}}, (("hooks", "PreToolUse"),)),  # the user's empty "hooks" stays
    ({"hooks": {"PreToolUse": []}, "z": 0}, ()),
    (
        {
            "a": 1,
            "hooks": {
                "Stop": [{"hooks": [OTHER_HOOK]}],
                "PreToolUse": [
                    {"matcher": "Read", "hooks": [OTHER_HOOK]},
                    {"matcher": "Read", "hooks": []},  # an empty group of the user's stays
                ],
            },
            "z": [],
        },
        (),
    ),
]


@pytest.mark.parametrize(("original", "created"), SETTINGS_CASES)
def test_add_then_remove_hook_gives_the_value_back(
    original: JSONObject, created: tuple[KeyPath, ...]
) -> None:
    snapshot = copy.deepcopy(original)
    added = add_hook(original, "PreToolUse", HOOK, PATH, exactly(HOOK))
    assert ordered(original) == ordered(snapshot)  # the argument is never changed
    assert added.created == created
    groups = added.value["hooks"]["PreToolUse"]  # type: ignore[index]
    assert groups[-1] == {"matcher": HOOK_MATCHER, "hooks": [HOOK]}
    assert [hook for _, hook in hooks_in(added.value) if hook == HOOK] == [HOOK]
    back, remaining = prune(remove_hooks(added.value, PATH, exactly(HOOK)), added.created)
    assert ordered(back) == ordered(snapshot)
    assert remaining == ()


def test_add_hook_moves_our_hook_instead_of_adding_a_second() -> None:
    older = entries.hook_entry(EXE, 50)
    ours = lambda hook: entries.is_install_form(hook, EXE)  # noqa: E731  (install's own test)
    value: JSONObject = {
        "hooks": {
            "PostToolUse": [
                {"matcher": "Read", "hooks": [OTHER_HOOK, older]},
                {"matcher": "Read|Bash", "hooks": [older]},
            ],
            "PreToolUse": [{"matcher": "Write", "hooks": [OTHER_HOOK]}],
        }
    }
    added = add_hook(value, "PreToolUse", HOOK, PATH, ours)
    assert added.value == {
        "hooks": {
            "PostToolUse": [{"matcher": "Read", "hooks": [OTHER_HOOK]}],
            "PreToolUse": [
                {"matcher": "Write", "hooks": [OTHER_HOOK]},
                {"matcher": HOOK_MATCHER, "hooks": [HOOK]},
            ],
        }
    }
    assert added.created == ()
    again = add_hook(added.value, "PreToolUse", HOOK, PATH, ours)
    assert ordered(again.value) == ordered(added.value)  # installing again: the same value


def test_a_shared_group_keeps_the_other_hooks_and_its_own_keys() -> None:
    group = {"matcher": "Read", "hooks": [OTHER_HOOK, HOOK, OTHER_HOOK], "note": "mine"}
    value: JSONObject = {"hooks": {"PreToolUse": [group]}}
    after = remove_hooks(value, PATH, exactly(HOOK))
    kept = after["hooks"]["PreToolUse"][0]  # type: ignore[index]
    assert ordered(kept) == ordered(
        {"matcher": "Read", "hooks": [OTHER_HOOK, OTHER_HOOK], "note": "mine"}
    )
    # A group holding only hooks of ours goes with them; the event's list stays, even empty.
    alone: JSONObject = {"hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [HOOK, HOOK]}]}}
    assert remove_hooks(alone, PATH, exactly(HOOK)) == {"hooks": {"PreToolUse": []}}


@pytest.mark.parametrize(
    "lookalike",
    [
        {**HOOK, "timeout": 9},
        {"type": "command", "command": HOOK["command"] + " | tee -a audit.log"},  # type: ignore[operator]
        {"type": "command", "command": "mdsel-claude hook --min-words 200"},
        entries.hook_entry("/old/bin/mdsel-claude", 200),
        {"command": HOOK["command"]},
        {"type": "command", "command": "/venv/bin/python3 -m mdsel_claude hook --min-words 5"},
    ],
)
def test_a_lookalike_hook_is_never_removed(lookalike: JSONObject) -> None:
    """Nor is ours added beside it (it runs our hook: the reminder would come twice), unless
    asked to (`--allow-duplicate`)."""
    value: JSONObject = {
        "hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [lookalike]}, {"hooks": [HOOK]}]}
    }
    for ours in (exactly(HOOK), lambda hook: entries.is_install_form(hook, EXE)):
        after = remove_hooks(value, PATH, ours)
        assert after == {"hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [lookalike]}]}}
        with pytest.raises(ConfigFileError, match="remind the agent twice") as refused:
            add_hook(value, "PostToolUse", HOOK, PATH, ours)
        assert f"its PreToolUse hook {lookalike['command']!r} runs mdsel-claude's hook" in str(
            refused.value
        )
        readded = add_hook(value, "PostToolUse", HOOK, PATH, ours, allow_second=True)
        assert [hook for _, hook in hooks_in(readded.value)] == [lookalike, HOOK]


@pytest.mark.parametrize(
    "command",
    [
        "echo mdsel-claude hook",
        "mdsel-claude-hook --min-words 200",
        "/bin/mdsel-claude serve",
        "mdsel-claude 'unclosed",
    ],
)
def test_a_hook_that_only_mentions_ours_is_no_second_reminder(command: str) -> None:
    theirs = {"type": "command", "command": command}
    value: JSONObject = {"hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [theirs]}]}}
    readded = add_hook(value, "PreToolUse", HOOK, PATH, exactly(HOOK))
    assert [hook for _, hook in hooks_in(readded.value)] == [theirs, HOOK]


# -- prune -----------------------------------------------------------------------------------


def test_prune_takes_only_created_containers_left_empty() -> None:
    value: JSONObject = {
        "hooks": {"PreToolUse": [], "Stop": []},
        "keep": {},
        "projects": {"/work/p": {"mcpServers": {}}},
    }
    original = copy.deepcopy(value)
    created: list[KeyPath] = [
        ("hooks",),
        ("hooks", "PreToolUse"),
        ("projects",),
        LOCAL,
        (*LOCAL, "mcpServers"),
    ]
    result, remaining = prune(value, created)
    # "Stop" was not created, so "hooks" is not empty once "PreToolUse" goes and stays listed.
    assert ordered(result) == ordered({"hooks": {"Stop": []}, "keep": {}})
    assert remaining == (("hooks",),)
    assert value == original


def test_prune_keeps_a_created_container_filled_since() -> None:
    value: JSONObject = {"projects": {"/work/p": {"mcpServers": {"later": {}}}, "/q": {}}}
    created = [(*LOCAL, "mcpServers"), ("projects",), LOCAL]
    result, remaining = prune(value, created)
    assert result == value
    assert remaining == (("projects",), LOCAL, (*LOCAL, "mcpServers"))  # outermost first


@pytest.mark.parametrize("left", [0, "", None, False, 0.0, [None], {"a": None}])
def test_prune_never_takes_a_value_that_is_not_an_empty_container(left: object) -> None:
    value: JSONObject = {"hooks": left}
    result, remaining = prune(value, [("hooks",)])
    assert ordered(result) == ordered({"hooks": left})
    assert remaining == (("hooks",),)


def test_prune_skips_containers_gone_or_under_something_else() -> None:
    values: list[JSONObject] = [{}, {"projects": []}, {"projects": {"/work/p": "x"}}]
    values.append({"projects": {}})
    for value in values:
        result, remaining = prune(value, [(*LOCAL, "mcpServers")])
        assert result == value and remaining == ()


# -- any shape: refused, or given back -------------------------------------------------------


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=8,
)
HOOKISH = st.one_of(
    st.fixed_dictionaries({"type": st.just("command"), "command": st.text(max_size=6)}),
    st.just(OTHER_HOOK),
    JSON,
)
GROUPS = st.one_of(
    st.lists(
        st.fixed_dictionaries({"hooks": st.lists(HOOKISH, max_size=3)}, optional={"matcher": JSON})
        | JSON,
        max_size=3,
    ),
    JSON,
)
SETTINGS_VALUES = st.dictionaries(
    st.sampled_from(["hooks", "model", "z"]),
    st.dictionaries(st.sampled_from(["PreToolUse", "PostToolUse", "Stop"]), GROUPS) | JSON,
)


@settings(max_examples=200, deadline=None)
@given(value=SETTINGS_VALUES, event=st.sampled_from(entries.HOOK_EVENTS))
def test_any_settings_value_is_refused_or_given_back(value: JSONObject, event: str) -> None:
    hooks = value.get("hooks", {})
    well_formed = isinstance(hooks, dict) and isinstance(hooks.get(event, []), list)
    try:
        added = add_hook(value, event, HOOK, PATH, exactly(HOOK))
    except ConfigFileError:
        assert not well_formed
        return
    assert well_formed
    back, remaining = prune(remove_hooks(added.value, PATH, exactly(HOOK)), added.created)
    assert ordered(back) == ordered(value) and remaining == ()


SERVER_HOLDERS = st.dictionaries(
    st.sampled_from(["projects", "numStartups"]),
    st.dictionaries(
        st.sampled_from(["/work/p", "/q"]),
        st.dictionaries(st.sampled_from(["mcpServers", "allowedTools"]), JSON) | JSON,
    )
    | JSON,
)


def _servers_well_formed(value: JSONObject) -> bool:
    here: object = value
    for key in (*LOCAL, "mcpServers"):
        if not isinstance(here, dict):
            return False
        here = here.get(key, {})
    return isinstance(here, dict) and SERVER_KEY not in here


@settings(max_examples=200, deadline=None)
@given(value=SERVER_HOLDERS)
def test_any_config_value_is_refused_or_given_back(value: JSONObject) -> None:
    try:
        added = add_server(value, SERVER, PATH, exactly(SERVER), LOCAL)
    except ConfigFileError:
        assert not _servers_well_formed(value)
        return
    assert _servers_well_formed(value)
    removed = remove_server(added.value, PATH, exactly(SERVER), LOCAL)
    back, remaining = prune(removed, added.created)
    assert ordered(back) == ordered(value) and remaining == ()
