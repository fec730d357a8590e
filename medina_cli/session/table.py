"""A game at the table: people at the terminal and agents (`random`, `greedy`, `mcts:N`) taking their
turns, under any ruleset or house-rule file. The record (record/1) is written after every placement,
so the game can stop at any moment and go on later; which seats are agents is kept in the record
(`x-play`). Every placement is told as a line, the board drawn before a person's turn. The terminal
itself, reading lines and drawing the board, is the caller's: `run` takes it.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..agents.analysis import advise, hint_document, rating_agent
from ..agents.base import UnknownAgent
from ..agents.specs import agent_names, make_agent, parse_spec
from ..engine.variant import Variant
from ..errors import BadArgument, MedinaError, Problem, UnusableInput, fail, in_words
from ..records import recording
from ..records.record import parse_record
from ..records.replay import Replay, replay
from ..records.status import (
    PlacementFilter,
    legal_by_piece,
    listing_lines,
    refusal_lines,
    status_report,
)
from ..render.verdicts import hint_text
from ..yamlio import base_dir_of, read_text

if TYPE_CHECKING:
    from ..engine.game import Game

PLAY_KEY = "x-play"  # in the record: {agents: {player: spec}, seed: N}; the other players sit at the terminal
HINTS = 3
HELP = """Type a placement ({examples}), or:
  moves [PIECE|CELL ...]  the legal placements (of those pieces, on those cells)
  hint                    the placements the hint agent prefers here
  undo                    take back your last placement (and every one made since)
  status                  the supplies and the score now
  board                   the board again, with its key
  help                    this text
  quit                    stop here: the record keeps the game (Ctrl-D or Ctrl-C too)"""


@dataclass(frozen=True)
class Seat:
    """A player: a person at the terminal (`agent` None) or an agent spec."""

    name: str
    agent: str | None = None

    def words(self) -> str:
        return (
            f"{self.name} (agent {self.agent})" if self.agent else f"{self.name} (at this terminal)"
        )


def kind_of(spec: str) -> str:
    """The agent a spec names, without its options (`mcts` of `mcts:300@0.99`)."""
    return spec.partition(":")[0].partition("@")[0]


def read_seats(values: list[str]) -> list[Seat]:
    """`--seat` values in seat order: NAME (a person), SPEC (an agent named after its kind: `greedy`, a
    second one `greedy2`) or NAME=SPEC. Raises BadArgument for a spec that names no agent."""
    kinds = {kind_of(name) for name in agent_names()}
    seats: list[Seat] = []
    counted: dict[str, int] = {}
    for value in values:
        name, equals, spec = (part.strip() for part in value.partition("="))
        if not equals and kind_of(name).lower() in kinds:
            name, spec = "", name
        if not spec:
            seats.append(Seat(name))
            continue
        try:
            kind = parse_spec(spec).name
        except UnknownAgent as exc:
            raise fail("usage", str(exc), file=f"--seat {value}", error=BadArgument) from None
        counted[kind] = counted.get(kind, 0) + 1
        seats.append(
            Seat(name or kind + (str(counted[kind]) if counted[kind] > 1 else ""), spec.lower())
        )
    return seats


def _seats_of_players(seats: list[Seat], players: list[str]) -> dict[str, Seat]:
    """player -> the seat given for that player; BadArgument for a seat that names none, or a player
    given twice."""
    unknown = [seat.name for seat in seats if seat.name not in players]
    if unknown:
        raise fail(
            "usage",
            f"{in_words(unknown, 'and')} {'is' if len(unknown) == 1 else 'are'} not among the "
            f"record's players, {in_words(players, 'and')} (give --seat NAME or NAME=SPEC for each seat "
            "that changes)",
            file="--seat",
            error=BadArgument,
        )
    given: dict[str, Seat] = {}
    for seat in seats:
        if seat.name in given:
            raise fail("usage", f"{seat.name} is given two seats", file="--seat", error=BadArgument)
        given[seat.name] = seat
    return given


def _check_hint_agent(spec: str) -> None:
    """An agent that rates placements, or BadArgument."""
    try:
        rating_agent(spec)
    except UnknownAgent as exc:
        raise fail("usage", str(exc), file="--hint-agent", error=BadArgument) from None


class Table:
    """A game being played into its record file: the seats, the text last written and its replay."""

    def __init__(self, path: str, seats: list[Seat], seed, hint_agent: str, text: str):
        self.path, self.seats, self.seed, self.hint_agent = path, seats, seed, hint_agent
        self.text = text
        self.notes: list[str] = []  # what the opening says beyond the seats
        self.outcome = replay(parse_record(text, path, base_dir=base_dir_of(path)))

    @classmethod
    def start(
        cls,
        path: str,
        ruleset_ref: str,
        seats: list[Seat],
        *,
        merchant: str | None = None,
        well: str | None = None,
        seed: int = 0,
        force: bool = False,
        hint_agent: str = "mcts",
    ) -> Table:
        """A new game: its record written at `path` (never over a file, unless `force`); the setup drawn
        from `seed` where `merchant` and `well` are not given. Raises BadArgument for options that cannot
        be used, UnusableInput when the file exists or cannot be written."""
        from ..rules.loader import load_ruleset

        _check_hint_agent(hint_agent)
        if os.path.exists(path) and not force:
            raise fail(
                "file-exists",
                f"exists; go on with that game (medina play {path} --continue), or give "
                "--force to start a new one over it",
                file=path,
                error=UnusableInput,
            )
        try:
            ruleset = load_ruleset(ruleset_ref)
        except MedinaError as exc:
            raise BadArgument.of(exc) from None
        if (merchant is None or well is None) and not ruleset.players_refusal(len(seats)):
            drawn = recording.drawn_setup(ruleset.for_players(len(seats)), seed)
            merchant, well = merchant or drawn[0], well or drawn[1]
        agents = {seat.name: seat.agent for seat in seats if seat.agent}
        text, problems = recording.new_record(
            ruleset,
            ruleset_ref,
            [seat.name for seat in seats],
            merchant,
            well,
            path,
            meta={PLAY_KEY: {"agents": agents, "seed": seed}},
        )
        if text is None:
            raise BadArgument(problems[0], more=problems[1:])
        recording.save_new(path, text)
        return cls(path, seats, seed, hint_agent, text)

    @classmethod
    def resume(
        cls,
        path: str,
        seats: list[Seat] | None = None,
        *,
        seed: int | None = None,
        hint_agent: str = "mcts",
    ) -> Table:
        """The game recorded at `path`, its seats as the record keeps them (`x-play`; a player it does not
        name sits at the terminal) but those `seats` give, which the record then keeps. Raises MedinaError
        when the record cannot be read or is invalid, BadArgument when a seat names no player of it."""
        _check_hint_agent(hint_agent)
        name, text = read_text(path)
        record = parse_record(text, name, base_dir=base_dir_of(path))
        play = record.meta.get(PLAY_KEY)
        kept = play if isinstance(play, dict) else {}
        kept_agents = kept.get("agents")
        agents = kept_agents if isinstance(kept_agents, dict) else {}
        recorded = [
            Seat(player, str(agents[player]) if player in agents else None)
            for player in record.players
        ]
        given = _seats_of_players(seats or [], record.players)
        for seat in recorded:
            if not seat.agent or seat.name in given:
                continue
            try:
                parse_spec(seat.agent)
            except UnknownAgent as exc:
                raise fail(
                    "usage",
                    f"{PLAY_KEY}: {exc}; give a --seat for {seat.name}",
                    file=name,
                    error=BadArgument,
                ) from None
        seats = [given.get(seat.name, seat) for seat in recorded]
        seed = kept.get("seed", 0) if seed is None else seed
        table = cls(path, seats, seed, hint_agent, text)
        if table.outcome.problems:
            problems = table.outcome.problems
            raise MedinaError(problems[0], more=problems[1:])
        if seats != recorded or (given and PLAY_KEY not in record.meta):
            table.keep_seats()
        return table

    def keep_seats(self) -> None:
        """Write the seats and the seed into the record (`x-play`), for `--continue` to read."""
        agents = {seat.name: seat.agent for seat in self.seats if seat.agent}
        text = recording.keep_key(
            self.path, PLAY_KEY, {"agents": agents, "seed": self.seed}, expect=self.text
        )
        if text is None:
            self.notes.append(
                f"The seats are not kept in {self.path} (its {PLAY_KEY} is laid out by hand, or the "
                "file changed): give them again with --seat to go on with them."
            )
            return
        self.text = text
        self.outcome = replay(parse_record(text, self.path, base_dir=base_dir_of(self.path)))
        self.notes.append(
            f"The seats are kept in {self.path}: medina play {self.path} --continue goes on with them."
        )

    # --- where the game stands ---------------------------------------------------------------------
    @property
    def game(self) -> Game:
        game = self.outcome.game
        assert (
            game is not None
        )  # a table's record replays (`start` writes it, `resume` refuses one that does not)
        return game

    @property
    def mover(self) -> Seat | None:
        name = self.game.to_move
        return None if name is None else next(seat for seat in self.seats if seat.name == name)

    def prompt(self) -> str:
        """`Ann, turn 5, placement 1 of 2> ` (with a roof due: said)."""
        upcoming, mover = self.outcome.next_placement(), self.mover
        assert upcoming is not None and mover is not None  # asked while a player is to move (`run`)
        turn, placement = upcoming
        of = placement - 1 + self.outcome.placements_left()
        due = " (a roof is due)" if self.game.forced else ""
        return f"{mover.name}, turn {turn}, placement {placement} of {of}{due}> "

    def opening(self) -> list[str]:
        record = self.outcome.record
        assert record.ruleset is not None  # a table's record replays
        return [
            f"{self.path}: {record.ruleset.id}; {in_words([seat.words() for seat in self.seats], 'and')}.",
            *self.notes,
            "The record is written after every placement. Type help for the commands.",
        ]

    def stopped(self) -> str:
        """Where the game was left, and how to go on with it."""
        return (
            f"Stopped {self.outcome.position_words()}; {self.path} holds the game so far. "
            f"Go on with: medina play {self.path} --continue"
        )

    # --- changing it -------------------------------------------------------------------------------
    def play_agent(self) -> recording.Appended:
        """The agent to move chooses (seeded by the game's seed and the number of placements made, so a game
        continued later plays as one played at once) and its placement is recorded. Raises MedinaError when
        the record cannot take it."""
        seat = self.mover
        assert seat is not None and seat.agent is not None  # `run` asks an agent's seat to move
        choice = make_agent(seat.agent, seed=f"{self.seed}/{len(self.game.move_stack)}").choose(
            self.game
        )
        done = self.place(str(choice), seat.name)
        refusals = [problem for problem in done.problems if problem.code != "record-changed"]
        if (
            refusals
        ):  # the record cannot take it (turns laid out by hand otherwise): the game cannot go on
            raise MedinaError(refusals[0], more=refusals[1:])
        return done

    def place(self, line: str, player: str | None) -> recording.Appended:
        """Record `line` (placements as `medina add` takes them) for `player`; a line that names a player
        goes to that player, and is refused (out of turn) when it is not that player's turn."""
        if recording.named_player(line, self.outcome.record) is not None:
            player = None
        try:
            done = recording.record_placements(
                self.path, [line], player=player, expect=self.text, from_shell=False
            )
        except (
            BadArgument
        ) as exc:  # the line names someone who is not a player: refused, the game goes on
            return recording.Appended(None, self.outcome, exc.problems)
        self._follow(done.text, done.outcome, done.problems)
        return done

    def take_back(self, player: str) -> recording.Undone | None:
        """`player`'s last placement and every one made since taken back; None when `player` has made none."""
        count = 0
        for entry in reversed(self.outcome.record.turns):
            if entry.player == player:
                break
            count += len(entry.actions)
        else:
            return None
        done = recording.take_back(self.path, count + 1, expect=self.text)
        self._follow(done.text, done.outcome, done.problems)
        return done

    def _follow(self, text: str | None, outcome: Replay | None, problems: list[Problem]) -> None:
        """The record as a change left it: the text written and its replay, or read anew where another
        program changed it meanwhile."""
        if text is not None:
            assert outcome is not None  # the replay of the text written
            self.text, self.outcome = text, outcome
        elif any(problem.code == "record-changed" for problem in problems):
            self.reload()

    def reload(self) -> None:
        _, self.text = read_text(self.path)
        self.outcome = replay(parse_record(self.text, self.path, base_dir=base_dir_of(self.path)))

    def hint_lines(self) -> list[str]:
        """The hint `medina hint` gives at this position, in its words (its one legend line included), less
        what only `medina hint` itself can use: the seed and the --explain pointer."""
        seed = f"{self.seed}/{len(self.game.move_stack)}"
        advice = advise(self.game, self.hint_agent, seed=seed, top=HINTS)
        doc = hint_document(
            self.path, seed, self.hint_agent, self.outcome.next_placement() or (None, None), advice
        )
        return hint_text(doc, self.path, command=False).split("\n")


