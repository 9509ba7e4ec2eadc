"""`mdsel-claude doctor`: what is registered where, whether ours works, and what is doubled.

It reads every scope's files itself (see `claude_places`), says for each entry whether it is this
installation's own (see `ownership`) — anything else is reported as not ours and never run — and
checks ours by running its own executable. It writes nothing and runs nothing a project file
names. Exit status 0 only when our server and hook are registered, both work, Claude Code will
use them (a project server approved), and nothing is registered twice.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from pathlib import Path

from mdsel_claude.setup import claude_places, instructions, ledger, ownership, paths, policy
from mdsel_claude.setup.claude_places import Hook, Server, Survey
from mdsel_claude.setup.entries import EXECUTABLE_NAME, FAILURE_EVENT, SERVER_KEY
from mdsel_claude.setup.ownership import Installation, Verdict
from mdsel_claude.setup.probes import (
    Report,
    check_hook,
    check_server,
    fires_on_failed_read,
    fires_on_read,
)

SCOPE_ORDER = ("local", "project", "user")
"""Which scope's server Claude Code uses when several have one by the same name."""

APPROVE_HINT = "start `claude` in the project and approve it (or enable it in /mcp)"


def run_doctor(project_dir: Path, environ: Mapping[str, str]) -> int:
    """Check everything, print the report, return the exit status."""
    report = Report()
    me = ownership.this_installation()
    report.say(f"{EXECUTABLE_NAME}: {shlex.join(me.argv)} (the only program doctor runs)")
    found = claude_places.survey(project_dir, environ)
    report.say(f"project {found.project}")
    for problem in found.problems:
        report.fail(problem)
    servers = [(s, ownership.judge_server(s.value, me, environ)) for s in found.servers]
    hooks = [(h, _judge_hook(h, me, environ)) for h in found.hooks]
    report.say("found")
    _list(servers, hooks, found, report)
    _instructions(project_dir, environ, report)
    _gone(servers, hooks, report)
    report.say("checks")
    _probe(me, servers, hooks, report)
    _judge_servers(servers, found, report)
    _judge_hooks(hooks, found, report)
    report.say("all good" if not report.failed else "problems found (see above)")
    print("\n".join(report.lines))
    return 1 if report.failed else 0


def _instructions(project_dir: Path, environ: Mapping[str, str], report: Report) -> None:
    """The instructions block of each scope (optional, so never a failure)."""
    state = ledger.load(ledger.state_path(environ))
    for scope in SCOPE_ORDER:
        where = paths.locations(scope, project_dir, environ)
        if where.instructions is not None:
            target = instructions.Target(where.instructions, f"claude:{scope}")
            flag = "" if scope == SCOPE_ORDER[0] else f" --scope {scope}"
            instructions.report(scope, target, state, flag, report)


def _judge_hook(hook: Hook, me: Installation, environ: Mapping[str, str]) -> Verdict:
    """Ours only as install (or the plugin) writes it: a key added by hand (`async`, another
    `type`) may change how Claude Code runs it, so doctor does not vouch for it."""
    if hook.other_keys:
        keys = ", ".join(hook.other_keys)
        return Verdict(None, f"not a hook install writes (other keys or values: {keys})")
    return ownership.judge_hook(hook.command, me, environ)


def _where(scope: str, where: str) -> str:
    return f"{scope} ({where})" if scope.startswith("plugin") else f"{scope} scope ({where})"


def _judged(verdict: Verdict) -> str:
    return ("ours, " if verdict.args else "not ours, not run: ") + verdict.reason


def _list(
    servers: list[tuple[Server, Verdict]],
    hooks: list[tuple[Hook, Verdict]],
    found: Survey,
    report: Report,
) -> None:
    if not servers and not hooks:
        report.say("  nothing of mdsel-claude's in any scope")
    for server, verdict in servers:
        place = _where(server.scope, server.where)
        report.say(f"  MCP server {server.name!r} {place}: {_judged(verdict)}")
        if server.scope == "project":
            report.say(f"    approval: {claude_places.approval_of(found, server.name)}")
    for hook, verdict in hooks:
        report.say(
            f"  {hook.event} hook (matcher {hook.matcher!r}) {_where(hook.scope, hook.where)}: "
            f"{_judged(verdict)}"
        )


