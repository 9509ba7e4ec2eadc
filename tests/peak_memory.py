"""Peak resident memory of a process, the same way on Linux and macOS.

`ru_maxrss` is in KiB on Linux and in bytes on macOS, and a child's own `VmHWM` exists only where
`/proc` does; tests and benches read peaks through here so that neither unit nor `/proc` is assumed.
"""

from __future__ import annotations

import sys

# Source text that defines `peak_bytes()` in a child process: its own peak so far, in bytes.
# VmHWM where /proc exists: ru_maxrss of RUSAGE_SELF survives exec, so a child started by a big
# parent would report the parent's peak; elsewhere ru_maxrss, in its platform's unit.
PEAK_BYTES_FUNCTION = """
def peak_bytes():
    try:
        with open("/proc/self/status") as status:
            for row in status:
                if row.startswith("VmHWM:"):
                    return int(row.split()[1]) * 1024
    except OSError:
        pass
    import resource, sys
    unit = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * unit
"""


def maxrss_bytes(ru_maxrss: int) -> int:
    """A `ru_maxrss` (of `os.wait4` or `getrusage`) in bytes."""
    return ru_maxrss if sys.platform == "darwin" else ru_maxrss * 1024
