"""The native core against the Python engine, its reference (the differential test).

Random legal games drawn by hypothesis (ruleset, overrides of any play parameter, player count, every
choice) are played through both engines side by side; after every placement the legal placements (and the
distinct ones), the whole observable position (supplies, tea, palaces and owners, tiles, tower
merchants, retirements, whose turn, forced roofs), the events counted by studies and the scores must
be identical. Every record of examples/, tests/fixtures and the shared boardspace corpus is replayed
through both the same way. The shared generator is checked against `random.Random` draw by draw.
Skipped where the native core was not built (MEDINA_ENGINE=python, or no C compiler).
A longer run, with fresh examples each time: MEDINA_NATIVE_EXAMPLES=N (the drawn tests take N each).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from conftest import BOARDSPACE_CORPUS, EXAMPLES, ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nativekit import assert_same

from medina_cli.engine import native
from medina_cli.engine.game import Game
from medina_cli.engine.playout import play_random_game, random_setup
from medina_cli.engine.scoring import score_game
from medina_cli.records.record import read_record
from medina_cli.records.replay import replay
from medina_cli.rules.loader import builtin_ids, load_ruleset

pytestmark = pytest.mark.skipif(
    native.core() is None,
    reason="the native core is not in use (not built, or MEDINA_ENGINE=python)",
)
HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
LONG_RUN = int(os.environ.get("MEDINA_NATIVE_EXAMPLES", "0"))


def drawn(examples: int, **kwargs):
    """The settings of a drawn test: `examples` the same ones every run, or MEDINA_NATIVE_EXAMPLES fresh ones."""
    return settings(
        max_examples=LONG_RUN or examples,
        derandomize=not LONG_RUN,
        deadline=None,
        database=None,
        **kwargs,
    )


NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eve", "Finn"]


def new_pair(rules, players: int, merchant: int, well, supply=None) -> tuple[Game, object]:
    """A game from a setup of squares on both engines (the native core's takes cells)."""
    names = NAMES[:players]
    game = Game(rules, names, merchant, well, supply=supply)
    state = native.start_state(
        rules, game.variant.geometry.parse(game.setup["merchant"]), game.well, supply, names
    )
    return game, state


# --- rulesets drawn with any value of any play parameter ----------------------------------------
def override_strategy(rules_data):
    """Overrides (PARAM, value) over every kind of play parameter, for a ruleset's resolved rules."""
    colours = list(rules_data.colour_names)
    n = rules_data.players
    small = st.integers(0, 3)
    return st.lists(
        st.one_of(
            st.tuples(st.just("turns.placements"), st.integers(1, 4)),
            st.tuples(st.just(f"turns.opening_single.{n}"), st.integers(0, 6)),
            st.tuples(
                st.just("turns.forced_roof"),
                st.sampled_from(
                    [
                        "off",
                        "only_player_who_can_place",
                        "only_player_with_roofs",
                        "only_player_with_pieces",
                    ]
                ),
            ),
            st.tuples(
                st.just("turns.forced_roof_check"),
                st.sampled_from(["turn_start", "after_first_placement"]),
            ),
            st.tuples(st.just("turns.neutral_spares_forced_roof"), st.booleans()),
            st.tuples(st.just("roofs.on_blocked_palace"), st.booleans()),
            st.tuples(st.just("merchants.new_chain_max_neighbours"), st.integers(0, 4)),
            st.tuples(
                st.just("towers.reconnect"),
                st.sampled_from(
                    ["once_per_palace_tower", "once_per_palace_arm", "every_new_contact"]
                ),
            ),
            st.tuples(
                st.just("towers.stable_contact"),
                st.sampled_from(["every_wall", "first_north_west_south_east"]),
            ),
            st.tuples(
                st.sampled_from([f"towers.merchants.{t}" for t in (1, 2, 3, 4)]), st.integers(0, 10)
            ),
            st.tuples(st.just("tea.colour"), st.sampled_from([None, *colours])),
            st.tuples(st.just("tea.awards"), st.lists(st.integers(0, 4), max_size=5)),
            st.tuples(
                st.just("tea.replaces"), st.sampled_from(["either_placement", "second_placement"])
            ),
            st.tuples(st.just("tea.keeps_turn_open"), st.booleans()),
            st.tuples(st.just("tea.blocks_forced_roof"), st.booleans()),
            st.tuples(
                st.just("retirement"),
                st.lists(st.sampled_from(["all_players_own", "no_building_fits"]), unique=True),
            ),
            st.tuples(st.just("scoring.merchants_touching_stables"), st.booleans()),
            st.tuples(
                st.just("scoring.tiebreak"),
                st.sampled_from(["shared", "largest_palace_then_earliest_claim"]),
            ),
            st.tuples(st.just("well.bonus"), st.integers(0, 20)),
            st.tuples(st.sampled_from([f"colours.{c}.value" for c in colours]), st.integers(0, 20)),
            st.tuples(
                st.sampled_from(
                    [
                        f"supply.{n}.{k}"
                        for k in (
                            "per_colour",
                            "roofs",
                            "neutral_roofs",
                            "stables",
                            "merchants",
                            "walls",
                        )
                    ]
                ),
                small,
            ),
            st.tuples(
                st.just(f"board.interior.{n}"), st.lists(st.integers(4, 24), min_size=2, max_size=2)
            ),
            st.tuples(
                st.just("board.towers"),
                st.permutations([1, 2, 3, 4]).map(
                    lambda p: dict(zip(("NW", "NE", "SE", "SW"), p, strict=True))
                ),
            ),
        ),
        max_size=6,
    )


RULESETS = builtin_ids()


@st.composite
def drawn_rules(draw):
    ruleset = load_ruleset(draw(st.sampled_from(RULESETS), label="ruleset"))
    players = draw(st.sampled_from(sorted(ruleset.player_counts)), label="players")
    overrides = draw(override_strategy(ruleset.for_players(players)), label="overrides")
    rules = load_ruleset(ruleset.id, overrides).for_players(players)
    return rules


def play_both(data, rules, *, check_every: int = 1) -> tuple[Game, object]:
    """A random legal game through both engines, every choice drawn from `data`, compared as it goes.
    The game is drawn on the Python engine first, then played through both, compared: a game hypothesis
    gives up on while it is drawn (it may outgrow the choices it set aside for it) costs no comparison."""
    merchant, well = random_setup(
        rules, random.Random(data.draw(st.integers(0, 10**6), label="setup"))
    )
    choices = data.draw(
        st.randoms(use_true_random=False), label="choices"
    )  # each answer a choice that shrinks
    drawn = Game(rules, NAMES[: rules.players], merchant, well)
    while not drawn.is_over():
        legal = drawn.legal_placements()
        drawn.push(legal[choices.randrange(len(legal))])
        assert len(drawn.move_stack) < 2000
    game, state = new_pair(rules, rules.players, merchant, well)
    assert state is not None
    assert_same(game, state)
    for step, choice in enumerate(drawn.move_stack, 1):
        game.push(choice)
        state.push(game.variant.encode(choice))
        if step % check_every == 0 or game.is_over():
            assert_same(game, state)
    assert game.is_over() and state.over
    return game, state


@pytest.mark.slow
@drawn(60, suppress_health_check=HEALTH)
@given(data=st.data())
def test_random_games_agree_after_every_placement(data):
    rules = data.draw(drawn_rules(), label="rules")
    play_both(data, rules)


@pytest.mark.slow
@drawn(40, suppress_health_check=HEALTH)
@given(data=st.data())
def test_readings_and_editions_agree(data):
    """Every built-in ruleset and player count under any combination of the open readings."""
    from medina_cli.rules.schema import READINGS

    ruleset = load_ruleset(data.draw(st.sampled_from(RULESETS), label="ruleset"))
    players = data.draw(st.sampled_from(sorted(ruleset.player_counts)), label="players")
    overrides = []
    colour_names = ruleset.for_players(players).colour_names
    for reading in READINGS:
        if data.draw(st.booleans(), label=reading.param):
            value = data.draw(st.sampled_from(reading.values), label="value")
            if (
                reading.param.startswith("colours.")
                and reading.param.split(".")[1] not in colour_names
            ):
                continue
            overrides += [
                (reading.param, value.value),
                *(tuple(also.split("=")) for also in value.also),
            ]
    rules = load_ruleset(ruleset.id, overrides).for_players(players)
    play_both(data, rules)


def test_push_pop_and_copy_restore_the_position():
    rules = load_ruleset("second-edition-2014").for_players(3)
    rng = random.Random(5)
    merchant, well = random_setup(rules, rng)
    _game, state = new_pair(rules, 3, merchant, well)
    for _ in range(30):
        legal = state.legal_moves()
        state.push(legal[rng.randrange(len(legal))])
    before = state.observe()
    twin = state.copy()
    move = state.legal_moves()[0]
    state.push(move)
    assert state.pop() == move and state.observe() == before == twin.observe()
    assert twin.depth == 0 and state.depth == 30


MANY_PALACES = """\
medina: ruleset/1
id: many-palaces
extends: original-2001
players: [6]
board:
  interior: {6: [24, 24]}
colours: {%s}
supply:
  6: {per_colour: 40, roofs: 10, neutral_roofs: 10, stables: 0, merchants: 0, walls: 0}
turns: {placements: 2, opening_single: {6: 0}, forced_roof: "off"}
retirement: []
"""


@pytest.mark.slow
def test_more_palaces_than_a_signed_byte_counts(tmp_path):
    """The widest board holds up to 144 palaces: a game that builds a new palace and roofs it turn after
    turn (twelve colours, six players with ten roofs and ten neutral roofs each) passes 128 of them,
    and both engines still agree (the core once counted its palaces in a signed byte)."""
    letters = "acdefhijlnpq"
    colours = ", ".join(f"c{i}: {{value: 1, letter: {letter}}}" for i, letter in enumerate(letters))
    path = tmp_path / "many.yaml"
    path.write_text(MANY_PALACES % colours)
    rules = load_ruleset(str(path)).for_players(6)
    game, state = new_pair(rules, 6, "L12", None)

    def preference(
        placement,
    ):  # a roof; else a building on a cell two apart from every other such cell
        column, row = placement.square % 26, placement.square // 26
        if placement.piece in ("roof", "neutral"):
            return 0, placement.square
        return (1 if column % 2 and row % 2 else 2), placement.square or 0

    while len(game.palaces) < 132:
        choice = min(game.legal_placements(), key=preference)
        game.push(choice)
        state.push(game.variant.encode(choice))
        if len(game.palaces) % 25 == 0:
            assert_same(game, state)
    assert_same(game, state)
    twin = state.copy()
    move = state.legal_moves()[0]
    state.push(move)
    assert state.pop() == move and state.observe() == twin.observe()
    twin.playout(native.Generator(1).core, 0.5)
    assert twin.over


def test_copy_module_copies_and_pickling_refuses():
    """copy.copy and copy.deepcopy of a State are its copy() (the tables, which never change, shared);
    a State, its Tables and the core's Random do not pickle (a TypeError: pickle the game instead)."""
    import copy
    import pickle

    rules = load_ruleset("original-2001").for_players(3)
    state = native.start_state(rules, 40, None)
    state.push(state.legal_moves()[3])
    for twin in (copy.copy(state), copy.deepcopy(state), copy.deepcopy([state])[0]):
        assert (
            twin is not state and twin.observe() == state.observe() and twin.tables is state.tables
        )
        assert twin.depth == 0
        twin.push(twin.legal_moves()[0])
        assert twin.observe() != state.observe()
    for value in (state, state.tables, native.Generator(1).core):
        with pytest.raises(TypeError):
            pickle.dumps(value)


# --- records -----------------------------------------------------------------------------------
def record_files() -> list[Path]:
    files = sorted(EXAMPLES.glob("*.yaml"))
    fixtures = ROOT / "tests" / "fixtures"
    files += sorted(
        p
        for p in fixtures.rglob("*")
        if p.suffix in (".yaml", ".sgf", ".txt") and "robustness" not in p.parts
    )
    corpus = BOARDSPACE_CORPUS / "engine-games"
    files += sorted(corpus.glob("*.sgf")) if corpus.is_dir() else []
    return files


@pytest.mark.slow
def test_every_record_replays_identically_through_both_engines():
    replayed = 0
    for path in record_files():
        record = read_record(str(path))
        if (
            record.ruleset is None
            or record.merchant is None
            or "board" in str(record.meta.get("kind", ""))
        ):
            continue
        outcome = replay(record)
        if outcome.game is None:
            continue
        final = outcome.game
        game = Game(
            final.rules,
            final.players,
            final.setup["merchant"],
            final.setup["well"],
            supply=final.start_supply,
        )
        state = native.start_state(
            final.rules, final._start_merchant, final.well, final.start_supply, final.players
        )
        assert_same(game, state)
        for placement in final.move_stack:
            game.push(placement)
            state.push(game.variant.encode(placement))
            assert_same(game, state)
        replayed += 1
    corpus = BOARDSPACE_CORPUS / "engine-games"
    assert replayed >= 15 + (len(list(corpus.glob("*.sgf"))) if corpus.is_dir() else 0), replayed


# --- the generator -----------------------------------------------------------------------------
@drawn(50)
@given(
    seed=st.one_of(st.text(max_size=30), st.integers(-(2**80), 2**80), st.binary(max_size=20)),
    bounds=st.lists(st.integers(1, 2**40), min_size=1, max_size=30),
)
def test_the_generator_draws_as_random_random(seed, bounds):
    ours, theirs = native.Generator(seed), random.Random(seed)
    for n in bounds:
        assert ours.randrange(n) == theirs.randrange(n)
        assert ours.random() == theirs.random()
        assert ours.getrandbits(n % 130) == theirs.getrandbits(n % 130)
    items = list(range(len(bounds) * 7))
    mine = items[:]
    ours.shuffle(mine)
    theirs.shuffle(items)
    assert mine == items
    assert ours.sample(range(200), 2) == theirs.sample(range(200), 2)
    assert ours.sample(range(30), 7) == theirs.sample(range(30), 7)
    assert ours.getstate() == theirs.getstate()
    import pickle

    again = pickle.loads(pickle.dumps(ours))
    assert [again.random() for _ in range(3)] == [theirs.random() for _ in range(3)]


def test_wide_draws_are_random_randoms_and_made_at_once():
    """getrandbits beyond 64 bits, word counts even and uneven, up to 2**24 bits (word by word, such a
    draw took minutes: its time grew with the square of its size)."""
    ours, theirs = native.Generator("wide"), random.Random("wide")
    for k in (65, 95, 96, 97, 1000, 2**16 + 1, 2**24 + 5):
        assert ours.getrandbits(k) == theirs.getrandbits(k)
    assert ours.getstate() == theirs.getstate()


def test_a_native_playout_draws_as_python_random_play():
    """A whole game played by the core is the game engine.playout plays from the same seed, turn by turn."""
    for ruleset, players in (
        ("original-2001", 4),
        ("second-edition-2014", 2),
        ("boardspace-second-edition", 3),
    ):
        rules = load_ruleset(ruleset).for_players(players)
        for seed in range(5):
            game = play_random_game(rules, NAMES[:players], random.Random(f"s/{seed}"))
            rng = native.Generator(f"s/{seed}")
            state, turns = native.play_random(rules, random_setup(rules, rng), rng, tea_chance=0.5)
            assert [(NAMES[seat], tokens) for seat, tokens in turns] == [
                (player, [str(p) for p in placements]) for player, placements in game.turns()
            ]
            assert state.outcome()[0] == [p.total for p in score_game(game).players]


@pytest.mark.slow
@drawn(6, suppress_health_check=HEALTH)
@given(data=st.data(), size=st.lists(st.integers(15, 24), min_size=2, max_size=2))
def test_games_on_boards_beyond_256_cells_agree(data, size):
    rules = load_ruleset(
        "second-edition-2014", [("board.interior.2", size), ("supply.2.per_colour", 3)]
    ).for_players(2)
    assert native.tables(rules).size == (size[0] + 2) * (size[1] + 2)
    play_both(data, rules, check_every=5)


# --- the same documents ------------------------------------------------------------------------
SAME_DOCUMENTS = [
    (
        "simulate",
        "--rulesets",
        "original-2001,second-edition-2014",
        "--players",
        "3",
        "--games",
        "40",
        "--seed",
        "5",
        "--json",
    ),
    (
        "simulate",
        "--ruleset",
        "second-edition-2014",
        "--players",
        "2",
        "--games",
        "2",
        "--agents",
        "alphabeta:1,greedy",
        "--json",
    ),
    (
        "hint",
        str(EXAMPLES / "original-2001-4p.yaml"),
        "--to",
        "20",
        "--agent",
        "alphabeta:2",
        "--json",
    ),
    (
        "hint",
        str(EXAMPLES / "second-edition-2014-2p.yaml"),
        "--to",
        "11",
        "--agent",
        "greedy",
        "--json",
    ),
]
FEW_PIECES = """\
medina: ruleset/1
id: few-pieces
extends: second-edition-2014
supply:
  2: {per_colour: 2, roofs: 2, neutral_roofs: 1, stables: 1, merchants: 2, walls: 2}
"""


def documents(*args) -> dict[str, str]:
    """What `medina ARGS` prints on either engine."""
    import os
    import subprocess
    import sys

    out = {}
    for engine in ("python", "native"):
        proc = subprocess.run(
            [sys.executable, "-m", "medina_cli", *args],
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "MEDINA_ENGINE": engine},
        )
        assert proc.returncode == 0, proc.stderr
        out[engine] = proc.stdout
    return out


