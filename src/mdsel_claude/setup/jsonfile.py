"""JSON settings files: bounded strict reading, text-keeping atomic writes.

Every JSON object is loaded as a `dict` in file order. A file is read only if it is a regular
file under `MAX_FILE_BYTES` and nested at most `MAX_DEPTH` deep: a repository may commit a
settings file that is a FIFO, a device or a link to one, or a gigabyte of brackets, and setup
and doctor must refuse it in one line instead of hanging or crashing. Writes keep the text of
everything they do not change (see `jsonedit`), go to a temporary file beside the target and are
moved over it with `os.replace`, so a reader never sees half a file; a symlink is followed and
its target is written, and the target's permission bits are kept.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import tempfile
import time
from pathlib import Path

from mdsel_claude.setup import jsonedit

JSONObject = dict[str, object]
"""A parsed JSON object, keys in file order."""

MAX_FILE_BYTES = 16 * 1024 * 1024
"""The largest settings file read (Claude Code's own, history included, stay far below)."""

MAX_DEPTH = 100
"""The deepest nesting accepted; real settings files are under ten levels deep."""


class ConfigFileError(Exception):
    """A configuration file that cannot be used as it is: unreadable, not JSON (or, for Codex
    CLI's, not TOML), or the wrong shape."""

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


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _too_deep(value: object) -> bool:
    """Whether `value` nests deeper than MAX_DEPTH (walked without recursion)."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


def parse(data: bytes | str, path: Path) -> JSONObject:
    """Parse the text of a settings file whose top level must be an object.

    Raises ConfigFileError naming the problem: invalid JSON (with line and column), a duplicate
    key (JSON parsers disagree on which one wins, so we refuse to guess), NaN or Infinity,
    nesting deeper than MAX_DEPTH, or a top level that is not an object. Numbers keep their
    literal text (`jsonedit.Int`, `jsonedit.Float`).
    """
    text = _text(data, path) if isinstance(data, bytes) else data
    try:
        value = json.loads(
            text.removeprefix("\ufeff"),
            object_pairs_hook=_object_without_duplicates,
            parse_float=jsonedit.Float,
            parse_int=jsonedit.Int,
            parse_constant=_refuse_constant,
        )
    except _DuplicateKeyError as error:
        raise ConfigFileError(path, f"duplicate key {error.args[0]!r}") from None
    except json.JSONDecodeError as error:
        problem = f"not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        if _JSONC_SIGNS.search(text):
            problem += (
                "; it holds comments or trailing commas (JSONC, which VS Code and others "
                "accept), and setup edits strict JSON only, to leave your text as it is: make "
                "the change by hand (docs/clients.md shows the entry)"
            )
        raise ConfigFileError(path, problem) from None
    except RecursionError:
        raise ConfigFileError(path, f"nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as error:
        raise ConfigFileError(path, f"not valid JSON ({error})") from None
    if not isinstance(value, dict):
        raise ConfigFileError(path, f"expected a JSON object at the top, found {type_name(value)}")
    if _too_deep(value):
        raise ConfigFileError(path, f"nested more than {MAX_DEPTH} levels deep")
    return value


_JSONC_SIGNS = re.compile(r"^\s*//|/\*|,\s*[}\]]", re.MULTILINE)
"""A line comment, a block comment or a trailing comma: what makes JSONC not JSON."""


def _text(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ConfigFileError(path, f"not UTF-8 text (byte {error.start})") from None


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


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bytes(path: Path, limit: int = MAX_FILE_BYTES) -> bytes | None:
    """The bytes of the regular file at `path` (symlinks followed), or None if nothing is there.

    Anything else — a directory, FIFO, device or socket, a symlink to nothing, a file over
    `limit` bytes, one that cannot be opened — is a ConfigFileError. The kind is checked before
    opening (a device is never opened) and again on the opened descriptor (in case it was
    swapped); O_NONBLOCK keeps a FIFO swapped in between from blocking the open.
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            target = os.path.realpath(path)
            raise ConfigFileError(path, f"is a symlink to {target}, which does not exist") from None
        return None
    except OSError as error:
        raise ConfigFileError(path, f"cannot be read ({error.strerror or error})") from None
    if not stat.S_ISREG(info.st_mode):
        raise ConfigFileError(path, f"is {_kind(info.st_mode)}, not a regular file")
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        raise ConfigFileError(path, f"cannot be read ({error.strerror or error})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ConfigFileError(path, f"is {_kind(info.st_mode)}, not a regular file")
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise ConfigFileError(path, f"is larger than {limit} bytes; not read")
        return b"".join(chunks)
    except OSError as error:
        raise ConfigFileError(path, f"cannot be read ({error.strerror or error})") from None
    finally:
        os.close(fd)


def load(path: Path) -> JSONObject | None:
    """The object in the file at `path` (symlinks followed), or None if there is no file."""
    data = read_bytes(path)
    return None if data is None else parse(data, path)


def dumps(value: JSONObject) -> str:
    """The text of a new file: two-space indent, keys in their order, a final newline."""
    return jsonedit.dumps(value) + "\n"


def render(old: str | None, value: JSONObject, path: Path) -> str:
    """The new text of a file that held `old` (None: no file), now holding `value`: the text
    of everything unchanged is kept byte for byte (see `jsonedit`)."""
    if old is None:
        return dumps(value)
    body = old.removeprefix("\ufeff")
    start = len(old) - len(body) + len(body) - len(body.lstrip(" \t\r\n"))
    end = len(old.rstrip(" \t\r\n"))
    before = parse(old, path)
    style = jsonedit.detect_style(old)
    if old[start:end] == "{}":
        style = jsonedit.Style(newline=style.newline)
    return old[:start] + jsonedit.render(old, start, end, before, value, style) + old[end:]


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

    The text of what `value` does not change is kept as it is in the file now (see `render`).
    A new file gets the usual permissions for the umask; an existing one keeps its mode bits
    (and its owner where we may set it). Parent directories must exist.
    """
    write_bytes_atomic(path, rendered(path, value)[1].encode("utf-8"))


def rendered(path: Path, value: JSONObject) -> tuple[str | None, str]:
    """The text of the file at `path` now (None: no file) and the text `write_atomic` would
    give it for `value`: what `--dry-run` shows as the change."""
    old = read_bytes(write_target(path))
    text = None if old is None else _text(old, path)
    return text, render(text, value, path)


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """`write_atomic` for a file's bytes as they are (a TOML file, say)."""
    target = write_target(path)
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    fd, temp_name = tempfile.mkstemp(prefix=_temp_prefix(target), suffix=".tmp", dir=target.parent)
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
    remove_stale_temporaries(target)


TEMP_TAG = "mdsel-claude-"
"""Marks a temporary file as setup's own: `.NAME.mdsel-claude-XXXXXXXX.tmp`."""
STALE_SECONDS = 600
"""An untagged temporary file (`.NAME.XXXXXXXX.tmp`, as versions before `TEMP_TAG` named them)
this old was left by a run that was killed: a write takes milliseconds. Younger ones are left,
since another program may name its own temporary files so, and be writing one right now."""


def _temp_prefix(target: Path) -> str:
    return f".{target.name}.{TEMP_TAG}"


def remove_stale_temporaries(target: Path) -> None:
    """Remove what a killed write left beside `target`: regular files of ours named as
    `write_bytes_atomic` names its temporary files (mkstemp's eight characters after the tag),
    whatever their age, since setup's commands write only while they hold its lock (see `cli`):
    none of them is being written now. Untagged ones of older versions go once STALE_SECONDS
    old. Anything else, a link included, is left alone."""
    prefix = f".{target.name}."
    now = time.time()
    try:
        names = [n for n in os.listdir(target.parent) if n.startswith(prefix)]
    except OSError:
        return
    for name in names:
        middle = name[len(prefix) : -len(".tmp")] if name.endswith(".tmp") else ""
        tagged = middle.startswith(TEMP_TAG)
        if tagged:
            middle = middle[len(TEMP_TAG) :]
        if len(middle) != 8 or not all(c.isalnum() or c == "_" for c in middle):
            continue
        path = target.parent / name
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if (
            stat.S_ISREG(info.st_mode)
            and info.st_uid == os.getuid()
            and (tagged or now - info.st_mtime > STALE_SECONDS)
        ):
            with contextlib.suppress(OSError):
                os.unlink(path)


def delete(path: Path) -> None:
    """Remove the file that `path` names (its symlink target; a symlink itself is kept), and
    what a killed write left beside it (else its folder could not be removed after it)."""
    target = write_target(path)
    target.unlink(missing_ok=True)
    remove_stale_temporaries(target)
