"""Texts of every kind the token estimate (mdsel.estimate) is held to, by kind.

Real ones: the vendored documents and trees, whole, in windows of about 8 KB (what one match
or page of an answer holds) and their paragraphs of English prose; and paragraphs of prose in
twelve other languages (tests/prose). Generated ones, seeded: the dense content real documents
hold in places, each as a page of it (tables of SHA-256 hashes, base64, numbers and versions,
emoji, long URLs, CJK and Indic text, capitals, runs of spaces and of one character,
tab-separated values, control characters, made-up words). tests/mdsel/test_estimate.py checks
them against the Claude tokenizer; bench/bench_estimate.py reports the ratios.
"""

from __future__ import annotations

import base64
import hashlib
import random
import re
import string
from collections.abc import Callable, Iterator
from pathlib import Path

from tests.conftest import CORPUS, FETCHED_TREES, ROOT, corpus_files

TREES = ROOT / "tests" / "trees"
OTHER_LANGUAGES = ROOT / "tests" / "prose"
WINDOW = 8000
"""Bytes of a window of a document: about what one page of an answer holds at the budget."""
PROSE_MIN = 200
"""Characters of a paragraph taken as prose, at least."""
_NOT_PROSE = re.compile(r"[`<>\[\]|{}_/\\@#*=]|http")
"""Markup, code and links: a paragraph holding any is not plain prose."""


def documents() -> list[Path]:
    """The vendored corpus and trees, and the fetched trees when scripts/test.sh unpacked them."""
    paths = [p for p in corpus_files() if p.parent == CORPUS]
    paths += sorted(TREES.rglob("*.md"))
    paths += sorted(FETCHED_TREES.glob("*/**/*.md")) if FETCHED_TREES.is_dir() else []
    return paths


def windows(text: str, size: int = WINDOW) -> Iterator[str]:
    """`text` in runs of whole lines of about `size` bytes."""
    lines: list[str] = []
    taken = 0
    for line in text.splitlines(keepends=True):
        lines.append(line)
        taken += len(line.encode("utf-8", "surrogateescape"))
        if taken >= size:
            yield "".join(lines)
            lines, taken = [], 0
    if lines:
        yield "".join(lines)


def prose(text: str) -> Iterator[str]:
    """The paragraphs of `text` (its fences taken out) that are plain English prose: long,
    mostly letters, no markup, ASCII."""
    for paragraph in re.split(r"\n\s*\n", text):
        letters = sum(char.isalpha() for char in paragraph)
        if (
            len(paragraph) >= PROSE_MIN
            and paragraph.isascii()
            and letters > 0.75 * len(paragraph)
            and not _NOT_PROSE.search(paragraph)
        ):
            yield paragraph + "\n"


_FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1[^\n]*\n", re.M | re.S)


def real(paths: list[Path]) -> Iterator[tuple[str, str]]:
    """(kind, text): each document whole, its windows, its prose paragraphs and its fenced
    code (in windows of it)."""
    for path in paths:
        text = path.read_bytes().decode("utf-8", "replace")
        yield "document", text
        for window in windows(text):
            yield "window", window
        for paragraph in prose(_FENCE.sub("\n", text)):
            yield "prose", paragraph
        code = "".join(match.group(0) for match in _FENCE.finditer(text))
        for window in windows(code) if code else ():
            yield "code", window


def languages() -> Iterator[tuple[str, str]]:
    """(language, paragraph): the prose of tests/prose, one paragraph at a time."""
    for path in sorted(OTHER_LANGUAGES.glob("*.txt")):
        for paragraph in path.read_text(encoding="utf-8").split("\n\n"):
            yield path.stem, paragraph.strip() + "\n"


def generated(seed: int = 0, each: int = 6) -> Iterator[tuple[str, str]]:
    """(kind, text): `each` pages of every kind of dense content, seeded."""
    rnd = random.Random(seed)
    for kind, make in _KINDS.items():
        for _ in range(each):
            yield kind, make(rnd)


def _hex(rnd: random.Random) -> str:
    choice = rnd.randrange(3)
    if choice == 0:  # a release's checksums
        rows = ["| file | sha256 |", "|---|---|"]
        for _ in range(120):
            digest = hashlib.sha256(rnd.randbytes(8)).hexdigest()
            rows.append(f"| pkg-{rnd.randrange(10**6)}.tar.gz | {digest} |")
        return "\n".join(rows) + "\n"
    if choice == 1:  # commits in a changelog
        lines = [f"- {rnd.randbytes(20).hex()[: rnd.choice([7, 12, 40])]} fix" for _ in range(300)]
        return "\n".join(lines) + "\n"
    return " ".join(rnd.randbytes(32).hex() for _ in range(100)) + "\n"


def _base64(rnd: random.Random) -> str:
    encoded = base64.b64encode(rnd.randbytes(rnd.choice([3000, 12000]))).decode()
    if rnd.randrange(2):
        return f"![diagram](data:image/png;base64,{encoded})\n"
    return "\n".join(encoded[i : i + 76] for i in range(0, len(encoded), 76)) + "\n"


