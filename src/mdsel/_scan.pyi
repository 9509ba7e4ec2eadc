"""Types of mdsel._scan (see _scan.c and mdsel.compiled)."""

from collections.abc import Callable, Iterable, Sequence

def scan(
    events: Iterable[object],
    codes: dict[str, int],
    levels: dict[str, int],
    checkpoint: Callable[[], object] | None,
    every: int,
    room: int,
    rare: Callable[[int, int, int, int, str, int], str | None],
    limit: Callable[[int], object],
    width: int,
    parent_width: int,
    shift: int,
    /,
) -> tuple[
    bytes,
    bytes,
    bytes,
    bytes,
    bytes,
    tuple[bytes, bytes, bytes, bytes, bytes],
    bytes,
    bytes,
    bytes,
    list[str],
]: ...
def running_counts(data: bytes, bounds: Sequence[int], words: bool, /) -> bytes: ...
