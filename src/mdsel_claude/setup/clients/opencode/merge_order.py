"""OpenCode's configuration files read after the one install writes our server in.

OpenCode merges its files in order, later keys winning, object by object: an `mcp.mdsel` in a
later file replaces our entry, whole or key by key (`{"enabled": false}` alone turns it off).
The order, as OpenCode 1.18's own `opencode debug config` shows it: in a folder,
`opencode.jsonc` after `opencode.json`; the project's files after the user's; then the project's
`.opencode/opencode.json` and `.opencode/opencode.jsonc`; and the home folder's
`~/.opencode/opencode.json(c)` after them (over the project's too). Three environment variables
add more: `OPENCODE_CONFIG` names a file read after the user's files and before the project's,
`OPENCODE_CONFIG_DIR` a folder whose `opencode.json(c)` come after `~/.opencode/`, and
`OPENCODE_CONFIG_CONTENT` holds JSON read last of all (each order checked with `opencode debug
config`). Install writes `opencode.json` (strict JSON, edited in place); the others are only read
here (JSONC, see `jsonc`), so install and doctor can say when one of them overrides ours.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from mdsel_claude.setup import jsonc
from mdsel_claude.setup.entries import SERVER_KEY
from mdsel_claude.setup.jsonfile import ConfigFileError
from mdsel_claude.setup.steps import Note, Plan, Step

PROJECT_LATER = ("opencode.jsonc", ".opencode/opencode.json", ".opencode/opencode.jsonc")
"""The project's files read after its `opencode.json`, in order, from the project root."""

HOME_LAST = (".opencode/opencode.json", ".opencode/opencode.jsonc")
"""Read after the project's files, from the home folder."""

CONTENT = "OPENCODE_CONFIG_CONTENT"
"""The environment variable whose JSON OpenCode reads after every file."""


def later_files(
    scope: str,
    config_file: Path,
    project: Path | None = None,
    home: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> list[Path]:
    """The files OpenCode reads after `config_file` (our `opencode.json` for `scope`), in
    order. For the user's file, `project` (a project root) adds that project's files after
    `opencode.json`, which a check of the project's own file covers; `home` adds its
    `.opencode/` files (not when it is the project root: those are the project's); `environ`
    the files its OPENCODE_CONFIG and OPENCODE_CONFIG_DIR name."""
    environ = environ or {}
    custom = environ.get("OPENCODE_CONFIG")
    if scope == "user":
        later = [config_file.with_name("opencode.jsonc")]
        later += [Path(custom).expanduser()] if custom else []  # between the user's and project's
        later += [project / name for name in PROJECT_LATER] if project else []
    else:
        later = [config_file.parent / name for name in PROJECT_LATER]
    if home is not None:
        later += [home / name for name in HOME_LAST]
    folder = environ.get("OPENCODE_CONFIG_DIR")
    if folder:
        later += [Path(folder).expanduser() / name for name in ("opencode.json", "opencode.jsonc")]
    return [file for file in dict.fromkeys(later) if file != config_file]


def overriding(
    files: list[Path], environ: Mapping[str, str] | None = None
) -> Iterator[tuple[Path | str, str | None]]:
    """(file, None) for each of `files` that sets `mcp.mdsel`, and (file, problem) for each
    that cannot be read, so that no one can tell; then the same for OPENCODE_CONFIG_CONTENT
    in `environ` (named so)."""
    for file in files:
        try:
            settings = jsonc.load(file)
        except ConfigFileError as error:
            yield file, error.problem
            continue
        if _sets_ours(settings):
            yield file, None
    content = (environ or {}).get(CONTENT)
    if content:
        where = f"{CONTENT} (in the environment)"
        try:
            settings = jsonc.parse_text(content, Path(CONTENT))
        except ConfigFileError as error:
            yield where, error.problem
            return
        if _sets_ours(settings):
            yield where, None


def _sets_ours(settings: object) -> bool:
    servers = settings.get("mcp") if isinstance(settings, dict) else None
    return isinstance(servers, dict) and SERVER_KEY in servers


def overrides_message(file: Path | str, config_file: Path) -> str:
    return (
        f"{file} also sets mcp.{SERVER_KEY}, and OpenCode reads it after {config_file}: what "
        f"it sets there overrides our entry; remove {SERVER_KEY!r} from its mcp object"
    )


def unreadable_message(file: Path | str, problem: str) -> str:
    return (
        f"{file}: {problem}; whether it sets mcp.{SERVER_KEY} (which would override our entry) "
        "could not be checked"
    )


def with_notes(
    plan: Plan,
    scope: str,
    config_file: Path,
    installing: bool,
    home: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> Plan:
    """`plan` (install or uninstall of our entry in `config_file`) with a note for each later
    file that sets `mcp.mdsel` or cannot be read: it would override what install writes, and
    uninstall leaves it alone (install did not write it)."""
    notes: list[Step] = []
    later = later_files(scope, config_file, home=home, environ=environ)
    for file, problem in overriding(later, environ):
        if problem is not None:
            notes.append(Note(unreadable_message(file, problem)))
        elif installing:
            notes.append(Note(overrides_message(file, config_file)))
        else:
            notes.append(Note(f"left alone in {file}: mcp.{SERVER_KEY} — install did not write it"))
    return Plan((*plan.steps, *notes), plan.state, plan.state_file) if notes else plan
