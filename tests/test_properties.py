"""Property tests: random complete legal games (engine.playout) for every ruleset and player count,
the boardspace profiles included, with the invariants of docs/rulings.md checked after every placement,
the generator checked against the validator, `explain` and the reference oracle (tests/oracle.py)
at sampled positions, and a record round trip at the end of each game. Every random choice is drawn
by hypothesis (random play gets a `random.Random` of its, `st.randoms(use_true_random=False)`), so a failing
game shrinks to a short, simple one."""

from __future__ import annotations

import random

import oracle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from medina_cli.engine.board import bits, geometry_for
from medina_cli.engine.explain import explain
from medina_cli.engine.game import NEUTRAL
from medina_cli.engine.playout import play_random_game
from medina_cli.engine.scoring import score_game
from medina_cli.errors import CODES
from medina_cli.records.model import game_record
from medina_cli.records.record import parse_record
from medina_cli.records.replay import replay
from medina_cli.rules.loader import builtin_ids, load_ruleset

COMBOS = [
    ("original-2001", 3),
    ("original-2001", 4),
    ("bsw-dm-2003", 3),
    ("bsw-dm-2003", 4),
    ("second-edition-2014", 2),
    ("second-edition-2014", 3),
    ("second-edition-2014", 4),
]
PROFILE_COMBOS = [
    (ruleset, players)
    for ruleset in builtin_ids()
    if ruleset.startswith("boardspace-")
    for players in load_ruleset(ruleset).player_counts
]
NAMES = ["Anna", "Ben", "Cleo", "Dan"]
HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large]
GAMES = settings(
    max_examples=75, deadline=None, derandomize=True, database=None, suppress_health_check=HEALTH
)
TEA = st.sampled_from([0.0, 0.5, 1.0])


# random play's every answer (randrange, random, sample) drawn by hypothesis, as a choice it shrinks
DRAWN_RANDOM = st.randoms(use_true_random=False)


def board_counts(game) -> dict:
    """How many pieces of each kind lie on the board (the start merchant is nobody's)."""
    counts = {colour: mask.bit_count() for colour, mask in game._buildings.items()}
    counts["roof"] = sum(1 for p in game.palaces if p.owner is not None and p.owner != NEUTRAL)
    counts["neutral"] = sum(1 for p in game.palaces if p.owner == NEUTRAL)
    counts["stable"] = game._stables.bit_count()
    counts["merchant"] = game.merchants.bit_count() - 1
    counts["wall"] = game.walls.bit_count()
    return counts


def xy(geo, cell: int) -> tuple[int, int]:
    return cell % geo.width, cell // geo.width


def cells_of(geo, mask) -> set:
    return {xy(geo, c) for c in bits(mask)}


def placements_of(geo, masks) -> set:
    return {(piece, xy(geo, c)) for piece, mask in masks for c in bits(mask)}


