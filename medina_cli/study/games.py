"""One game of a study: its seed, who plays each seat, and the compact result a worker sends back.

Game `i` of a study with seed `s` is played from its own generator seeded by (s, i), so a study
gives the same games whatever runs them (one process, local workers, a cluster) and every ruleset
of a comparison plays the same seeds.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..engine import native
from ..engine.board import parse_square, square_name
from ..engine.game import Game
from ..engine.placement import Placement
from ..engine.playout import TEA_CHANCE, play, play_out, random_placement, random_setup
from ..engine.scoring import score_game
from ..records.model import write_record

SOURCES = ("palace pieces", "merchants", "walls", "palace tiles", "tower tiles", "well")
COUNTED_EVENTS = {"pass": "passes", "retire": "colour retirements", "forced-roof": "forced roofs"}
PER_GAME = ("tile transfers", *COUNTED_EVENTS.values())
RANDOM = "random"  # the seat player of uniform random play


@dataclass
class GameSummary:
    """What one finished game contributes to the statistics (small: workers send it back)."""

    totals: list[int]  # by seat
    winners: list[int]  # seats
    points: dict[str, int]  # SOURCES -> points, all players together
    turns: int
    placements: int
    counts: dict[str, int]  # PER_GAME -> how often it happened
    agents: list[str] = field(
        default_factory=list
    )  # the agent spec of each seat (empty: uniform random play)

    def to_json(self) -> dict:
        doc = {
            "totals": self.totals,
            "winners": self.winners,
            "points": self.points,
            "turns": self.turns,
            "placements": self.placements,
            "counts": self.counts,
        }
        return doc | ({"agents": self.agents} if self.agents else {})

    @classmethod
    def from_json(cls, doc) -> GameSummary:
        """The summary `to_json` wrote; ValueError for anything else (a key missing or unknown, a value
        of another type, a number below 0)."""
        if not isinstance(doc, dict) or not set(KEYS) <= set(doc) <= {*KEYS, "agents"}:
            raise ValueError("not a game's statistics")
        totals, winners, agents = doc["totals"], doc["winners"], doc.get("agents", [])
        if not (
            _counts(totals)
            and _counts(winners)
            and _counts([doc["turns"], doc["placements"]])
            and _tally(doc["points"], SOURCES)
            and _tally(doc["counts"], PER_GAME)
            and isinstance(agents, list)
            and all(isinstance(a, str) for a in agents)
        ):
            raise ValueError("not a game's statistics")
        return cls(
            totals, winners, doc["points"], doc["turns"], doc["placements"], doc["counts"], agents
        )


KEYS = (
    "totals",
    "winners",
    "points",
    "turns",
    "placements",
    "counts",
)  # of a summary's JSON, with "agents"


def _counts(values) -> bool:
    """Whether `values` is a list of whole numbers, none below 0."""
    return isinstance(values, list) and all(type(v) is int and v >= 0 for v in values)


def _tally(values, names) -> bool:
    """Whether `values` maps exactly `names` to whole numbers, none below 0."""
    return isinstance(values, dict) and set(values) == set(names) and _counts(list(values.values()))


def check_of(summary: dict, record: bytes) -> str:
    """The digest that ties a game's statistics (their JSON, without the digest) to its record in a folder
    of the first layout (folder.py): the SHA-256 of the statistics as compact JSON with sorted keys, a
    line break, and the record's bytes."""
    return hashlib.sha256(
        json.dumps(summary, sort_keys=True, separators=(",", ":")).encode() + b"\n" + record
    ).hexdigest()


def player_names(count: int) -> list[str]:
    return [f"P{seat}" for seat in range(1, count + 1)]


def game_rng(seed: int, index: int) -> random.Random:
    """The generator of game `index` (0-based) of a study with `seed`."""
    return native.generator(f"medina-simulate/{seed}/{index}")


def seat_chooser(spec: str, rng: random.Random, seed: str):
    """The player a seat spec names, as choose(game) -> Placement: `random` draws from the game's
    generator `rng` (as a study without agents plays), any other agent is seeded by `seed`. Raises
    UnknownAgent (a ValueError) for a spec that names no agent."""
    if spec == RANDOM:
        return lambda game: random_placement(game, rng)
    from ..agents import make_agent

    return make_agent(spec, seed).choose


def agents_engine(seats: Iterable[str]) -> str | None:
    """The engine an agent-made document records, "native" or "python" (`native.engine_name`), where a
    seat of `seats` is an agent other than `random`; None where every seat plays at random. The searches
    (mcts, alphabeta) play differently on the two engines; greedy plays the same on both, but every agent
    is recorded alike so that the rule does not change as the agents do."""
    return native.engine_name() if any(spec != RANDOM for spec in seats) else None


def seat_order(seats: tuple[str, ...], index: int) -> list[str]:
    """Who plays each seat in game `index`: the specs rotate one seat per game, so that over a
    multiple of the player count every agent plays every seat equally often."""
    return [seats[(seat + index) % len(seats)] for seat in range(len(seats))]


