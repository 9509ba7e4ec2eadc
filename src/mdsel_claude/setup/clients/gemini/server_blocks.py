"""Whether Gemini CLI's own settings keep it from starting our server, for `doctor --client
gemini`: an `mcp.excluded` or `mcp.allowed` list in its user or project settings, or
`/mcp disable` recorded beside the user settings. Names are compared as Gemini CLI compares
them. Nothing is written.
"""

from __future__ import annotations

from pathlib import Path

from mdsel_claude.setup import jsonfile
from mdsel_claude.setup.entries import SERVER_KEY
from mdsel_claude.setup.jsonfile import ConfigFileError
from mdsel_claude.setup.probes import Report

GEMINI_ENABLEMENT = "mcp-server-enablement.json"
"""Beside Gemini CLI's user settings: the servers `/mcp disable` switched off
(`{"mdsel": {"enabled": false}}`)."""


def _normalized(value: object) -> str | None:
    """A server name as Gemini CLI compares them (`normalizeServerId`: trimmed, lower case)."""
    return value.strip().lower() if isinstance(value, str) else None


def report_blocks(places: list[tuple[str, Path]], report: Report) -> None:
    """Gemini CLI starts no server that its user or project settings exclude (`mcp.excluded`)
    or leave out of an allow list (`mcp.allowed`; an empty one admits nothing), names compared
    trimmed and in lower case as it does; nor one switched off by `/mcp disable`
    (`mcp-server-enablement.json` beside the user settings)."""
    for _scope, path in places:
        try:
            settings = jsonfile.load(path)
        except ConfigFileError:
            continue  # already reported with the server
        mcp = settings.get("mcp") if isinstance(settings, dict) else None
        if not isinstance(mcp, dict):
            continue
        excluded, allowed = mcp.get("excluded"), mcp.get("allowed")
        if isinstance(excluded, list) and SERVER_KEY in map(_normalized, excluded):
            report.fail(f"{path} lists {SERVER_KEY!r} in mcp.excluded, so Gemini CLI blocks it")
        elif isinstance(allowed, list) and SERVER_KEY not in map(_normalized, allowed):
            report.fail(
                f"{path} has an mcp.allowed list without {SERVER_KEY!r}, so Gemini CLI blocks it"
            )
    user = next((path for scope, path in places if scope == "user"), None)
    if user is None:
        return
    enablement = user.parent / GEMINI_ENABLEMENT
    try:
        states = jsonfile.load(enablement)
    except ConfigFileError as error:
        report.say(f"  {error}: whether it switches {SERVER_KEY!r} off cannot be told")
        return
    state = states.get(SERVER_KEY) if isinstance(states, dict) else None
    enabled = state.get("enabled") if isinstance(state, dict) else None
    # `state?.enabled ?? true`, then JavaScript's truthiness: false, 0 and "" switch it off.
    if enabled is False or enabled == "" or (isinstance(enabled, (int, float)) and enabled == 0):
        report.fail(
            f"{enablement} switches {SERVER_KEY!r} off (/mcp disable), so Gemini CLI does not "
            f"start it: `/mcp enable {SERVER_KEY}` in Gemini CLI"
        )
