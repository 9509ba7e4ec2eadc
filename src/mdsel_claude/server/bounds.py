"""Caps on what one answer carries: problem lines (then "… N more"), and its size in characters.

Applied to what the backend printed, so both backends are bounded alike. The work behind an
answer is bounded before it starts (entries, files, bytes, depth); these keep a call that asks
for thousands of missing files or selectors from answering with as many lines.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

MORE_PROBLEMS = "… {count} more problems not shown (MDSEL_MAX_PROBLEMS)"
CUT = "… answer cut at {shown} of {total} characters ({variable}); {advice}"
TOO_LARGE = "the answer, {total} characters, is over {variable}; {advice}"
CHARS = "MDSEL_MAX_ANSWER_CHARS"
TOKENS = "MDSEL_MAX_RESULT_TOKENS"
NOTICE_TOKENS = 200
"""Room kept below MDSEL_MAX_RESULT_TOKENS for the notice of a cut and the problem lines it
keeps."""
ADVICE = {
    "select": "ask for fewer files or a narrower selector",
    "index": "ask for fewer files",
    "index json": (
        "ask for fewer files, or for text (MDSEL_FORMAT=text), whose index of one file or of a "
        "whole tree fits MDSEL_MAX_ANSWER_TOKENS"
    ),
}
"""What to do instead, per command (and for a JSON index, which lists every heading)."""


def cap_problem_lines(
    stderr: str, limit: int, room: int | None = None, cost: Callable[[str], int] = len
) -> str:
    """Keep the first `limit` problem lines (`!…`, with their `~` suggestion lines) of mdsel's
    text stderr, then one line counting the rest; other lines stay where they are. With `room`
    (characters, or what `cost` counts), problems past the first stop where their lines would
    pass it: sixty missing paths a thousand characters long are not an answer of sixty
    thousand."""
    over = room is not None and cost(stderr) > room
    if stderr.count("\n!") + stderr.startswith("!") <= limit and not over:
        return stderr
    kept: list[str] = []
    seen = 0
    dropping = False
    dropped = 0
    marker = -1
    used = 0
    for line in stderr.splitlines(keepends=True):
        if line.startswith("!"):
            seen += 1
            full = room is not None and seen > 1 and used + cost(line) > room
            dropping = seen > limit or full
            if dropping:
                dropped += 1
                if marker < 0:
                    marker = len(kept)
                continue
        elif line.startswith("~") and dropping:
            continue
        else:
            dropping = False
        used += cost(line) if room is not None else 0
        kept.append(line)
    if dropped:
        kept.insert(marker, MORE_PROBLEMS.format(count=dropped) + "\n")
    return "".join(kept)


def cap_json_errors(stdout: str, limit: int) -> str:
    """The same for the JSON envelope: at most `limit` entries in `errors`, then one counting
    the rest, so the text stays one JSON document."""
    if '"errors"' not in stdout:
        return stdout
    try:
        body = json.loads(stdout)
    except ValueError:
        return stdout
    errors = body.get("errors") if isinstance(body, dict) else None
    if not isinstance(errors, list) or len(errors) <= limit:
        return stdout
    more = len(errors) - limit
    body["errors"] = [
        *errors[:limit],
        {
            "type": "PROCESSING_ERROR",
            "code": "MORE_PROBLEMS",
            "message": MORE_PROBLEMS.format(count=more),
        },
    ]
    return json.dumps(body, ensure_ascii=False, indent=2) + "\n"


def chars_within_tokens(text: str, tokens: int) -> int | None:
    """The length of the longest start of `text` whose estimated tokens are at most `tokens`,
    or None when the whole is. Found by halving: the estimate never falls as text is added."""
    from mdsel.budget import answer_room, text_cost  # the engine, loaded by the first call only

    room = answer_room(tokens)
    if text_cost(text) <= room:
        return None
    low, high = 0, len(text)  # text[:low] fits, text[:high] does not
    while high - low > 1:
        middle = (low + high) // 2
        if text_cost(text[:middle]) <= room:
            low = middle
        else:
            high = middle
    return low


def cap_answer(
    text: str,
    limit: int,
    json_mode: bool,
    command: str,
    problems: str = "",
    variable: str = CHARS,
) -> tuple[str, bool]:
    """`text` within `limit` characters, and whether it had to change; `variable`: the setting
    that set the limit, which the notice names.

    Text is cut at a line break (inside its first line when even that is longer) and ends with
    a line saying so; a JSON answer cannot be cut and stay JSON, so it becomes an error
    envelope that says the same. `problems`, the end of `text` that says why the call failed
    (mdsel's `!` lines), stays whole after the notice while it takes at most half the room: the
    cut falls in what comes before it.
    """
    if len(text) <= limit:
        return text, False
    if json_mode:
        advice = ADVICE.get(f"{command} json", ADVICE.get(command, ADVICE["select"]))
        body: dict[str, Any] = {
            "success": False,
            "command": command,
            "errors": [
                {
                    "type": "PROCESSING_ERROR",
                    "code": "ANSWER_TOO_LARGE",
                    "message": TOO_LARGE.format(total=len(text), variable=variable, advice=advice),
                }
            ],
        }
        return json.dumps(body, ensure_ascii=False, indent=2) + "\n", True
    advice = ADVICE.get(command, ADVICE["select"])
    notice = CUT.format(shown=limit, total=len(text), variable=variable, advice=advice) + "\n"
    kept = problems if problems and text.endswith(problems) and len(problems) <= limit // 2 else ""
    if len(notice) + len(kept) >= limit:
        kept = ""  # the notice first: an answer cut must say so
    if len(notice) >= limit:
        return notice[:limit], True  # a limit too small for the notice whole
    before = text[: len(text) - len(kept)]
    room = limit - len(notice) - len(kept)  # for what is shown, its own line break included
    end = before.rfind("\n", 0, room) + 1 or room - 1  # cut inside a line: its break added
    notice = (
        CUT.format(shown=end + len(kept), total=len(text), variable=variable, advice=advice) + "\n"
    )
    return before[:end] + ("" if before[end - 1 : end] == "\n" else "\n") + notice + kept, True