class Watcher:
    """Called after every placement of one game: checks the invariants against the previous position."""

    def __init__(self, rules, players: int, generator_at: set[int], oracle_at: set[int]):
        self.rules, self.players, self.generator_at, self.oracle_at = (
            rules,
            players,
            generator_at,
            oracle_at,
        )
        start = {
            **dict.fromkeys(rules.colour_names, rules.supply.per_colour),
            "roof": rules.supply.roofs,
            "neutral": rules.supply.neutral_roofs,
            "stable": rules.supply.stables,
            "merchant": rules.supply.merchants,
            "wall": rules.supply.walls,
        }
        self.initial = {kind: players * start[kind] for kind in start}
        self.supplies = [dict(start) for _ in range(players)]
        self.counts = dict.fromkeys(start, 0)
        self.mover = 0
        self.walls = 0
        self.tower_holders: dict = {}
        self.retired: list = []
        self.discarded = dict.fromkeys(start, 0)
        self.gained_merchants = 0
        self.tea_could_end_turn = False
        self.merchants = 0  # set by the first call: the start merchant is the only one before it
        self.last_merchant = None
        self.checked = 0
        self.palace_pieces: dict = {}  # palace id -> its pieces when last checked
        self.palace_holders: dict = {}
        self.events_seen = 0
        geo = geometry_for(rules)
        w, h = geo.width, geo.height
        self.sides = [sum(1 << (y * w + x) for x in range(1, w - 1)) for y in (0, h - 1)]
        self.sides += [sum(1 << (y * w + x) for y in range(1, h - 1)) for x in (0, w - 1)]

    def __call__(self, game) -> None:
        counts = board_counts(game)
        placed = [kind for kind in counts if counts[kind] != self.counts[kind]]
        assert len(placed) == 1 and counts[placed[0]] == self.counts[placed[0]] + 1, (
            placed,
            counts,
        )
        self._supplies(game, placed[0], counts)
        self._board(game)
        self._merchants(game)
        self._walls(game)
        self._roofs(game)
        self._tiles(game)
        if game.seat_to_move is not None:
            if game.placements_made in self.generator_at:
                check_generator(game)
            if game.placements_made in self.oracle_at:
                self.checked += 1
                events = game.events[self.events_seen :]
                # (after a tea tile some skips may belong to the position before this placement)
                skipped = (
                    []
                    if any(e.kind == "tea" for e in events)
                    else [e.player for e in events if e.kind == "pass"]
                )
                check_oracle(game, self.last_merchant, skipped)
        self.counts, self.mover, self.walls, self.merchants = (
            counts,
            game.seat_to_move,
            game.walls,
            game.merchants,
        )
        self.tower_holders = {t: p.owner for t, p in game.tower_tile.items() if p is not None}
        self.retired = list(game.retired)
        self.events_seen = len(game.events)

    # --- invariants ----------------------------------------------------------------------------
    def _supplies(self, game, kind, counts):
        """Piece conservation: exactly the mover's piece left his supply; retired colours leave
        every supply; a tower tile's first holder gains its merchants."""
        movers = [self.mover]
        if self.tea_could_end_turn:  # the mover may have ended his turn with a tea tile unseen
            movers += [seat for seat in range(self.players) if seat != self.mover]
        for mover in movers:
            expected, discarded, gained = self._expected_supplies(game, kind, mover)
            if game.supply == expected:
                break
        assert game.supply == expected
        self.discarded, self.gained_merchants = discarded, gained
        assert all(v >= 0 for s in game.supply for v in s.values())
        for piece, initial in self.initial.items():
            extra = self.gained_merchants if piece == "merchant" else 0
            total = sum(s[piece] for s in game.supply) + counts[piece] + self.discarded[piece]
            assert total == initial + extra, piece
        self.supplies = [dict(s) for s in game.supply]
        self.tea_could_end_turn = bool(
            game.seat_to_move is not None
            and game.turn_placed
            and not game.tea_used
            and game.tea[game.seat_to_move]
        )

    def _expected_supplies(self, game, kind, mover):
        expected = [dict(s) for s in self.supplies]
        discarded, gained = dict(self.discarded), self.gained_merchants
        expected[mover][kind] -= 1
        for colour in game.retired:
            if colour not in self.retired:
                discarded[colour] += sum(s[colour] for s in expected)
                for s in expected:
                    s[colour] = 0
        for tower, palace in game.tower_tile.items():
            if palace is not None and tower not in self.tower_holders and palace.owner != NEUTRAL:
                expected[palace.owner]["merchant"] += self.rules.towers.merchants.get(tower, 0)
                gained += self.rules.towers.merchants.get(tower, 0)
        return expected, discarded, gained

    def _board(self, game):
        """Every building and stable in exactly one palace; nothing outside its squares."""
        geo = game.variant.geometry
        all_buildings = 0
        for mask in game._buildings.values():
            assert not mask & all_buildings
            all_buildings |= mask
        pieces = all_buildings | game._stables
        assert not (pieces | game.merchants) & ~geo.interior and not game.walls & ~geo.ring
        if game.well is not None:
            assert not pieces & game._well_zone
        covered = 0
        for palace in game.palaces:
            assert not covered & palace.pieces
            covered |= palace.pieces
            if (
                self.palace_pieces.get(palace.id) != palace.pieces
            ):  # only a palace that grew can break
                self._palace(game, palace, pieces)
                self.palace_pieces[palace.id] = palace.pieces
        assert covered == pieces

    @staticmethod
    def _palace(game, palace, pieces):
        """One colour, orthogonally connected and maximal, stables attached, spaced from the rest."""
        geo = game.variant.geometry
        colour_mask = game._buildings[palace.colour]
        assert palace.buildings and palace.buildings & ~colour_mask == 0
        assert not geo.orth(palace.buildings) & colour_mask & ~palace.buildings
        group = palace.buildings & -palace.buildings
        while True:
            grown = group | (geo.orth(group) & palace.buildings)
            if grown == group:
                break
            group = grown
        assert group == palace.buildings
        for stable in bits(palace.stables):
            assert geo.orth_of[stable] & palace.buildings
        assert not geo.king(palace.pieces) & pieces & ~palace.pieces

    def _merchants(self, game):
        """A new merchant touched at most one merchant (a new chain's first: at most the ruleset's
        `new_chain_max_neighbours`); without such chains no merchant ever has three neighbours."""
        geo = game.variant.geometry
        joins = self.rules.merchants.new_chain_max_neighbours
        before = self.merchants or 1 << game._start_merchant
        if self.last_merchant is None:
            self.last_merchant = game._start_merchant
        new = game.merchants & ~before
        if new:
            self.last_merchant = new.bit_length() - 1
            assert (geo.orth(new) & before).bit_count() <= max(1, joins)
        for merchant in bits(game.merchants if not joins else 0):
            assert (geo.orth_of[merchant] & game.merchants).bit_count() <= 2

    def _walls(self, game):
        """Each new wall continued exactly one run; every side keeps a gate."""
        geo = game.variant.geometry
        new = game.walls & ~self.walls
        if new:
            anchors = self.walls | geo.towers
            assert (geo.orth(new) & anchors).bit_count() == 1
        assert all(side & ~game.walls for side in self.sides)

    def _roofs(self, game):
        owned = [
            (p.owner, p.colour) for p in game.palaces if p.owner is not None and p.owner != NEUTRAL
        ]
        assert len(owned) == len(set(owned))
        assert all(
            game._owned[seat] == {c for o, c in owned if o == seat} for seat in range(self.players)
        )

    def _tiles(self, game):
        """A palace tile lies with a largest claimed palace and moves only to a strictly larger one."""
        for colour, holder in game.palace_tile.items():
            claimed = [p for p in game.palaces if p.colour == colour and p.owner is not None]
            if not claimed:
                assert holder is None
            else:
                assert holder in claimed and holder.size == max(p.size for p in claimed)
            before = self.palace_holders.get(colour)
            if before is not None and holder is not before:
                assert holder.size > before.size
        self.palace_holders = dict(game.palace_tile)
        assert set(self.retired) <= set(game.retired)


