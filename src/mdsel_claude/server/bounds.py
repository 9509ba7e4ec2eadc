"""Caps on what one answer carries: problem lines (then "… N more"), and its size in characters.

Applied to what the backend printed, so both backends are bounded alike. The work behind an
answer is bounded before it starts (entries, files, bytes, depth); these keep a call that asks
for thousands of missing files or selectors from answering with as many lines.
"""

from __future__ import annotations

import json
from typing import Any

MORE_PROBLEMS = "… {count} more problems not shown (MDSEL_MAX_PROBLEMS)"
CUT = (
    "… answer cut at {shown} of {total} characters (MDSEL_MAX_ANSWER_CHARS); "
    "ask for fewer files or a narrower selector"
)


def cap_problem_lines(stderr: str, limit: int) -> str:
    """Keep the first `limit` problem lines (`!…`, with their `~` suggestion lines) of mdsel's
    text stderr, then one line counting the rest; other lines stay where they are."""
    if stderr.count("\n!") + stderr.startswith("!") <= limit:
        return stderr
    kept: list[str] = []
    seen = 0
    dropping = False
    dropped = 0
    marker = -1
    for line in stderr.splitlines(keepends=True):
        if line.startswith("!"):
            seen += 1
            dropping = seen > limit
            if dropping:
                dropped += 1
                if marker < 0:
                    marker = len(kept)
                continue
        elif line.startswith("~") and dropping:
            continue
        else:
            dropping = False
        kept.append(line)
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


def cap_answer(text: str, limit: int, json_mode: bool, command: str) -> tuple[str, bool]:
    """`text` within `limit` characters, and whether it had to change.

    Text is cut at a line break and ends with a line saying so; a JSON answer cannot be cut and
    stay JSON, so it becomes an error envelope that says the same.
    """
    if len(text) <= limit:
        return text, False
    if json_mode:
        body: dict[str, Any] = {
            "success": False,
            "command": command,
            "errors": [
                {
                    "type": "PROCESSING_ERROR",
                    "code": "ANSWER_TOO_LARGE",
                    "message": CUT.format(shown=0, total=len(text)),
                }
            ],
        }
        return json.dumps(body, ensure_ascii=False, indent=2) + "\n", True
    notice = CUT.format(shown=limit, total=len(text)) + "\n"
    room = max(0, limit - len(notice))
    end = text.rfind("\n", 0, room) + 1
    notice = CUT.format(shown=end, total=len(text)) + "\n"
    return text[:end] + notice, True
