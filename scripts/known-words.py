#!/usr/bin/env python3
"""Write src/mdsel/known_words.txt: the English words the token estimate prices as one token.

They are the lower-case ASCII words of three letters or more that the tokenizer of
tests/tokens.py (anthropic 0.34.2's, MIT licence) holds as one token after a space: a word a
tokenizer knows costs one token, any other several (see mdsel/estimate.py). Run it again only
with another tokenizer; the estimate's weights are fitted with this list.

    .venv/bin/python scripts/known-words.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.tokens import _tokenizer  # noqa: E402

TARGET = ROOT / "src" / "mdsel" / "known_words.txt"
HEADER = (
    "# The words the token estimate prices as one token (scripts/known-words.py): lower-case\n"
    "# ASCII words of three letters or more that anthropic 0.34.2's tokenizer (MIT) holds as\n"
    "# one token after a space.\n"
)


def main() -> int:
    tokenizer, reason = _tokenizer()
    if tokenizer is None:
        print(reason, file=sys.stderr)
        return 2
    words = sorted(
        token[1:]
        for token in tokenizer.get_vocab()
        if token.startswith("\u0120")  # the tokenizer's mark of a leading space
        and len(token) > 3
        and token[1:].isascii()
        and token[1:].isalpha()
        and token[1:].islower()
    )
    TARGET.write_text(HEADER + "\n".join(words) + "\n", encoding="ascii")
    print(f"{len(words)} words in {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
