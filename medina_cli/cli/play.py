"""`medina play`: a game in the terminal against the agents, written to its record as it goes."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import (
    NoColorOption,
    complete_ruleset,
    exit_status,
    note_engine_cost,
    ruleset_ref,
    say,
    shown_as,
    stop,
    usage_error,
)
from .progress import thinking


def complete_seat(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of `--seat`: the agents, and with --continue the record's players."""
    from .common import complete_player

    agents = ["random", "greedy", "mcts", "mcts:"]
    return [a for a in agents if a.startswith(incomplete)] + complete_player(ctx, incomplete)


FileArgument = Annotated[
    str,
    typer.Argument(
        metavar="FILE",
        parser=shown_as("path"),
        help="The record of the game (.yaml): written as the game goes.",
    ),
]
RulesetChoice = Annotated[
    str | None,
    typer.Option(
        "--ruleset",
        "-r",
        metavar="ID|PATH",
        parser=ruleset_ref,
        autocompletion=complete_ruleset,
        help="The rules played: a built-in id or a ruleset (house-rule) file. Needed for a new game.",
    ),
]
SeatOption = Annotated[
    list[str] | None,
    typer.Option(
        "--seat",
        metavar="NAME|SPEC|NAME=SPEC",
        autocompletion=complete_seat,
        help="A player, in seat order (the first starts): a name is a person at this terminal, an agent spec "
        "(random, greedy, mcts, mcts:N) an agent named after it, NAME=SPEC a named agent. Repeat per player.",
    ),
]
CellChoice = Annotated[
    str | None,
    typer.Option(
        "--merchant", metavar="CELL", help="The start merchant's cell (default: drawn from --seed)."
    ),
]
WellChoice = Annotated[
    str | None,
    typer.Option(
        "--well",
        metavar="CELL",
        help="The well's cell, for rules with a well (default: drawn from --seed).",
    ),
]
SeedChoice = Annotated[
    int | None,
    typer.Option(
        "--seed",
        "-s",
        metavar="N",
        help="Seed of the setup and of the agents' choices (default 0; with --continue "
        "the game's own).",
    ),
]
ContinueOption = Annotated[
    bool,
    typer.Option(
        "--continue",
        "-c",
        help="Go on with the game FILE holds, its seats as recorded but those --seat gives "
        "(NAME or NAME=SPEC for a player of the record), which the record then keeps.",
    ),
]
ForceOption = Annotated[
    bool, typer.Option("--force", help="Start a new game over an existing FILE.")
]
HintOption = Annotated[
    str,
    typer.Option(
        "--hint-agent",
        metavar="SPEC",
        parser=shown_as("spec"),
        help="The agent that answers `hint` (greedy, mcts, mcts:N).",
    ),
]
BOARD_WHEN = ("turn", "always")


def board_when(value: str) -> str:
    """A typer `parser` for --board: `turn` or `always`."""
    if value.lower() not in BOARD_WHEN:
        raise typer.BadParameter(f"{value!r} is not turn or always.")
    return value.lower()


BoardOption = Annotated[
    str,
    typer.Option(
        "--board",
        metavar="turn|always",
        parser=board_when,
        help="When to draw the board: turn (once before each person's turn, the agents' placements told as lines) "
        "or always (after every placement).",
    ),
]
NEW_GAME_ONLY = ("--ruleset", "--merchant", "--well", "--force")


