"""Types of mdsel._scan (see _scan.c and mdsel.compiled)."""

from array import array
from collections.abc import Callable, Iterable

def scan(
    events: Iterable[object],
    codes: dict[str, int],
    levels: dict[str, int],
    checkpoint: Callable[[], object] | None,
    every: int,
    room: int,
    rare: Callable[[int, int, int, int, str, int], str | None],
    limit: Callable[[int], object],
    make: Callable[[str, bytes], array[int]],
    code: str,
    width: int,
    signed: str,
    signed_width: int,
    shift: int,
    /,
) -> tuple[
    bytearray,
    array[int],
    array[int],
    array[int],
    array[int],
    tuple[array[int], array[int], array[int], array[int], array[int]],
    bytearray,
    array[int],
    array[int],
    str,
    array[int],
]: ...
def heading_counts(
    data: bytes, starts: array[int], make: Callable[[str, bytes], array[int]], /
) -> tuple[array[int], array[int]]: ...
