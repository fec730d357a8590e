"""Replay a record through the engine, turn by turn, stopping at the first illegal action."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

from ..engine.game import Game
from ..engine.placement import PASS_PLACEMENT, IllegalPlacement
from ..engine.scoring import score_game
from ..errors import Problem, ordinal
from .model import Record


@dataclass
class Replay:
    record: Record
    game: Game | None
    turns_played: int = (
        0  # entries of `turns` replayed completely (the last one may be a turn in progress)
    )
    turns_asked: int = 0  # entries of `turns` the replay was to play (all, or the first `to_turn`)
    partial: int = 0  # placements of the refused turn that were made before the refusal
    errors: list[Problem] = field(
        default_factory=list
    )  # the illegal turn the replay stopped at, if any
    stopped_at: Problem | None = (
        None  # why the replay stopped before the end: an illegal or an unreadable turn's
    )
    result_errors: list[Problem] = field(
        default_factory=list
    )  # claimed scores that differ from the replay's
    warnings: list[Problem] = field(default_factory=list)
    turn_events: list[tuple[int, list]] = field(
        default_factory=list
    )  # (turn number, events) per turn
    in_progress: bool = (
        False  # the record's last entry is a turn still open (transcribed as it is played)
    )
    positions: list[Game] = field(
        default_factory=list
    )  # with keep_positions: a copy after the setup and each turn
    # (a pass's is the one before it: the same object)

    @property
    def problems(self) -> list[Problem]:
        return self.record.problems.errors + self.errors + self.result_errors

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def _played(self) -> Game:
        """The game, for what only the replay of a `playable` record has (its position, its standing)."""
        assert self.game is not None, "the replay of a playable record has its game"
        return self.game

    def position_words(self) -> str:
        """Where the replayed position stands, e.g. "after turn 3 and 1 placement of turn 4"."""
        done, partial = self.turns_played, self.partial
        if self.in_progress:
            done, partial = done - 1, self._played.turn_made
        placed = f"{partial} placement{'s' if partial != 1 else ''} of turn {done + 1}"
        if not done:
            return f"after {placed}" if partial else "at the start"
        return f"after turn {done}" + (f" and {placed}" if partial else "")

    def stop_words(self) -> str:
        """`, where the replay stopped (turn 4 is illegal)` (or `cannot be read`); "" when it did not stop."""
        stop = self.stopped_at
        if stop is None:
            return ""
        how = "is illegal" if stop in self.errors else "cannot be read"
        return f", where the replay stopped (turn {stop.turn} {how})"

    def next_placement(self) -> tuple[int, int] | None:
        """(turn, placement), both counted from 1, that the next placement would be if the record went
        on from the replayed position: one of the open turn, or the first of a new entry. None when
        nobody can place."""
        game = self.game
        if game is None or game.is_over():
            return None
        if game.turn_open():
            return self.turns_played + (0 if self.in_progress else 1), game.turn_made + 1
        return self.turns_played + (2 if self.partial else 1), 1

    def placements_left(self) -> int:
        """How many placements (a tea tile counts as one) the turn of the next placement still allows,
        that one included; 0 when nobody can place. The turn ends sooner if nothing else fits."""
        return 0 if self.game is None else self.game.turn_left

    def position_json(self) -> dict:
        """Where the replay stands, as `position` in medina-replay/1: turns played, the next placement, who
        is to move, every player's supply (with tea tiles where the ruleset has them), the position on one
        line (`Game.to_text`)."""
        game = self._played
        supplies, tea = game.supply, game.tea
        assert supplies is not None and tea is not None, (
            "a game keeps its players' supplies (only a board may not)"
        )
        turn, placement = self.next_placement() or (None, None)
        supply = {
            name: {**supplies[seat], **({"tea": tea[seat]} if game.rules.tea.colour else {})}
            for seat, name in enumerate(game.players)
        }
        return {
            "after_turn": self.turns_played,
            "placements_into_next_turn": self.partial,
            "finished": game.is_over(),
            "to_move": game.to_move,
            "turn": turn,
            "placement": placement,
            "supply": supply,
            "text": game.to_text(),
        }

    def to_json(self) -> dict:
        """The medina-replay/1 fields of the replay: the ruleset, players, setup (with its events), each
        turn replayed with its placements and events, and the position reached."""
        record, ruleset = self.record, self.record.ruleset
        assert ruleset is not None, "a replayed record's ruleset was read"
        entries = {entry.number: entry for entry in record.turns}
        setup: dict[str, object] = {**record.setup, "events": []}
        turns = []
        for number, events in self.turn_events:
            if not number:
                setup["events"] = [event_json(e) for e in events]
                continue
            entry = entries[number]
            turns.append(
                {
                    "turn": number,
                    "player": entry.player,
                    "line": entry.line,
                    "placements": record.tokens(entry),
                    "events": [event_json(e) for e in events],
                }
            )
        return {
            "ruleset": ruleset.id,
            "players": record.players,
            "setup": setup,
            "turns": turns,
            "position": self.position_json(),
        }

    def log_lines(self) -> list[str]:
        """The record's heading and setup, then the event log: each turn's player and placements, its
        events below."""
        record, ruleset = self.record, self.record.ruleset
        assert ruleset is not None, "a replayed record's ruleset was read"
        setup = record.setup
        lines = [
            f"{record.file}: {ruleset.id}, players {', '.join(record.players)}",
            f"setup: start merchant {setup['merchant']}"
            + (f", well {setup['well']}" if setup["well"] else ""),
            "",
        ]
        entries = {entry.number: entry for entry in record.turns}
        width = max(len(p) for p in record.players)
        for number, events in self.turn_events:
            if number:
                entry = entries[number]
                lines.append(
                    f"{number:>4}  {entry.player:<{width}}  {', '.join(record.tokens(entry))}"
                )
            lines += [f"{'':>4}  {'':<{width}}    * {event}" for event in events]
        return lines

    def standing(self) -> str:
        """Where the replay ends, in a sentence: at an illegal turn, with the game over, or who is to make
        which placement."""
        if self.stopped_at is not None:
            return f"Replay stopped at turn {self.stopped_at.turn}: {self.stopped_at.message}"
        game, next_placement = self._played, self.next_placement()
        if next_placement is None:  # the game is over
            return "The game is over."
        if self.in_progress:
            turn, placement = next_placement
            return f"{game.to_move} is to make the {ordinal(placement)} placement of turn {turn}."
        return f"{game.to_move} is to move."

    @property
    def finished(self) -> bool:
        """Did the replay reach the end of the game (every turn asked for replayed legally, and nobody
        can place)? A wrong claimed `result` does not change it."""
        return (
            self.game is not None and self.game.is_over() and self.turns_played == self.turns_asked
        )


def replay_document(file: str, outcome: Replay | None = None) -> dict:
    """The medina-replay/1 document of `outcome` (without `errors` and `warnings`) for the record `file`;
    without `outcome`, as far as it is known before the replay (what an error leaves it at)."""
    doc: dict[str, object] = {
        "format": "medina-replay/1",
        "file": file,
        "ruleset": None,
        "players": [],
        "setup": None,
        "turns": [],
        "position": None,
    }
    return doc if outcome is None else {**doc, **outcome.to_json()}


def event_json(event) -> dict:
    """An event as JSON: its kind, player and sentence, then whatever fields its kind has."""
    extra = {
        f.name: getattr(event, f.name)
        for f in fields(event)
        if f.name not in ("kind", "player", "text")
    }
    return {"kind": event.kind, "player": event.player, "text": event.text, **extra}


def replay(
    record: Record,
    *,
    to_turn: int | None = None,
    check_result: bool = True,
    keep_positions: bool = False,
) -> Replay:
    """Play `record` (through its first `to_turn` entries, if given) and collect what goes wrong.
    `keep_positions`: keep a copy of the game after the setup and after each turn replayed in full (the
    same copy again after a pass)."""
    if not record.playable:
        return Replay(record, None, warnings=[w for w in (record.well_set_aside,) if w])
    game = record.start_game()
    stop = len(record.turns) if to_turn is None else min(to_turn, len(record.turns))
    result = Replay(
        record,
        game,
        turns_asked=stop,
        turn_events=[(0, list(game.events))],
        warnings=[w for w in (record.well_set_aside,) if w],
    )
    if keep_positions:
        result.positions.append(game.copy())
    for entry in record.turns[:stop]:
        before, made = len(game.events), game.placements_made
        if not entry.readable:  # its own problem is already reported; the rest cannot be trusted
            result.stopped_at = next(
                (p for p in record.problems.errors if p.turn == entry.number), None
            )
            if (
                entry.read_before_problem
            ):  # the placements before the one that cannot be read, as for an illegal one
                read = replace(entry, actions=entry.actions[: entry.read_before_problem])
                problem = _play_turn(game, record, read, may_stop_early=True)
                result.turn_events.append((entry.number, game.events[before:]))
                result.partial = game.placements_made - made
                if problem is not None:
                    result.errors.append(problem)
                    result.stopped_at = problem
            break
        problem = _play_turn(game, record, entry, may_stop_early=entry.number == len(record.turns))
        result.turn_events.append((entry.number, game.events[before:]))
        if problem is not None:
            result.errors.append(problem)
            result.stopped_at = problem
            result.partial = game.placements_made - made
            break
        result.turns_played = entry.number
        if (
            keep_positions
        ):  # a pass changes nothing: its position is the one before, shared, not copied
            result.positions.append(
                result.positions[-1] if entry.actions[0] == PASS_PLACEMENT else game.copy()
            )
        if game.turn_open():  # only the record's last entry may leave its turn open
            result.in_progress = True
            result.warnings.append(
                _problem(
                    record,
                    entry,
                    "turn-in-progress",
                    f"the turn is in progress: {game.turn_made} of "
                    f"its {game.turn_slots} placements made{' (a roof is still due)' if game.forced else ''}",
                )
            )
    if to_turn is None and not result.errors and not record.problems.errors:
        _finish_checks(result, game, check_result)
    return result


def _problem(record, entry, code, message, placement=None) -> Problem:
    return Problem(
        code,
        message,
        file=record.file,
        line=entry.line,
        turn=entry.number,
        placement=placement,
        player=entry.player,
    )


def _play_turn(game: Game, record: Record, entry, may_stop_early: bool) -> Problem | None:
    """Play one entry; None when it is legal. `may_stop_early`: the entry may leave its turn open."""
    player = entry.player
    if entry.actions[0] == PASS_PLACEMENT:  # truthful after the game's end too: nobody can place
        if game.can_place(record.players.index(player)):
            return _problem(
                record, entry, "pass-while-able", f"{player} passes but has a legal placement"
            )
        return None
    if game.is_over():
        return _problem(
            record, entry, "game-over", "the game had already ended (nobody could place anything)"
        )
    if player != game.to_move:
        return _problem(
            record, entry, "out-of-turn", f"it is {game.to_move}'s turn, not {player}'s"
        )
    slots = game.turn_slots
    for k, action in enumerate(entry.actions, 1):
        if k > 1 and not game.turn_open():  # the entry's turn ended with its previous placement
            return _problem(record, entry, "too-many-placements", _turn_over(game, slots, k - 1), k)
        try:
            game.push(action)
        except IllegalPlacement as exc:
            return _problem(record, entry, exc.code, exc.message, k)
    if game.turn_open() and not may_stop_early:
        if game.forced:
            return _problem(
                record,
                entry,
                "forced-roof",
                f"{entry.player} had to place one of his roofs this turn",
            )
        seat = game.seat_to_move
        assert seat is not None, "the turn is open: someone is to move"
        if not game.can_place(seat):
            return _problem(
                record,
                entry,
                "too-few-placements",
                f"{entry.player} placed {game.turn_placed} piece{'s' if game.turn_placed != 1 else ''} and "
                "holds a tea tile: under this ruleset the turn goes on and the tile must be used",
            )
        return _problem(
            record,
            entry,
            "too-few-placements",
            f"{entry.player} placed {game.turn_placed} piece{'s' if game.turn_placed != 1 else ''} "
            f"but could still place; a turn has {game.turn_slots} placements unless none is left",
        )
    return None


def _turn_over(game: Game, slots: int, done: int) -> str:
    """Why the turn had already ended after `done` actions."""
    if slots < game.rules.turns.placements:
        single = game.rules.turns.opening_single
        turns = "turn of the game has" if single == 1 else f"{single} turns of the game have"
        return (
            f"the turn was over after {done}: in this edition the first {turns} a single placement"
        )
    if done < slots:
        return f"the turn was over after {done}: nothing else could be placed"
    tea = " (a tea tile may replace one of them)" if game.rules.tea.colour else ""
    return f"a turn has {slots} placements{tea}, and this is one more"


def _finish_checks(result: Replay, game: Game, check_result: bool) -> None:
    record = result.record
    if not game.is_over():
        result.warnings.append(
            Problem(
                "unfinished",
                f"the record stops before the game ends ({game.to_move} could still place)",
                file=record.file,
            )
        )
        if record.result is not None:
            result.warnings.append(
                Problem(
                    "result-unchecked",
                    "`result` is not checked: the game is unfinished",
                    file=record.file,
                )
            )
        return
    if record.result and record.other_rules:
        result.warnings.append(
            Problem(
                "result-unchecked",
                f"`result` is not checked: it was claimed under the "
                f"record's own ruleset, and the record is played {record.other_rules}",
                file=record.file,
            )
        )
    elif check_result and record.result:
        totals = score_game(game).totals
        for name, claimed in record.result.items():
            if totals[name] != claimed:
                result.result_errors.append(
                    Problem(
                        "result-mismatch",
                        f"result claims {claimed} for {name}, the replay scores {totals[name]}",
                        file=record.file,
                        line=record.result_lines.get(name),
                        player=name,
                    )
                )
