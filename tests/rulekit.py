"""Helpers for the rule tests: build a position placement by placement, then probe it.

A `Position` plays tokens through the engine for whoever is to move and remembers them as record
turns, so a probe can ask the engine (`legal`) and the record replay (`reject`) about one more token.
"""

from __future__ import annotations

from dataclasses import dataclass

from conftest import record_text, replay_text

from medina_cli.engine.board import geometry_for
from medina_cli.engine.game import Game
from medina_cli.engine.placement import IllegalPlacement
from medina_cli.engine.variant import Variant
from medina_cli.rules.loader import load_ruleset

NAMES = ("Anna", "Ben", "Cleo", "Dan")
WELL = "N10"  # off the edge row on both 2014 boards, out of the way of most tests


class Position:
    """A game built from turns such as "Anna: grey C3, roof C3" (a name prefix must start a turn)."""

    def __init__(
        self,
        ruleset: str,
        players: int = 3,
        *turns: str,
        merchant: str = "J7",
        well: str | None = None,
        sets: tuple[str, ...] = (),
    ):
        self.ruleset, self.sets = ruleset, tuple(sets)
        self.rules = load_ruleset(ruleset, self.sets).for_players(players)
        self.geo = geometry_for(self.rules)
        self.pieces = Variant.of(self.rules).spellings
        self.merchant = merchant
        self.well = (well or WELL) if self.rules.well.enabled else None
        self.game = Game(self.rules, list(NAMES[:players]), merchant, self.well)
        self.turns: list[tuple[str, list[str]]] = []
        self.play(*turns)

    # --- building ------------------------------------------------------------------------------
    def play(self, *turns: str) -> Position:
        for text in turns:
            who, _, tokens = text.rpartition(":")
            if who:
                assert not self.game.turn_open(), f"{text!r}: the previous turn is not over"
                assert self.mover == who.strip(), f"{text!r}: {self.mover} is to move"
            for token in tokens.split(","):
                self._play_token(token.strip())
        return self

    def _play_token(self, token: str) -> None:
        game = self.game
        assert game.to_move is not None, f"{token!r}: the game is over"
        if not game.turn_open():
            self.turns.append((self.mover, []))
        if token == "tea":
            game.push("tea")
        else:
            game.push(token)
        self.turns[-1][1].append(token)

    def until(self, name: str) -> Position:
        """Fill with walls (the lowest legal ring cell each time) until `name` starts a turn."""
        while self.game.turn_open() or self.mover != name:
            cells = dict(self.game.legal_masks())["wall"]
            self._play_token(f"wall {self.geo.name((cells & -cells).bit_length() - 1)}")
        return self

    def at(self, cell: str):
        """The palace with a building or stable on `cell`."""
        return self.game.palace_of(cell)

    def parse(self, token: str) -> tuple[str, int]:
        piece, cell = token.split()
        return self.pieces[piece.lower()], self.geo.parse(cell)

    # --- probing -------------------------------------------------------------------------------
    @property
    def mover(self) -> str | None:
        return self.game.to_move

    def legal(self, token: str) -> bool:
        """Is `token` legal now? The generator and the validator must agree."""
        if token == "tea":
            return self.game.can_tea()
        piece, cell = self.parse(token)
        generated = any(p == piece and (cells >> cell) & 1 for p, cells in self.game.legal_masks())
        trial = self.game.copy()
        try:
            trial.push(token)
            accepted = True
        except IllegalPlacement:
            accepted = False
        assert accepted == generated, token
        return generated

    def moves(self, piece: str) -> set[str]:
        """Names of the cells where `piece` is legal now."""
        return {
            self.geo.name(c)
            for p, cells in self.game.legal_masks()
            if p == piece
            for c in range(self.geo.size)
            if (cells >> c) & 1
        }

    def record(self, *extra_turns: str) -> str:
        turns = [f"{name}: {', '.join(tokens)}" for name, tokens in self.turns]
        return record_text(
            self.ruleset,
            list(self.game.players),
            turns + list(extra_turns),
            merchant=self.merchant,
            well=self.well,
        )

    def replay(self, *extra_turns: str):
        """Replay this position's record followed by raw turns ("Name: tokens")."""
        return replay_text(self.record(*extra_turns), overrides=self.sets)[1]

    def errors_after(self, *extra_turns: str) -> list:
        return self.replay(*extra_turns).problems

    def problem(self, *extra_turns: str) -> tuple:
        """The one problem of the record continued by raw turns: (code, turn, placement, player)."""
        problems = self.errors_after(*extra_turns)
        assert len(problems) == 1, [p.human() for p in problems]
        p = problems[0]
        return p.code, p.turn, p.placement, p.player

    def reject(self, token: str) -> str:
        """`token` by the player to move is illegal: the engine says so, and the record replay
        reports exactly one error, at this token, with its line, turn and player. Returns the code."""
        assert self.game.to_move is None or not self.legal(token), f"{token!r} is legal"
        name = self.mover or self.turns[-1][0]
        turns = [f"{n}: {', '.join(tokens)}" for n, tokens in self.turns]
        if self.game.turn_open():
            turns[-1] += f", {token}"
            placement = len(self.turns[-1][1]) + 1
        else:
            turns.append(f"{name}: {token}")
            placement = 1 if self.game.to_move is not None else None
        text = record_text(
            self.ruleset, list(self.game.players), turns, merchant=self.merchant, well=self.well
        )
        errors = replay_text(text, overrides=self.sets)[1].problems
        assert len(errors) == 1, [e.human() for e in errors]
        error = errors[0]
        lines = text.splitlines()
        assert (error.turn, error.placement, error.player) == (len(turns), placement, name), (
            error.human()
        )
        assert lines[error.line - 1] == f"  - {turns[-1]}", error.human()
        return error.code


