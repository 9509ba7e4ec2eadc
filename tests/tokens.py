"""Claude token counts for the tests, with the tokenizer the benchmarks use.

`anthropic/tokenizer.json` from the anthropic==0.34.2 wheel (the tokenizer of the models before
Claude 3, close to today's counts), loaded with `tokenizers` (requirements-dev.lock).
scripts/test.sh downloads that wheel into .wheelhouse, never installs it, and
bench/token_economy.py reads it there too; without it a test that counts is skipped, saying why.
"""

from __future__ import annotations

import functools
import zipfile
from typing import Any

import pytest

from tests.conftest import ROOT

WHEELHOUSE = ROOT / ".wheelhouse"
WHEEL = "anthropic-0.34.2-py3-none-any.whl"
MEMBER = "anthropic/tokenizer.json"


@functools.cache
def _tokenizer() -> tuple[Any, str]:
    """The tokenizer, or None and why it cannot be had (once per session either way)."""
    try:
        from tokenizers import Tokenizer
    except ImportError as error:
        return None, f"tokenizers is not installed ({error}): pip install -r requirements-dev.lock"
    wheel = WHEELHOUSE / WHEEL
    try:
        with zipfile.ZipFile(wheel) as archive:
            return Tokenizer.from_str(archive.read(MEMBER).decode("utf-8")), ""
    except Exception as error:  # no wheel, a damaged one, or a tokenizer file it cannot read
        return None, (
            f"no Claude tokenizer: cannot load {MEMBER} from {wheel} ({error}); scripts/test.sh "
            "downloads that wheel (pip download --no-deps anthropic==0.34.2 -d .wheelhouse)"
        )


def count_tokens(text: str) -> int:
    """Claude tokens in `text`, as the benchmarks count them; skips the test without the
    tokenizer."""
    tokenizer, reason = _tokenizer()
    if tokenizer is None:
        pytest.skip(reason)
    return len(tokenizer.encode(text).ids)


def count_tokens_each(texts: list[str]) -> list[int]:
    """`count_tokens` of each of `texts`, encoded as one batch (the tokenizer's threads)."""
    tokenizer, reason = _tokenizer()
    if tokenizer is None:
        pytest.skip(reason)
    return [len(encoding.ids) for encoding in tokenizer.encode_batch(texts)]
