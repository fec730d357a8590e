"""A progress line for long commands: on a terminal, rich's progress display on stderr (a bar, units
done of the total, units per second and the time left), redrawn in place and cleared at the end.
Off a terminal nothing is drawn and rich is not imported, so commands start as quickly as before."""

from __future__ import annotations

import sys
import time

REDRAW_SECONDS = 0.1  # at most ten drawings a second, however fast the units finish


class Progress:
    """Counts finished units (`progress(finished)`, or `progress(finished, total)` when the total is
    learnt late); `first` is the count it started from (units done before this run)."""

    def __init__(self, total: int, unit: str = "games"):
        self.total, self.unit = total, unit
        self.draw = sys.stderr.isatty()
        self.first = self.finished = 0
        self.started = False
        self.drawn_at = 0.0
        self.display = None  # rich's, from the first drawing on
        self.task = None

    def __call__(self, finished: int, total: int | None = None) -> None:
        if total is not None:
            self.total = total
        if not self.started:
            self.started, self.first = True, finished
        self.finished = finished
        now = time.monotonic()
        if not self.draw or (now - self.drawn_at < REDRAW_SECONDS and finished < self.total):
            return
        self.drawn_at = now
        if self.display is None:
            self.display, self.task = start_display(self.unit, self.total, finished)
        self.display.update(self.task, completed=finished, total=self.total)
        self.display.refresh()

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


def start_display(unit: str, total: int, first: int):
    """rich's progress display on stderr, redrawn only when told (no drawing thread beside the worker
    processes), and its task, started at `first` (units done before: not counted in the rate)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, ProgressColumn, TextColumn, TimeRemainingColumn
    from rich.progress import Progress as Display
    from rich.text import Text

    class Rate(ProgressColumn):
        """Units per second, as rich estimates it from this run's last half minute."""

        def render(self, task) -> Text:
            return Text(f"{task.speed:.0f} {unit}/s," if task.speed else f"- {unit}/s,", style="progress.data.speed")

    display = Display(BarColumn(), MofNCompleteColumn(), TextColumn(f"{unit},"), Rate(), TimeRemainingColumn(),
                      TextColumn("left"), console=Console(stderr=True), auto_refresh=False, transient=True)
    task = display.add_task(unit, total=total, completed=first)
    display.start()
    return display, task
