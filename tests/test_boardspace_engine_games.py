"""Games played by boardspace.net's own engine (shared/corpus/boardspace/engine-games/, read in place):
each imports, replays legally to its end under the profile its header implies, and scores exactly
as the engine did, tile holders included."""

import json

import pytest
from conftest import BOARDSPACE_CORPUS

from medina_cli.engine.game import NEUTRAL
from medina_cli.engine.scoring import score_game, tile_holders
from medina_cli.records.record import read_record
from medina_cli.records.replay import replay

ENGINE_GAMES = BOARDSPACE_CORPUS / "engine-games"


def engine_games() -> list:
    """(record, the engine's verdict) for every game with its JSON beside it."""
    if not ENGINE_GAMES.is_dir():
        pytest.skip(
            f"{ENGINE_GAMES} is absent: the shared folder beside the checkout holds the engine's games"
        )
    games = [(sgf, sgf.with_suffix(".json")) for sgf in sorted(ENGINE_GAMES.glob("*.sgf"))]
    games = [(sgf, json.loads(verdict.read_text())) for sgf, verdict in games if verdict.is_file()]
    assert games, f"no engine game with its JSON in {ENGINE_GAMES}"
    return games


def holder(game, owner):
    """A tile holder in the JSON's words: the seat name, "neutral" or None."""
    return None if owner is None else "neutral" if owner == NEUTRAL else game.players[owner]


@pytest.mark.slow
def test_every_engine_game_replays_and_scores_as_the_engine_did():
    differences = []
    for sgf, engine in engine_games():
        record = read_record(str(sgf))
        outcome = replay(record)
        if not outcome.valid or not outcome.finished:
            differences.append(
                f"{sgf.name}: {[p.human() for p in outcome.problems] or 'unfinished'}"
            )
            continue
        game = outcome.game
        palaces, towers = tile_holders(game)
        ours = {
            "scores": score_game(game).totals,
            "towers": [holder(game, towers[t]) for t in (1, 2, 3, 4)],
            "palace_tiles": [holder(game, palaces[c]) for c in game.variant.colours],
        }
        differences += [
            f"{sgf.name} {key}: ours {ours[key]}, the engine's {engine[key]}"
            for key in ours
            if ours[key] != engine[key]
        ]
    assert differences == []


def test_the_sample_covers_every_variant_and_each_disagreement_it_was_cut_for():
    kinds = {(engine["variant"], engine["players"]) for _, engine in engine_games()}
    assert kinds == {
        ("Medina", 3),
        ("Medina", 4),
        ("Medina-v2", 2),
        ("Medina-v2", 3),
        ("Medina-v2", 4),
    }
    starts = {engine["first"] for _, engine in engine_games() if engine["variant"] == "Medina"}
    assert starts - {0}, "V1 games with a starting seat other than A"
    assert any(engine["tea"] for _, engine in engine_games())
