"""A game's position on one line (`Game.to_text`, `Game.from_text`) and its key (`Game.key`): the text
round-trips, a game read from it plays on as the game it came from, equal positions reached in
different orders have one text and one key, and `repr(game)` gives the game back."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import medina_cli as medina
from medina_cli.rules.loader import builtin_ids, load_ruleset

NAMES = ["Anna", "Ben Ali", "Cleo,C", "Dan%\n\u00eb"]  # names with the characters the text escapes
COMBOS = [
    (ruleset, players)
    for ruleset in builtin_ids()
    for players in load_ruleset(ruleset).player_counts
]


def random_game(rules, seed: int) -> medina.Game:
    rng = random.Random(seed)
    geo = medina.Variant.of(rules).geometry
    cells = [geo.name(c) for c in range(geo.size) if (geo.setup_cells >> c) & 1]
    merchant, well = rng.sample(cells, 2)
    return medina.Game(
        rules, NAMES[: rules.players], merchant, well if rules.well.enabled else None
    )


def same_state(a: medina.Game, b: medina.Game) -> None:
    assert (a.to_text(), a.key(), a.legal_placements(), a.distinct_placements(), a.can_tea()) == (
        b.to_text(),
        b.key(),
        b.legal_placements(),
        b.distinct_placements(),
        b.can_tea(),
    )
    assert medina.score(a).to_json() == medina.score(b).to_json()


@pytest.mark.parametrize("ruleset, players", COMBOS)
def test_a_game_read_from_its_text_plays_on_as_the_game_it_came_from(ruleset, players):
    rules = load_ruleset(ruleset).for_players(players)
    game = random_game(rules, players)
    rng = random.Random(f"{ruleset}/{players}")
    cuts = 0
    while True:
        if cuts < 6 and (game.is_over() or rng.random() < 0.08):
            cuts += 1
            text = game.to_text()
            read = medina.Game.from_text(load_ruleset(ruleset), text)
            assert "\n" not in text and read.to_text() == text and read.move_stack == []
            assert (
                hash(read.key()) == hash(game.key())
                and read.placements_made == game.placements_made
            )
            original, seed = game.copy(), rng.random()
            for one in (original, read):  # the same continuation on both
                choices = random.Random(seed)
                while not one.is_over():
                    one.push(choices.choice(one.legal_placements()))
            same_state(read, original)
            assert read.to_move == original.to_move and read.turns_started == original.turns_started
        if game.is_over():
            break
        game.push(rng.choice(game.legal_placements()))
    assert cuts >= 2


def test_equal_positions_reached_in_either_order_have_one_text_and_one_key():
    rules = medina.load_ruleset("original-2001", players=3)
    one, other = (medina.Game(rules, ["Anna", "Ben", "Cleo"], merchant="K7") for _ in range(2))
    for placement in ["grey K8", "black C3", "orange G3"]:
        one.push(placement)
    for placement in ["black C3", "grey K8", "orange G3"]:
        other.push(placement)
    assert one != other  # reached by other placements
    assert (
        one.to_text() == other.to_text()
        and one.key() == other.key()
        and hash(one.key()) == hash(other.key())
    )
    assert all(
        medina.Game.from_text(given, one.to_text()).key() == one.key()
        for given in (rules, one.variant)
    )
    other.pop()
    other.push("orange G4")
    assert one.to_text() != other.to_text() and one.key() != other.key()
    before = one.copy()
    before.pop()  # Ben has not placed yet: another turn state
    assert before.key() != one.key() and [g.to_text().split(" ")[2] for g in (before, one)] == [
        "1.2.0.2.0.0",
        "1.2.1.2.0.0",
    ]


def test_the_text_of_a_start_position():
    game = medina.Game(
        medina.load_ruleset("second-edition-2014", players=2),
        ["Anna", "Ben"],
        merchant="K7",
        well="F5",
    )
    assert game.to_text() == (
        "Anna,Ben K7.F5 0.1.0.1.0.0 - K7:K7.K7 - -.-.-.-:-.-.-.-:3.2.1.0 "
        "8.8.8.8.4.2.4.12.15:0/8.8.8.8.4.2.4.12.15:0 -"
    )


def test_repr_gives_the_game_back():
    game = medina.Game(
        medina.load_ruleset("original-2001", players=3), ["Anna", "Ben", "Cleo"], merchant="K7"
    )
    for placement in ["grey K8", "roof K8", "wall A2"]:
        game.push(placement)
    again = eval(repr(game), {"Game": medina.Game, "load_ruleset": medina.load_ruleset})
    assert again.key() == game.key() and repr(again) == repr(game)


@pytest.mark.parametrize(
    "change, field",
    [
        (lambda f: f[:8], "text"),
        (lambda f: ["Anna,Ben", *f[1:]], "players"),
        (lambda f: [f[0], "Z99.-", *f[2:]], "players, setup"),
        (lambda f: [*f[:2], "7.1.0.2.0.0", *f[3:]], "turn"),
        (lambda f: [*f[:3], "gold:K8:-:-:-:-:-", *f[4:]], "palaces"),
        (lambda f: [*f[:3], "grey:K8:-:0:K8:0:9h", *f[4:]], "palaces"),
        (lambda f: [*f[:4], "K7:K7", *f[5:]], "merchants"),
        (lambda f: [*f[:4], "K7:-", *f[5:]], "merchants"),  # a game always has a live chain
        (
            lambda f: [*f[:3], "grey:K8:-:-:-:-:-", "K7.K8:K7.K8", *f[5:]],
            "merchants",
        ),  # a merchant on a palace
        (lambda f: [*f[:4], "K7.A5:K7.A5", *f[5:]], "merchants"),  # on the wall ring
        (lambda f: [*f[:3], "grey:K8:-:0:-:0:-", *f[4:]], "palaces"),  # an owner without a roof
        (lambda f: [*f[:3], "grey:K8:-:0:K9:0:-", *f[4:]], "palaces"),  # a roof off its buildings
        (
            lambda f: [*f[:3], "grey:K8:-:-:-:-:-/black:K8:-:-:-:-:-", *f[4:]],
            "palaces",
        ),  # one cell, two palaces
        (
            lambda f: [*f[:3], "grey:K8:-:-:-:-:4h", *f[4:]],
            "palaces",
        ),  # an unclaimed palace on a tower
        (lambda f: [*f[:5], "A2@4v.A2@4h", *f[6:]], "walls"),  # one wall twice
        (lambda f: [*f[:5], "A1@4v", *f[6:]], "walls"),  # a wall on a tower
        (
            lambda f: [*f[:3], "grey:K8:-:-:-:-:-", f[4], f[5], "0.-.-.-:-.-.-.-:-.-.-.-", *f[7:]],
            "tiles",
        ),
        (
            lambda f: [*f[:3], "grey:K8:-:-:-:-:-", f[4], f[5], "-.-.-.-:0.-.-.-:-.-.-.-", *f[7:]],
            "tiles",
        ),
        (lambda f: [*f[:5], "A2@4x", *f[6:]], "walls"),
        (lambda f: [*f[:6], "0.-.-.-:-.-.-.-:-.-.-.-", *f[7:]], "tiles"),
        (lambda f: [*f[:7], "1.2:0/1.2:0/1.2:0", *f[8:]], "supply"),
        (lambda f: [*f[:8], "gold"], "retired"),
    ],
)
def test_a_text_that_is_no_position_is_refused_naming_the_field(change, field):
    rules = medina.load_ruleset("original-2001", players=3)
    text = medina.Game(rules, ["Anna", "Ben", "Cleo"], merchant="K7").to_text()
    with pytest.raises(ValueError, match=f"^position text, field {field}: "):
        medina.Game.from_text(load_ruleset("original-2001"), " ".join(change(text.split(" "))))


def plays_on(game: medina.Game) -> None:
    """Every legal placement of `game` can be pushed, its next placements listed, and popped."""
    for placement in game.legal_placements():
        game.push(placement)
        game.legal_placements()
        game.pop()


@pytest.mark.slow  # 400 positions, every legal placement of those read pushed and popped (about 35 s)
@settings(
    max_examples=400, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    combo=st.sampled_from(COMBOS),
    seed=st.integers(0, 10**6),
    length=st.integers(0, 120),
    data=st.data(),
)
def test_every_text_the_reader_accepts_plays_on(combo, seed, length, data):
    """A position text with a word or two changed (a cell, a number, an entry's `-`) is refused with a
    ValueError naming the field, or it is a game that plays on: every legal placement pushes and pops."""
    ruleset, players = combo
    rules = load_ruleset(ruleset).for_players(players)
    game, rng = random_game(rules, seed), random.Random(seed)
    for _ in range(length):
        if game.is_over():
            break
        game.push(rng.choice(game.legal_placements()))
    words = re.split(r"([ ,/:.@])", game.to_text())  # the words, and the separators between them
    geo = game.variant.geometry
    for _ in range(data.draw(st.integers(1, 2), label="changes")):
        where = data.draw(st.integers(0, len(words) // 2), label="word") * 2
        words[where] = data.draw(
            st.one_of(
                st.just("-"),
                st.integers(0, 12).map(str),
                st.integers(0, geo.size - 1).map(geo.name),
            ),
            label="new word",
        )
    try:
        changed = medina.Game.from_text(rules, "".join(words))
    except ValueError as refused:
        assert str(refused).startswith("position text, field "), refused
        return
    plays_on(changed)


def test_replay_and_status_documents_carry_the_position_text(tmp_path):
    """`position.text` in medina-replay/1 and medina-status/1 reads back as the replayed position."""
    import json

    from conftest import EXAMPLES
    from scorekit import run

    from medina_cli.records.record import read_record
    from medina_cli.records.replay import replay

    path = EXAMPLES / "second-edition-2014-3p.yaml"
    record = read_record(str(path))
    for command, to in (("replay", "12"), ("status", None)):
        args = (command, path, "--json") + (("--to", to) if to else ())
        code, out, _ = run(*args)
        game = replay(record, to_turn=int(to) if to else None).game
        text = json.loads(out)["position"]["text"]
        assert code == 0 and medina.Game.from_text(record.rules, text).key() == game.key()
