"""The block `install --instructions` puts in an agent's instructions file, and its edits.

An instructions file (`CLAUDE.md`, `AGENTS.md`, `GEMINI.md`) is the user's prose: the block is
appended to it as one run of text and taken out as exactly that run, so that every other byte
stays (line endings, a missing final line ending, a byte order mark, trailing spaces). The run
is the block's lines, in the file's own line ending, after what the end of the file needs to
leave a blank line before them: nothing, a line ending, or two when the last line had none.
Everything here is pure text; reading and writing the file is `instructions`'.
"""

from __future__ import annotations

from dataclasses import dataclass

BEGIN = "<!-- mdsel-claude: begin (`mdsel-claude uninstall` removes this block) -->"
BEGIN_PREFIX = "<!-- mdsel-claude: begin"
"""What marks a block of ours, whatever version wrote the rest of its first line."""
END = "<!-- mdsel-claude: end -->"

# The same advice as the server's instructions (server/tools.py), shorter: this text is read
# in every session of the agent, and the server's own instructions say the rest.
BODY = (
    "Markdown over ~200 words: read it by structure with the mdsel MCP tools, not whole.",
    "- `mdsel_index` (files or a docs folder): its outline, a selector per heading.",
    "- `mdsel_select`: a section (`h2.3`), the section holding a line you have "
    "(`docs/a.md:812`, as grep -n prints it), or a search (`?q=install steps`: the sections "
    "holding the words, best first).",
    "Read small files whole, and before editing one.",
)


def ending_of(text: str) -> str:
    """The file's line ending, as its first line has it ("\\n" for a file of one line)."""
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


def block(ending: str = "\n") -> str:
    """The block's lines, each ended by `ending`."""
    return "".join(f"{line}{ending}" for line in (BEGIN, *BODY, END))


def blocks() -> tuple[str, str]:
    """The block in both line endings: a file's edits may have changed its first line's."""
    return block("\n"), block("\r\n")


@dataclass(frozen=True, slots=True)
class Inserted:
    """A text with the block appended, and the run appended (what uninstall takes out)."""

    text: str
    piece: str
    block: str


def append(text: str) -> Inserted:
    """`text` with the block appended after a blank line (none at the start of a file)."""
    ending = ending_of(text)
    ours = block(ending)
    if text.removeprefix("\ufeff") == "":
        joint = ""
    elif not text.endswith("\n"):
        joint = ending + ending  # the last line's ending, then the blank line
    else:
        rest = text[: -len(ending)] if text.endswith(ending) else text[:-1]
        joint = "" if rest.removeprefix("\ufeff") == "" or rest.endswith("\n") else ending
    return Inserted(text + joint + ours, joint + ours, ours)


def _at_line_start(text: str, at: int) -> bool:
    """Whether `at` starts a line (after a byte order mark, where one is)."""
    if at > 0 and text[at - 1] == "\ufeff":
        at -= 1
    return at == 0 or text[at - 1] == "\n"


def _find(text: str, run: str) -> int:
    """Where the last whole-line occurrence of `run` starts in `text`, or -1."""
    at = text.rfind(run)
    while at >= 0 and not (run[:1] in ("\r", "\n") or _at_line_start(text, at)):
        at = text.rfind(run, 0, at + len(run) - 1)
    return at


def take_out(text: str, piece: str, ours: str) -> str | None:
    """`text` without the run `append` added (`piece`, whose block is `ownership`); None when the
    block is not there as it was written (edited, or gone).

    The block is found first (its last whole-line occurrence; or, its final line ending taken
    away since, at the end of the file), then the blank line before it goes too where the text
    before still ends as it did when the run was appended: a blank line taken out by hand
    leaves the user's own line ending, not a line without one."""
    ending = ending_of(ours)
    joint = piece[: len(piece) - len(ours)] if piece.endswith(ours) else ""
    at, end = _find(text, ours), 0
    if at >= 0:
        end = at + len(ours)
    elif text.endswith(ours[: -len(ending)]):
        at = _find(text, ours[: -len(ending)])
        end = len(text)
        if at != len(text) - len(ours) + len(ending):
            at = -1
    if at < 0:
        return None
    before = text[:at]
    if joint and before.endswith(joint) and _fits(before[: len(before) - len(joint)], joint):
        before = before[: len(before) - len(joint)]
    return before + text[end:]


def _fits(before: str, joint: str) -> bool:
    """Whether the text before a blank line ends as `append` found it: with a line ending
    (one was added: `joint` is one ending), or without one (two were: `joint` is two)."""
    if joint.count("\n") == 1:
        return before.endswith("\n")
    return before.removeprefix("\ufeff") != "" and not before.endswith("\n")


def respelled(run: str) -> str:
    """`run` in the other line ending (LF for CRLF, CRLF for LF): as an editor or git that
    converts a file's line endings leaves it."""
    if "\r\n" in run:
        return run.replace("\r\n", "\n")
    return run.replace("\n", "\r\n")


def replace(text: str, old: str) -> str | None:
    """`text` with its block `old` (as an earlier install wrote it, the last whole-line
    occurrence) replaced by today's, in the same line ending; None when `old` is not there."""
    at = _find(text, old)
    if at < 0:
        return None
    return text[:at] + block(ending_of(old)) + text[at + len(old) :]


def has_marker(text: str) -> bool:
    """Whether a line of `text` opens a block of ours (as it is now or as edited)."""
    return any(line.lstrip().startswith(BEGIN_PREFIX) for line in text.split("\n"))


def state(text: str, recorded: str | None = None) -> str:
    """`present` (the block as install writes it now), `older` (as an earlier install wrote it:
    `recorded`), `edited` (a block of ours changed by hand) or `absent`."""
    if any(_find(text, ours) >= 0 for ours in blocks()):
        return "present"
    if recorded and _find(text, recorded) >= 0:
        return "older"
    return "edited" if has_marker(text) else "absent"