def check_generator(game, samples: int = 12) -> None:
    """Every generated placement is accepted by is_legal, every other cell is refused, and a refused
    placement is explained by a specific rule."""
    generated = dict(game.legal_masks())
    base = dict(game._piece_masks(game.seat_to_move))
    refused = []
    for piece in game.variant.pieces:
        mask = generated.get(piece, 0)
        for cell in range(game.variant.geometry.size):
            ok = game._is_legal(piece, cell)
            assert ok == bool((mask >> cell) & 1), (piece, game.variant.geometry.name(cell))
            if not ok and game.supply[game.seat_to_move][piece]:
                refused.append((piece, cell))
    rng = random.Random(game.placements_made)
    for piece, cell in rng.sample(refused, min(samples, len(refused))):
        code, message = explain(game, piece, cell)
        assert code in CODES and code != "not-legal", (
            piece,
            game.variant.geometry.name(cell),
            code,
            message,
        )
        if (base.get(piece, 0) >> cell) & 1:
            assert code == "forced-roof", (piece, game.variant.geometry.name(cell), code)


def check_oracle(game, last_merchant: int, skipped: list[str]) -> None:
    """The engine's generator agrees with the reference oracle for the player to move, and the
    players it has just skipped can indeed place nothing."""
    geo = game.variant.geometry
    board = oracle.Board.of(game, last_merchant)
    layout = oracle.Layout(board)
    engine_palaces = sorted(
        (sorted(cells_of(geo, p.buildings)), sorted(cells_of(geo, p.stables))) for p in game.palaces
    )
    assert engine_palaces == sorted(
        (sorted(p.buildings), sorted(p.stables)) for p in layout.palaces
    )
    retired = layout.retired()
    assert retired == set(game.retired)
    seat = game.seat_to_move
    moves = layout.legal(seat, retired)
    assert placements_of(geo, game._piece_masks(seat)) == moves
    if game.turn_placed == 0 and not game.tea_used:
        assert moves and game.forced == oracle.forced_at_turn_start(
            board, seat, game.turn_slots, retired
        )
    first = game.turn_placed == 0 and not game.tea_used and game.turn_slots > 1
    assert placements_of(geo, game.legal_masks()) == oracle.turn_legal(
        board, seat, moves, roof_due=game.forced, first=first
    )
    for name in skipped:
        assert not layout.legal(game.players.index(name), retired)


