"""Why a selector item matched nothing: the reasons a miss gives, in the words every edge prints
(`'api' (docs/api.md) has no code blocks`, `index 9 out of range: h2.1 has 3 paragraphs`).
"""

from __future__ import annotations

from collections.abc import Sequence

from mdsel.names import document_name
from mdsel.nodes import ROOT, Node, first_number, node_selector
from mdsel.selector import Item, format_items
from mdsel.tree import Source


def kind_label(kind: str, count: int = 2) -> str:
    """`h2 headings`, `code blocks`, `sections`, singular when count == 1."""
    names = {
        "section": "section",
        "para": "paragraph",
        "code": "code block",
        "list": "list",
        "table": "table",
        "quote": "blockquote",
    }
    name = f"{kind} heading" if kind.startswith("h") else names.get(kind, kind)
    return name if count == 1 else name + "s"


def describe_scope(sources: Sequence[Source], scope: Node) -> str:
    """How a reason names a scope: the document (document_name), else the node's selector."""
    if scope.kind == ROOT:
        return document_name(sources[scope.doc].namespace, sources[scope.doc].path)
    return node_selector(sources[scope.doc].document, scope)


def none_reason(sources: Sequence[Source], scopes: Sequence[Node], kind: str) -> str:
    if len(scopes) == 1:
        return f"{describe_scope(sources, scopes[0])} has no {kind_label(kind)}"
    return f"none of the {len(scopes)} scopes has {kind_label(kind)}"


def range_reason(
    sources: Sequence[Source],
    per_scope: list[tuple[Node, Sequence[Node]]],
    kind: str,
    item: Item,
) -> str:
    what = f"index {item.first}" if item.first == item.last else f"range {format_items((item,))}"
    if len(per_scope) == 1:
        scope, nodes = per_scope[0]
        count = len(nodes)
        if count == 0:
            return f"{describe_scope(sources, scope)} has no {kind_label(kind)}"
        start = first_number(nodes)
        if start or (kind.startswith("h") and scope.kind != ROOT):
            # Heading numbers are the document's: say which this scope holds.
            held = f"{kind}.{start}" if count == 1 else f"{kind}.{start}-{start + count - 1}"
            return (
                f"{kind}.{format_items((item,))} is not inside {describe_scope(sources, scope)}, "
                f"which holds {held} (heading numbers are the document's, as the index prints "
                "them)"
            )
        return (
            f"{what} out of range: {describe_scope(sources, scope)} has {count} "
            f"{kind_label(kind, count)}"
        )
    most = max(len(nodes) for _scope, nodes in per_scope)
    if most == 0:
        return f"none of the {len(per_scope)} scopes has {kind_label(kind)}"
    if kind.startswith("h"):
        return (
            f"{kind}.{format_items((item,))} is inside none of the {len(per_scope)} scopes "
            "(heading numbers are the document's, as the index prints them)"
        )
    return (
        f"{what} out of range: each of the {len(per_scope)} scopes has at most "
        f"{most} {kind_label(kind, most)}"
    )
