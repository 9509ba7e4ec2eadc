"""Codex CLI's `config.toml`: our `[mcp_servers.mdsel]` table in, or out, keeping the rest.

tomlkit (pinned) reads and writes the file: it keeps comments, order and formatting of
everything we do not touch, which a parse-and-dump with the standard library could not
(`tomllib` only reads). Every edit is checked by parsing the result again: apart from our
table, the values must equal the file's before, or nothing is written.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.container import OutOfOrderTableProxy
from tomlkit.exceptions import TOMLKitError
from tomlkit.items import Table

from mdsel_claude.setup import entries, jsonfile, ledger, line_runs
from mdsel_claude.setup.claude_plans import recorded_elsewhere
from mdsel_claude.setup.clients.codex import hook_tables, trust_keys
from mdsel_claude.setup.dirs import with_dirs, without_dirs
from mdsel_claude.setup.entries import SERVER_KEY
from mdsel_claude.setup.jsonfile import ConfigFileError, JSONObject
from mdsel_claude.setup.ledger import FileRecord, WrittenEntry
from mdsel_claude.setup.plan_parts import kept_as_theirs
from mdsel_claude.setup.steps import DeleteFile, Note, Plan, Step, WriteText

CONTAINER = "mcp_servers"
AT = (CONTAINER, SERVER_KEY)
"""Where our server sits, as the install record notes it."""

TOMLKIT = hook_tables.Containers(
    tomlkit.table, tomlkit.aot, lambda: tomlkit.table(is_super_table=True)
)


@dataclass(frozen=True, slots=True)
class Hook:
    """Our hook for Codex (see `hook_tables`), to install beside the server."""

    event: str
    entry: JSONObject
    source: str
    """`config.toml` as Codex names it in trust keys (`trust_keys.trust_source`)."""


def _read(path: Path) -> tuple[str | None, tomlkit.TOMLDocument]:
    # As strictly as a settings file: a regular file only, bounded (a FIFO would block a read).
    data = jsonfile.read_bytes(path)
    try:
        text = None if data is None else data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ConfigFileError(path, f"cannot be read ({error})") from None
    try:
        return text, _parsed(text or "")
    except TOMLKitError as error:
        raise ConfigFileError(path, f"not valid TOML ({error})") from None


def _parsed(text: str) -> tomlkit.TOMLDocument:
    # A last line without an ending is given one: tomlkit would write a table added after it
    # on the same line (`matcher = "a"[[hooks.PreToolUse]]`); `line_runs` keeps the file's end.
    return tomlkit.parse(text + "\n" if line_runs.unterminated(text) else text)


def _servers(doc: tomlkit.TOMLDocument, path: Path) -> Table | OutOfOrderTableProxy | None:
    servers = doc.get(CONTAINER)
    if servers is None:
        return None
    # A proxy when the file defines parts of it in several places; an inline table would
    # need our entry written inline too: left to the user.
    if not isinstance(servers, (Table, OutOfOrderTableProxy)):
        raise ConfigFileError(
            path, f"{CONTAINER} should be a table of [{CONTAINER}.NAME] tables; left it as is"
        )
    return servers


def _plain(doc: tomlkit.TOMLDocument) -> dict[str, Any]:
    return doc.unwrap()


@contextlib.contextmanager
def _editing(path: Path) -> Iterator[None]:
    """tomlkit's refusals (an inline `hooks = {…}` cannot take our `[[…]]` tables) as ours:
    the file is left untouched, with what went wrong."""
    try:
        yield
    except (TOMLKitError, ValueError) as error:
        problem = f"cannot be edited in its layout ({error}); edit it by hand"
        raise ConfigFileError(path, problem) from None


def _checked(path: Path, text: str, expected: dict[str, Any]) -> str:
    """`text` if it parses back to `expected`, else refuse: a formatting slip must never
    change someone's configuration."""
    with _editing(path):
        again = _plain(tomlkit.parse(text))
    if again != expected:
        raise ConfigFileError(path, "editing it would change other settings; edit it by hand")
    return text


def _line_ends(new: str, old: str | None) -> str:
    """`new` with the line ends of `old`: tomlkit writes the lines it adds with `\n`, so in a
    file of CRLF lines (and no other) they get CRLF too."""
    if not old or "\r\n" not in old or "\n" in old.replace("\r\n", ""):
        return new
    return new.replace("\r\n", "\n").replace("\n", "\r\n")


