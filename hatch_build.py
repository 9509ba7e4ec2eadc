"""Wheel build step: mdsel._scan compiled from src/mdsel/_scan.c, when a C compiler is at hand.

Optional by design: where the compiler is missing or fails, the wheel is built without it (pure
Python, for every platform) and mdsel runs the same Python code the extension stands in for
(mdsel.compiled). MDSEL_BUILD_PURE=1 builds that wheel on purpose. For an editable install the
extension is built beside its source (src/mdsel/, ignored by git); for a wheel, into a temporary
folder that the wheel takes it from.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE = Path("src", "mdsel", "_scan.c")
COMPILE_SECONDS = 300


class CompiledScan(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        self._temporary: str | None = None
        if os.environ.get("MDSEL_BUILD_PURE"):
            return
        name = "_scan" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so")
        root = Path(self.root)
        if version == "editable":
            target = root / "src" / "mdsel" / name
        else:
            self._temporary = tempfile.mkdtemp(prefix="mdsel-build-")
            target = Path(self._temporary, name)
        problem = compile_extension(root / SOURCE, target)
        if problem is not None:
            print(f"hatch_build.py: mdsel._scan not built ({problem}); the wheel is pure "
                  "Python and mdsel runs its Python scan, the same answers more slowly",
                  file=sys.stderr)  # fmt: skip
            return
        if version != "editable":
            build_data["force_include"][str(target)] = f"mdsel/{name}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if self._temporary is not None:
            shutil.rmtree(self._temporary, ignore_errors=True)


def compile_extension(source: Path, target: Path) -> str | None:
    """Compiles and links `source` into the extension module `target`; None, or what failed."""
    linker = sysconfig.get_config_var("LDSHARED")
    include = sysconfig.get_paths().get("include")
    if not linker or not include or not Path(include, "Python.h").is_file():
        return "no Python headers or linker settings"
    command = [
        *shlex.split(linker), *shlex.split(sysconfig.get_config_var("CCSHARED") or ""),
        "-O3", "-I", include, str(source), "-o", str(target),
    ]  # fmt: skip
    if shutil.which(command[0]) is None:
        return f"no compiler: {command[0]} not found"
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=COMPILE_SECONDS)
    except (OSError, subprocess.SubprocessError) as error:
        return f"{command[0]}: {error}"
    if done.returncode != 0:
        target.unlink(missing_ok=True)
        return f"{command[0]} exited {done.returncode}: {done.stderr.strip()[-500:]}"
    return None