def _gone(
    servers: list[tuple[Server, Verdict]], hooks: list[tuple[Hook, Verdict]], report: Report
) -> None:
    """Entries of install's exact form whose program no longer exists: they fail on every
    start or Read. Said with the commands that fix them."""
    dead = [(s.scope, ownership.missing_program(s.value, False)) for s, _ in servers]
    for hook, _ in hooks:
        value = {"type": "command", "command": hook.command}
        dead.append((hook.scope, ownership.missing_program(value, True)))
    for scope, program in dict.fromkeys((s, p) for s, p in dead if p):
        if scope == "managed":
            report.fail(f"the managed settings run {program}, which does not exist: tell the "
                        "administrator, whose settings these are")  # fmt: skip
            continue
        flag = "" if scope == SCOPE_ORDER[0] else f" --scope {scope}"
        report.fail(
            f"{scope} scope runs {program}, which no longer exists (mdsel-claude uninstalled "
            f"or moved): `{EXECUTABLE_NAME} uninstall{flag}` removes it (or `uninstall --all`, "
            f"everywhere), then `{EXECUTABLE_NAME} install{flag}` registers this installation"
        )


def _probe(
    me: Installation,
    servers: list[tuple[Server, Verdict]],
    hooks: list[tuple[Hook, Verdict]],
    report: Report,
) -> None:
    """Run our executable once per distinct set of arguments that our entries use."""
    runs = {v.args for _, v in servers if v.args} | {
        v.args
        for h, v in hooks
        if v.args
        and (fires_on_read(h.event, h.matcher) or fires_on_failed_read(h.event, h.matcher))
    }
    for args in sorted(runs):
        assert args is not None
        report.say(f"  {shlex.join((*me.argv, *args))}")
        if args[0] == "serve":
            check_server((*me.argv, *args), report)
        else:
            check_hook((*me.argv, *args), report)


def _judge_servers(servers: list[tuple[Server, Verdict]], found: Survey, report: Report) -> None:
    """The server Claude Code will use for each name, duplicates, approval."""
    in_scopes = [(s, v) for s, v in servers if s.scope in SCOPE_ORDER]
    plugin = [(s, v) for s, v in servers if s.scope.startswith("plugin")]
    used: list[tuple[Server, Verdict]] = []
    for name in dict.fromkeys(s.name for s, _ in in_scopes):
        same = [(s, v) for s, v in in_scopes if s.name == name]
        same.sort(key=lambda pair: SCOPE_ORDER.index(pair[0].scope))
        used.append(same[0])
        for shadowed, _ in same[1:]:
            winner = same[0][0]
            report.fail(
                f"MCP server {name!r} is registered twice: "
                f"{_where(shadowed.scope, shadowed.where)} is unused, "
                f"{_where(winner.scope, winner.where)} wins; remove one"
            )
    candidates = [(s, v) for s, v in used if s.name == SERVER_KEY or v.args] + plugin
    active = [(s, v) for s, v in servers if s.scope == "managed"]
    for server, verdict in candidates:
        refusal = policy.server_refusal(server, found)
        if refusal is None:
            active.append((server, verdict))
        elif verdict.args:
            report.fail(
                f"Claude Code does not start MCP server {server.name!r} from "
                f"{_where(server.scope, server.where)}: {refusal}"
            )
    if len(active) > 1:
        places = "; ".join(_where(s.scope, s.where) for s, _ in active)
        report.fail(f"{len(active)} mdsel servers are active, so the tools appear twice: {places}")
    for server, verdict in active:
        _judge_active(server, verdict, found, report)
    if not any(verdict.args for _, verdict in candidates + active):
        report.fail("no MCP server of this installation is registered: run `mdsel-claude install`")


def _judge_active(server: Server, verdict: Verdict, found: Survey, report: Report) -> None:
    """What keeps a server Claude Code would start from working: switched off, its tools
    denied, kept out by the allowlist, not ours, not approved."""
    off = found.switched_off.get(server.name)
    if off is not None:
        report.fail(
            f"MCP server {server.name!r} is switched off ({off}), so Claude Code does not "
            "start it: remove it there (or enable the server in /mcp)"
        )
    denied = claude_places.denied_tools(found, server.name)
    if denied:
        report.fail(
            f"Claude Code refuses the tools of MCP server {server.name!r}: permissions.deny "
            f"has {', '.join(denied)}; remove the rule"
        )
    # The organisation's own servers need no allowlist entry.
    refused = (
        None
        if server.scope == "managed"
        else claude_places.allowlist_refusal(found, server.name, server.value)
    )
    if refused is not None:
        report.fail(f"Claude Code does not start MCP server {server.name!r}: {refused}")
    if verdict.args:
        _judge_environment(server, found, report)
    if not verdict.args:
        report.fail(
            f"Claude Code will start MCP server {server.name!r} from "
            f"{_where(server.scope, server.where)}, which is not this installation's "
            f"({verdict.reason}); it was not run"
        )
    elif server.scope == "project":
        state = claude_places.approval_of(found, server.name)
        if state != "approved":
            report.fail(f"project MCP server {server.name!r} is {state}: {APPROVE_HINT}")