def plan_install(path: Path, entry: JSONObject, state_file: Path, hook: Hook | None = None) -> Plan:
    """Our server (and `hook`, trusted) in the file, replacing earlier ones of ours."""
    state = ledger.load(state_file)
    old = state.created(path)
    text, doc = _read(path)
    # Installed before: the lines inserted are counted from the file as it was, so that they
    # are all of ours there (an earlier install's, edited in place, and this one's).
    source = _before_install(path, text, doc, old)
    servers = _servers(doc, path)
    created: list[entries.KeyPath] = []
    if servers is None:
        servers = tomlkit.table(is_super_table=True)
        doc[CONTAINER] = servers
        created.append((CONTAINER,))
    current = servers.get(SERVER_KEY)
    if current is not None and not (
        old.wrote(_unwrap(current), False, AT) or ledger.same_value(_unwrap(current), entry)
    ):
        raise ConfigFileError(
            path,
            f"an MCP server named {SERVER_KEY!r} is already there and install did not write "
            "it; rename or remove it, then run install again",
        )
    expected = _plain(doc)
    table = tomlkit.table()
    for key, value in entry.items():
        table[key] = value
    servers[SERVER_KEY] = table
    expected.setdefault(CONTAINER, {})[SERVER_KEY] = entry
    # One already there exactly as ours but not on the record stays the user's: not noted.
    theirs = current is not None and not old.wrote(_unwrap(current), False, AT)
    wrote: tuple[WrittenEntry, ...] = () if theirs else (WrittenEntry(AT, entry),)
    what = f"Codex CLI MCP server {SERVER_KEY!r} → {entry['command']} serve"
    kept: list[Step] = [kept_as_theirs(path, f"[{CONTAINER}.{SERVER_KEY}]")] if theirs else []
    if hook is not None:
        command = hook.entry["command"]
        with _editing(path):
            placed = _with_hook(doc, expected, hook, old, path)
        if placed is None:
            kept.append(kept_as_theirs(path, f"the {hook.event} hook → {command}"))
        else:
            created += placed.created
            wrote += placed.written
            what += f"; {hook.event} hook on its shell tool, trusted → {command}"
    rendered = _checked(path, _line_ends(tomlkit.dumps(doc), source), expected)
    new, runs = _spliced(source or "", rendered, expected)
    keys = tuple(dict.fromkeys(old.keys + tuple(created)))
    ends = bool(runs) and line_runs.unterminated(source or "")
    state = state.with_file(
        path, FileRecord(old.file or text is None, keys, wrote, False, runs, ends)
    )
    step: Step = (
        Note(f"unchanged {path}: {what}")
        if new == text
        else WriteText(path, new, text is None, what)
    )
    steps, state = with_dirs(path, state)
    return Plan((*steps, step, *kept), state, state_file)


def _before_install(
    path: Path, text: str | None, doc: tomlkit.TOMLDocument, old: FileRecord
) -> str | None:
    """The file's text before the install on record, when the lines it inserted are all still
    there as written and taking them out leaves everything else's values; else `text`."""
    if text is None or not old.inserted:
        return text
    before = line_runs.take_out(text, old.inserted, old.unterminated)
    if before is None:
        return text
    expected = _plain(doc)
    with _editing(path):
        _remove_ours(expected, old, path)
    try:
        if _plain(tomlkit.parse(before)) == expected:
            return before
    except (TOMLKitError, ValueError):
        pass
    return text


