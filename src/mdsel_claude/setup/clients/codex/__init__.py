"""Codex CLI: `~/.codex/config.toml` (`CODEX_HOME`), `[mcp_servers.mdsel]`, and its shell-tool
hook, trusted, in the same file (see `plans`, `config_toml`); no project scope."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from mdsel_claude.setup.clients.base import Client, Doctoring, RecordedFile, Request, home
from mdsel_claude.setup.instructions import Target
from mdsel_claude.setup.jsonfile import JSONObject
from mdsel_claude.setup.steps import Plan


def config(environ: Mapping[str, str]) -> Path:
    """Codex CLI's configuration: `$CODEX_HOME/config.toml`, else `~/.codex/config.toml`."""
    return codex_home(environ) / "config.toml"


def codex_home(environ: Mapping[str, str]) -> Path:
    return Path(environ.get("CODEX_HOME") or home(environ) / ".codex")


class Codex(Client):
    """The server and the hook, in TOML."""

    def plan_install(self, request: Request) -> Plan:
        from mdsel_claude.setup.clients.codex import plans

        return plans.plan_install(
            request.path,
            request.executable,
            request.words(),
            request.mode,
            request.event,
            request.state_file,
            request.environ,
            self.entry(request.executable),
        )

    def plan_uninstall(self, request: Request) -> Plan:
        from mdsel_claude.setup.clients.codex import config_toml

        return config_toml.plan_uninstall(request.path, request.state_file)

    def server_value(self, path: Path) -> tuple[bool, object]:
        from mdsel_claude.setup.clients.codex import config_toml

        return config_toml.server_value(path)

    def recorded_file(self, path: Path) -> RecordedFile | None:
        # Codex CLI is the one client whose configuration is TOML.
        if path.suffix != ".toml":
            return None
        from mdsel_claude.setup.clients.codex import config_toml

        def values(file: Path) -> JSONObject | None:
            return config_toml.plain_values(file) if os.path.lexists(file) else None

        return RecordedFile(
            "Codex CLI configuration (trust and more: `doctor --client codex`)",
            config_toml.plan_uninstall,
            values,
            # The hook's trust is no program: `doctor --client codex` checks it.
            lambda written: written.hook or written.at[:2] != ("hooks", "state"),
        )

    def doctor(self, found: Doctoring) -> None:
        from mdsel_claude.setup.clients.codex import plans

        user = self.user_file(found.environ)
        plans.doctor(user, found.environ, found.report, found.project_dir)

    def instructions(self, scope: str, cwd: Path, environ: Mapping[str, str]) -> Target | None:
        # Codex 0.169 reads `AGENTS.override.md` in its home in place of `AGENTS.md` when that
        # one is there and not empty (its agents_md loader), so the block goes in AGENTS.md
        # and the override is named.
        folder = codex_home(environ)
        override = folder / "AGENTS.override.md"
        notes: tuple[str, ...] = ()
        try:
            if override.stat().st_size > 0:
                notes = (
                    f"Codex CLI reads {override} in place of AGENTS.md while it is there and "
                    "not empty: the block in AGENTS.md reaches it once that file is gone",
                )
        except OSError:
            pass
        return Target(folder / "AGENTS.md", f"{self.name}:{scope}", (), notes)

    def next_steps(self) -> str:
        from mdsel_claude.setup.clients.codex.plans import NEXT_STEPS

        return NEXT_STEPS


CLIENT = Codex(
    "codex",
    "Codex CLI",
    "mcp_servers",
    config,
    None,
    lambda exe: {"command": exe, "args": ["serve"]},
)
