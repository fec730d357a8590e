"""Writing files atomically: a reader never sees half a file, and an interrupted write leaves the
old file (or none) in place. Every output file is written here, so every one goes through a symbolic
link the same way."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def write_atomically(target: Path, text: str) -> None:
    """Write `text` to a temporary file beside `target` (`.NAME.PID.XXXX.tmp`, PID this process's), flush
    it to disk, then rename it over `target`: a reader never sees half a file, and a failure or a crash
    leaves `target` as it was. A symbolic link is written through: the file it names is replaced, the
    link stays. Temporary files that a process killed mid-write left beside `target` are removed.
    Raises OSError."""
    import tempfile

    target = Path(os.path.realpath(target))
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, target.stat().st_mode & 0o777 if target.exists() else 0o666 & ~umask)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_folder(target.parent)
    _remove_leftovers(target)


def _sync_folder(folder: Path) -> None:
    """The rename itself to disk (where the file system lets a folder be synced)."""
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def _remove_leftovers(target: Path) -> None:
    """Remove the temporary files of `target` whose writer is no longer running."""
    import glob

    for leftover in target.parent.glob(f".{glob.escape(target.name)}.*.tmp"):
        pid = leftover.name[len(target.name) + 2 :].partition(".")[0]
        if pid.isdigit() and not _running(int(pid)):
            with contextlib.suppress(OSError):
                leftover.unlink()


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True