@pytest.mark.slow
@pytest.mark.parametrize("args", SAME_DOCUMENTS, ids=lambda a: " ".join(a[:2]))
def test_either_engine_prints_the_same_document(args):
    """Random play, greedy and alphabeta give the same documents on both engines, but for the engine each
    names (mcts's search draws its numbers apart on each: tests/test_search.py compares its choices)."""
    out = documents(*args)
    assert without_engine(out["native"]) == without_engine(out["python"])


def without_engine(document: str) -> dict:
    import json

    doc = json.loads(document)
    doc.pop("engine", None)
    return doc


@pytest.mark.slow
def test_either_engine_analyses_a_whole_game_alike(tmp_path):
    """analyse (alphabeta) prints the same document on either engine for a whole game: a seeded one of 30 placements
    under second-edition-2014 with few pieces, with claims, both tiles, tea, tower merchants, a retirement,
    passes and the end (its playouts are short: on the Python engine a tenth of an example's analysis)."""
    (tmp_path / "few.yaml").write_text(FEW_PIECES)
    game = play_random_game(
        load_ruleset(str(tmp_path / "few.yaml")).for_players(2), NAMES[:2], random.Random(0)
    )
    assert {e.kind for e in game.events} >= {
        "claim",
        "palace-tile",
        "tower-tile",
        "tea",
        "tower-merchants",
        "retire",
        "pass",
        "game-end",
    }
    (tmp_path / "game.yaml").write_text(game.to_record(ruleset="few.yaml"))
    out = documents(
        "analyse", str(tmp_path / "game.yaml"), "--agent", "alphabeta:2", "--seed", "1", "--json"
    )
    assert without_engine(out["native"]) == without_engine(out["python"])