def _judge_hooks(hooks: list[tuple[Hook, Verdict]], found: Survey, report: Report) -> None:
    if found.hooks_off is not None:
        report.fail(f"disableAllHooks is set in {found.hooks_off}, so no hook runs, ours included")
    # The PostToolUseFailure hook is judged on its own: it runs for a failed Read only.
    failure = [(h, v) for h, v in hooks if h.event == FAILURE_EVENT]
    tool_hooks = [(h, v) for h, v in hooks if h.event != FAILURE_EVENT]
    on_read = [(h, v) for h, v in tool_hooks if fires_on_read(h.event, h.matcher)]
    for hook, verdict in tool_hooks:
        if verdict.args and not fires_on_read(hook.event, hook.matcher):
            report.fail(
                f"the hook in {hook.where} is registered for {hook.event} with matcher "
                f"{hook.matcher!r}, so it never runs when the agent uses Read "
                "(run `mdsel-claude install` again to put it back)"
            )
    for hook, verdict in on_read:
        if verdict.args and not fires_on_read(hook.event, hook.matcher, "Bash"):
            report.say(
                f"    note: the hook in {hook.where} does not run on Bash, so a shell read "
                "(cat, sed -n, head -n 500) gets no reminder; `mdsel-claude install` again adds it"
            )
    running = []
    for hook, verdict in on_read:
        refusal = policy.hook_refusal(hook, found)
        if refusal is None:
            running.append((hook, verdict))
        elif verdict.args:
            report.fail(f"the hook in {hook.where} never runs: {refusal}")
    if len(running) > 1:
        places = "; ".join(dict.fromkeys(_where(h.scope, h.where) for h, _ in running))
        report.fail(f"duplicate: {len(running)} Read hooks are registered (in {places}); keep one")
    if not any(verdict.args for _, verdict in on_read):
        report.fail("no Read hook of this installation is registered: run `mdsel-claude install`")
    after_read = any(v.args and h.event == "PostToolUse" for h, v in running)
    _judge_failure_hooks(failure, after_read, found, report)


def _judge_failure_hooks(
    hooks: list[tuple[Hook, Verdict]], after_read: bool, found: Survey, report: Report
) -> None:
    """Our PostToolUseFailure hook on Read (a Read too large to return): it must match Read,
    be there once, and be there at all when our Read hook runs at PostToolUse, which a failed
    Read never reaches (at PreToolUse that hook reminds whether the Read then fails or not)."""
    for hook, verdict in hooks:
        if verdict.args and not fires_on_failed_read(hook.event, hook.matcher):
            report.fail(
                f"the hook in {hook.where} is registered for {hook.event} with matcher "
                f"{hook.matcher!r}, so it never runs when a Read fails "
                "(run `mdsel-claude install` again to put it back)"
            )
    on_failure = [(h, v) for h, v in hooks if fires_on_failed_read(h.event, h.matcher)]
    running = [(h, v) for h, v in on_failure if policy.hook_refusal(h, found) is None]
    if len(running) > 1:
        places = "; ".join(dict.fromkeys(_where(h.scope, h.where) for h, _ in running))
        report.fail(
            f"duplicate: {len(running)} {FAILURE_EVENT} hooks on Read are registered (in "
            f"{places}); keep one"
        )
    if after_read and not any(v.args for _, v in running):
        report.say(
            f"    note: no {FAILURE_EVENT} hook of this installation runs when a Read fails, so "
            "a Markdown file too large to read (over 256 KB) gets no reminder; "
            "`mdsel-claude install` again adds it"
        )


def _judge_environment(server: Server, found: Survey, report: Report) -> None:
    """Whether our server starts with the MDSEL_* values Claude Code gives it (the settings
    files' `env`; an entry of ours has none): read by the server's own reader, so a value it
    refuses, and exits on, is named here with the file that sets it."""
    from mdsel_claude.server.config import ConfigError, load_settings

    if not found.env:
        return
    environ = {name: value for name, (value, _file) in found.env.items()}
    try:
        load_settings(environ, str(found.project))
    except ConfigError as error:
        where = found.env.get(error.variable, ("", "its environment"))[1]
        report.fail(
            f"MCP server {server.name!r} would exit at start: {error} (set in {where}); "
            f"correct or remove {error.variable} there"
        )
