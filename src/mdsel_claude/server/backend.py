"""The engine behind the tools: embedded mdsel or an MDSEL_BIN process → (stdout, stderr, exit)."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from mdsel.results import Outcome
from mdsel_claude.server.config import Settings
from mdsel_claude.server.embedded import EmbeddedBackend
from mdsel_claude.server.external import ExternalBackend

if TYPE_CHECKING:
    from mdsel import Problem
    from mdsel_claude.server.read_budget import ReadProgress


class Backend(Protocol):
    """Runs one mdsel command on files the server has already expanded and checked.

    `problems` (files the server did not hand over) and `warnings` (what the per-call caps left
    out) come out exactly where `mdsel` itself prints such things, so the result reads as if
    `mdsel` had been run on the original arguments.
    """

    def run(
        self,
        command: str,
        selector: str | None,
        paths: Sequence[str],
        problems: Sequence[Problem],
        warnings: Sequence[str],
        cwd: str | None = None,
        cancel: threading.Event | None = None,
        refused: Mapping[str, Problem] | None = None,
        left_out: Sequence[str] = (),
        progress: ReadProgress | None = None,
    ) -> Outcome:
        """`cancel`, once set, stops the run as soon as it can (raising reader.Cancelled).
        `refused`: files of `paths` the read policy refused → why; never read. `left_out`:
        files the per-call caps left out, never read, which a link may name too. `progress`:
        where a backend that reads through the parse cache reports its reading (see
        read_budget); one that keeps nothing between calls ignores it."""
        ...


def make_backend(settings: Settings) -> Backend:
    """MDSEL_BIN when set, else the embedded engine."""
    if settings.bin is not None:
        return ExternalBackend(settings.bin, settings.json)
    return EmbeddedBackend(settings)