def test_the_search_playout_and_greedy_ratings_agree():
    """agents.position.playout and immediate_margins on a Python game and on the native core, same seed."""
    from medina_cli.agents.position import NativePosition, outcome, playout
    from medina_cli.agents.simple import immediate_margins

    for ruleset, players in (("original-2001", 4), ("second-edition-2014", 3), ("bsw-dm-2003", 3)):
        rules = load_ruleset(ruleset).for_players(players)
        for seed in range(4):
            rng = random.Random(seed)
            game = Game(rules, NAMES[:players], *random_setup(rules, rng))
            for _ in range(25 + 5 * seed):
                legal = game.legal_placements()
                game.push(legal[rng.randrange(len(legal))])
            position = NativePosition(native.state_of(game), game)
            ours, theirs = native.Generator(seed), random.Random(seed)
            assert [
                (game.variant.encode(p), v) for p, v in immediate_margins(game, theirs)
            ] == immediate_margins(position, ours)
            trial = game.copy()
            playout(trial, theirs)
            playout(position, ours)
            assert outcome(position) == outcome(trial)
            assert (
                position.state.observe()["palaces"] == native.state_of(trial).observe()["palaces"]
            )


# --- the tree search: the native core's against the Python loop, on the same position ------------
def random_position(data, rules, players: int):
    """A native position of a random game of `rules` (every choice drawn from `data`): the game is played to
    its end, then rebuilt up to a drawn point, often a few placements before the end."""
    from medina_cli.agents.position import NativePosition

    merchant, well = random_setup(
        rules, random.Random(data.draw(st.integers(0, 10**6), label="setup"))
    )
    game, state = new_pair(rules, players, merchant, well)
    start, played = state.copy(), []
    while not state.over:
        legal = state.legal_moves()
        played.append(legal[data.draw(st.integers(0, len(legal) - 1), label="choice")])
        state.push(played[-1])
    before_end = data.draw(
        st.one_of(st.integers(1, 6), st.integers(1, len(played))), label="placements before the end"
    )
    for move in played[: max(0, len(played) - before_end)]:
        start.play(move)
    return NativePosition(start, game)


