"""`install|doctor --client codex`: the MCP server and the shell-tool hook in Codex CLI's config.

Install writes both into `config.toml` in one step (see `config_toml` for the server,
`hook_tables` for the hook, `trust_keys` for Codex's trust in it); uninstall takes out what the
record says install wrote. Doctor reads the file, says whether our hook is there, exactly as
install writes it, running this installation, and trusted where it now sits, then runs this
installation's hook on a Codex payload (a `cat` of a file over the threshold, and of one at it).
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from pathlib import Path

from mdsel_claude.hook import codex
from mdsel_claude.setup import ownership
from mdsel_claude.setup.clients.codex import config_layers, config_toml, hook_tables, trust_keys
from mdsel_claude.setup.clients.codex.hook_tables import HOOKS, MATCHER, STATE
from mdsel_claude.setup.clients.codex.trust_keys import TRUSTED_HASH
from mdsel_claude.setup.errors import SetupError
from mdsel_claude.setup.jsonfile import ConfigFileError, JSONObject
from mdsel_claude.setup.probes import Report, run_on_threshold
from mdsel_claude.setup.steps import Plan

NO_OUTLINE = (
    "Codex CLI replaces a tool's output only for MCP tools, not for its shell command: there "
    "the hook can only give the reminder; install without --mode outline"
)

NEXT_STEPS = (
    "Start (or restart) Codex CLI to load them. Its MCP tools: mdsel_index, mdsel_select; the "
    "hook reminds it of them when a shell command prints a large Markdown file. Check with: "
    "mdsel-claude doctor --client codex"
)


def plan_install(
    path: Path,
    executable: str,
    min_words: int,
    mode: str,
    event: str,
    state_file: Path,
    environ: Mapping[str, str],
    server: JSONObject,
) -> Plan:
    """Our `server` and hook (trusted) in Codex's `config.toml` at `path`."""
    if mode == "outline":
        raise SetupError(NO_OUTLINE)
    entry = hook_tables.hook_entry(executable, min_words)
    hook = config_toml.Hook(event, entry, trust_keys.trust_source(environ))
    return config_toml.plan_install(path, server, state_file, hook)


def _our_hooks(doc: object) -> list[tuple[str, int, int, dict[str, object]]]:
    """Every hook in the file of install's form (any executable): event, group, index, value."""
    hooks = doc.get(HOOKS) if isinstance(doc, dict) else None
    found: list[tuple[str, int, int, dict[str, object]]] = []
    for event in trust_keys.EVENT_LABELS:
        groups = hooks.get(event) if isinstance(hooks, dict) else None
        for g, group in enumerate(groups if isinstance(groups, list) else []):
            inner = group.get(HOOKS) if isinstance(group, dict) else None
            for h, hook in enumerate(inner if isinstance(inner, list) else []):
                if hook_tables.is_install_form(hook):
                    matcher = group.get("matcher") if isinstance(group, dict) else None
                    found.append((event, g, h, {**hook, "matcher": matcher}))
    return found


def hooks_switched_off(doc: object) -> str | None:
    """The `[features]` key of one file that switches Codex's hooks off, or None when it
    leaves them on or to other files."""
    switch = config_layers.deciding([(Path(), doc)])
    return switch[1] if switch is not None and not switch[2] else None


def doctor(path: Path, environ: Mapping[str, str], report: Report, folder: Path) -> None:
    """Our hook in Codex's user `config.toml`: there, ours, trusted, and hooks not switched off
    (there or in the trusted project's files Codex reads when started in `folder`); then run
    it."""
    try:
        doc = config_toml.plain_values(path)
    except ConfigFileError as error:
        report.fail(str(error))
        return
    layers: list[tuple[Path, object]] = [(path, doc)]
    for project_file in config_layers.project_files(doc, folder):
        try:
            layers.append((project_file, config_toml.plain_values(project_file)))
        except ConfigFileError as error:
            report.fail(str(error))
    switch = config_layers.deciding(layers)
    if switch is not None and not switch[2]:
        where, key, _on = switch
        report.fail(
            f"hooks are switched off in {where} ([features] {key} = false): Codex runs none"
        )
    me = ownership.this_installation()
    source = trust_keys.trust_source(environ)
    mine: list[str] = []
    for event, group, index, hook in _our_hooks(doc):
        matcher = hook.pop("matcher")
        command = str(hook["command"])
        program = shlex.split(command)[0]
        report.say(f"  {event} hook ({path}): {command}")
        problem = ownership.program_problem(program, me, environ)
        if problem:
            report.fail(f"not this installation's: {problem}")
            continue
        if matcher != MATCHER:
            report.fail(f"its matcher is {matcher!r}, not {MATCHER!r}: it never runs")
            continue
        key = trust_keys.trust_key(source, event, group, index)
        states = doc[HOOKS].get(STATE)  # `_our_hooks` found hooks: a table
        state = states.get(key) if isinstance(states, dict) else None
        state = state if isinstance(state, dict) else {}
        if state.get("enabled") is False:
            report.fail(f"disabled in Codex (/hooks, or {STATE} {key!r}): Codex skips it")
            continue
        if state.get(TRUSTED_HASH) != trust_keys.trust_hash(event, hook):
            report.fail(
                "not trusted where it now sits (a hook before it moved, or its trust was "
                "removed): Codex skips it until `mdsel-claude install --client codex` runs "
                "again (or you trust it in Codex's /hooks)"
            )
            continue
        report.say("    ours, trusted: Codex runs it on every shell command")
        mine.append(command)
    if not mine:
        report.fail(
            "no hook of this installation is registered and trusted for Codex CLI: run "
            "`mdsel-claude install --client codex`"
        )
        return
    if len(mine) > 1:
        report.fail("more than one hook of ours: the reminder would be given twice")
    argv = [*me.argv, *shlex.split(mine[0])[1:]]
    report.say(f"  {shlex.join(argv)}")
    check_hook(argv, report)


def check_hook(argv: list[str], report: Report) -> None:
    """Run our Codex hook on a `cat` of a file over its threshold and of one at it (after the
    command, as Codex would): the reminder, then silence."""

    def cat(directory: str, name: str) -> dict[str, object]:
        return {
            "session_id": "mdsel-claude-doctor",
            "hook_event_name": "PostToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": f"cat {name}"},
            "tool_response": "",
            "cwd": directory,
        }

    run_on_threshold(argv, cat, codex.answer, report)
