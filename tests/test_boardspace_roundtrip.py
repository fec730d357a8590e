"""Whole games: the engine plays a random game under a boardspace profile, the game is written the way
the site writes it (with every verb: picks, drops, undos, no-op pairs, robot moves, tea discards and
passes), and reading it back must give the same game: valid, finished, same placements and scores."""

import random

import pytest
from conftest import rules_for

from medina_cli.engine.board import geometry_for
from medina_cli.engine.placement import Placement
from medina_cli.engine.playout import play_random_game
from medina_cli.engine.scoring import score_game
from medina_cli.records.boardspace import boardspace_setup, parse_boardspace, profile_id
from medina_cli.records.replay import replay

RACKS = {"roof": "D", "neutral": "N", "stable": "S", "merchant": "M", "wall": "W"}
NAMES = ["Anna", "Ben", "Cleo", "Dan"]


def moves_for(game, seat, placement, rng) -> list[str]:
    """One placement in one of the spellings the site uses."""
    letter = chr(65 + seat)
    piece, name = placement.piece, placement.cell
    if piece == "tea":
        return rng.choice([[f"OnBoard T {letter} 0 A 65"], [f"Pick T {letter} 0", "Drop V A 0"]])
    rack, index = (
        ("P", game.variant.colours.index(piece))
        if piece in game.variant.colours
        else (RACKS[piece], 0)
    )
    where = f"{name[0]} {name[1:]}"
    style = rng.randrange(4)
    if style == 0:
        return [f"onboard {rack.lower()} {letter} {index} {where}"]
    if (
        style == 1
    ):  # dropped on the wrong cell, picked back up (UI chip number appended), dropped again
        return [f"Pick {rack} {letter} {index}", "Dropb B 2", "Pickb B 2 17", f"Dropb {where}"]
    if style == 2:  # a piece taken and put back first
        return [
            f"pick {rack} {letter} {index}",
            f"drop {rack} {letter} {index}",
            f"PICK {rack} {letter} {index}",
            f"DROPB {where}",
        ]
    return [f"Pick {rack} {letter} {index}", f"Dropb {where}"]


def site_actions(game, start_merchant: bool, rng) -> list[str]:
    """The action stream: strict seat order, a bare Done for every player who could not place."""
    actions, previous, n = ["Start P0"], None, len(game.players)
    for i, (player, placements) in enumerate(game.turns()):
        seat = game.players.index(player)
        if previous is not None:
            actions += ["Done"] * ((seat - previous - 1) % n)
        if i == 0 and start_merchant:
            actions += moves_for(game, 0, Placement("merchant", game.setup["merchant"]), rng)
        for placement in placements:
            actions += moves_for(game, seat, placement, rng)
        actions.append("Done")
        previous = seat
    return actions


def as_story(header, actions):
    return (
        f"pi 0 1 pi 1 2 story {header} , "
        + " , ".join(f"{i} {a}" for i, a in enumerate(actions))
        + " .end. 0 0\n"
    )


def as_sgf(setup, names, actions):
    lines = ["(;", "GM[Medina]VV[1]", f"SU[{setup}]"] + [
        f'P{i}[id "{n}"]' for i, n in enumerate(names)
    ]
    lines += [f"; P0[{i} {a}]TM[{i * 100}]" for i, a in enumerate(actions)]
    return "\n".join(lines + [";", "P0[time 0:01:00 ]", ")"]) + "\n"


@pytest.mark.parametrize(
    "form, variant, revision, players, seed",
    [
        ("story", "medina", 100, 3, 13),
        ("story", "medina", 100, 4, 21),
        ("sgf", "medina", 104, 3, 3),
        ("sgf", "medina", 102, 4, 13),
        ("sgf", "medina-v2", 104, 2, 5),
        ("story", "medina-v2", 103, 3, 6),
        ("sgf", "medina-v2", 101, 4, 7),
        ("sgf", "medina-v2", 102, 2, 8),
    ],
)
def test_site_record_of_a_whole_game_reads_back_as_the_same_game(
    form, variant, revision, players, seed
):
    rng = random.Random(seed)
    ruleset = profile_id(variant, revision)
    rules = rules_for(ruleset, players)
    names = NAMES[:players]
    key = rng.randrange(-(2**31), 2**31)
    geo = geometry_for(rules)
    setup = (
        tuple(geo.square_of[c] for c in boardspace_setup(geo, key)) if rules.well.enabled else None
    )
    game = play_random_game(rules, names, rng, setup=setup)
    actions = site_actions(game, start_merchant=not rules.well.enabled, rng=rng)
    if form == "story":
        text = as_story(
            f"{variant} {revision} {players} {key} 0"
            if revision > 100
            else f"{variant} {players} 0",
            actions,
        )
    else:
        text = as_sgf(f"{variant} {revision} {players} {key}", names, actions)

    record = parse_boardspace(text, f"game.{form}", players=None if form == "sgf" else names)
    outcome = replay(record)
    assert record.ruleset.id == ruleset and record.players == names
    assert outcome.problems == [] and outcome.finished
    assert outcome.game.placements_made == game.placements_made
    assert score_game(outcome.game).totals == score_game(game).totals
    skipped = sum(e.kind == "pass" for e in game.events) - (
        players - 1
    )  # the engine also names the last skips
    assert sum(t.actions[0] == Placement("pass") for t in record.turns) == skipped