def assert_same_search(data, position, moves: int = 2, constants: bool = False) -> None:
    """play_batch (the native core's search) == the Python loop (`_searched`) on the same position, for
    drawn moves there and drawn (key, start, stop): exactly, every margin and every share. `constants`:
    with drawn values of the search's constants too (a product by 0.5 is exact: other values show that
    no fused multiply-add or other order of operations rounds otherwise)."""
    from medina_cli.agents import mcts

    distinct = position.state.distinct_moves()
    with pytest.MonkeyPatch.context() as patch:
        if constants:
            patch.setattr(
                mcts,
                "EXPLORATION",
                data.draw(st.sampled_from([mcts.EXPLORATION, 0.3, 0.7, 1.9]), label="exploration"),
            )
            patch.setattr(
                mcts,
                "WIDENING",
                data.draw(st.sampled_from([mcts.WIDENING, 0.3, 2.5]), label="widening"),
            )
        for _ in range(moves):
            move = distinct[data.draw(st.integers(0, len(distinct) - 1), label="move")]
            key = data.draw(st.integers(0, 2**64 - 1), label="key")
            start = data.draw(st.sampled_from([0, 0, 2, 4, 8, 1000, 2**32 - 40]), label="start")
            stop = start + data.draw(st.integers(0, 40), label="samples")
            assert mcts.play_batch(position, move, start, stop, key) == mcts._searched(
                position, move, start, stop, key
            )


