"""Gemini CLI's hook in its settings.json: our entry, adding it, and doctor's look at it.

`install --client gemini` writes, beside the MCP server and in the same file, one matcher group
at the end of `hooks.AfterTool`:

    {"matcher": "^(read_file|read_many_files)$",
     "hooks": [{"name": "mdsel-claude", "type": "command",
                "command": "/abs/mdsel-claude hook --client gemini --min-words 200"}]}

`AfterTool` because only there does the CLI add a hook's context to the result the model sees,
or replace it (outline mode). The matcher is a regular expression Gemini CLI searches the tool
name with, anchored so that an MCP tool whose name merely contains `read_file` starts no hook.
In project scope the command is the bare name inside `entries.PORTABLE_GUARD`, as for Claude
Code. Gemini CLI 0.61 runs hooks unless `hooksConfig.enabled` is false (its default is true), so
no other setting is written; it runs them only in folders the user trusts.

The entry and the containers it needed are noted in the install record like the server's, so
uninstall (and `uninstall --all`, through `every_install`) removes exactly them.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from mdsel_claude.hook import gemini
from mdsel_claude.setup import entries, entry_edits, jsonfile, ownership
from mdsel_claude.setup.entries import EXECUTABLE_NAME, hook_args
from mdsel_claude.setup.entry_edits import Added
from mdsel_claude.setup.jsonfile import ConfigFileError, JSONObject
from mdsel_claude.setup.ledger import FileRecord, WrittenEntry
from mdsel_claude.setup.probes import Report, run_on_threshold
from mdsel_claude.setup.settings_hook import JsonHook

EVENT = gemini.EVENT
MATCHER = "^(read_file|read_many_files)$"
NAME = EXECUTABLE_NAME
"""The hook's `name`: what Gemini CLI shows, and what `hooksConfig.disabled` would list."""

NEXT_STEPS = (
    "Start (or restart) Gemini CLI in a folder you trust (it starts MCP servers and runs hooks "
    "only there). Its MCP tools: mdsel_index, mdsel_select; its AfterTool hook reminds the "
    "model when read_file reads a large Markdown file. Check with: "
    "mdsel-claude doctor --client gemini"
)


HOOK = JsonHook("gemini", EVENT, MATCHER, "read_file", named=True)
"""Our hook in Gemini CLI's settings (see `settings_hook`)."""


def hook_command(executable: str, min_words: int, mode: str = "reminder") -> str:
    """`EXE hook --client gemini --min-words N [--mode M]`; the bare name guarded."""
    return HOOK.command(executable, min_words, mode)


def hook_entry(executable: str, min_words: int, mode: str = "reminder") -> JSONObject:
    """Our hook object, as it sits in the matcher group's `hooks` list."""
    return HOOK.entry(executable, min_words, mode)


def parse_entry(value: object) -> tuple[str, int, str] | None:
    """(executable, threshold, mode) of a hook object exactly as install writes it, else None."""
    return HOOK.parse(value)


def add_hook(
    settings: JSONObject, entry: JSONObject, path: Path, created: FileRecord, executable: str
) -> tuple[Added, WrittenEntry]:
    """`settings` with `entry` as its own matcher group at the end of `hooks.AfterTool`, and the
    record of it (see `JsonHook.add`)."""
    return HOOK.add(settings, entry, path, created, executable)


def remove_hooks(settings: JSONObject, path: Path, created: FileRecord) -> JSONObject:
    """`settings` without the hooks the record says install wrote there."""
    return HOOK.remove(settings, path, created)


def describe(entry: JSONObject) -> str:
    return HOOK.describe(entry)


# -- doctor -----------------------------------------------------------------------------------


def fires_on_read_file(event: str, matcher: object) -> bool:
    """Whether Gemini CLI runs a hook of this group after `read_file`: `AfterTool`, and a matcher
    that is absent, empty, `*`, or a pattern found in `read_file` (it searches, unanchored)."""
    if event != EVENT:
        return False
    if matcher is None or (isinstance(matcher, str) and matcher.strip() in ("", "*")):
        return True
    if not isinstance(matcher, str):
        return False
    try:
        return re.search(matcher.strip(), "read_file") is not None
    except re.error:
        return matcher == "read_file"


def report_hooks(
    places: Sequence[tuple[str, Path]],
    me: ownership.Installation,
    environ: Mapping[str, str],
    report: Report,
) -> None:
    """Doctor's lines on our hook in Gemini CLI's user and project settings: there, ours
    (exactly install's form, running this installation), firing after read_file, not switched
    off; then a run of this installation's hook with the same arguments."""
    mine: list[tuple[str, tuple[str, int, str]]] = []
    # The project's settings override the user's (Gemini CLI merges them so, in a folder it
    # trusts, and runs no hook elsewhere): the last `hooksConfig.enabled` set decides.
    switch: tuple[Path, bool] | None = None
    for scope, path in places:
        try:
            settings = jsonfile.load(path)
        except ConfigFileError:
            continue  # already reported with the server
        if settings is None:
            continue
        config = settings.get("hooksConfig")
        config = config if isinstance(config, dict) else {}
        if isinstance(config.get("enabled"), bool):
            switch = (path, config["enabled"])
        disabled = config.get("disabled")
        # Gemini CLI skips a hook whose name (else command) is listed there.
        off = {d for d in disabled if isinstance(d, str)} if isinstance(disabled, list) else set()
        for event, matcher, value in entry_edits.matched_hooks_in(settings):
            if not entries.looks_like_ours(value):
                continue
            parsed = parse_entry(value)
            if parsed is None:
                problem: str | None = "not a hook install writes (other keys or arguments)"
            else:
                problem = ownership.program_problem(parsed[0], me, environ)
            if problem is None and not fires_on_read_file(event, matcher):
                problem = f"does not run after read_file ({event}, matcher {matcher!r})"
            verdict = "ours" if problem is None else f"not ours or not run: {problem}"
            report.say(f"  {event} hook {scope} ({path}): {verdict}")
            if value.get("name", value.get("command")) in off:
                report.fail(f"listed in hooksConfig.disabled in {path}: it never runs")
            elif parsed is not None and problem is None:
                mine.append((scope, parsed))
    if switch is not None and not switch[1]:
        report.fail(f"hooks are switched off in {switch[0]} (hooksConfig.enabled: false)")
    if not mine:
        report.fail("no hook of this installation: run `mdsel-claude install --client gemini`")
        return
    if len({scope for scope, _ in mine}) > 1:
        report.fail(
            "our hook is in both the user and the project settings: the reminder would come "
            "twice; keep one (`mdsel-claude uninstall --client gemini --scope user`)"
        )
    report.say("  (Gemini CLI runs hooks only in folders you trust)")
    _, threshold, mode = mine[0][1]
    argv = (*me.argv, *hook_args(threshold, mode, "gemini"))
    report.say(f"  {shlex.join(argv)}")
    check_hook(argv, report)


def check_hook(argv: Sequence[str], report: Report) -> None:
    """Run our hook (`argv`: our executable, `hook`, its options) as Gemini CLI would after a
    `read_file` of a Markdown file over and at its threshold: the answer, then silence."""

    def read_file(directory: str, name: str) -> dict[str, object]:
        return {
            "session_id": "mdsel-claude-doctor",
            "hook_event_name": EVENT,
            "cwd": directory,
            "tool_name": "read_file",
            "tool_input": {"file_path": name},
            "tool_response": {"llmContent": "", "returnDisplay": ""},
        }

    run_on_threshold(argv, read_file, gemini.answer, report)
