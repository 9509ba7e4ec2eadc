"""GitHub Copilot CLI: `~/.copilot/mcp-config.json` (`COPILOT_HOME`) or the project's
`.github/mcp.json`, `mcpServers` → `{type: "local", command, args, tools: ["*"]}` (what
`copilot mcp add` writes), and a hooks file of ours beside it.

Copilot CLI loads every `*.json` in `~/.copilot/hooks/` (`$COPILOT_HOME/hooks/`) and in the
project's `.github/hooks/`, so install writes its own `hooks/mdsel-claude.json` next to the
server's file, a whole file of ours (see `whole_files`):

    {"version": 1, "hooks": {
      "postToolUse": [{"type": "command", "matcher": "view|bash", "bash": "CMD"}],
      "postToolUseFailure": [{"type": "command", "matcher": "view", "bash": "CMD"}]}}

CMD is `/abs/mdsel-claude hook --client copilot --min-words N [--mode outline]`; in project
scope the bare name inside `entries.PORTABLE_GUARD`, as for Claude Code. Only after-tool events,
both fail-open: the read always goes on (`preToolUse` denies the tool when its hook fails). Its
answers are `mdsel_claude.hook.copilot`'s. There is no `powershell` command, so on Windows the
CLI runs no hook of ours (the server still works). The CLI reads the project's `.github/` only
in a folder the user trusts; its `.mcp.json` is Claude Code's project file, so ours goes in
`.github/mcp.json`.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from mdsel_claude.hook import copilot
from mdsel_claude.setup import entries, jsonc, jsonfile, ownership, whole_files
from mdsel_claude.setup.clients.base import Client, Doctoring, Request, home
from mdsel_claude.setup.entries import hook_args
from mdsel_claude.setup.errors import SetupError
from mdsel_claude.setup.instructions import Target
from mdsel_claude.setup.jsonfile import ConfigFileError
from mdsel_claude.setup.probes import Report, run_on_threshold
from mdsel_claude.setup.steps import MakeDir, Note, Plan

HOOKS_FILE = Path("hooks") / "mdsel-claude.json"
"""Our hooks file, relative to the folder of the server's file (`~/.copilot`, `.github`)."""

MATCHERS = {"postToolUse": "view|bash", "postToolUseFailure": "view"}
"""Our events and the tools each runs on (a regex the CLI anchors). Copilot CLI 1.0.102 runs a
`postToolUseFailure` hook after every failed tool whatever its matcher; the hook is silent there."""

NEXT_STEPS = (
    "Start (or restart) Copilot CLI to load them (in a project, it reads .github/ only once you "
    "trust the folder). Its MCP tools: mdsel_index, mdsel_select; its postToolUse hook reminds "
    "the model when view (or a bash command) shows a large Markdown file. Check with: "
    "mdsel-claude doctor --client copilot"
)


def copilot_home(environ: Mapping[str, str]) -> Path:
    """Where Copilot CLI keeps its configuration: `COPILOT_HOME` when set, else `~/.copilot`."""
    return Path(environ.get("COPILOT_HOME") or home(environ) / ".copilot")


def hooks_file(config_file: Path) -> Path:
    """Our hooks file for the scope whose server file is `config_file`."""
    return config_file.parent / HOOKS_FILE


def hook_command(executable: str, min_words: int, mode: str = "reminder") -> str:
    """`EXE hook --client copilot --min-words N [--mode M]`; the bare name guarded."""
    return entries.hook_command(executable, min_words, mode, "copilot")


def render(command: str) -> str:
    """The text of our hooks file, running `command` after each of our events."""
    hooks = {
        event: [{"type": "command", "matcher": matcher, "bash": command}]
        for event, matcher in MATCHERS.items()
    }
    return json.dumps({"version": 1, "hooks": hooks}, indent=2) + "\n"


def parse(data: bytes) -> tuple[str, int, str] | None:
    """(executable, threshold, mode) of a hooks file exactly as install writes it, else None."""
    try:
        value = json.loads(data.decode("utf-8"))
        command = value["hooks"]["postToolUse"][0]["bash"]
    except (ValueError, LookupError, TypeError, AttributeError):
        return None
    parsed = entries.parse_hook_command(command, "copilot")
    if parsed is None:
        return None
    return parsed if render(hook_command(*parsed)).encode() == data else None