@pytest.mark.slow
@drawn(40, suppress_health_check=HEALTH)
@given(data=st.data())
def test_the_native_search_makes_the_python_searchs_samples(data):
    """Every built-in ruleset and player count (half the time with drawn overrides of any play parameter),
    positions from the first placement to the last, the search's constants drawn too."""
    if data.draw(st.booleans(), label="overrides"):
        rules = data.draw(drawn_rules(), label="rules")
    else:
        ruleset = load_ruleset(data.draw(st.sampled_from(RULESETS), label="ruleset"))
        rules = ruleset.for_players(
            data.draw(st.sampled_from(sorted(ruleset.player_counts)), label="players")
        )
    assert_same_search(data, random_position(data, rules, rules.players), constants=True)


@pytest.mark.parametrize(
    "ruleset, players",
    [
        ("original-2001", 4),
        ("second-edition-2014", 2),
        ("second-edition-2014", 3),
        ("second-edition-2014", 4),
        ("bsw-dm-2003", 3),
    ],
)
@drawn(4, suppress_health_check=HEALTH)
@given(data=st.data())
def test_the_native_search_agrees_in_each_edition(ruleset, players, data):
    """The editions as they are (the 2014 one with tea and the well), positions early, mid-game and near
    the end."""
    rules = load_ruleset(ruleset).for_players(players)
    assert_same_search(data, random_position(data, rules, players), moves=3)


