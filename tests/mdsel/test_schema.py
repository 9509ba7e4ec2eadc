"""mdsel.schema: the schema shipped in the package is the one published in schema/."""

from __future__ import annotations

import json

from mdsel.schema import SCHEMA_NAME, load_schema, schema_path
from tests.conftest import ROOT


def test_package_schema_is_the_published_one_byte_for_byte() -> None:
    # src/mdsel holds the source; schema/ keeps a copy at a stable address for readers.
    assert schema_path().read_bytes() == (ROOT / "schema" / SCHEMA_NAME).read_bytes()


def test_load_schema_is_a_json_schema_for_the_envelope() -> None:
    schema = load_schema()
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert schema["required"] == ["success", "command", "timestamp", "data"]
    assert json.loads(schema_path().read_text(encoding="utf-8")) == schema