# --- the conversation ------------------------------------------------------------------------------


def _no_sign(name: str) -> contextlib.nullcontext:
    return contextlib.nullcontext()


def run(table: Table, ask, tell, draw, *, board_always: bool = False, thinking=None) -> bool:
    """Play at the terminal until the game is over (True) or a person stops it (False): agents move by
    themselves; a person is asked (`ask(prompt)` gives a line, and raises EOFError or KeyboardInterrupt
    to stop); every line to show goes to `tell`; `draw(game, key)` is the board as text (with its key).
    Each placement is told as a line; the board is drawn where it has changed, before a person's turn and at
    the end (`board_always`: after every placement). `thinking(name)`: a context in which an agent chooses
    (the caller's sign that it is thinking)."""
    for line in table.opening():
        tell(line)
    tell(draw(table.game, True))
    changed = False  # placements made since the board was last drawn
    while table.mover is not None:
        if table.mover.agent:
            with (thinking or _no_sign)(table.mover.name):
                placed = table.play_agent()
            changed |= _show_placed(placed, tell)
        else:
            if changed:
                tell(draw(table.game, False))
                changed = False
            line = ask(table.prompt()).strip()
            word, _, rest = line.partition(" ")
            command = COMMANDS.get(word.lower())
            if command is not None:
                if command(table, rest, tell, draw) is False:
                    return False
            elif line:
                changed |= _show_placed(table.place(line, table.mover.name), tell)
        if changed and board_always:
            tell(draw(table.game, False))
            changed = False
    if changed:
        tell(draw(table.game, False))
    for line in status_report(table.outcome)[-1:]:
        tell(line)
    tell(f"The game is recorded in {table.path}.")
    return True