@drawn(3, suppress_health_check=HEALTH)
@given(data=st.data())
def test_the_native_search_agrees_beyond_256_cells(data):
    rules = load_ruleset(
        "second-edition-2014", [("board.interior.2", [18, 16]), ("supply.2.per_colour", 3)]
    ).for_players(2)
    assert native.tables(rules).size > native.built().MAX_CELLS
    assert_same_search(data, random_position(data, rules, 2))


POSITIONS = [
    ("original-2001", 4, 40, 1),
    ("second-edition-2014", 2, 25, 2),
    ("bsw-dm-2003", 3, 60, 3),
]


@pytest.mark.slow
@pytest.mark.parametrize("ruleset, players, placements, seed", POSITIONS)
def test_the_mcts_agent_chooses_and_rates_as_with_the_python_search(
    ruleset, players, placements, seed, monkeypatch
):
    """The default `mcts` agent: the same choice and the same ratings (means, win shares, playouts,
    intervals, ties) whether its batches are searched by the native core or by the Python loop."""
    from medina_cli.agents import make_agent, mcts

    rules = load_ruleset(ruleset).for_players(players)
    rng = random.Random(seed)
    game = Game(rules, NAMES[:players], *random_setup(rules, rng))
    for _ in range(placements):
        legal = game.legal_placements()
        game.push(legal[rng.randrange(len(legal))])
    choice, ratings = make_agent("mcts", seed).choose(game), make_agent("mcts", seed).rate(game)
    monkeypatch.setattr(mcts, "play_batch", mcts._searched)
    assert make_agent("mcts", seed).rate(game) == ratings
    assert ratings[0].placement == choice and sum(r.playouts for r in ratings) > 100


