"""What install wrote and created — entries, files, containers inside them, directories.

Uninstall must take away exactly what install added, and nothing that merely looks like it (a
hand-written `mdsel` server, a hook piping `mdsel-claude hook` into a log). So install notes
each entry it wrote, as the JSON value it wrote, and whether it also created the file around it
or an empty `"hooks"` object the user might just as well have written; uninstall removes an
entry only when its value is still the one noted. The record is a small JSON file under the
user's state directory (never in the project), keyed by the real path of each settings file.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from mdsel_claude.setup import entries, jsonfile
from mdsel_claude.setup.entries import KeyPath
from mdsel_claude.setup.jsonfile import ConfigFileError, JSONObject


def state_path(environ: Mapping[str, str]) -> Path:
    """Where the record lives: `$XDG_STATE_HOME/mdsel-claude/installed.json` (`~/.local/state`)."""
    base = environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "mdsel-claude" / "installed.json"


@dataclass(frozen=True, slots=True)
class WrittenEntry:
    """One entry install wrote into a file."""

    at: KeyPath
    """Where: `("mcpServers", "mdsel")` for a server; `("hooks", event)` for a hook, which sits
    in one of the matcher groups of that list."""
    value: object
    """The JSON value written: the server, or the hook object."""
    hook: bool = False


def same_value(a: object, b: object) -> bool:
    """Equal as JSON values: key order does not matter, but `1` is not `true`, nor `1.0`."""
    return bool(a == b) and json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@dataclass(frozen=True, slots=True)
class FileRecord:
    """What install created in one file."""

    file: bool = False
    """The file itself did not exist before."""
    keys: tuple[KeyPath, ...] = ()
    """Containers inside it that did not exist before."""
    written: tuple[WrittenEntry, ...] = ()
    """The entries install wrote there."""
    legacy: bool = False
    """Noted by a version that recorded what it created but not the entries it wrote: there,
    an entry exactly as install writes it (with any mdsel-claude) counts as written."""
    inserted: tuple[str, ...] = ()
    """In a text-edited file (Codex's TOML), the runs of whole lines install inserted, in file
    order, so that uninstall can take out exactly those (see `line_runs`)."""
    unterminated: bool = False
    """That file's last line had no line ending before install inserted lines after it."""

    def wrote(self, value: object, hook: bool, at: KeyPath | None = None) -> bool:
        """Whether `value` is (still) exactly a server (or hook) install wrote here (at `at`,
        when given: a shared file holds one server of ours per project)."""
        for w in self.written:
            if w.hook == hook and (at is None or w.at == at) and same_value(w.value, value):
                return True
        return self.legacy and entries.is_install_form(value, entries.program_of(value, hook))


@dataclass(frozen=True, slots=True)
class InstallRecord:
    """Everything install created, by real file path, plus directories it made."""

    files: Mapping[str, FileRecord] = field(default_factory=dict)
    dirs: tuple[str, ...] = ()

    def created(self, path: Path) -> FileRecord:
        return self.files.get(str(jsonfile.write_target(path)), FileRecord())

    def with_file(self, path: Path, created: FileRecord) -> InstallRecord:
        files = dict(self.files)
        key = str(jsonfile.write_target(path))
        if created.file or created.keys or created.written or created.legacy:
            files[key] = created
        else:
            files.pop(key, None)
        return InstallRecord(files, self.dirs)

    def with_dir(self, path: Path, present: bool) -> InstallRecord:
        dirs = [d for d in self.dirs if d != str(path)]
        if present:
            dirs.append(str(path))
        return InstallRecord(self.files, tuple(dirs))

    def to_json(self) -> JSONObject:
        files: JSONObject = {
            path: {
                **({"legacy": True} if created.legacy else {}),
                "created_file": created.file,
                "created_keys": [list(k) for k in created.keys],
                "written": [
                    {"at": list(w.at), "hook": w.hook, "value": w.value} for w in created.written
                ],
                **({"inserted": list(created.inserted)} if created.inserted else {}),
                **({"unterminated": True} if created.unterminated else {}),
            }
            for path, created in self.files.items()
        }
        return {"version": 2, "files": files, "dirs": list(self.dirs)}


def load(path: Path) -> InstallRecord:
    """The record, or an empty one; a damaged record counts as empty (it is only a hint)."""
    try:
        raw = jsonfile.load(path)
    except ConfigFileError:
        return InstallRecord()
    recorded = raw.get("files") if raw is not None else None
    if raw is None or not isinstance(recorded, dict):
        return InstallRecord()
    files: dict[str, FileRecord] = {}
    for name, item in recorded.items():
        if not isinstance(item, dict):
            continue
        keys = item.get("created_keys")
        key_paths = tuple(
            tuple(k)
            for k in (keys if isinstance(keys, list) else [])
            if isinstance(k, list) and k and all(isinstance(part, str) for part in k)
        )
        legacy = raw.get("version") == 1 or item.get("legacy") is True
        runs = item.get("inserted")
        inserted = tuple(r for r in (runs if isinstance(runs, list) else []) if isinstance(r, str))
        created = FileRecord(
            item.get("created_file") is True,
            key_paths,
            _written(item),
            legacy,
            inserted,
            item.get("unterminated") is True,
        )
        files[name] = created
    dirs = raw.get("dirs")
    dir_names = tuple(d for d in (dirs if isinstance(dirs, list) else []) if isinstance(d, str))
    return InstallRecord(files, dir_names)


def _written(item: JSONObject) -> tuple[WrittenEntry, ...]:
    found = item.get("written")
    result: list[WrittenEntry] = []
    for entry in found if isinstance(found, list) else []:
        at = entry.get("at") if isinstance(entry, dict) else None
        if isinstance(entry, dict) and isinstance(at, list) and all(isinstance(k, str) for k in at):
            result.append(WrittenEntry(tuple(at), entry.get("value"), entry.get("hook") is True))
    return tuple(result)


def save(state: InstallRecord, path: Path) -> None:
    """Write the record, or delete it (and its directory, if empty) when nothing is left."""
    if state.files or state.dirs:
        path.parent.mkdir(parents=True, exist_ok=True)
        jsonfile.write_atomic(path, state.to_json())
        return
    jsonfile.delete(path)
    # Not empty, or never made: either way nothing of ours is left to clean there.
    with contextlib.suppress(OSError):
        path.parent.rmdir()
