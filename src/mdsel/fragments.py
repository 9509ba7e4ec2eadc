"""A link's fragment as written in Markdown source → the id it names on the page.

Entities are decoded once, as the Markdown parser does, then percent escapes once, as the browser
does; what decoding yields is not decoded again (`%2526` is `%26`).
"""

from __future__ import annotations


def decoded_fragment(text: str) -> str:
    """As written in a link's source (`#Install%C3%A9`, `#programaci&#x00F3;n`) → as the page
    has it (`Installé`, `programación`): entities decoded once, as the Markdown parser does,
    then percent escapes once, as the browser does. Case is kept: ids are case-sensitive (a
    heading's GitHub anchor is compared in lower case)."""
    if "&" in text:
        from html import unescape  # only here: most requests never need it

        text = unescape(text)
    if "%" in text:
        from urllib.parse import unquote

        text = unquote(text, errors="strict") if _is_utf8_escapes(text) else text
    return text


def _is_utf8_escapes(text: str) -> bool:
    """Whether every percent escape in `text` decodes as UTF-8 (else it is kept as written)."""
    from urllib.parse import unquote

    try:
        unquote(text, errors="strict")
    except UnicodeDecodeError:
        return False
    return True
