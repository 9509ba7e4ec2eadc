"""Our executable: the `mdsel-claude` entries run, and whether it will stay where it is."""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import Mapping
from pathlib import Path

from mdsel_claude.setup import ownership
from mdsel_claude.setup.entries import EXECUTABLE_NAME
from mdsel_claude.setup.errors import SetupError


def find_executable() -> str:
    """Absolute path of the installed `mdsel-claude` script that entries should run.

    The running script when we were started through it, else the one installed beside this
    interpreter, else the first on PATH. The path is absolute but symlinks are kept: a venv's
    `bin/` is the stable name.
    """
    argv0 = sys.argv[0] if sys.argv else ""
    candidates = []
    if os.path.basename(argv0) == EXECUTABLE_NAME:
        candidates.append(os.path.abspath(argv0))
    candidates.append(os.path.join(os.path.dirname(sys.executable), EXECUTABLE_NAME))
    candidates.append(os.path.join(sysconfig.get_path("scripts"), EXECUTABLE_NAME))
    for candidate in candidates:
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    # Absolute PATH entries only: with `.` on PATH, a repository's own `mdsel-claude` would
    # otherwise be written into the user's configuration as ours.
    found = ownership.resolve(EXECUTABLE_NAME, os.environ)
    if found:
        return found
    raise SetupError(
        f"cannot find the {EXECUTABLE_NAME} executable (looked beside {sys.executable} and on "
        f"PATH); install it with {DURABLE_WAY}, then run this again"
    )


def portable_executable(environ: Mapping[str, str]) -> str:
    """The bare name `mdsel-claude`, for files shared with others; refuses when it is not on
    PATH, since then the shared entries would not run even here."""
    found = shutil.which(EXECUTABLE_NAME, path=environ.get("PATH", os.defpath))
    if found is None:
        raise SetupError(
            f"--scope project writes files shared with everyone who clones the project, so "
            f"they run `{EXECUTABLE_NAME}` from PATH, but it is not on your PATH; install it "
            f"with {DURABLE_WAY} (or put its directory on PATH), or leave out "
            f"--scope project: the other scopes run {EXECUTABLE_NAME} by its full path"
        )
    place = passing_place(found, environ)
    if place is not None:
        raise SetupError(
            f"--scope project writes files shared with everyone who clones the project, but "
            f"the {EXECUTABLE_NAME} on your PATH will not stay: {place}. Install it with "
            f"{DURABLE_WAY}, then run this again"
        )
    return EXECUTABLE_NAME


DURABLE_WAY = "`pipx install .` (or `uv tool install .`) in a checkout of mdsel-claude"
"""How to install mdsel-claude where it stays: named whenever an executable would not. It is
installed from its repository (no package index carries it), so the advice is the checkout's."""


def _passing_places(environ: Mapping[str, str]) -> list[tuple[str, str]]:
    """Folders whose programs may vanish any day, each with what it is: the temporary
    directory, the user's caches (uv's, `uvx`'s environments, pipx's `pipx run` ones)."""
    home = environ.get("HOME") or str(Path.home())
    places = [(tempfile.gettempdir(), "the temporary directory")]
    for variable in ("UV_CACHE_DIR", "PIPX_CACHE_DIR"):
        if environ.get(variable):
            places.append((environ[variable], f"the cache in ${variable}"))
    cache = environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache")
    places.append((cache, "the user's cache (uv's and pipx's among others)"))
    places.append((os.path.join(home, "Library", "Caches"), "the user's cache"))
    if environ.get("LOCALAPPDATA"):
        places.append((os.path.join(environ["LOCALAPPDATA"], "uv", "cache"), "uv's cache"))
    for pipx_home in (environ.get("PIPX_HOME"), os.path.join(home, ".local", "pipx")):
        if pipx_home:
            places.append((os.path.join(pipx_home, ".cache"), "pipx's `pipx run` cache"))
    places.append(
        (os.path.join(home, ".local", "share", "pipx", ".cache"), "pipx's `pipx run` cache")
    )
    return places


def _hops(path: str, limit: int = 40) -> list[str]:
    """Each link `path` goes through on the way to its target (a link into a cache that links
    on to somewhere durable still vanishes with the cache)."""
    hops = []
    current = os.path.abspath(path)
    for _ in range(limit):
        try:
            target = os.readlink(current)
        except OSError:
            break
        current = os.path.abspath(os.path.join(os.path.dirname(current), target))
        hops.append(current)
    return hops


def passing_place(executable: str, environ: Mapping[str, str]) -> str | None:
    """What makes `executable` short-lived — it lies (as written, or once its links are
    resolved) in a temporary directory or a cache, which `uv cache clean`, `pipx run` or a
    reboot clears — or None for a durable place."""
    names = {os.path.abspath(executable), os.path.realpath(executable), *_hops(executable)}
    for folder, what in _passing_places(environ):
        for root in {os.path.abspath(folder), os.path.realpath(folder)}:
            if any(name.startswith(root.rstrip(os.sep) + os.sep) for name in names):
                return f"{executable} is inside {what} ({root})"
    return None


def passing_warning(executable: str, environ: Mapping[str, str]) -> str | None:
    """The warning install gives for a short-lived executable, naming the durable way."""
    place = passing_place(executable, environ)
    if place is None:
        return None
    return (
        f"warning: {place}, which is cleared from time to time (`uv cache clean`, `uvx` and "
        f"`pipx run` environments, a reboot); the entries will stop working then. Install it "
        f"to stay with {DURABLE_WAY}, then run install again with that one"
    )
