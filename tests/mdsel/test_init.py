"""The package: `__all__` is the API, each of its names loads on first use, nothing before."""

from __future__ import annotations

import subprocess
import sys

import pytest

import mdsel


def test_all_and_the_lazy_exports_agree() -> None:
    assert set(mdsel.__all__) == {*mdsel._EXPORTS, "__version__"}
    assert len(mdsel.__all__) == len(set(mdsel.__all__))
    for name, module in mdsel._EXPORTS.items():
        value = getattr(mdsel, name)
        assert value is getattr(sys.modules[module], name)
        assert getattr(value, "__module__", module) == module  # defined there, not re-exported
    assert set(mdsel.__all__) <= set(dir(mdsel))


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        _ = mdsel.nothing_here  # type: ignore[attr-defined]  # the point: it is not there
    assert not hasattr(mdsel, "FileProblem")


def loaded_after(statement: str) -> list[str]:
    """Modules of mdsel, pyromark and typing that `statement` loads in a fresh interpreter."""
    code = (
        "import sys\n"
        f"{statement}\n"
        "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('mdsel', 'pyromark', 'typing'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.split()


def test_importing_the_package_loads_nothing_else() -> None:
    # The version is a one-line module of its own: the package metadata reads it too.
    assert loaded_after("import mdsel") == ["mdsel", "mdsel._version"]
    assert loaded_after("import mdsel.names") == ["mdsel", "mdsel._version", "mdsel.names"]
    assert loaded_after("from mdsel import __version__") == ["mdsel", "mdsel._version"]


def test_a_name_loads_only_what_it_needs() -> None:
    assert loaded_after("from mdsel import Problem") == [
        "mdsel",
        "mdsel._record",
        "mdsel._version",
        "mdsel.errors",
    ]
    loaded = loaded_after("import mdsel; mdsel.parse_document")
    assert {"mdsel.tree", "pyromark"} <= set(loaded)
    assert "mdsel.api" not in loaded and "typing" not in loaded
