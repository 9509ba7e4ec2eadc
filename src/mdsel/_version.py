"""The one place the version is written: the package metadata (pyproject.toml) reads it here."""

__version__ = "0.1.0"