def test_bad_input_to_the_native_api_raises_never_crashes():
    rules = load_ruleset("second-edition-2014").for_players(2)
    table = native.tables(rules)
    state = native.start_state(rules, 40, 60)
    tea = table.tea_move
    for bad in (-1, tea + 1, 2**40):
        with pytest.raises((ValueError, OverflowError)):
            state.push(bad)
        assert state.is_legal(bad) is False
    with pytest.raises(TypeError):
        state.push("grey K8")
    with pytest.raises(IndexError):
        state.pop()
    with pytest.raises(ValueError):
        state.push(state.legal_moves()[-1] + table.size)  # a cell no legal move takes
    assert state.palace(-5) is None and state.palace(10**6) is None
    with pytest.raises(TypeError):
        state.playout(random.Random(1))
    with pytest.raises(ValueError):
        state.playout(native.Generator(1).core, 0.5, -3)
    for merchant, well in ((-1, 60), (0, 60), (table.size, 60), (40, 40), (40, -1)):
        with pytest.raises(ValueError):
            table.State(table, merchant, well)
    with pytest.raises(ValueError):
        table.State(table, 40, 60, [[1, 2, 3]])
    with pytest.raises((TypeError, ValueError)):
        table.State(table, 40, 60, "supply")
    with pytest.raises(TypeError):
        type(table)()  # every field is required
    with pytest.raises(ValueError):
        native.built().Random(b"")
    with pytest.raises(ValueError):
        native.built().Random(b"abc")
    with pytest.raises(ValueError):
        native.Generator(1).core.setstate((1, 2, 3))
    from medina_cli.engine.placement import PASS_PLACEMENT, TEA_PLACEMENT

    game = Game(rules, NAMES[:2], "E5", "J7")
    assert (
        game.variant.encode(TEA_PLACEMENT) == tea and game.variant.encode(PASS_PLACEMENT) == tea + 1
    )
    with pytest.raises(ValueError):
        state.push(
            game.variant.encode(PASS_PLACEMENT)
        )  # no move of the core (a pass was once taken for tea)
    over = native.start_state(rules, 40, 60)
    over.playout(native.Generator(2).core, 0.5)
    assert over.over and over.seat is None and over.legal_moves() == []
    assert over.margins(native.Generator(3).core, 5) == []
    with pytest.raises(ValueError):
        over.push(tea)
    assert over.playout(native.Generator(2).core, 0.5) == 0
    search = native.start_state(rules, 40, 60)
    move = search.legal_moves()[0]
    fine = {
        "move": move,
        "key": 7,
        "start": 0,
        "stop": 3,
        "exploration": 0.5,
        "widening": 1.0,
        "tea_chance": 0.2,
        "roof_from": 5,
    }
    assert (
        len(search.search_samples(**fine)) == 3
        and search.search_samples(**{**fine, "stop": 0}) == []
    )
    for bad in (
        {"move": tea + 1},
        {"move": search.legal_moves()[-1] + table.size},
        {"key": -1},
        {"key": 2**64},
        {"start": -1},
        {"start": 4},
        {"stop": 2**32 + 1},
        {"start": 0, "stop": 2**30},
        {"exploration": float("nan")},
        {"widening": -1.0},
        {"tea_chance": float("inf")},
        {"roof_from": -1},
    ):
        with pytest.raises(ValueError):
            search.search_samples(**{**fine, **bad})
    with pytest.raises(TypeError):
        search.search_samples(**{**fine, "key": 7.0})
    with pytest.raises(ValueError):
        over.search_samples(**fine)  # no move is legal once the game is over
    assert (
        search.observe() == native.start_state(rules, 40, 60).observe()
    )  # the search leaves its position alone


def table_fields(rules) -> dict:
    """The keyword arguments `native.tables` gives the core's Tables for `rules`."""
    fields = {}

    class Recorder:
        MAX_CELLS, MASK_BYTES, Unsupported = (
            getattr(native.built(), name) for name in ("MAX_CELLS", "MASK_BYTES", "Unsupported")
        )

        @staticmethod
        def Tables(**given):
            fields.update(given)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(native, "built", lambda: Recorder)
        native._tables.__wrapped__(native._known(rules)[2])
    return fields


def test_tables_refuse_sizes_beyond_the_core():
    """Sizes that would overflow the core's arithmetic (a board of 63 x 2**30 cells) are refused."""
    fields = table_fields(load_ruleset("second-edition-2014").for_players(2))
    tables = native.built().Tables
    for width, height in ((63, 2**30), (2**30, 63), (2**31 - 1, 2**31 - 1), (64, 6), (6, 5)):
        with pytest.raises(ValueError, match="board"):
            tables(**{**fields, "width": width, "height": height})


def test_tables_refuse_what_the_core_cannot_hold():
    """Tea awards beyond what a 16-bit tea count holds over every claim (`Unsupported`: beyond the core), a
    tower number twice, a corner twice, towers off the corners: refused (ValueError), never held in a wrong
    form; more tea awards than a game has claims are held (the first MAX_PALACES)."""
    fields = table_fields(load_ruleset("second-edition-2014").for_players(2))
    tables = native.built().Tables
    corners = fields["tower_cells"][0::2]
    with pytest.raises(native.built().Unsupported, match="tea_awards"):
        tables(**{**fields, "tea_awards": [native.built().MAX_TEA_AWARD + 1]})
    for bad in (
        {"tower_cells": [corners[0], 1, corners[1], 1, corners[2], 3, corners[3], 4]},
        {"tower_cells": [corners[0], 1, corners[0], 2, corners[2], 3, corners[3], 4]},
        {
            "towers": (int.from_bytes(fields["towers"], "little") ^ 0b11).to_bytes(
                len(fields["towers"]), "little"
            ),
            "ring": (int.from_bytes(fields["ring"], "little") ^ 0b11).to_bytes(
                len(fields["ring"]), "little"
            ),
        },
    ):
        with pytest.raises(ValueError):
            tables(**{**fields, **bad})
    assert (
        tables(**{**fields, "tea_awards": [100] * 2000}).size == fields["width"] * fields["height"]
    )