@dataclass(frozen=True)
class Moves:
    """What a game's record holds beyond its summary: the setup (squares) and each turn's seat and tokens."""

    merchant: int
    well: int | None
    turns: list[tuple[int, list[str]]]

    def to_json(self) -> dict:
        """{"setup": {"merchant", "well"}, "turns": ["SEAT TOKEN, TOKEN", ...]} (a turn as one string: quicker
        to write than a list per turn)."""
        return {
            "setup": {
                "merchant": square_name(self.merchant),
                "well": None if self.well is None else square_name(self.well),
            },
            "turns": [f"{seat} {', '.join(tokens)}" for seat, tokens in self.turns],
        }

    @classmethod
    def from_json(cls, doc, players: int) -> Moves:
        """The moves `to_json` wrote for a game of `players`; ValueError for anything else."""
        setup = doc.get("setup") if isinstance(doc, dict) else None
        turns = doc.get("turns") if isinstance(doc, dict) else None
        if not (
            isinstance(setup, dict)
            and set(setup) == {"merchant", "well"}
            and isinstance(turns, list)
            and all(isinstance(turn, str) for turn in turns)
        ):
            raise ValueError("not a game's moves")
        merchant, well = (
            parse_square(v) if isinstance(v, str) else None
            for v in (setup["merchant"], setup["well"])
        )
        split = [turn.partition(" ") for turn in turns]
        if (
            merchant is None
            or (well is None) != (setup["well"] is None)
            or not all(
                seat.isascii() and seat.isdigit() and int(seat) < players and tokens
                for seat, _, tokens in split
            )
        ):
            raise ValueError("not a game's moves")
        return cls(merchant, well, [(int(seat), tokens.split(", ")) for seat, _, tokens in split])


def play_one(
    rules, seed: int, index: int, *, seats: tuple[str, ...] = (), record_ref: str | None = None
) -> tuple[GameSummary, str | None]:
    """Play game `index` of the study (`play_game`); with `record_ref` (how the record names its ruleset)
    also its record/1 text."""
    summary, moves = play_game(rules, seed, index, seats=seats, moves=record_ref is not None)
    if record_ref is None or moves is None:
        return summary, None
    return summary, record_text(moves, summary, record_ref, seed, index)


def play_game(
    rules, seed: int, index: int, *, seats: tuple[str, ...] = (), moves: bool = False
) -> tuple[GameSummary, Moves | None]:
    """Play game `index` of the study: `seats` names the player of each seat, rotated by `index`
    (`seat_order`; empty: uniform random play throughout); with `moves` also its Moves."""
    rng = game_rng(seed, index)
    setup = random_setup(rules, rng)
    if not seats:  # in one call into the native core, where it runs
        played = native.play_random(rules, setup, rng, tea_chance=TEA_CHANCE, turns=moves)
        if played is not None:
            state, turns = played
            return native_summary(state), None if turns is None else Moves(*setup, turns)
    order = seat_order(seats, index) if seats else []
    if seats:
        game = play_seats(
            rules,
            setup,
            [seat_chooser(spec, rng, f"{seed}/{index}/{seat}") for seat, spec in enumerate(order)],
        )
    else:
        game = Game(rules, player_names(rules.players), *setup)
        play_out(game, rng)
    summary = summarize(game, len(game.turns()))
    summary.agents = order
    if not moves:
        return summary, None
    return summary, Moves(
        *setup,
        [
            (game.players.index(player), [str(p) for p in placements])
            for player, placements in game.turns()
        ],
    )


def play_seats(
    rules, setup: tuple[int, int | None], choosers: list[Callable[[Game], Placement]]
) -> Game:
    """A game from `setup` (start merchant, well as squares) played to its end, each placement chosen
    by `choosers[seat](game)` for the seat to move."""
    game = Game(rules, player_names(rules.players), *setup)

    def choose(game: Game) -> Placement:
        seat = game.seat_to_move
        assert seat is not None  # play() asks only while someone is to move
        return choosers[seat](game)

    play(game, choose)
    return game


def record_text(moves: Moves, summary: GameSummary, record_ref: str, seed: int, index: int) -> str:
    """Game `index` of a study with `seed` as record/1 text, with its result; `record_ref` names its ruleset."""
    players = player_names(len(summary.totals))
    return write_record(
        ruleset_ref=record_ref,
        players=players,
        merchant=moves.merchant,
        well=moves.well,
        turns=[(players[seat], tokens) for seat, tokens in moves.turns],
        result=dict(zip(players, summary.totals, strict=True)),
        meta=_meta(seed, index),
    )


def _meta(seed: int, index: int) -> dict:
    return {"event": f"medina simulate, seed {seed}, game {index + 1}"}


def native_summary(state) -> GameSummary:
    """`summarize` of a game the native core played (its counts are the events `summarize` counts)."""
    totals, winners, points, counts, turns, placements = state.summary()
    return GameSummary(
        totals,
        winners,
        dict(zip(SOURCES, points, strict=True)),
        turns,
        placements,
        dict(zip(PER_GAME, counts, strict=True)),
    )


def summarize(game, turns: int) -> GameSummary:
    """The statistics of a finished game: its score sheet and what its events count."""
    sheet = score_game(game)
    colour_value = {c.name: c.value for c in game.rules.colours}
    points = dict.fromkeys(SOURCES, 0)
    for player in sheet.players:
        for palace in player.palaces:
            points["palace pieces"] += palace.buildings + palace.stables
            points["merchants"] += palace.merchants
            points["walls"] += palace.walls
            points["well"] += palace.well
        points["palace tiles"] += sum(colour_value[c] for c in player.palace_tiles)
        points["tower tiles"] += sum(player.tower_tiles)
    counts = dict.fromkeys(PER_GAME, 0)
    for event in game.events:
        if event.kind in COUNTED_EVENTS:
            counts[COUNTED_EVENTS[event.kind]] += 1
        elif event.kind in ("palace-tile", "tower-tile") and event.previous is not None:
            counts["tile transfers"] += 1  # a tile somebody already held
    return GameSummary(
        [p.total for p in sheet.players],
        [game.players.index(w) for w in sheet.winners],
        points,
        turns,
        game.placements_made,
        counts,
    )