def _numbers(rnd: random.Random) -> str:
    choice = rnd.randrange(3)
    if choice == 0:
        rows = ["| id | value | version | date |", "|---|---|---|---|"]
        for _ in range(150):
            version = f"{rnd.randrange(100)}.{rnd.randrange(100)}.{rnd.randrange(1000)}"
            date = f"2025-{rnd.randrange(1, 13):02d}-{rnd.randrange(1, 29):02d}"
            value = f"{rnd.uniform(-1e4, 1e4):.6f}"
            rows.append(f"| {rnd.randrange(10**9)} | {value} | {version} | {date} |")
        return "\n".join(rows) + "\n"
    if choice == 1:
        return ",".join(f"{rnd.random():.17g}" for _ in range(600)) + "\n"
    return "".join(rnd.choice(string.digits) for _ in range(8000)) + "\n"


_EMOJI = [chr(c) for c in [*range(0x1F600, 0x1F650), *range(0x1F300, 0x1F5FF)]]
_SEQUENCES = ["👨‍👩‍👧‍👦", "🧑‍🤝‍🧑", "🏳️‍🌈", "👩🏽‍💻", "🇫🇷", "🇯🇵", "❤️", "✅", "⚠️"]


def _emoji(rnd: random.Random) -> str:
    if rnd.randrange(2):
        return "".join(rnd.choice(_EMOJI) for _ in range(3000)) + "\n"
    items = [f"- {rnd.choice(_SEQUENCES) * 3} done {rnd.choice(_EMOJI)}" for _ in range(400)]
    return "\n".join(items) + "\n"


def _url(rnd: random.Random) -> str:
    host = rnd.choice(["github.com", "example.org", "docs.python.org", "a.b.example.co.uk"])
    alphabet = string.ascii_letters + string.digits + "-_.%"
    segments = [
        "".join(rnd.choice(alphabet) for _ in range(rnd.randrange(3, 20)))
        for _ in range(rnd.randrange(2, 8))
    ]
    query = "&".join(f"{rnd.choice(['id', 'q', 'ref'])}={rnd.randbytes(6).hex()}" for _ in range(3))
    return f"https://{host}/{'/'.join(segments)}?{query}"


def _urls(rnd: random.Random) -> str:
    return "\n".join(f"- [docs]({_url(rnd)})" for _ in range(200)) + "\n"


_SCRIPTS = [
    (0x4E00, 0x9FA6),
    (0x3400, 0x4DB6),
    (0xAC00, 0xD7A4),
    (0x0C80, 0x0CF3),
    (0x3040, 0x30FF),
]
"""CJK ideographs (common, then extension A), Hangul, Kannada, kana."""


def _cjk(rnd: random.Random) -> str:
    low, high = rnd.choice(_SCRIPTS)
    return "".join(chr(rnd.randrange(low, high)) for _ in range(3000)) + "\n"


def _capitals(rnd: random.Random) -> str:
    if rnd.randrange(2):
        return base64.b32encode(rnd.randbytes(4000)).decode() + "\n"
    return "\n".join(rnd.randbytes(32).hex().upper() for _ in range(150)) + "\n"


def _spaces(rnd: random.Random) -> str:
    choice = rnd.randrange(3)
    if choice == 0:  # a table padded to its columns
        widths = [rnd.randrange(3, 40) for _ in range(5)]
        rows = []
        for _ in range(150):
            cells = [rnd.choice(["a", "bc", "def", "ghij"]).ljust(width) for width in widths]
            rows.append("| " + " | ".join(cells) + " |")
        return "\n".join(rows) + "\n"
    if choice == 1:  # deep indentation
        return "\n".join(" " * rnd.randrange(0, 200) + "}" for _ in range(400)) + "\n"
    return "\n".join("+" + "-" * rnd.randrange(5, 80) + "+" for _ in range(300)) + "\n"


def _repeats(rnd: random.Random) -> str:
    unit = rnd.choice(["=", "a", "0", "Z", "\n", "\r\n", "ab", "a ", "1.", "()", "- "])
    return unit * (12000 // len(unit))


def _tabs(rnd: random.Random) -> str:
    if rnd.randrange(2):  # tab-separated values
        rows = ["\t".join(str(rnd.randrange(10**6)) for _ in range(8)) for _ in range(300)]
        return "\n".join(rows) + "\n"
    controls = [c for c in range(32) if c != 10] + [127]
    return "".join(chr(rnd.choice(controls)) for _ in range(4000))


def _made_up(rnd: random.Random) -> str:
    """Words no language has (`qzkx vbnw`): a tokenizer knows none of them whole."""
    letters = string.ascii_lowercase
    words = ("".join(rnd.choices(letters, k=rnd.randrange(3, 11))) for _ in range(600))
    return " ".join(words) + "\n"


_KINDS: dict[str, Callable[[random.Random], str]] = {
    "hex": _hex,
    "base64": _base64,
    "numbers": _numbers,
    "emoji": _emoji,
    "urls": _urls,
    "cjk": _cjk,
    "capitals": _capitals,
    "spaces": _spaces,
    "repeats": _repeats,
    "tabs": _tabs,
    "made-up": _made_up,
}
