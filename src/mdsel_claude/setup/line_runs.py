"""A text file edited by inserting whole lines only, and those lines taken out again.

tomlkit writes back what it parsed, but not quite byte for byte around what it inserts: a blank
line before a new table, a line ending after a last line that had none, a header it spells
again (`[[hooks.PreToolUse]]` under a `["hooks"]` table comes back as `[["hooks".PreToolUse]]`).
So an edit is taken from tomlkit's text as the runs of lines it inserts, put into the file's own
text; what tomlkit changed in the file's lines is left as the file had it. The runs hold only
what install wrote, so the install record can keep them, and uninstall takes exactly them out.
"""

from __future__ import annotations

from difflib import SequenceMatcher


def _ending(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def unterminated(text: str) -> bool:
    """Whether `text`'s last line has no line ending (an empty text has no last line)."""
    return bool(text) and not text.endswith("\n")


def splice(old: str, new: str, respelled: bool) -> tuple[str, tuple[str, ...]]:
    """`old` with the runs of lines `new` inserts into it, and those runs.

    Lines `new` dropped stay as `old` has them; lines it changed too, and the lines it has in
    their place are either taken for the same lines spelled again (`respelled`: left out) or
    for new ones (inserted after them). The caller checks which reading still means what `new`
    means. A last line of `old` without an ending gets one only when a run follows it."""
    base = old + _ending(new) if unterminated(old) else old
    old_lines = base.splitlines(keepends=True)
    new_lines = new.splitlines(keepends=True)
    parts: list[str] = []
    runs: list[str] = []
    last = False  # whether a run follows the last line
    matcher = SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, old_from, old_to, new_from, new_to in matcher.get_opcodes():
        parts.extend(old_lines[old_from:old_to])
        last = False
        if (tag == "insert" or (tag == "replace" and not respelled)) and new_to > new_from:
            run = "".join(new_lines[new_from:new_to])
            if not run.endswith("\n"):
                run += _ending(new)
            parts.append(run)
            runs.append(run)
            last = old_to == len(old_lines)
    text = "".join(parts)
    if unterminated(old) and not last:
        text = text[: -len(_ending(new))]
    return text, tuple(runs)


def take_out(text: str, runs: tuple[str, ...], was_unterminated: bool) -> str | None:
    """`text` without each of `runs` (each whole lines, found in order), and without the line
    ending added after a last line that had none; None when a run is no longer there as it was
    written."""
    parts: list[str] = []
    at = 0
    for run in runs:
        found = text.find(run, at)
        while found > 0 and text[found - 1] != "\n":
            found = text.find(run, found + 1)
        if found < 0:
            return None
        parts.append(text[at:found])
        at = found + len(run)
    parts.append(text[at:])
    result = "".join(parts)
    # The ending was added for a run after the last line: only when that run still ends the
    # file (a line added below it since keeps the ending it needs).
    if was_unterminated and runs and at == len(text):
        ending = _ending(text)
        if result.endswith(ending):
            result = result[: -len(ending)]
    return result