def supplies(players: int, **counts: int) -> tuple[str, ...]:
    """--set overrides giving every player exactly these pieces (all others none)."""
    keys = ("per_colour", "roofs", "neutral_roofs", "stables", "merchants", "walls")
    return tuple(f"supply.{players}.{key}={counts.get(key, 0)}" for key in keys)


@dataclass(frozen=True)
class Scenario:
    """A fixed opening (3 players) that several tests continue from."""

    turns: tuple[str, ...]
    merchant: str
    sets: tuple[str, ...]

    def position(self, ruleset: str = "original-2001", sets: tuple[str, ...] = ()) -> Position:
        return Position(ruleset, 3, *self.turns, merchant=self.merchant, sets=self.sets + sets)


# grey B2 is blocked: B3 lies next to orange C4, C2 next to brown D2 (blocked, and still unroofed)
BLOCKED_GREY_B2 = "grey B2, orange C4, brown D2"

# 2001 with small supplies: every palace is roofed; Ben holds two roofs and a stable, so after the
# stable nothing is legal for him
STUCK_AFTER_ONE = Scenario(
    (
        "Anna: brown Q3, grey B6",
        "Ben: black O12, orange M5",
        "Cleo: stable M4, grey B5",
        "Anna: black P12, stable L5",
        "Ben: brown Q4, grey B7",
        "Cleo: roof B5, roof P12",
        "Anna: roof Q4, roof M5",
    ),
    "L3",
    supplies(3, per_colour=1, roofs=2, stables=1),
)

# 2001 with small supplies: every palace is roofed; Ben holds only roofs (he cannot place anything),
# Anna one roof, Cleo black, orange and a roof
BEN_STUCK = Scenario(
    (
        "Anna: grey P9, orange Q12",
        "Ben: black H2, brown K7",
        "Cleo: grey P8, brown K6",
        "Anna: brown L7, roof L7",
        "Ben: grey Q8, orange Q11",
        "Cleo: roof P8, roof Q11",
        "Anna: black G2, roof H2",
    ),
    "I8",
    supplies(3, per_colour=1, roofs=3),
)
