"""Cline: `~/.cline/data/settings/cline_mcp_settings.json`, `mcpServers`, and the hook script
`~/Documents/Cline/Hooks/PostToolUse` that carries the reminder (see `hook.cline`).

The Cline CLI (3.x) finds its MCP settings at `CLINE_MCP_SETTINGS_PATH`, else
`$CLINE_DATA_DIR/settings/`, else `$CLINE_DIR/data/settings/`, else `~/.cline/data/settings/`;
it reads no project's MCP servers, so there is no project scope. It runs, after every tool call,
each file named `PostToolUse` (any case, no extension or a script's) in `~/Documents/Cline/Hooks/`,
`~/.cline/hooks/` and the workspace's `.clinerules/hooks/` and `.cline/hooks/`, through the
interpreter its `#!` line names; the VS Code extension reads the first and third, and runs a hook
only if it is executable. Ours goes in the first, executable, the folder both read:

    #!/bin/sh
    command -v /abs/mdsel-claude >/dev/null 2>&1 || exit 0
    exec /abs/mdsel-claude hook --client cline --min-words 200

so that with mdsel-claude gone the script says nothing and exits 0. The script is ours whole
(see `whole_files`): install writes it only while it is absent or as an install wrote it, uninstall
deletes it only while unchanged, and a `PostToolUse` of the user's own is never touched.
"""

from __future__ import annotations

import dataclasses
import re
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from mdsel_claude.setup.clients.base import Client, Doctoring, Request, home
from mdsel_claude.setup.entries import EXECUTABLE_NAME, hook_args, parse_hook_command
from mdsel_claude.setup.errors import SetupError
from mdsel_claude.setup.instructions import Target
from mdsel_claude.setup.steps import DeleteFile, MakeDir, Note, Plan, WriteText

TIMEOUT_SECONDS = 60
"""Our server's `timeout`: without one, Cline gives a stdio server 3 s to answer `initialize`
and skips it after (a Python start on a busy machine takes longer); 60 s is what it gives every
other request anyway."""

HOOK_NAME = "PostToolUse"
"""The event, and the file name Cline runs for it."""

SCRIPT_EXTENSIONS = frozenset(
    {"", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".py", ".ps1"}
)
"""The endings of a hook file Cline runs (`PostToolUse.sh` runs as well as `PostToolUse`)."""

RULES_NAME = "mdsel-claude.md"
"""Our rule file in Cline's global rules folder (`install --instructions`)."""

NEXT_STEPS = (
    "Start (or restart) Cline to load them. Its MCP tools: mdsel_index, mdsel_select; its "
    f"{HOOK_NAME} hook reminds the model when read_files (or a command) shows a large Markdown "
    "file. Check with: mdsel-claude doctor --client cline"
)

_HEADER = """\
#!/bin/sh
# mdsel-claude for Cline: after each tool call, `mdsel-claude hook` says whether it showed a
# large Markdown file, and Cline adds its answer to what the model sees next. Every decision is
# the hook's; this file only passes the call on, and stays silent once mdsel-claude is gone.
# Written by `mdsel-claude install --client cline`; `mdsel-claude uninstall --client cline`
# removes it while it is unchanged.
"""

_EXEC_LINE = re.compile(r"^exec (.*)$", re.MULTILINE)


def _setting(environ: Mapping[str, str], name: str) -> str:
    # Cline trims its variables, and takes an empty one as unset.
    return (environ.get(name) or "").strip()


def cline_dir(environ: Mapping[str, str]) -> Path:
    """The Cline CLI's own folder: `CLINE_DIR`, else `~/.cline`."""
    return Path(_setting(environ, "CLINE_DIR") or home(environ) / ".cline")


def settings_file(environ: Mapping[str, str]) -> Path:
    """Where the Cline CLI reads its MCP servers (see the module docstring)."""
    explicit = _setting(environ, "CLINE_MCP_SETTINGS_PATH")
    if explicit:
        return Path(explicit)
    data = Path(_setting(environ, "CLINE_DATA_DIR") or cline_dir(environ) / "data")
    return data / "settings" / "cline_mcp_settings.json"


def hooks_folder(environ: Mapping[str, str]) -> Path:
    """The user's hook folder every Cline reads: `~/Documents/Cline/Hooks`."""
    return home(environ) / "Documents" / "Cline" / "Hooks"


def script_file(environ: Mapping[str, str]) -> Path:
    return hooks_folder(environ) / HOOK_NAME


def hook_argv(executable: str, min_words: int, mode: str = "reminder") -> list[str]:
    """`EXE hook --client cline --min-words N [--mode M]`: a mode other than the default travels
    on the line, so `MDSEL_HOOK_MODE` still applies to a default one."""
    return [executable, *hook_args(min_words, mode, "cline")]


def render(argv: Sequence[str]) -> str:
    """The script's text, running `argv` when its program is there."""
    program = shlex.quote(argv[0])
    return f"{_HEADER}command -v {program} >/dev/null 2>&1 || exit 0\nexec {shlex.join(argv)}\n"


def parse(text: str) -> tuple[str, int, str] | None:
    """(executable, threshold, mode) of a script exactly as install writes it, else None."""
    found = _EXEC_LINE.search(text)
    parsed = parse_hook_command(found.group(1), "cline") if found else None
    if parsed is None:
        return None
    return parsed if render(hook_argv(*parsed)) == text else None


