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
    with subprocess.Popen(
        [sys.executable, "-m", "medina_cli", *map(str, args)], env=env, **streams
    ) as process:
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


class Session:
    """`medina ARGS` with a pseudo-terminal as its controlling terminal (standard input, output and
    error), typed at as a person types: `expect` reads the screen up to a pattern, `type` sends a line,
    `press` a key (Ctrl-C is b"\\x03", Ctrl-D b"\\x04")."""

    def __init__(self, *args, cwd=None, timeout: float = 60):
        self.timeout = timeout
        self.screen = ""  # everything shown so far, line ends as "\n"
        self.seen = 0  # where the next `expect` starts looking
        pid, fd = pty.fork()
        if pid == 0:  # the child: the pseudo-terminal is its terminal
            try:
                if cwd is not None:
                    os.chdir(cwd)
                os.execv(sys.executable, [sys.executable, "-m", "medina_cli", *map(str, args)])
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.status = None

    def _read(self, deadline: float) -> bool:
        """Read what the terminal shows until `deadline`; False once the command has closed it."""
        import select
        import time

        ready, _, _ = select.select([self.fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # the command has ended and the terminal is gone
            return False
        if not chunk:
            return False
        self.screen += chunk.decode("utf-8", "replace").replace("\r\n", "\n")
        return True

    def expect(self, pattern: str):
        """The match of `pattern` (a regular expression) in what the terminal shows next; AssertionError
        with the screen's end when it does not show within the timeout."""
        import re
        import time

        deadline = time.monotonic() + self.timeout
        regexp = re.compile(pattern, re.M)
        while True:
            match = regexp.search(self.screen, self.seen)
            if match:
                self.seen = match.end()
                return match
            if time.monotonic() > deadline or not self._read(deadline):
                raise AssertionError(
                    f"{pattern!r} not shown; the screen ends with:\n{self.screen[-3000:]}"
                )

    def type(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")

    def press(self, key: bytes) -> None:
        os.write(self.fd, key)

    def wait(self) -> int:
        """The exit status, once everything shown has been read."""
        import time

        deadline = time.monotonic() + self.timeout
        while self._read(deadline) and time.monotonic() < deadline:
            pass
        os.close(self.fd)
        _, status = os.waitpid(self.pid, 0)
        self.status = os.waitstatus_to_exitcode(status)
        return self.status

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        if self.status is None:  # a failed test: end the command
            import signal

            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except OSError:
                pass
            os.close(self.fd)
