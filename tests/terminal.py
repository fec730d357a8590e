"""Run `medina` with one of its output streams on a real pseudo-terminal, as a person sees it."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys


def on_terminal(*args, stream: str = "stdout", env: dict | None = None) -> tuple[int, str, str]:
    """Run `medina ARGS` with `stream` ("stdout" or "stderr") on a pseudo-terminal and the other one
    piped: (exit status, what reached the terminal, the other stream)."""
    main, secondary = pty.openpty()
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, stream: secondary}
    with subprocess.Popen([sys.executable, "-m", "medina_cli", *map(str, args)], env=env, **streams) as process:
        os.close(secondary)
        chunks = []
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the command has ended and closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        other = (process.stderr if stream == "stdout" else process.stdout).read().decode()
        process.wait(timeout=120)
    os.close(main)
    return process.returncode, b"".join(chunks).decode(), other


def plain(shown: str) -> str:
    """What a terminal showed, without its colours and cursor moves."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown)