def _show_placed(done: recording.Appended, tell) -> bool:
    """Tell what was recorded, a line a placement, or why nothing was; whether anything was."""
    if done.text is None:
        for problem in done.problems:
            tell(f"{problem.message} [{problem.code}]")
        tell("Not recorded. (moves: the legal placements)")
        return False
    for turn, player, token in done.placed:
        tell(f"turn {turn}, {player}: {token}")
    return bool(done.placed)


def _moves(table: Table, rest: str, tell, draw) -> None:
    words = rest.replace(",", " ").split()
    record = table.outcome.record
    spellings = Variant.of(record.rules).spellings
    try:
        keep = PlacementFilter(
            record,
            [w for w in words if w.lower() in spellings],
            [w for w in words if w.lower() not in spellings],
        )
    except BadArgument as exc:
        tell(exc.problem.message)
        return
    groups = legal_by_piece(table.game, keep)
    count = sum(map(len, groups.values()))
    tell(
        f"{count} legal placement{'s' * (count != 1)}{', ' + keep.words() if keep.words() else ''}:"
    )
    for line in listing_lines(groups) or [f"  {line}" for line in refusal_lines(table.game, keep)]:
        tell(line)
    if table.game.legal_placements()[-1:] and " " not in str(table.game.legal_placements()[-1]):
        tell("  tea may replace one placement this turn")