def _parsed(data: bytes | None) -> tuple[str, int, str] | None:
    """`parse` of a file's bytes (None: no file, or not UTF-8)."""
    try:
        return None if data is None else parse(data.decode("utf-8"))
    except UnicodeDecodeError:
        return None


def _is_ours(data: bytes) -> bool:
    return _parsed(data) is not None


class Cline(Client):
    """The server in Cline's MCP settings, and the hook script beside them."""

    def plan_install(self, request: Request) -> Plan:
        from mdsel_claude.setup import whole_files

        argv = hook_argv(request.executable, request.words(), request.mode)
        plan = super().plan_install(request)
        path = script_file(request.environ)
        what = f"Cline {HOOK_NAME} hook → {shlex.join(argv)}"
        steps, state, done = whole_files.plan_write(path, render(argv), what, plan.state, _is_ours)
        if not done:
            raise SetupError(
                f"{path} is a {HOOK_NAME} hook of your own (mdsel-claude did not write it), "
                "and Cline runs one file of that name per folder; nothing was changed. Move it "
                f"to ~/.cline/hooks/{HOOK_NAME} (the Cline CLI runs both) or away, and run "
                "`mdsel-claude install --client cline` again"
            )
        script = [
            dataclasses.replace(step, executable=True) if isinstance(step, WriteText) else step
            for step in steps
            if not (isinstance(step, MakeDir) and step in plan.steps)
        ]
        return Plan((*plan.steps, *script), state, plan.state_file, plan.leftovers)

    def plan_uninstall(self, request: Request) -> Plan:
        from mdsel_claude.setup import whole_files

        plan = super().plan_uninstall(request)
        removed, state = whole_files.plan_remove(script_file(request.environ), plan.state)
        deletes = any(isinstance(step, DeleteFile) for step in removed)
        earlier = [
            step
            for step in plan.steps
            # "nothing is installed" was said of the settings file alone: not so with the script.
            if not (deletes and isinstance(step, Note) and step.text.startswith("nothing of"))
        ]
        return Plan((*earlier, *removed), state, plan.state_file, plan.leftovers)

    def doctor(self, found: Doctoring) -> None:
        from mdsel_claude.setup import jsonfile, ownership
        from mdsel_claude.setup.probes import run_on_threshold

        report = found.report
        path = script_file(found.environ)
        data = jsonfile.read_bytes(path)
        parsed = _parsed(data)
        if data is None:
            report.say(f"  {HOOK_NAME} hook ({path}): none")
        elif parsed is None:
            report.say(
                f"  {HOOK_NAME} hook ({path}): not ours, not run: not a script install writes"
            )
        _others(path, found)
        problem = (
            None
            if parsed is None
            else ownership.program_problem(parsed[0], found.me, found.environ)
        )
        if parsed is not None:
            runs = shlex.join(hook_argv(*parsed))
            verdict = f"ours, runs {runs}" if problem is None else f"not ours, not run: {problem}"
            report.say(f"  {HOOK_NAME} hook ({path}): {verdict}")
        if parsed is None or problem is not None:
            report.fail("no hook of this installation: run `mdsel-claude install --client cline`")
            return
        _, threshold, mode = parsed
        argv = (*found.me.argv, *hook_argv(EXECUTABLE_NAME, threshold, mode)[1:])
        report.say(f"  {shlex.join(argv)}")

        def read(directory: str, name: str) -> dict[str, object]:
            files = [{"path": name, "start_line": None, "end_line": None}]
            return {
                "hookName": "tool_result",
                "workspaceRoots": [directory],
                "tool_result": {"name": "read_files", "input": {"files": files}},
                "postToolUse": {"toolName": "read_files", "success": True},
            }

        from mdsel_claude.hook import cline

        run_on_threshold(argv, read, cline.answer, report)

    def instructions(self, scope: str, cwd: Path, environ: Mapping[str, str]) -> Target | None:
        # Cline 3.x reads every rule file in its global rules folders (`~/Documents/Cline/Rules`,
        # which the VS Code extension reads too, `~/Cline/Rules`, `$CLINE_DIR/rules`) beside
        # `~/.agents/AGENTS.md`: a file of our own there, which install creates with the block
        # alone and uninstall deletes again while nothing else was added to it.
        path = home(environ) / "Documents" / "Cline" / "Rules" / RULES_NAME
        return Target(path, f"cline:{scope}")

    def next_steps(self) -> str:
        return NEXT_STEPS


def _others(ours: Path, found: Doctoring) -> None:
    """Name the other PostToolUse files Cline runs beside ours (never run here): in the user's
    folders and the project's, one that runs our hook too would remind the model twice."""
    folders = [ours.parent, cline_dir(found.environ) / "hooks"]
    project = found.project_dir
    folders += [project / ".clinerules" / "hooks", project / ".cline" / "hooks"]
    for folder in dict.fromkeys(folders):
        try:
            names = sorted(p for p in folder.iterdir() if p.is_file())
        except OSError:
            continue
        for file in names:
            named = file.stem.lower() == HOOK_NAME.lower()
            if file == ours or not named or file.suffix.lower() not in SCRIPT_EXTENSIONS:
                continue
            found.report.say(f"  {HOOK_NAME} hook ({file}): not ours; Cline runs it too")


CLIENT = Cline(
    "cline",
    "Cline",
    "mcpServers",
    settings_file,
    None,
    lambda exe: {"command": exe, "args": ["serve"], "timeout": TIMEOUT_SECONDS},
)
