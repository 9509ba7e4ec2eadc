"""`install --skill`: the mdsel Agent Skill where agents look for skills, for the `mdsel` CLI.

The skill (`mdsel_claude/skills/mdsel/SKILL.md`, also the Claude Code plugin's) teaches an agent
to reach Markdown with `mdsel index` / `mdsel select` from its shell, with no MCP server at all.
Two folders cover most agents that read skills:

- `.claude/skills/` — Claude Code (OpenCode reads it too, and Copilot CLI in a project);
- `.agents/skills/` — the shared folder Gemini CLI, Codex CLI, OpenCode, Copilot CLI and Cline
  read (Copilot CLI not under the home folder while `COPILOT_HOME` is set).

Qwen Code and Factory Droid read only their own folders (`.qwen/skills/`, `.factory/skills/`):
a copy goes there too where that client's folder already is, so that no folder of a client the
user does not run is made.

Under the home directory (user scope, the default) or at the project root (`--scope project`,
shared with whoever clones the project). Each copy is a whole file of ours (see `whole_files`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from mdsel_claude.setup import ledger, whole_files
from mdsel_claude.setup.errors import SetupError
from mdsel_claude.setup.paths import project_root
from mdsel_claude.setup.steps import Note, Plan, Step

SKILL_FILE = Path(__file__).resolve().parents[1] / "skills" / "mdsel" / "SKILL.md"
"""The skill as shipped in the package."""

FOLDERS = (".claude/skills", ".agents/skills")
SCOPES = ("user", "project")


def skill_text() -> str:
    try:
        return SKILL_FILE.read_text(encoding="utf-8")
    except OSError as error:
        raise SetupError(f"the packaged skill {SKILL_FILE} cannot be read ({error})") from None


def targets(scope: str, cwd: Path, environ: Mapping[str, str]) -> list[Path]:
    """The SKILL.md paths for `scope`."""
    if scope == "user":
        base = Path(environ.get("HOME") or Path.home())
    elif scope == "project":
        base = project_root(cwd)
    else:
        raise SetupError(
            f"the skill has no {scope} scope: use --scope user (the default) or project"
        )
    paths = [base / folder / "mdsel" / "SKILL.md" for folder in FOLDERS]
    for own in _own_folders(scope, base, environ):
        if own.is_dir():
            paths.append(own / "skills" / "mdsel" / "SKILL.md")
    return paths


def _own_folders(scope: str, base: Path, environ: Mapping[str, str]) -> tuple[Path, ...]:
    """Qwen Code's and Factory Droid's folders in `scope` (their homes move with their
    variables, as the clients' own settings do)."""
    from mdsel_claude.setup.clients.factory import factory_home
    from mdsel_claude.setup.clients.qwen import qwen_dir

    if scope == "user":
        return (qwen_dir(environ), factory_home(environ) / ".factory")
    return (base / ".qwen", base / ".factory")


def plan_install(paths: list[Path], state_file: Path) -> tuple[Plan, bool]:
    """The skill at each of `paths`, and whether one was refused (a SKILL.md there that install
    did not write: left alone, the others still written)."""
    text = skill_text()
    state = ledger.load(state_file)
    steps: list[Step] = []
    refused = False
    for path in paths:
        more, state, done = whole_files.plan_write(path, text, "the mdsel Agent Skill", state)
        steps += more
        refused |= not done
    return Plan(tuple(steps), state, state_file), refused


def plan_uninstall(paths: list[Path], state_file: Path) -> Plan:
    state = ledger.load(state_file)
    steps: list[Step] = []
    for path in paths:
        more, state = whole_files.plan_remove(path, state)
        steps += more
    if not steps:
        steps.append(Note("nothing of mdsel-claude's skill is installed there"))
    return Plan(tuple(steps), state, state_file)
