"""Our hook in an agent's JSON settings, in the shape Claude Code's settings gave them all.

Gemini CLI, Qwen Code and Factory Droid take hooks as matcher groups under an event:

    {"hooks": {EVENT: [{"matcher": M, "hooks": [{"type": "command", "command": C}]}]}}

and each runs `C` with the tool call's JSON on stdin. A `JsonHook` is one agent's choice of
event, matcher and read tool; from it come our hook object (`EXE hook --client NAME
--min-words N`, see `entries.hook_command`), its recognition, adding it (replacing an earlier
one of ours) and taking out what the record says install wrote, and doctor's look at it. The
entry and the containers it needed are noted in the install record like a server's, so that
uninstall (and `uninstall --all`, through `every_install`) removes exactly them.
"""

from __future__ import annotations

import copy
import re
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from mdsel_claude.setup import entries, entry_edits, jsonfile, ledger, ownership
from mdsel_claude.setup.entries import EXECUTABLE_NAME, KeyPath, Parsed
from mdsel_claude.setup.entry_edits import Added
from mdsel_claude.setup.jsonfile import ConfigFileError, JSONObject, type_name
from mdsel_claude.setup.ledger import FileRecord, WrittenEntry
from mdsel_claude.setup.probes import Payload, Report, run_on_threshold


@dataclass(frozen=True, slots=True)
class JsonHook:
    """One agent's hook, as install writes it into its settings."""

    client: str
    """The `--client` the hook runs with (its payloads' module in `mdsel_claude.hook`)."""
    event: str
    """The event whose answer reaches the model."""
    matcher: str
    tool: str
    """The agent's read tool, which the matcher must select."""
    named: bool = False
    """Whether the object carries `"name": "mdsel-claude"` (what the agent shows and lists)."""

    def command(self, executable: str, min_words: int, mode: str = "reminder") -> str:
        return entries.hook_command(executable, min_words, mode, self.client)

    def entry(self, executable: str, min_words: int, mode: str = "reminder") -> JSONObject:
        """Our hook object, as it sits in the matcher group's `hooks` list."""
        name: JSONObject = {"name": EXECUTABLE_NAME} if self.named else {}
        return {**name, "type": "command", "command": self.command(executable, min_words, mode)}

    def parse(self, value: object) -> Parsed | None:
        """(executable, threshold, mode) of a hook object exactly as install writes it, else
        None."""
        command = value.get("command") if isinstance(value, dict) else None
        parsed = entries.parse_hook_command(command, self.client)
        if parsed is None:
            return None
        return parsed if ledger.same_value(value, self.entry(*parsed)) else None

    def add(
        self,
        settings: JSONObject,
        entry: JSONObject,
        path: Path,
        created: FileRecord,
        executable: str,
    ) -> tuple[Added, WrittenEntry]:
        """`settings` with `entry` as its own matcher group at the end of `hooks.EVENT`, and
        the record of it. A hook of ours already there (recorded, or exactly as this install
        writes it with any threshold or mode) is taken out first, so installing again
        replaces it; any other hook running ours is refused (it would remind twice)."""

        def mine(value: object) -> bool:
            parsed = self.parse(value)
            return created.wrote(value, True) or (parsed is not None and parsed[0] == executable)

        result = entry_edits.remove_hooks(settings, path, mine)
        entry_edits.refuse_second_reminder(result, path, entry)
        made: list[KeyPath] = []
        hooks = result.get("hooks")
        if hooks is None:
            hooks = result["hooks"] = {}
            made.append(("hooks",))
        if not isinstance(hooks, dict):
            raise ConfigFileError(path, f'"hooks" should be an object, found {type_name(hooks)}')
        groups = hooks.get(self.event)
        if groups is None:
            groups = hooks[self.event] = []
            made.append(("hooks", self.event))
        if not isinstance(groups, list):
            raise ConfigFileError(
                path, f'"hooks"."{self.event}" should be an array, found {type_name(groups)}'
            )
        groups.append({"matcher": self.matcher, "hooks": [copy.deepcopy(entry)]})
        return Added(result, tuple(made)), WrittenEntry(("hooks", self.event), entry, hook=True)

    def remove(self, settings: JSONObject, path: Path, created: FileRecord) -> JSONObject:
        """`settings` without the hooks the record says install wrote there (none recorded:
        as is, whatever `hooks` holds)."""
        if not any(w.hook for w in created.written):
            return settings
        return entry_edits.remove_hooks(settings, path, lambda value: created.wrote(value, True))

    def describe(self, entry: JSONObject) -> str:
        return f"{self.event} hook on {self.tool} → {entry['command']}"

    def fires(self, event: str, matcher: object) -> bool:
        """Whether the agent runs a hook of this group after its read tool: our event, and a
        matcher that is absent, empty, `*`, the tool's name, or a pattern found in it (Qwen
        Code and Gemini CLI search the name with it; Droid's `Read` is its own match)."""
        if event != self.event:
            return False
        if matcher is None or (isinstance(matcher, str) and matcher.strip() in ("", "*", ".*")):
            return True
        if not isinstance(matcher, str):
            return False
        if matcher.strip() == self.tool:
            return True
        try:
            return re.search(matcher.strip(), self.tool) is not None
        except re.error:
            return False


