"""OpenCode's plugin file: the reminder after a large Markdown `read` (or `bash` that prints one).

OpenCode has no command hooks: it runs JavaScript plugins inside its own process, loading every
`*.js`/`*.ts` file in a `plugin/` (or `plugins/`) folder of each configuration directory it
reads — `~/.config/opencode/` (`$XDG_CONFIG_HOME/opencode/`) and the project's `.opencode/`.
`install --client opencode` writes, beside the MCP server in `opencode.json`, the file
`plugin/mdsel-claude.js` there: the shipped `plugin.js` with the command it runs baked
in (`/abs/mdsel-claude hook --client opencode --min-words N [--mode outline]`; in project scope
the bare `mdsel-claude`, found on PATH, and nothing happens when it is not). Its
`tool.execute.after` hook passes each `read` and `bash` call to that command and adds its answer
to the output the model sees (see `mdsel_claude.hook.opencode`).

The file is ours whole (see `whole_files`): the install record notes its SHA-256, install
replaces it only while it is absent or as an install wrote it, and uninstall (and `uninstall
--all`) deletes it only while unchanged; a changed file is named and left alone.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from mdsel_claude.hook import opencode
from mdsel_claude.setup import jsonfile, ownership, whole_files
from mdsel_claude.setup.entries import EXECUTABLE_NAME, hook_args, parse_hook_argv
from mdsel_claude.setup.errors import SetupError
from mdsel_claude.setup.paths import project_root
from mdsel_claude.setup.probes import Report, run_on_threshold
from mdsel_claude.setup.steps import MakeDir, Note, Plan

TEMPLATE = Path(__file__).with_name("plugin.js")
"""The plugin as shipped in the package; its `COMMAND` line is replaced on install."""

FILE_NAME = "mdsel-claude.js"
FOLDER = "plugin"
"""One of the two folder names OpenCode loads plugins from (`plugin`, `plugins`)."""

_COMMAND_LINE = re.compile(r"^const COMMAND = (.*);$", re.MULTILINE)

NEXT_STEPS = (
    "Start (or restart) OpenCode to load them. Its MCP tools: mdsel_index, mdsel_select; its "
    "plugin reminds the model when read (or a bash command) shows a large Markdown file. "
    "Check with: mdsel-claude doctor --client opencode"
)


def plugin_file(scope: str, config_file: Path, cwd: Path) -> Path:
    """Where our plugin goes for `scope`: beside the user's `opencode.json` (`config_file`), or in
    the project's `.opencode/`."""
    if scope == "user":
        return config_file.parent / FOLDER / FILE_NAME
    return project_root(cwd) / ".opencode" / FOLDER / FILE_NAME


def hook_command(executable: str, min_words: int, mode: str = "reminder") -> list[str]:
    """The command the plugin runs; a mode other than the default travels as `--mode M`, so
    `MDSEL_HOOK_MODE` still applies to a default one."""
    return [executable, *hook_args(min_words, mode, "opencode")]


def _template() -> str:
    try:
        return TEMPLATE.read_text(encoding="utf-8")
    except OSError as error:
        raise SetupError(f"the packaged plugin {TEMPLATE} cannot be read ({error})") from None


def render(command: Sequence[str]) -> str:
    """The plugin's text, running `command`."""
    # JSON is a JavaScript array literal; ASCII-only, so no path can end the line early.
    line = f"const COMMAND = {json.dumps(list(command))};"
    text, count = _COMMAND_LINE.subn(lambda _: line, _template(), count=1)
    if count != 1:
        raise SetupError(f"the packaged plugin {TEMPLATE} has no COMMAND line")
    return text


def parse(text: str) -> tuple[str, int, str] | None:
    """(executable, threshold, mode) of a plugin exactly as install writes it, else None."""
    found = _COMMAND_LINE.search(text)
    try:
        command = json.loads(found.group(1)) if found else None
    except ValueError:
        return None
    parsed = parse_hook_argv(command, "opencode") if isinstance(command, list) else None
    if parsed is None:
        return None
    return parsed if render(hook_command(*parsed)) == text else None


def _is_ours(data: bytes) -> bool:
    """A plugin exactly as an install writes it (any executable, threshold, mode)."""
    try:
        return parse(data.decode("utf-8")) is not None
    except UnicodeDecodeError:
        return False


def plan_install(plan: Plan, path: Path, command: Sequence[str]) -> Plan:
    """`plan` (the server's) followed by writing our plugin at `path`; refused, before anything
    is written, when a file install did not write is there."""
    what = f"OpenCode plugin → {shlex.join(command)}"
    steps, state, done = whole_files.plan_write(path, render(command), what, plan.state, _is_ours)
    if not done:
        raise SetupError(next(step.text for step in steps if isinstance(step, Note)))
    # The configuration folder the server's file needed is made once.
    steps = [s for s in steps if not (isinstance(s, MakeDir) and s in plan.steps)]
    return Plan((*plan.steps, *steps), state, plan.state_file, plan.leftovers)


# -- doctor -----------------------------------------------------------------------------------


def report(
    places: Sequence[tuple[str, Path]],
    me: ownership.Installation,
    environ: Mapping[str, str],
    out: Report,
) -> None:
    """Doctor's lines on our plugin in the user's and the project's OpenCode folders: there,
    exactly as install writes it, running this installation; then a run of this installation's
    hook with the plugin's arguments."""
    mine: list[tuple[str, tuple[str, int, str]]] = []
    for scope, path in places:
        data = jsonfile.read_bytes(path)
        if data is None:
            out.say(f"  plugin {scope} ({path}): none")
            continue
        try:
            parsed = parse(data.decode("utf-8"))
        except UnicodeDecodeError:
            parsed = None
        if parsed is None:
            out.say(f"  plugin {scope} ({path}): not ours, not run: not a plugin install writes")
            continue
        problem = ownership.program_problem(parsed[0], me, environ)
        verdict = "ours, runs " if problem is None else "not ours, not run: "
        runs = shlex.join(hook_command(*parsed))
        out.say(f"  plugin {scope} ({path}): {verdict}{problem or runs}")
        if problem is None:
            mine.append((scope, parsed))
    if not mine:
        out.fail("no plugin of this installation: run `mdsel-claude install --client opencode`")
        return
    if len(mine) > 1:
        out.fail(
            "our plugin is in both the user and the project folder: the reminder would come "
            "twice; keep one (`mdsel-claude uninstall --client opencode --scope user`)"
        )
    out.say(
        "  (OpenCode loads plugins at start, once it has installed its @opencode-ai/plugin "
        "package into the folder: that needs the network, or npm's cache, the first time)"
    )
    _, threshold, mode = mine[0][1]
    argv = (*me.argv, *hook_command(EXECUTABLE_NAME, threshold, mode)[1:])
    out.say(f"  {shlex.join(argv)}")
    check_hook(argv, out)


def check_hook(argv: Sequence[str], out: Report) -> None:
    """Run our hook (`argv`: our executable, `hook`, its options) on the payload the plugin sends
    after a `read` of a Markdown file over and at its threshold: the answer, then silence."""

    def read(directory: str, name: str) -> dict[str, object]:
        return {"tool": "read", "args": {"filePath": name}, "directory": directory}

    run_on_threshold(argv, read, opencode.answer, out)
