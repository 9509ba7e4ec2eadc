"""The errors setup stops on."""

from __future__ import annotations


class SetupError(Exception):
    """Something that stops install or uninstall (exit status 1), said in one line."""