class Copilot(Client):
    """The server, and the hooks file that carries the reminder."""

    def plan_install(self, request: Request) -> Plan:
        command = hook_command(request.executable, request.words(), request.mode)
        plan = super().plan_install(request)
        path = hooks_file(request.path)
        what = f"Copilot CLI postToolUse hook on view → {command}"
        steps, state, done = whole_files.plan_write(
            path, render(command), what, plan.state, lambda data: parse(data) is not None
        )
        if not done:
            raise SetupError(next(step.text for step in steps if isinstance(step, Note)))
        # The configuration folder the server's file needed is made once.
        steps = [s for s in steps if not (isinstance(s, MakeDir) and s in plan.steps)]
        return Plan((*plan.steps, *steps), state, plan.state_file, plan.leftovers)

    def plan_uninstall(self, request: Request) -> Plan:
        plan = super().plan_uninstall(request)
        # The folder both files needed (`~/.copilot`, `.github`) goes once both are gone.
        return whole_files.plan_remove_after(plan, hooks_file(request.path))

    def doctor(self, found: Doctoring) -> None:
        report_hooks(found.places, found.me, found.environ, found.report)

    def instructions(self, scope: str, cwd: Path, environ: Mapping[str, str]) -> Target | None:
        # Copilot CLI 1.0.102 (its /help list) reads `copilot-instructions.md` in its home and
        # `.github/copilot-instructions.md` in the git root and the current folder, beside
        # `AGENTS.md`, `CLAUDE.md` and `GEMINI.md` there: its own file is the one it alone reads.
        if scope == "user":
            return Target(copilot_home(environ) / "copilot-instructions.md", f"copilot:{scope}")
        folder = self.project_folder(cwd) / ".github"
        return Target(folder / "copilot-instructions.md", f"copilot:{scope}")

    def next_steps(self) -> str:
        return NEXT_STEPS


# -- doctor -----------------------------------------------------------------------------------


def report_hooks(
    places: Sequence[tuple[str, Path]],
    me: ownership.Installation,
    environ: Mapping[str, str],
    report: Report,
) -> None:
    """Doctor's lines on our hooks file in each scope: there, exactly as install writes it,
    running this installation, not switched off; then a run of this installation's hook with
    the file's arguments."""
    mine: list[tuple[str, tuple[str, int, str]]] = []
    for scope, config_file in places:
        path = hooks_file(config_file)
        try:
            data = jsonfile.read_bytes(path)
        except ConfigFileError as error:
            report.fail(str(error))
            continue
        if data is None:
            report.say(f"  hooks {scope} ({path}): none")
            continue
        parsed = parse(data)
        if parsed is None:
            report.say(f"  hooks {scope} ({path}): not ours, not run: not a file install writes")
            continue
        problem = ownership.program_problem(parsed[0], me, environ)
        verdict = "ours, " if problem is None else "not ours: "
        runs = f"runs {hook_command(*parsed)}"
        report.say(f"  hooks {scope} ({path}): {verdict}{problem or runs}")
        if problem is None:
            mine.append((scope, parsed))
    _switched_off(places, environ, report)
    if not mine:
        report.fail("no hook of this installation: run `mdsel-claude install --client copilot`")
        return
    if len(mine) > 1:
        report.fail(
            "our hooks are in both the user and the project folder: the reminder would come "
            "twice; keep one (`mdsel-claude uninstall --client copilot --scope user`)"
        )
    report.say("  (Copilot CLI reads a project's .github/ only in a folder you trust)")
    _, threshold, mode = mine[0][1]
    argv = (*me.argv, *hook_args(threshold, mode, "copilot"))
    report.say(f"  {shlex.join(argv)}")
    check_hook(argv, report)


def _switched_off(
    places: Sequence[tuple[str, Path]], environ: Mapping[str, str], report: Report
) -> None:
    """A failure for `disableAllHooks: true` in the user's settings (JSON with comments), or in
    the project's `.github/copilot/settings.json` / `settings.local.json`."""
    files = [copilot_home(environ) / "settings.json"]
    files += [
        config_file.parent / "copilot" / name
        for scope, config_file in places
        if scope == "project"
        for name in ("settings.json", "settings.local.json")
    ]
    for file in files:
        try:
            settings = jsonc.load(file)
        except ConfigFileError:
            continue  # the CLI ignores a settings file it cannot read, and so do we
        if settings is not None and settings.get("disableAllHooks") is True:
            report.fail(f"disableAllHooks is true in {file}: Copilot CLI runs no hook")


def check_hook(argv: Sequence[str], report: Report) -> None:
    """Run our hook (`argv`: our executable, `hook`, its options) on the payload Copilot CLI
    sends after a `view` of a Markdown file over and at its threshold: the answer, then
    silence."""

    def view(directory: str, name: str) -> dict[str, object]:
        return {
            "sessionId": "mdsel-claude-doctor",
            "timestamp": 0,
            "cwd": directory,
            "toolName": "view",
            "toolArgs": {"path": str(Path(directory, name))},
            "toolResult": {"resultType": "success", "textResultForLlm": ""},
        }

    run_on_threshold(argv, view, copilot.answer, report)


CLIENT = Copilot(
    "copilot",
    "Copilot CLI",
    "mcpServers",
    lambda env: copilot_home(env) / "mcp-config.json",
    ".github/mcp.json",
    lambda exe: {"type": "local", "command": exe, "args": ["serve"], "tools": ["*"]},
)