def test_tables_are_made_once():
    """Initialising Tables again (with another variant's fields) is refused: the States made from them
    would read tables that no longer describe them."""
    small = load_ruleset("second-edition-2014").for_players(2)
    table, state = native.tables(small), native.start_state(small, 40, 60)
    with pytest.raises(TypeError):
        table.__init__(**table_fields(load_ruleset("original-2001").for_players(4)))
    assert table.size == native._known(small)[2].size and table.players == 2
    state.playout(native.Generator(3).core, 0.5)
    assert state.over


FAILED_ALLOCATIONS = """
import sys
import _testcapi
from medina_cli.engine import native
from medina_cli.rules.loader import load_ruleset

call = sys.argv[1]
state = native.start_state(load_ruleset("second-edition-2014").for_players(3), 40, 62)
for _ in range(14):
    state.push(state.legal_moves()[0])
rng = native.Generator(1).core
calls = {"observe": state.observe, "summary": state.summary, "masks": state.masks,
         "legal_moves": state.legal_moves, "margins": lambda: state.margins(rng, 5),
         "copy": lambda: state.copy().observe(), "playout": lambda: state.copy().playout(rng, 0.5, log=True),
         "getstate": rng.getstate,
         "search_samples": lambda: state.search_samples(state.legal_moves()[0], 7, 0, 30, 0.5, 1.0, 0.2, 5)}
whole = calls[call]()
failed = 0
for nth in range(300):
    _testcapi.set_nomemory(nth, nth + 1)
    try:
        got = calls[call]()
    except MemoryError:
        failed += 1
        continue
    finally:
        _testcapi.remove_mem_hooks()
    if call not in ("margins", "playout", "getstate"):  # these draw from the generator
        assert got == whole, (nth, got, whole)
print(native.core() is not None, failed > 0)
"""


@pytest.mark.parametrize(
    "call",
    [
        "observe",
        "summary",
        "masks",
        "legal_moves",
        "margins",
        "copy",
        "playout",
        "getstate",
        "search_samples",
    ],
)
def test_a_failed_allocation_raises_memory_error(call, tmp_path):
    """Every allocation a native call makes fails in turn (CPython's _testcapi.set_nomemory): the call
    raises MemoryError or returns the whole answer, never a half-built one nor a result with an error set.
    In a process of its own: the failures hit every thread of a process, a test runner's too."""
    import subprocess
    import sys

    pytest.importorskip("_testcapi")
    script = tmp_path / "failed_allocations.py"
    script.write_text(FAILED_ALLOCATIONS)
    done = subprocess.run(
        [sys.executable, str(script), call],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "MEDINA_ENGINE": "native"},
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "True True\n", "")


LONG_SEARCH = """
from medina_cli.engine import native
from medina_cli.rules.loader import load_ruleset

state = native.start_state(load_ruleset("original-2001").for_players(4), 40, None)
print("searching", flush=True)
state.search_samples(state.legal_moves()[0], 1, 0, 10 ** 6, 0.5, 1.0, 0.2, 5)
"""


@pytest.mark.slow
def test_ctrl_c_stops_a_native_search():
    """A search of millions of samples in one call still hears Ctrl-C (the signal is checked once a sample)."""
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen(
        [sys.executable, "-c", LONG_SEARCH],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "MEDINA_ENGINE": "native"},
    )
    try:
        assert proc.stdout.readline() == "searching\n"
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
        proc.communicate()
    assert proc.returncode != 0 and err.rstrip().endswith("KeyboardInterrupt"), err


def test_a_core_built_from_other_sources_is_never_used(monkeypatch):
    """The core carries the digest of the C sources it was built from: beside other sources (an edit
    since the build, another checkout) it is refused, and the Python engine plays."""
    assert native._load("_core") is native.built()
    monkeypatch.setattr(native, "source_digest", lambda: "0" * 64)
    assert native._load("_core") is None
