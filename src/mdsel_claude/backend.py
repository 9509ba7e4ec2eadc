"""The engine behind the tools: embedded mdsel or an MDSEL_BIN process → (stdout, stderr, exit)."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from mdsel_claude.cache import DigestCache
from mdsel_claude.config import Settings

if TYPE_CHECKING:
    from mdsel import Document

EXTERNAL_TIMEOUT_SECONDS = 300.0
"""How long one MDSEL_BIN run may take; a hung executable must not hold a tool call forever."""


class Outcome(NamedTuple):
    """What one run of `mdsel index|select` printed and how it exited."""

    stdout: str
    stderr: str
    exit_code: int


class Backend(Protocol):
    """Runs one mdsel command on files the server has already expanded and checked."""

    def run(self, command: str, selector: str | None, paths: Sequence[str]) -> Outcome: ...


class EmbeddedBackend:
    """The mdsel engine in this process, parsing through a content-digest cache."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._cache: DigestCache[Document] | None = None
        self._options: Any = None

    @property
    def cache(self) -> DigestCache[Document]:
        """The parse cache, created (and the engine imported) on first use."""
        if self._cache is None:
            self._load()
            assert self._cache is not None
        return self._cache

    def _load(self) -> None:
        # Imported on first use, not at start: the engine and its parser are not needed to answer
        # `initialize`, and start-up time is what a client waits for before anything else.
        import mdsel

        settings = self._settings
        self._options = mdsel.Options(
            json=settings.json,
            page_words=settings.page_words,
            max_headings=settings.max_headings,
        )
        self._cache = DigestCache(mdsel.parse_document, settings.cache_bytes)

    def run(self, command: str, selector: str | None, paths: Sequence[str]) -> Outcome:
        import mdsel

        parse: Callable[[bytes], Document] = self.cache
        outcome = mdsel.run_command(
            command,
            selector,
            paths,
            self._options,
            parse=parse,
            max_bytes=self._settings.max_bytes,
        )
        return Outcome(outcome.stdout, outcome.stderr, outcome.exit_code)


def external_argv(
    executable: str, command: str, selector: str | None, paths: Sequence[str], json: bool
) -> list[str]:
    """The command line for MDSEL_BIN: options first, then `--`, so no argument reads as one."""
    argv = [executable, command]
    if json:
        argv.append("--json")
    argv.append("--")
    if selector is not None:
        argv.append(selector)
    argv.extend(paths)
    return argv


def _child_environment() -> dict[str, str]:
    env = dict(os.environ)
    # Output is decoded as UTF-8 below; make a Python mdsel write UTF-8 whatever the locale.
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


class ExternalBackend:
    """An `mdsel` executable run once per call, its output relayed exactly as printed."""

    def __init__(self, executable: str, json: bool, timeout: float = EXTERNAL_TIMEOUT_SECONDS):
        self.executable = executable
        self.json = json
        self.timeout = timeout

    def run(self, command: str, selector: str | None, paths: Sequence[str]) -> Outcome:
        argv = external_argv(self.executable, command, selector, paths, self.json)
        try:
            # No shell and no stdin: arguments come from a model and must stay plain arguments.
            completed = subprocess.run(
                argv,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                env=_child_environment(),
                timeout=self.timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return Outcome(
                "", f"mdsel-claude: {self.executable} did not finish in {self.timeout:g} s\n", 1
            )
        except OSError as error:
            return Outcome("", f"mdsel-claude: cannot run {self.executable}: {error}\n", 1)
        stdout = completed.stdout.decode("utf-8", errors="replace")
        stderr = completed.stderr.decode("utf-8", errors="replace")
        code = completed.returncode
        if code < 0:
            stderr += f"mdsel-claude: {self.executable} was killed by {_signal_name(-code)}\n"
            code = 1
        return Outcome(stdout, stderr, code)


def make_backend(settings: Settings) -> Backend:
    """MDSEL_BIN when set, else the embedded engine."""
    if settings.bin is not None:
        return ExternalBackend(settings.bin, settings.json)
    return EmbeddedBackend(settings)