def _undo(table: Table, rest: str, tell, draw) -> None:
    mover = table.mover
    assert mover is not None  # commands are read while a player is to move (`run`)
    done = table.take_back(mover.name)
    if done is None:
        tell(f"{mover.name} has made no placement to take back.")
    elif done.text is None:
        for problem in done.problems:
            tell(f"{problem.message} [{problem.code}]")
    else:
        for line in done.lines():
            tell(line)
        tell(draw(table.game, False))


def _hint(table: Table, rest: str, tell, draw) -> None:
    for line in table.hint_lines():
        tell(line)


def _status(table: Table, rest: str, tell, draw) -> None:
    for line in status_report(table.outcome):
        tell(line)


def _board(table: Table, rest: str, tell, draw) -> None:
    tell(draw(table.game, True))


def _help(table: Table, rest: str, tell, draw) -> None:
    examples = "grey K8, roof C10" + (
        ", tea" if table.game.rules.tea.colour else ""
    )  # tea where the rules have it
    tell(HELP.format(examples=examples).replace("the hint agent", table.hint_agent))


def _quit(table: Table, rest: str, tell, draw) -> bool:
    return False


COMMANDS = {
    "moves": _moves,
    "hint": _hint,
    "undo": _undo,
    "status": _status,
    "board": _board,
    "help": _help,
    "?": _help,
    "quit": _quit,
    "exit": _quit,
}