def round_trip(game, rules) -> None:
    """game_record -> parse_record -> replay gives the same position, scores and events."""
    text = game_record(game, rules.ruleset_id)
    outcome = replay(parse_record(text, "round-trip.yaml"))
    assert outcome.problems == [] and outcome.finished and outcome.warnings == []
    again = outcome.game
    assert again == game and score_game(again).to_json() == score_game(game).to_json()
    assert [(e.kind, e.text, e.player) for e in again.events] == [
        (e.kind, e.text, e.player) for e in game.events
    ]


def play_checked(
    ruleset: str,
    players: int,
    data,
    tea: float,
    *,
    oracle_everywhere: bool = False,
    sets: tuple = (),
):
    """Play one random game under the Watcher, its choices drawn from `data`; the generator and the
    oracle are consulted at a few drawn positions (the oracle at every position if asked).
    The game is played once to draw its choices, then again from the same answers under the Watcher:
    a game hypothesis gives up on while it is drawn (it may outgrow the choices it set aside for it)
    costs no checks."""
    rules = load_ruleset(ruleset, sets).for_players(players)
    rng = data.draw(DRAWN_RANDOM, label="random play")
    positions = data.draw(
        st.lists(st.integers(1, 119), min_size=3, max_size=3, unique=True), label="checked at"
    )
    oracle_at = set(range(1, 1000)) if oracle_everywhere else {positions[2]}
    if rules.merchants.new_chain_max_neighbours:
        oracle_at = set()  # the oracle knows only separate merchant chains
    watcher = Watcher(rules, players, set(positions[:2]), oracle_at)
    drawn_from = rng.getstate()
    drawn = play_random_game(rules, NAMES[:players], rng, tea_chance=tea)
    rng.setstate(drawn_from)  # the same answers again, drawn no more
    game = play_random_game(rules, NAMES[:players], rng, tea_chance=tea, on_placement=watcher)
    assert game.is_over() and game == drawn
    return game, rules, watcher


@pytest.mark.slow
@pytest.mark.parametrize("ruleset, players", COMBOS)
@GAMES
@given(data=st.data(), tea=TEA)
def test_random_games_keep_the_invariants(ruleset, players, data, tea):
    game, rules, _watcher = play_checked(ruleset, players, data, tea)
    round_trip(game, rules)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset, players", PROFILE_COMBOS)
@settings(
    max_examples=8, deadline=None, derandomize=True, database=None, suppress_health_check=HEALTH
)
@given(data=st.data(), tea=TEA)
def test_random_games_keep_the_invariants_under_the_boardspace_profiles(
    ruleset, players, data, tea
):
    game, rules, _watcher = play_checked(ruleset, players, data, tea)
    round_trip(game, rules)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset, players", COMBOS)
@settings(
    max_examples=3, deadline=None, derandomize=True, database=None, suppress_health_check=HEALTH
)
@given(data=st.data(), tea=TEA)
def test_generator_matches_the_oracle_at_every_position(ruleset, players, data, tea):
    game, _rules, watcher = play_checked(ruleset, players, data, tea, oracle_everywhere=True)
    assert watcher.checked >= game.placements_made - 1
    board = oracle.Board.of(game, watcher.last_merchant)
    assert not any(
        oracle.legal(board, seat) for seat in range(players)
    )  # the game ends when nobody can place


# small supplies make the 2001 forced roof (only one player can still place) frequent
SHORT_2001 = tuple(
    f"supply.3.{item}" for item in ("per_colour=2", "stables=2", "merchants=2", "walls=2")
)


@pytest.mark.slow
@settings(
    max_examples=25, deadline=None, derandomize=True, database=None, suppress_health_check=HEALTH
)
@given(data=st.data())
def test_forced_roofs_match_the_oracle_in_short_2001_games(data):
    game, _rules, watcher = play_checked(
        "original-2001", 3, data, 0.0, oracle_everywhere=True, sets=SHORT_2001
    )
    assert watcher.checked >= game.placements_made - 1