def add_beside(
    hook: JsonHook, path: Path, entry: JSONObject, executable: str, state: ledger.InstallRecord
) -> tuple[JSONObject | None, Added | None, ledger.InstallRecord, str]:
    """Our hook added to the settings at `path` (a file of its own, beside the server's): the
    file's value before, after (None when an identical hook install did not write is kept as
    the user's), the record, and what changes in words."""
    from mdsel_claude.setup.plan_parts import is_theirs, record_added

    before = jsonfile.load(path)
    created = state.created(path)
    what = hook.describe(entry)
    there = entry_edits.matched_hooks_in(before or {})
    if any(e == hook.event and is_theirs(created, v, entry, True, None) for e, _, v in there):
        return before, None, state, what
    added, wrote = hook.add(before or {}, entry, path, created, executable)
    return before, added, record_added(state, path, before, added, wrote), what


# -- doctor -----------------------------------------------------------------------------------


def report(
    hook: JsonHook,
    places: Sequence[tuple[str, Path]],
    me: ownership.Installation,
    environ: Mapping[str, str],
    out: Report,
    payload: Callable[[str, str], Payload],
    answer: Callable[[Payload, int, str], str | None],
    switched_off: Callable[[JSONObject], str | None] = lambda _: None,
) -> None:
    """Doctor's lines on our hook in the agent's user and project settings (`places`): there,
    ours (exactly install's form, running this installation), run after the read tool, not
    switched off (`switched_off` says why, for one file's settings); then a run of this
    installation's hook as the agent would run it (`payload`, whose answer must be `answer`'s)."""
    mine: list[tuple[str, Parsed]] = []
    for scope, path in places:
        try:
            settings = jsonfile.load(path)
        except ConfigFileError as error:
            out.fail(str(error))
            continue
        if settings is None:
            out.say(f"  {hook.event} hook {scope} ({path}): no file, no hook")
            continue
        off = switched_off(settings)
        if off is not None:
            out.fail(f"{off} in {path}: no hook runs")
        for event, matcher, value in entry_edits.matched_hooks_in(settings):
            if not entries.looks_like_ours(value):
                continue
            parsed = hook.parse(value)
            if parsed is None:
                problem: str | None = "not a hook install writes (other keys or arguments)"
            else:
                problem = ownership.program_problem(parsed[0], me, environ)
            if problem is None and not hook.fires(event, matcher):
                problem = f"does not run after {hook.tool} ({event}, matcher {matcher!r})"
            verdict = "ours" if problem is None else f"not ours or not run: {problem}"
            out.say(f"  {event} hook {scope} ({path}): {verdict}")
            if parsed is not None and problem is None:
                mine.append((scope, parsed))
    install = f"mdsel-claude install --client {hook.client}"
    if not mine:
        out.fail(f"no hook of this installation: run `{install}`")
        return
    if len({scope for scope, _ in mine}) > 1:
        out.fail(
            "our hook is in both the user and the project settings: the reminder would come "
            f"twice; keep one (`mdsel-claude uninstall --client {hook.client} --scope user`)"
        )
    _, threshold, mode = mine[0][1]
    argv = (*me.argv, *entries.hook_args(threshold, mode, hook.client))
    out.say(f"  {shlex.join(argv)}")
    run_on_threshold(argv, payload, answer, out)
