"""A progress line for long commands: on a terminal, rich's progress display on stderr (a bar, units
done of the total, units per second and the time left), redrawn in place and cleared at the end.
Off a terminal nothing is drawn and rich is not imported, so commands start as quickly as before."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

REDRAW_SECONDS = 0.1  # at most ten drawings a second, however fast the units finish
THINKING_SHOWN_AFTER = (
    1.0  # seconds an agent thinks before it is shown thinking: shorter needs no sign
)


class Progress:
    """Counts finished units (`progress(finished)`, or `progress(finished, total)` when the total is
    learnt late); `first` is the count it started from (units done before this run). Units of unlike
    cost also give `share`, the share of the whole work done: the time left is then reckoned from it."""

    def __init__(self, total: int, unit: str = "games"):
        self.total, self.unit = total, unit
        self.draw = sys.stderr.isatty()
        self.first = self.finished = 0
        self.share: float | None = None  # of the work done, when units differ in cost
        self.first_share = 0.0
        self.started = False
        self.started_at = 0.0
        self.drawn_at = 0.0
        self.display: Any = (
            None  # rich's Progress (imported when first drawn), from the first drawing on
        )
        self.task: Any = None  # its task's id

    def __call__(self, finished: int, total: int | None = None, share: float | None = None) -> None:
        if total is not None:
            self.total = total
        if not self.started:
            self.started, self.first = True, finished
            self.first_share = share or 0.0
            self.started_at = time.monotonic()
        self.finished, self.share = finished, share
        now = time.monotonic()
        if not self.draw or (now - self.drawn_at < REDRAW_SECONDS and finished < self.total):
            return
        self.drawn_at = now
        if self.display is None:
            self.display, self.task = start_display(
                self.unit, self.total, finished, self.rate, self.left
            )
        self.display.update(self.task, completed=finished, total=self.total)
        self.display.refresh()

    def rate(self) -> float | None:
        """Units per second since this run's first count (units done before it not counted), or None
        before any unit has finished in it."""
        elapsed = time.monotonic() - self.started_at
        return (
            (self.finished - self.first) / elapsed
            if self.finished > self.first and elapsed > 0
            else None
        )

    def left(self) -> float | None:
        """Seconds left: from the share of the work done in this run when it is known, else from the
        rate of units; None before anything is done in this run."""
        elapsed = time.monotonic() - self.started_at
        if self.share is not None:
            done = self.share - self.first_share
            return elapsed * (1 - self.share) / done if done > 0 else None
        speed = self.rate()
        return (self.total - self.finished) / speed if speed else None

    def note(self, text: str) -> None:
        """A line for the user, above the progress line when one is shown."""
        if self.display is not None:
            self.display.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            sys.stderr.write(text + "\n")
            sys.stderr.flush()

    def clear(self) -> None:
        """Take the progress line off the terminal (before the command's own output)."""
        if self.display is not None:
            self.display.stop()
            self.display = None


@contextmanager
def thinking(name: str) -> Iterator[None]:
    """While the body runs (an agent choosing), on a terminal and from THINKING_SHOWN_AFTER seconds on:
    "NAME is thinking" with a spinner and the seconds so far on stderr, cleared at the end. The searches
    let other threads run, so the display moves while they do."""
    if not sys.stderr.isatty():
        yield
        return
    import threading

    done = threading.Event()

    def show() -> None:
        if done.wait(THINKING_SHOWN_AFTER):
            return
        from rich.console import Console
        from rich.markup import escape

        shown, started = escape(name), time.monotonic() - THINKING_SHOWN_AFTER
        with Console(stderr=True).status(f"{shown} is thinking") as status:
            while not done.wait(REDRAW_SECONDS):
                status.update(f"{shown} is thinking ({time.monotonic() - started:.0f} s)")

    shower = threading.Thread(target=show, daemon=True)
    shower.start()
    try:
        yield
    finally:
        done.set()
        shower.join()


def played_or_exit(play, progress: Progress, kept, out: str | None, doc: dict | None):
    """What `play()` returns, the progress line cleared; a study that cannot go on exits 2 (with --json, in
    `doc`), 130 when interrupted, `kept()` saying what stays in `out` (not where the folder was refused:
    nothing was played there)."""
    import typer

    from ..errors import Problem
    from ..study.backend import StudyError, StudyRefused
    from .common import stop, usage_error, warn

    try:
        found = play()
    except StudyError as exc:
        progress.clear()
        usage_error(None, f"{exc}{'' if isinstance(exc, StudyRefused) else kept()}", doc)
    except OSError as exc:  # writing a record failed (disk full, permissions)
        progress.clear()
        stop(
            [
                Problem(
                    "cannot-write", f"cannot write: {exc.strerror or exc}", file=exc.filename or out
                )
            ],
            2,
            doc,
        )
    except KeyboardInterrupt:
        progress.clear()
        warn(f"interrupted{kept()}")
        raise typer.Exit(130) from None
    progress.clear()
    return found


DASK_LOGGERS = (
    "distributed",
    "distributed.client",
    "distributed.gc",
)  # those Dask's defaults give a level


def quiet_dask_logs(scheduler: str | None) -> None:
    """With a cluster, Dask's own log lines stay off the terminal unless asked for (DASK_LOGGING)."""
    if scheduler is not None:
        import os

        os.environ.setdefault("DASK_LOGGING", str(dict.fromkeys(DASK_LOGGERS, "critical")))


def start_display(unit: str, total: int, first: int, rate, left):
    """rich's progress display on stderr, redrawn only when told (no drawing thread beside the worker
    processes), and its task, started at `first`; `rate()` gives the units per second shown, `left()`
    the seconds left."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, ProgressColumn, TextColumn
    from rich.progress import Progress as Display
    from rich.text import Text

    class Rate(ProgressColumn):
        """Units per second since the run began (known from the first finished unit on, however quickly
        the units come: rich's own estimate needs two drawings)."""

        def render(self, task) -> Text:
            speed = rate()
            return Text(
                f"{speed:.0f} {unit}/s," if speed else f"- {unit}/s,", style="progress.data.speed"
            )

    class TimeLeft(ProgressColumn):
        """The time the remaining units take (H:MM:SS), "-:--:--" while it is unknown."""

        def render(self, task) -> Text:
            if task.total is not None and task.completed >= task.total:
                return Text("0:00:00", style="progress.remaining")
            seconds_left = left()
            if seconds_left is None:
                return Text("-:--:--", style="progress.remaining")
            minutes, seconds = divmod(round(seconds_left), 60)
            return Text(
                f"{minutes // 60}:{minutes % 60:02d}:{seconds:02d}", style="progress.remaining"
            )

    display = Display(
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(f"{unit},"),
        Rate(),
        TimeLeft(),
        TextColumn("left"),
        console=Console(stderr=True),
        auto_refresh=False,
        transient=True,
    )
    task = display.add_task(unit, total=total, completed=first)
    display.start()
    return display, task
