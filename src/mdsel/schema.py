"""The JSON Schema of `mdsel --json` output (the CLIResponse envelope), shipped in the package.

>>> from mdsel.schema import load_schema
>>> jsonschema.validate(json.loads(output), load_schema())
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SCHEMA_NAME = "cli-response.schema.json"


def schema_path() -> Path:
    """Where the installed schema file is (package data beside this module)."""
    return Path(__file__).with_name(SCHEMA_NAME)


def load_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(schema_path().read_text(encoding="utf-8"))
    return schema
