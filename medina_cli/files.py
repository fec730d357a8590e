"""Writing files atomically: a reader never sees half a file, and an interrupted write leaves the
old file (or none) in place."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def write_atomically(target: Path, text: str) -> None:
    """Write `text` to a temporary file beside `target`, then rename it over `target`: a reader never
    sees half a file, and a failure leaves `target` as it was. Raises OSError."""
    import tempfile
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~umask)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
