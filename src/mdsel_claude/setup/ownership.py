"""Which registered entries are this installation's own, judged by reading them, never running.

A registered command comes from a file anyone may have written (a cloned repository's
`.mcp.json` or `.claude/settings.json`), so nothing taken from it is ever executed. An entry is
ours only when it has exactly a form install writes — the server `{"type": "stdio", "command":
EXE, "args": ["serve"]}`, the hook `EXE hook --min-words N` (or `EXE hook`, as the plugin has it;
in project scope wrapped in `entries.PORTABLE_GUARD`) —
and EXE, resolved without running anything, is the very `mdsel-claude` of this installation.
Doctor then checks such an entry by running its own executable with the same arguments.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
import sysconfig
from collections.abc import Mapping
from dataclasses import dataclass

from mdsel_claude.setup.entries import EXECUTABLE_NAME, is_install_form, program_of, unguarded

_HOOK_FORM = re.compile(
    r"(?P<exe>.+?) hook(?: --min-words (?P<n>0|[1-9][0-9]{0,17}))?(?P<outline> --mode outline)?"
)
"""Our hook commands, to the character: shell syntax or any other argument is not ours."""

_SERVER_KEYS = {"command", "args", "type", "env"}

PLUGIN_LAUNCHER = "${CLAUDE_PLUGIN_ROOT}/src/mdsel_claude/launch.py"
PLUGIN_SERVER = {"command": "python3", "args": ["-S", PLUGIN_LAUNCHER, "serve"]}
"""The plugin's server, exactly as its `.mcp.json` has it."""
PLUGIN_HOOK = f'python3 -S "{PLUGIN_LAUNCHER}" hook'
"""The plugin's hook command, exactly as its `hooks/hooks.json` has it."""
PLUGIN_REASON = "the mdsel-claude plugin's launcher; checked with this installation instead"


@dataclass(frozen=True, slots=True)
class Installation:
    """The running mdsel-claude: how to run it, and the real path its entries name."""

    executable: str | None
    """Real path of the `mdsel-claude` script installed with this interpreter, if there is one."""
    argv: tuple[str, ...]
    """How doctor runs it: that script, else this interpreter with `-m mdsel_claude`."""


def this_installation() -> Installation:
    """The `mdsel-claude` installed beside the running interpreter (never one found on PATH,
    which a project could shadow)."""
    places = (os.path.dirname(sys.executable), sysconfig.get_path("scripts"))
    for folder in places:
        candidate = os.path.join(folder, EXECUTABLE_NAME)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            real = os.path.realpath(candidate)
            return Installation(real, (real,))
    return Installation(None, (sys.executable, "-m", "mdsel_claude"))


def resolve(word: str, environ: Mapping[str, str]) -> str | None:
    """The absolute path of the program a command word names, found without running anything.

    An absolute path is taken as it is; a bare name is looked up in the absolute entries of
    PATH (a relative entry, like a relative path, would depend on the directory Claude Code is
    started in: none of ours). None when nothing executable is found.
    """
    if os.path.isabs(word):
        candidates = [word]
    elif os.sep in word or (os.altsep and os.altsep in word):
        return None
    else:
        folders = environ.get("PATH", os.defpath).split(os.pathsep)
        candidates = [os.path.join(folder, word) for folder in folders if os.path.isabs(folder)]
    for candidate in candidates:
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether an entry is ours; if so, the arguments to run our executable with."""

    args: tuple[str, ...] | None
    """E.g. `("serve",)` or `("hook", "--min-words", "200")`; None when not ours."""
    reason: str
    """Why it is ours (the program it runs) or why not, in words."""


def _program(word: str, installation: Installation, environ: Mapping[str, str]) -> str | None:
    """None when `word` runs this installation's mdsel-claude, else why not."""
    if os.path.basename(word) != EXECUTABLE_NAME:
        return f"runs {word!r}, not {EXECUTABLE_NAME}"
    found = resolve(word, environ)
    if found is None:
        return f"{word!r} is not an installed program (or a path relative to the project)"
    if installation.executable is None or os.path.realpath(found) != installation.executable:
        own = installation.executable or "none here"
        return f"runs {found}, another {EXECUTABLE_NAME} than this one ({own})"
    return None


def program_problem(
    word: str, installation: Installation, environ: Mapping[str, str]
) -> str | None:
    """None when the command word `word` runs this installation's mdsel-claude, else why not."""
    return _program(word, installation, environ)


def missing_program(value: object, hook: bool) -> str | None:
    """The program of an entry exactly as install writes it whose program no longer exists (an
    absolute path: mdsel-claude was uninstalled or moved, say by `pipx uninstall`), else None.
    Such an entry fails on every start or Read, and nothing else can have meant it."""
    program = program_of(value, hook)
    if not os.path.isabs(program) or os.path.lexists(program):
        return None
    return program if is_install_form(value, program) else None


def judge_server(value: object, installation: Installation, environ: Mapping[str, str]) -> Verdict:
    """Whether an `mcpServers` value is exactly a server install writes, running our executable
    (or, in the plugin's files, exactly the plugin's)."""
    if value == PLUGIN_SERVER:
        return Verdict(("serve",), PLUGIN_REASON)
    if not isinstance(value, dict) or not isinstance(value.get("command"), str):
        return Verdict(None, "not a stdio command")
    extra = sorted(set(value) - _SERVER_KEYS)
    if extra or value.get("env", {}) != {} or value.get("type", "stdio") != "stdio":
        fields = ", ".join(extra) if extra else "env" if value.get("env") else "type"
        return Verdict(None, f"has settings install never writes ({fields})")
    if value.get("args") != ["serve"]:
        return Verdict(None, f"its arguments are {value.get('args')!r}, not ['serve']")
    command = str(value["command"])
    problem = _program(command, installation, environ)
    return Verdict(None, problem) if problem else Verdict(("serve",), f"runs {command} serve")


def judge_hook(command: object, installation: Installation, environ: Mapping[str, str]) -> Verdict:
    """Whether a hook command is exactly one install (or the plugin) writes, running our
    executable."""
    if not isinstance(command, str):
        return Verdict(None, "not a command")
    if command == PLUGIN_HOOK:
        return Verdict(("hook",), PLUGIN_REASON)
    # A project-scope hook (`sh -c 'command -v mdsel-claude … || exit 0; exec mdsel-claude
    # hook …'`) is judged by the command it runs; the bare form of older installs as it is.
    match = _HOOK_FORM.fullmatch(unguarded(command))
    words = shlex.split(match["exe"]) if match and _splits(match["exe"]) else []
    # The executable word must be written as install quotes it: `'…'` only where needed.
    if not match or len(words) != 1 or shlex.quote(words[0]) != match["exe"]:
        return Verdict(None, "not a command install writes (other arguments or shell syntax)")
    problem = _program(words[0], installation, environ)
    if problem:
        return Verdict(None, problem)
    args: tuple[str, ...] = ("hook", "--min-words", match["n"]) if match["n"] else ("hook",)
    if match["outline"]:
        args += ("--mode", "outline")
    return Verdict(args, f"runs {shlex.join((words[0], *args))}")


def _splits(text: str) -> bool:
    try:
        shlex.split(text)
    except ValueError:
        return False
    return True
