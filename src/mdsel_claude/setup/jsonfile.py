"""JSON settings files: strict loading (no duplicate keys), canonical dumping, atomic replacement.

Every JSON object is loaded as a `dict` in file order, so a read → change → write round trip keeps
every key, value and order it did not mean to change. Writes go to a temporary file beside the
target and are moved over it with `os.replace`, so a reader never sees half a file; a symlink is
followed and its target is written, and the target's permission bits are kept. (The standard
library does this in a few lines; no maintained package is worth a dependency for it.)
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import tempfile
from pathlib import Path

JSONObject = dict[str, object]
"""A parsed JSON object, keys in file order."""


class JsonFileError(Exception):
    """A settings file that cannot be used as it is: unreadable, not JSON, or the wrong shape."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        """The file concerned, as the user named it."""
        self.problem = problem
        """What is wrong with it, in words."""


class _DuplicateKeyError(ValueError):
    pass


def _object_without_duplicates(pairs: list[tuple[str, object]]) -> JSONObject:
    result: JSONObject = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKeyError(key)
        result[key] = value
    return result


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        # 1e999 is valid JSON but would be written back as `Infinity`, which is not.
        raise ValueError(f"number {text} is too large to keep exactly")
    return value


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def parse(data: bytes | str, path: Path) -> JSONObject:
    """Parse the text of a settings file whose top level must be an object.

    Raises JsonFileError naming the problem: invalid JSON (with line and column), a duplicate
    key (JSON parsers disagree on which one wins, so we refuse to guess), NaN or Infinity, or a
    top level that is not an object.
    """
    try:
        value = json.loads(
            data,
            object_pairs_hook=_object_without_duplicates,
            parse_float=_finite_float,
            parse_constant=_refuse_constant,
        )
    except _DuplicateKeyError as error:
        raise JsonFileError(path, f"duplicate key {error.args[0]!r}") from None
    except json.JSONDecodeError as error:
        problem = f"not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        raise JsonFileError(path, problem) from None
    except (ValueError, RecursionError) as error:
        raise JsonFileError(path, f"not valid JSON ({error})") from None
    if not isinstance(value, dict):
        raise JsonFileError(path, f"expected a JSON object at the top, found {type_name(value)}")
    return value


def type_name(value: object) -> str:
    """The JSON name of a parsed value's type, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def load(path: Path) -> JSONObject | None:
    """The object in the file at `path` (symlinks followed), or None if there is no file."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise JsonFileError(path, "is a directory, not a file") from None
    except OSError as error:
        raise JsonFileError(path, f"cannot be read ({error.strerror or error})") from None
    return parse(data, path)


def dumps(value: JSONObject) -> str:
    """The text we write: two-space indent, keys in their order, a final newline.

    Non-ASCII text stays readable; only a lone surrogate (which UTF-8 cannot hold) makes the
    whole file fall back to `\\u` escapes, which still mean the same value.
    """
    text = json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, indent=2, ensure_ascii=True, allow_nan=False) + "\n"
    return text


def write_target(path: Path) -> Path:
    """The file a write to `path` really replaces: the end of its symlink chain, if any."""
    return Path(os.path.realpath(path))


def _default_mode() -> int:
    # os.umask can only be read by setting it; put it straight back.
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomic(path: Path, value: JSONObject) -> None:
    """Replace the file at `path` (or its symlink target) with `value`, all at once.

    A new file gets the usual permissions for the umask; an existing one keeps its mode bits
    (and its owner where we may set it). Parent directories must exist.
    """
    write_bytes_atomic(path, dumps(value).encode("utf-8"))


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """`write_atomic` for a file's bytes as they are (a TOML file, say)."""
    target = write_target(path)
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as temp:
            temp.write(data)
            temp.flush()
            os.fsync(temp.fileno())
        if info is None:
            os.chmod(temp_name, _default_mode())
        else:
            os.chmod(temp_name, info.st_mode & 0o7777)
            if (info.st_uid, info.st_gid) != (os.getuid(), os.getgid()):
                # Only root may give a file away; the content matters more than the owner.
                with contextlib.suppress(PermissionError):
                    os.chown(temp_name, info.st_uid, info.st_gid)
        os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
        raise


def delete(path: Path) -> None:
    """Remove the file that `path` names (its symlink target; a symlink itself is kept)."""
    write_target(path).unlink(missing_ok=True)
