"""What install created — files, containers inside them, directories — kept for uninstall.

Uninstall must take away exactly what install added. Our entries it can recognise, but not
whether install also created the file around them, or an empty `"hooks"` object that the user
might just as well have written. So install notes those in a small JSON file under the user's
state directory (never in the project), keyed by the real path of each settings file.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from mdsel_claude.setup import jsonfile
from mdsel_claude.setup.entries import KeyPath
from mdsel_claude.setup.jsonfile import JsonFileError, JSONObject


def state_path(environ: Mapping[str, str]) -> Path:
    """Where the record lives: `$XDG_STATE_HOME/mdsel-claude/installed.json` (`~/.local/state`)."""
    base = environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "mdsel-claude" / "installed.json"


@dataclass(frozen=True, slots=True)
class Created:
    """What install created in one file."""

    file: bool = False
    """The file itself did not exist before."""
    keys: tuple[KeyPath, ...] = ()
    """Containers inside it that did not exist before."""


@dataclass(frozen=True, slots=True)
class State:
    """Everything install created, by real file path, plus directories it made."""

    files: Mapping[str, Created] = field(default_factory=dict)
    dirs: tuple[str, ...] = ()

    def created(self, path: Path) -> Created:
        return self.files.get(str(jsonfile.write_target(path)), Created())

    def with_file(self, path: Path, created: Created) -> State:
        files = dict(self.files)
        key = str(jsonfile.write_target(path))
        if created.file or created.keys:
            files[key] = created
        else:
            files.pop(key, None)
        return State(files, self.dirs)

    def with_dir(self, path: Path, present: bool) -> State:
        dirs = [d for d in self.dirs if d != str(path)]
        if present:
            dirs.append(str(path))
        return State(self.files, tuple(dirs))

    def to_json(self) -> JSONObject:
        files: JSONObject = {
            path: {"created_file": created.file, "created_keys": [list(k) for k in created.keys]}
            for path, created in self.files.items()
        }
        return {"version": 1, "files": files, "dirs": list(self.dirs)}


def load(path: Path) -> State:
    """The record, or an empty one; a damaged record counts as empty (it is only a hint)."""
    try:
        raw = jsonfile.load(path)
    except JsonFileError:
        return State()
    recorded = raw.get("files") if raw is not None else None
    if raw is None or not isinstance(recorded, dict):
        return State()
    files: dict[str, Created] = {}
    for name, item in recorded.items():
        if not isinstance(item, dict):
            continue
        keys = item.get("created_keys")
        key_paths = tuple(
            tuple(k)
            for k in (keys if isinstance(keys, list) else [])
            if isinstance(k, list) and k and all(isinstance(part, str) for part in k)
        )
        files[name] = Created(item.get("created_file") is True, key_paths)
    dirs = raw.get("dirs")
    dir_names = tuple(d for d in (dirs if isinstance(dirs, list) else []) if isinstance(d, str))
    return State(files, dir_names)


def save(state: State, path: Path) -> None:
    """Write the record, or delete it (and its directory, if empty) when nothing is left."""
    if state.files or state.dirs:
        path.parent.mkdir(parents=True, exist_ok=True)
        jsonfile.write_atomic(path, state.to_json())
        return
    jsonfile.delete(path)
    # Not empty, or never made: either way nothing of ours is left to clean there.
    with contextlib.suppress(OSError):
        path.parent.rmdir()
