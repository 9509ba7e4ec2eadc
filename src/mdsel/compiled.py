"""mdsel._scan, the compiled scan and byte counts, when the install built it from _scan.c
(hatch_build.py builds it wherever a C compiler is at hand, and leaves it out otherwise).

Each use keeps the Python code it stands in for, which answers the same and runs when
COMPILED is False; tests/mdsel/test_compiled.py holds the two equal.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import mdsel._scan as native

    COMPILED: bool
else:
    try:
        import mdsel._scan as native

        COMPILED = True
    except ImportError:
        native = None
        COMPILED = False

__all__ = ["COMPILED", "native"]
