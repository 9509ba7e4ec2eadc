"""The import graph of src/: no module imports, directly or through others, one that imports it.

Every import statement counts, wherever it is: at module level, inside a function (a deferred
import still ties the two modules together) and under `if TYPE_CHECKING:` (a type defined above
the modules that use it, only to be imported back, is the layering fault this guards against).
A package's lazily exported names (PEP 562: `_EXPORTS` in its `__init__`) count as imports of
their modules. `import a.b` is an edge to `a.b` only: the parent packages it also runs are not
counted, or every submodule of a package that re-exports it would form a cycle with it.
"""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"


def module_names(root: Path) -> dict[str, Path]:
    """Dotted module name → file, for every module below `root`."""
    names: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _imported(node: ast.AST, name: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        package = name if is_package else name.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{base}" if base else package
    # `from a import b` imports the module a.b when there is one, else takes a name from a.
    return [f"{base}.{alias.name}" for alias in node.names] + [base]


def _lazy_exports(tree: ast.Module) -> list[str]:
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if any(isinstance(t, ast.Name) and t.id == "_EXPORTS" for t in targets):
            assert isinstance(node, ast.Assign)
            exports = ast.literal_eval(node.value)
            assert isinstance(exports, dict)
            return [str(module) for module in exports.values()]
    return []


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module → the modules below `root` it imports."""
    modules = module_names(root)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        targets: set[str] = set()
        for node in ast.walk(tree):
            candidates = _imported(node, name, is_package)
            if isinstance(node, ast.ImportFrom):
                *submodules, base = candidates
                found = [module for module in submodules if module in modules]
                # Names that are not submodules come from the base module itself.
                if len(found) < len(submodules) and base in modules:
                    found.append(base)
                targets.update(found)
            else:
                targets.update(module for module in candidates if module in modules)
        targets.update(module for module in _lazy_exports(tree) if module in modules)
        targets.discard(name)
        graph[name] = targets
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as error:
        cycle: list[str] = error.args[1]
        return cycle
    return None


def test_src_has_no_import_cycle() -> None:
    graph = import_graph(SRC)
    # The walk sees what it must: deferred, type-only and lazy imports alike.
    assert "mdsel.results" in graph["mdsel.api"]
    assert "mdsel.matches" in graph["mdsel.api"]  # inside select()
    assert "mdsel.tree" in graph["mdsel.results"]  # under TYPE_CHECKING
    assert "mdsel.api" in graph["mdsel"]  # a lazy export
    cycle = find_cycle(graph)
    assert cycle is None, " -> ".join(reversed(cycle))


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"a.py": "import pkg.b\n", "b.py": "def f():\n    from pkg import a\n"}, True),
        ({"a.py": "from . import b\n", "b.py": "from .a import X\n"}, True),
        ({"__init__.py": "_EXPORTS = {'X': 'pkg.a'}\n", "a.py": "from pkg import X\n"}, True),
        (
            {
                "a.py": "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from pkg.b import B\n",
                "b.py": "from pkg.a import A\n",
            },
            True,
        ),
        ({"a.py": "from pkg.b import B\n", "b.py": "import os\n"}, False),
        ({"__init__.py": "", "a.py": "from pkg import b\n", "b.py": "import pkg\n"}, False),
    ],
)
def test_the_check_finds_cycles(tmp_path: Path, files: dict[str, str], expected: bool) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    files = {"__init__.py": "", **files}
    for name, text in files.items():
        (package / name).write_text(text)
    assert (find_cycle(import_graph(tmp_path)) is not None) is expected
