"""The command line of `mdsel-claude install|uninstall|doctor`: every option and its help."""

from __future__ import annotations

import argparse

from mdsel.settings import DEFAULT_MIN_WORDS, parse_count
from mdsel_claude.hook import MODES as HOOK_MODES
from mdsel_claude.setup.clients import CLIENTS
from mdsel_claude.setup.entries import EXECUTABLE_NAME, HOOK_EVENTS
from mdsel_claude.setup.paths import SCOPES

CLAUDE = "claude"
"""`--client claude`: Claude Code itself, as with no `--client` (the hook's own name for it)."""

CLIENT_CHOICES = (CLAUDE, *sorted(CLIENTS))


def _min_words_arg(text: str) -> int:
    value = parse_count(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a non-negative integer")
    return value


def parser() -> argparse.ArgumentParser:
    """The arguments of install, uninstall and doctor, with their help."""
    parser = argparse.ArgumentParser(
        prog=EXECUTABLE_NAME,
        description="Register the mdsel MCP server and hook in Claude Code or another agent, "
        "or remove them.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    install = commands.add_parser(
        "install",
        help="register the server and the hook (run again to update them)",
        description="Register the mdsel MCP server and the hook (on Read and Bash) in Claude "
        "Code (in one scope), or with --client in another agent (the server, and the hook where "
        "the agent can run one), or with --skill the Agent Skill. Running it again updates them "
        "in place. What it writes is noted in the install record, for uninstall.",
    )
    uninstall = commands.add_parser(
        "uninstall",
        help="remove exactly what install added",
        description="Remove exactly what install wrote, as the install record lists it: in one "
        "scope of this project (or one client), or with --all in every project and client. "
        "Fails, naming them, when entries exactly like install's are left that the record "
        "does not list.",
    )
    for sub in (install, uninstall):
        sub.add_argument(
            "--scope",
            choices=SCOPES,
            help="as for `claude mcp add`: local (the default) is you in this project "
            "(~/.claude.json and .claude/settings.local.json); project is everyone who clones "
            "it (.mcp.json and .claude/settings.json at the project root, running "
            "mdsel-claude from PATH); user is you in every project (~/.claude.json and "
            "~/.claude/settings.json). With --client: user (the default) or project",
        )
        sub.add_argument(
            "--client",
            choices=CLIENT_CHOICES,
            help="another agent instead of Claude Code (claude, the default, is Claude Code "
            "itself): the server, and the hook in Gemini CLI (read_file), Codex CLI (shell "
            "reads), OpenCode (a plugin), Qwen Code (read_file) and Factory Droid (Read); see "
            "docs/clients.md",
        )
        sub.add_argument(
            "--dry-run", action="store_true", help="print what would change, change nothing"
        )
        sub.add_argument(
            "--skill",
            action="store_true",
            help="the mdsel Agent Skill instead (for agents that use the mdsel command from a "
            "shell, no MCP server): SKILL.md in ~/.claude/skills/mdsel and "
            "~/.agents/skills/mdsel (with --scope project: at the project root)",
        )
    uninstall.add_argument(
        "--all",
        action="store_true",
        help="remove everything install wrote, in every project, scope and client the install "
        "record knows (and say what is no longer there)",
    )
    install.add_argument(
        "--min-words",
        type=_min_words_arg,
        metavar="N",
        help="remind only for files over N words (default: MDSEL_MIN_WORDS, else "
        f"{DEFAULT_MIN_WORDS})",
    )
    install.add_argument(
        "--event",
        choices=HOOK_EVENTS,
        help="hook event: before the Read, or after it "
        "(default: PreToolUse; PostToolUse with --mode outline); PostToolUse also puts the "
        "hook on PostToolUseFailure, for a Read too large to return",
    )
    install.add_argument(
        "--mode",
        choices=HOOK_MODES,
        default=HOOK_MODES[0],
        help="reminder: add the reminder to a large Markdown Read; outline: show the "
        "document's index in place of a whole-file Read's result (PostToolUse only) "
        "(default: reminder)",
    )
    install.add_argument(
        "--instructions",
        action="store_true",
        help="also add a short block to the instructions file the agent reads in that scope "
        "(Claude Code: CLAUDE.local.md, CLAUDE.md, ~/.claude/CLAUDE.md; AGENTS.md, GEMINI.md "
        "for others; see docs/clients.md) saying when to use mdsel_index and mdsel_select; "
        "uninstall takes it out again",
    )
    install.add_argument(
        "--allow-duplicate",
        action="store_true",
        help="install even though another scope (or the plugin) already registers mdsel here "
        "(the tools would be listed twice and the reminder given twice)",
    )
    doctor = commands.add_parser(
        "doctor",
        help="report what is installed where and check that it works",
        description="Report what is registered where and whether it works, changing nothing: "
        "Claude Code's scopes for this project (the default), another MCP client (--client), "
        "the Claude Code plugin (--plugin), or every install the record knows (--all).",
    )
    which = doctor.add_mutually_exclusive_group()
    which.add_argument(
        "--client",
        choices=CLIENT_CHOICES,
        help="check that client's user and project files (claude: Claude Code's scopes, the "
        "default)",
    )
    which.add_argument(
        "--plugin",
        action="store_true",
        help="check the mdsel-claude Claude Code plugin: installed, enabled, its server's "
        "environment provisioned, and this installation's server and hook",
    )
    which.add_argument(
        "--all",
        action="store_true",
        help="every entry the install record knows, in every project and client: still there, "
        "and its program still installed",
    )
    return parser