def _spliced(source: str, rendered: str, expected: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    """`source` with only the lines tomlkit's `rendered` inserts, and those lines, when that
    still means `expected`: every other byte of the file stays as it was (see `line_runs`).
    Else tomlkit's text, with nothing noted to take out again."""
    for respelled in (True, False):
        text, runs = line_runs.splice(source, rendered, respelled)
        try:
            if _plain(tomlkit.parse(text)) == expected:
                return text, runs
        except (TOMLKitError, ValueError):
            continue
    return rendered, ()


def _with_hook(
    doc: tomlkit.TOMLDocument, expected: dict[str, Any], hook: Hook, old: FileRecord, path: Path
) -> trust_keys.Trusted | None:
    """`hook` into the document and into `expected` alike (the plain values the new text must
    parse back to), in place of any of ours; trust noted for another place is taken away.
    None when the file already holds `hook` exactly but install did not write it: that one
    stays the user's (and unrecorded, so uninstall leaves it, and its trust); only what the
    record lists goes."""
    if _theirs(expected, hook, old):
        for target in (doc, expected):
            hook_tables.remove_hooks(target, lambda value: old.wrote(value, True), path)
            trust_keys.remove_trust(target, old, path)
            hook_tables.prune(target, old)
        return None

    def ours(value: object) -> bool:
        return old.wrote(value, True) or hook_tables.is_install_form(value, _program(hook))

    def our_trust(key: str, value: object) -> bool:
        at = (hook_tables.HOOKS, hook_tables.STATE, key, trust_keys.TRUSTED_HASH)
        return any(w.at == at and ledger.same_value(w.value, value) for w in old.written)

    placed = trust_keys.Trusted("", (), ())
    for target, make in ((doc, TOMLKIT), (expected, hook_tables.PLAIN)):
        placed = trust_keys.add_trusted_hook(
            target, hook.event, hook.entry, hook.source, ours, path, make, our_trust
        )
        trust_keys.remove_trust(target, old, path, keep=placed.key)
        hook_tables.prune(target, old)
    return placed


def _theirs(plain: dict[str, Any], hook: Hook, old: FileRecord) -> bool:
    """Whether a group of our matcher under `hook`'s event holds `hook` exactly and the record
    does not list it (written by hand, or by an install whose record is kept elsewhere)."""
    hooks = plain.get(hook_tables.HOOKS)
    groups = hooks.get(hook.event) if isinstance(hooks, dict) else None
    for group in groups if isinstance(groups, list) else []:
        if not isinstance(group, dict) or group.get("matcher") != hook_tables.MATCHER:
            continue
        inner = group.get(hook_tables.HOOKS)
        for value in inner if isinstance(inner, list) else []:
            if ledger.same_value(value, hook.entry) and not old.wrote(value, True):
                return True
    return False


def _program(hook: Hook) -> str:
    return entries.program_of(hook.entry, True)


def _unwrap(value: object) -> object:
    unwrap = getattr(value, "unwrap", None)
    return unwrap() if callable(unwrap) else value


def server_value(path: Path) -> tuple[bool, object]:
    """Whether the file exists, and our server's table in it as plain values (None if absent);
    for doctor, which only reads."""
    text, doc = _read(path)
    servers = _servers(doc, path)
    if servers is None or SERVER_KEY not in servers:
        return text is not None, None
    return True, _unwrap(servers.get(SERVER_KEY))


def plain_values(path: Path) -> dict[str, Any]:
    """The whole file as plain values ({} when there is none); for doctor, which only reads."""
    return _plain(_read(path)[1])


def plan_uninstall(path: Path, state_file: Path) -> Plan:
    """Our server, hook and trust out of the file, each only as install wrote it, and what
    install created for them once empty."""
    state = ledger.load(state_file)
    created = state.created(path)
    state = state.with_file(path, FileRecord())
    text, doc = _read(path)
    _servers(doc, path)  # a wrong shape is refused before anything else
    steps: list[Step] = []
    expected = _plain(doc)
    before = copy.deepcopy(expected)
    with _editing(path):
        for target in (doc, expected):
            _remove_ours(target, created, path)
    servers = _servers(doc, path)
    if servers is not None and SERVER_KEY in servers:
        where = f"[{CONTAINER}.{SERVER_KEY}]"
        steps.append(Note(f"left alone in {path}: {where} — install did not write it"))
    if text is None or expected == before:
        steps.append(Note(f"nothing of mdsel-claude is installed for Codex CLI in {path}"))
        # Codex has no project scope: every other such file is a user's.
        steps += recorded_elsewhere(state, path, "CODEX_HOME", "lists Codex CLI entries", AT)
        return Plan(tuple(steps), state, state_file)
    new = _taken_out(text, created, expected)
    if new is None:
        # Not as install left it: tomlkit's text, our table's blank line taken away with it.
        new = tomlkit.dumps(doc)
        end = "\r\n" if _line_ends("\n", text) == "\r\n" else "\n"
        new = new.rstrip("\r\n") if end == "\r\n" else new.rstrip("\n")
        new = _checked(path, new + end if new.strip() else "", expected)
    if created.file and not new.strip():
        steps.append(DeleteFile(path))
    else:
        what = f"remove Codex CLI MCP server {SERVER_KEY!r} and the mdsel-claude hook"
        steps.append(WriteText(path, new, False, what))
    state = without_dirs(path, steps, state)
    return Plan(tuple(steps), state, state_file)


def _taken_out(text: str, created: FileRecord, expected: dict[str, Any]) -> str | None:
    """`text` without the lines install inserted, byte for byte as it was before, when they are
    all still there and taking them out leaves `expected`; else None."""
    if not created.inserted:
        return None
    before = line_runs.take_out(text, created.inserted, created.unterminated)
    if before is None:
        return None
    try:
        return before if _plain(tomlkit.parse(before)) == expected else None
    except (TOMLKitError, ValueError):
        return None


def _remove_ours(target: Any, created: FileRecord, path: Path) -> None:
    """What the record says install wrote out of `target` (tomlkit's document or the plain
    values), with the containers install created for it once they are empty."""
    servers = target.get(CONTAINER)
    mine = isinstance(servers, MutableMapping) and SERVER_KEY in servers
    if mine and created.wrote(_unwrap(servers[SERVER_KEY]), False, AT):
        del servers[SERVER_KEY]
        if (CONTAINER,) in created.keys and not servers:
            del target[CONTAINER]
    hook_tables.remove_hooks(target, lambda value: created.wrote(value, True), path)
    trust_keys.remove_trust(target, created, path)
    hook_tables.prune(target, created)
