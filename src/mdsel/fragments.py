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


_RESERVED = frozenset("%,/?#&")
"""What ends an anchor in a selector (`#a,b`, `#a/code.0`, `#a?head=3`, `#a#b`), starts an entity
(`&`) or an escape (`%`): written percent-encoded in an anchor that holds one."""


def written_fragment(name: str) -> str:
    """The fragment to write after `#` to name `name` (an id as the page has it): as it is,
    but for what a selector reads otherwise — `%,/?#&`, spaces and control characters —
    percent-encoded, so that decoded_fragment gives `name` back (`q?x` → `q%3Fx`)."""
    if not any(char in _RESERVED or char.isspace() or not char.isprintable() for char in name):
        return name
    return "".join(
        "".join(f"%{byte:02X}" for byte in char.encode("utf-8"))
        if char in _RESERVED or char.isspace() or not char.isprintable()
        else char
        for char in name
    )