def play_command(
    file: FileArgument,
    ruleset: RulesetChoice = None,
    seat: SeatOption = None,
    merchant: CellChoice = None,
    well: WellChoice = None,
    seed: SeedChoice = None,
    continue_: ContinueOption = False,
    force: ForceOption = False,
    hint_agent: HintOption = "mcts",
    board: BoardOption = "turn",
    no_color: NoColorOption = False,
) -> None:
    """Play a game in the terminal, people against the agents, under any ruleset or house-rule file.
    Every placement is told as a line, and the board (the last placement marked `>`) drawn before each
    person's turn (--board always: after every placement); at your turn type a placement, or `moves`,
    `hint`, `undo`, `status`, `board`, `help`, `quit`. The record FILE is written (atomically) after
    every placement: stop at any moment (quit, Ctrl-D, Ctrl-C) and go on with `medina play FILE
    --continue`. With every seat an agent the game plays itself to the end, no terminal needed.

    Exit status: 0 the game ended or was stopped (quit, end of input), 1 the record to continue is
    invalid, 2 usage error or unusable file (exists without --force or --continue, cannot be written),
    130 interrupted (Ctrl-C); the record is valid in every case.
    """
    from ..errors import MedinaError
    from ..session.table import Table, read_seats, run

    _check_options(
        file,
        ruleset,
        seat,
        continue_,
        {"--ruleset": ruleset, "--merchant": merchant, "--well": well, "--force": force or None},
    )
    try:
        seats = read_seats(seat or [])
        if continue_:
            table = Table.resume(file, seats, seed=seed, hint_agent=hint_agent)
        else:
            assert ruleset is not None  # `_check_options` refuses a new game without it
            table = Table.start(
                file,
                ruleset,
                seats,
                merchant=merchant,
                well=well,
                seed=seed or 0,
                force=force,
                hint_agent=hint_agent,
            )
    except MedinaError as exc:
        if not continue_:  # the number of players is the number of --seat options
            for problem in exc.problems:
                if problem.code == "unsupported-player-count":
                    problem.file, problem.line = "--seat", None
        stop(exc.problems, exit_status(exc))
    note_engine_cost()
    try:
        finished = run(
            table,
            ask=_ask,
            tell=say,
            draw=_drawing(no_color),
            board_always=board == "always",
            thinking=thinking,
        )
    except (EOFError, KeyboardInterrupt) as interruption:
        say()
        say(table.stopped())
        raise typer.Exit(130 if isinstance(interruption, KeyboardInterrupt) else 0) from None
    if not finished:
        say(table.stopped())


def _ask(prompt: str) -> str:
    """A line typed at the terminal, as input() reads it, except that a Ctrl-C pressed as the prompt
    appears stops at once: input() misses a signal that comes before its read begins, and waits for the
    next key. Here the signal's wakeup byte ends the wait. Off a terminal, input() itself."""
    import os
    import select
    import signal
    import sys
    import threading

    if (
        os.name != "posix"
        or not (sys.stdin.isatty() and sys.stdout.isatty())
        or threading.current_thread() is not threading.main_thread()
    ):
        return input(prompt)
    wake, woken = os.pipe()
    os.set_blocking(woken, False)
    previous = signal.set_wakeup_fd(woken, warn_on_full_buffer=False)
    try:
        sys.stdout.flush()
        sys.stderr.write(prompt)  # where input() writes it on a terminal
        sys.stderr.flush()
        while sys.stdin not in select.select([sys.stdin, wake], [], [])[0]:
            os.read(
                wake, 512
            )  # a signal came: its handler (Ctrl-C: KeyboardInterrupt) runs on return
    finally:
        signal.set_wakeup_fd(previous)
        os.close(wake)
        os.close(woken)
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.removesuffix("\n")


def _check_options(file: str, ruleset, seat, continue_: bool, new_only: dict) -> None:
    from .common import refuse_directory

    refuse_directory(file, "give the record file of the game")
    if file == "-":
        usage_error("medina play", "the game is written to a file: give its name, not -")
    given = [option for option, value in new_only.items() if value is not None]
    if continue_ and given:
        usage_error(
            given[0], "only for a new game: --continue goes on with the game as FILE records it"
        )
    if not continue_ and (ruleset is None or not seat):
        usage_error(
            "medina play",
            "a new game needs --ruleset and a --seat for each player (or --continue to go "
            "on with FILE's game)",
        )


def _drawing(no_color: bool):
    """draw(game, key): the board as text with its last placement marked, in colour on a terminal, with
    its key when `key`."""
    from ..render.text import board_lines, colour_wanted

    colour = colour_wanted(no_color)

    def draw(game, key: bool) -> str:
        return "\n".join(board_lines(game, colour=colour)[: 2 if key else 1])

    return draw
