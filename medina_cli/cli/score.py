"""`medina score`: the score sheet of a record (final, or the standings so far) or of a finished board."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated

import typer

from ..errors import Problem
from .common import (
    JsonOption,
    NoColorOption,
    RulesetOption,
    SetOption,
    ToOption,
    emit_json,
    exit_status,
    expand_inputs,
    replay_to,
    report_problems,
    say,
    shown_as,
    stop,
    warn,
    warnings_to_show,
    with_problems,
)

if TYPE_CHECKING:
    from .. import Position, ScoreSheet


def score(
    files: Annotated[
        list[str],
        typer.Argument(
            metavar="FILE...",
            parser=shown_as("path"),
            help="Record/1 or board/1 files, directories (every record and board below them but "
            "hidden ones and rulesets), or - for stdin.",
        ),
    ],
    to: ToOption = None,
    ruleset: RulesetOption = None,
    set_: SetOption = None,
    json_: JsonOption = False,
    no_color: NoColorOption = False,
) -> None:
    """Score recorded games (final scores, or the standings where a record stops) and finished boards.
    With more than one game, a table of standings per player name follows (games, wins, shared wins,
    points) over the valid, finished games.

    Exit status: 0 all valid, 1 some input invalid (an illegal placement, a wrong claimed result, a bad
    board), 2 unusable input or usage error.
    """
    from .. import standings
    from ..render.score import scores_json, standings_report

    many = len(files) > 1 or any(path != "-" and os.path.isdir(path) for path in files)
    paths = expand_inputs(files, boards=True)
    if not paths:
        stop(
            [
                Problem(
                    "usage",
                    "no record or board files (*.yaml, *.yml, *.sgf) found",
                    file=", ".join(files),
                )
            ],
            2,
            scores_json() if json_ else None,
        )
    run = ScoreRun(many, json_, no_color)
    table = standings(run.sheets_counted(paths, to, ruleset, set_))
    if json_:
        emit_json(scores_json(run.docs, table) if many else run.docs[0])
    elif len(paths) > 1:
        say()
        say("\n".join(standings_report(table, run.counted, run.left_out)))
    raise typer.Exit(run.status)


class ScoreRun:
    """The files of one `score` command, scored one at a time: what it prints (or, with --json, each
    game's document), the exit status, and which games count in the standings."""

    def __init__(self, many: bool, as_json: bool, no_color: bool):
        self.many, self.as_json, self.no_color = many, as_json, no_color
        self.docs: list[dict] = []
        self.left_out: list[str] = []
        self.status, self.counted = 0, 0

    def sheets_counted(self, paths: list[str], to, ruleset, set_):
        """Each game scored in turn, shown (or its document kept) and let go: only its sheet, when it
        counts, reaches the standings, so memory does not grow with the number of games."""
        from ..render.score import scores_json

        for number, path in enumerate(paths):
            game = _score_one(path, "<stdin>" if path == "-" else path, to, ruleset, set_)
            if game.usage:  # a bad --ruleset, --set or --to: the same for every file
                stop(
                    game.errors,
                    2,
                    (scores_json(self.docs) if self.many else game.doc) if self.as_json else None,
                )
            self.status = max(self.status, game.status)
            if self.as_json:
                self.docs.append(game.doc)
            else:
                if self.many and number:
                    say()
                game.show(self.no_color)
            if game.counts:
                self.counted += 1
                yield game.sheet
            else:
                self.left_out.append(game.name)


class ScoredGame:
    """One file of `score`: its sheet (or why there is none), its document, its exit status."""

    def __init__(self, name: str):
        self.name = name
        self.sheet: ScoreSheet | None = None
        self.position: Position | None = None
        self.state: str | None = None
        self.errors: list[Problem] = []
        self.warnings: list[Problem] = []
        self.status, self.usage = 0, False
        self.counts = False  # valid and finished: it counts in the standings

    @property
    def doc(self) -> dict:
        from ..render.score import score_json

        return with_problems(score_json(self.name, self.sheet), self.errors, self.warnings)

    def show(self, no_color: bool) -> None:
        report_problems(self.errors)
        for problem in self.warnings:
            warn("warning: " + problem.human())
        if self.sheet is not None:
            from ..render.score import sheet_report
            from ..render.text import colour_wanted

            say(
                "\n".join(
                    sheet_report(
                        self.name,
                        self.position,
                        self.sheet,
                        self.state or "",
                        colour=colour_wanted(no_color),
                    )
                )
            )


def _score_one(path: str, name: str, to, ruleset, set_) -> ScoredGame:
    from .. import score as score_sheet
    from ..errors import BadArgument, MedinaError
    from ..records.boardfile import Board
    from ..records.inputs import read_record_or_board
    from ..render.score import state_words

    game = ScoredGame(name)
    try:
        source = read_record_or_board(path, ruleset, tuple(set_ or ()))
    except MedinaError as exc:
        game.errors, game.status, game.usage = (
            exc.problems,
            exit_status(exc),
            isinstance(exc, BadArgument),
        )
        return game
    game.name = source.file
    if isinstance(source, Board):
        if to is not None:
            game.errors, game.status, game.usage = (
                [Problem("usage", "--to applies to records, not to a board", file=source.file)],
                2,
                True,
            )
            return game
        game.errors = source.problems.errors
        if game.errors:
            game.status = 1
            return game
        game.sheet, game.position = score_sheet(source), source.position
        game.state, game.counts = "finished board", True
        return game
    outcome = replay_to(source, to)
    game.errors = outcome.problems
    game.warnings = warnings_to_show(outcome)
    game.status = 1 if game.errors else 0
    if outcome.game is not None:
        game.position, game.sheet, game.state = (
            outcome.game,
            score_sheet(outcome.game),
            state_words(outcome),
        )
        game.sheet.finished = outcome.finished
        game.counts = outcome.finished and not game.errors
    return game
