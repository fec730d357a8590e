"""The public Python surface: `import medina_cli as medina` and the names of docs/api.md."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import EXAMPLES

import medina_cli as medina

PLAYERS = ["Anna", "Ben", "Cleo"]
SURFACE = {
    "load_ruleset",
    "Game",
    "Placement",
    "IllegalPlacement",
    "Event",
    "score",
    "ScoreSheet",
    "standings",
    "read_record",
    "Record",
    "replay",
    "Replay",
    "read_board",
    "Board",
    "Rules",
    "Ruleset",
    "MedinaError",
    "UnusableInput",
    "BadArgument",
    "Problem",
    "compare",
    "Comparison",
    "sweep_readings",
    "Readings",
    "Variant",
    "engine_name",
    "engine_requested",
    "EngineUnavailable",
    "Position",
    "Outcome",
    "make_agent",
}


def game(ruleset="original-2001", players=PLAYERS, **setup):
    return medina.Game(
        medina.load_ruleset(ruleset, players=len(players)), players, **(setup or {"merchant": "K7"})
    )


def test_the_top_level_names_are_exactly_the_public_surface():
    assert set(medina.__all__) == SURFACE and len(medina.__all__) == len(SURFACE)
    assert all(getattr(medina, name) is not None for name in medina.__all__)
    with pytest.raises(AttributeError):
        medina.geometry_for  # noqa: B018 (internals stay below the surface)


def test_load_ruleset_for_a_player_count_with_overrides():
    rules = medina.load_ruleset(
        "bsw-dm-2003", players=4, overrides={"towers.reconnect": "once_per_palace_arm"}
    )
    assert (
        isinstance(rules, medina.Rules)
        and rules.players == 4
        and rules.towers.reconnect == "once_per_palace_arm"
    )
    assert isinstance(medina.load_ruleset("original-2001"), medina.Ruleset)
    with pytest.raises(medina.MedinaError, match="3 or 4 players, not 2"):
        medina.load_ruleset("original-2001", players=2)
    with pytest.raises(medina.MedinaError, match="no such parameter"):
        medina.load_ruleset("original-2001", overrides={"towers.reconect": "once_per_palace_arm"})


def test_a_game_takes_a_ruleset_and_cell_names():
    g = medina.Game(
        medina.load_ruleset("second-edition-2014"), ["Anna", "Ben"], merchant="k7", well="F5"
    )
    assert (g.to_move, g.is_over(), g.move_stack) == ("Anna", False, [])
    assert (
        g.variant.geometry.name(g.well) == "F5"
        and g.variant.geometry.name(g._start_merchant) == "K7"
    )
    with pytest.raises(ValueError, match="merchant 'Z9'"):
        game(merchant="Z9")
    with pytest.raises(ValueError, match="for 3 distinct players"):
        game(players=["Anna", "Anna", "Ben"])


def test_placements_parse_and_print():
    p = medina.Placement.parse(" Grey   k08 ")
    assert p == medina.Placement("grey", "K8") and str(p) == "grey K8"
    assert (
        medina.Placement.parse("TEA") == medina.Placement("tea")
        and str(medina.Placement("tea")) == "tea"
    )
    assert (
        medina.Placement.parse(" Pass") == medina.Placement("pass")
        and str(medina.Placement("pass")) == "pass"
    )
    for text in ("grey", "grey K8 wall", "grey 8K", ""):
        with pytest.raises(medina.IllegalPlacement) as refused:
            medina.Placement.parse(text)
        assert refused.value.code == "bad-placement"


def test_equal_spellings_are_equal_placements_with_one_square_number():
    assert (
        medina.Placement("Grey", "k08")
        == medina.Placement("grey", "K8")
        == medina.Placement("grey", 192)
    )
    assert len({medina.Placement("grey", "K8"), medina.Placement.parse("GREY k8")}) == 1
    assert (
        medina.Placement("grey", "K8").square == 7 * 26 + 10
        and medina.Placement("wall", "A1").square == 0
    )
    two = medina.Game(
        medina.load_ruleset("second-edition-2014", players=2),
        ["Anna", "Ben"],
        merchant="F5",
        well="K8",
    )
    four = game()
    assert (
        medina.Placement("Grey", "c3") in two.legal_placements()
        and medina.Placement("GREY", "C3") in four.legal_placements()
    )
    for text in ("grey K0", "grey K27"):  # on no board at all
        with pytest.raises(medina.IllegalPlacement) as refused:
            medina.Placement.parse(text)
        assert refused.value.code == "bad-cell"


def test_a_pass_is_a_placement_the_engine_never_accepts():
    g = game()
    with pytest.raises(medina.IllegalPlacement) as refused:
        g.push("pass")
    assert refused.value.code == "pass-while-able" and g.move_stack == []
    assert medina.Placement("pass") not in g.legal_placements()


def test_legal_placements_are_values_and_push_takes_text_or_values():
    g = game()
    moves = g.legal_placements()
    assert medina.Placement("grey", "K8") in moves and medina.Placement("wall", "A12") in moves
    assert medina.Placement("roof", "K8") not in moves and all(
        isinstance(p, medina.Placement) for p in moves
    )
    g.push("grey K8")
    g.push(medina.Placement("wall", "A12"))
    assert (
        g.move_stack == [medina.Placement("grey", "K8"), medina.Placement("wall", "A12")]
        and g.to_move == "Ben"
    )


@pytest.mark.parametrize(
    "text, code",
    [
        ("roof K8", "roof-not-on-building"),
        ("gold K8", "unknown-piece"),
        ("grey S8", "bad-cell"),
        ("grey K7", "cell-occupied"),
        ("tea", "tea-not-allowed"),
        ("grey", "bad-placement"),
    ],
)
def test_an_illegal_push_says_which_rule_and_changes_nothing(text, code):
    g = game()
    before = (g.legal_placements(), g.move_stack, [dict(s) for s in g.supply], list(g.events))
    with pytest.raises(medina.IllegalPlacement) as refused:
        g.push(text)
    assert (
        isinstance(refused.value, ValueError) and refused.value.code == code and str(refused.value)
    )
    assert (
        g.legal_placements(),
        g.move_stack,
        [dict(s) for s in g.supply],
        list(g.events),
    ) == before


def test_tea_is_offered_where_a_tea_tile_may_be_used_and_pops_back():
    record = medina.read_record(str(EXAMPLES / "second-edition-2014-3p.yaml"))
    g = medina.replay(record).game
    while g.move_stack and medina.Placement("tea") not in g.legal_placements():
        g.pop()
    assert g.tea[g.seat_to_move] > 0 and g.can_tea()
    tea_before = list(g.tea)
    g.push("tea")
    assert g.move_stack[-1] == medina.Placement("tea") and str(g.events[-1]).endswith(
        "uses a tea tile instead of a placement"
    )
    assert g.pop() == medina.Placement("tea") and g.tea == tea_before


def test_pop_returns_the_placement_and_restores_the_turn():
    g = game()
    g.push("grey K8")
    g.push("roof K8")
    assert [e.kind for e in g.events] == ["claim", "palace-tile"]
    assert g.pop() == medina.Placement("roof", "K8") and g.to_move == "Anna" and g.events == []
    assert g.pop() == medina.Placement("grey", "K8") and g.move_stack == []
    with pytest.raises(IndexError):
        g.pop()


def test_turn_made_and_turn_left_count_a_turn_down_to_the_end_of_the_game():
    """Each push of an open turn moves one placement (a tea tile as one) from `turn_left` to `turn_made`;
    a new turn starts at 0 made and its slots left; nothing is left once the game is over."""
    g = game("second-edition-2014", merchant="K7", well="F5")
    tea_used = 0
    while not g.is_over():
        started, made, left = g.turns_started, g.turn_made, g.turn_left
        placement = g.legal_placements()[-1]  # tea where it may replace a placement
        tea_used += placement == medina.Placement("tea")
        g.push(placement)
        if g.is_over():
            break
        if g.turns_started == started:
            assert (g.turn_made, g.turn_left) == (made + 1, left - 1) and g.turn_open()
        else:
            assert (g.turn_made, g.turn_left) == (0, g.turn_slots) and not g.turn_open()
    assert g.turn_left == 0 and tea_used


def test_a_copy_is_independent():
    g = game()
    g.push("grey K8")
    clone = g.copy()
    clone.push("roof K8")
    assert (
        g.move_stack == [medina.Placement("grey", "K8")]
        and g._palace_at[g.variant.geometry.parse("K8")].owner is None
    )
    assert (
        clone._palace_at[clone.variant.geometry.parse("K8")].owner == 0
        and clone.supply[0]["roof"] == g.supply[0]["roof"] - 1
    )
    assert (
        clone.pop() == medina.Placement("roof", "K8")
        and clone.legal_placements() == g.legal_placements()
    )


def test_events_are_values_with_fields_and_their_sentence():
    g = game()
    g.push("grey K8")
    g.push("roof K8")
    claim, tile = g.events
    assert (claim.kind, claim.player, claim.holder, claim.colour, claim.cell, claim.size) == (
        "claim",
        "Anna",
        "Anna",
        "grey",
        "K8",
        1,
    )
    assert str(claim) == claim.text == "Anna roofs the grey palace at K8 (size 1)"
    assert (tile.kind, tile.tile, tile.holder, tile.previous) == (
        "palace-tile",
        "grey",
        "Anna",
        None,
    )
    assert str(tile) == "the grey palace tile goes to Anna (palace size 1)"
    assert tile == medina.Event("palace-tile", "Anna", "Anna", "grey", size=1, tile="grey")


def test_score_a_game_and_a_board():
    outcome = medina.replay(medina.read_record(str(EXAMPLES / "original-2001-3p.yaml")))
    assert (
        outcome.valid
        and outcome.problems == []
        and outcome.game.is_over()
        and outcome.game.to_move is None
    )
    totals = medina.score(outcome.game).totals
    assert set(totals) == set(outcome.record.players) and all(
        isinstance(v, int) for v in totals.values()
    )
    assert totals == outcome.record.result
    board = medina.read_board(
        str(EXAMPLES.parent / "tests" / "fixtures" / "boards" / "e1-original-2001.yaml")
    )
    assert isinstance(medina.score(board), medina.ScoreSheet) and medina.score(board).totals


def test_to_record_reads_back_and_replays_to_the_same_position(tmp_path):
    source = medina.replay(medina.read_record(str(EXAMPLES / "second-edition-2014-4p.yaml"))).game
    g = source.copy()
    for _ in range(7):
        g.pop()
    for position in (g, source):
        path = tmp_path / "game.yaml"
        path.write_text(position.to_record(), encoding="utf-8")
        outcome = medina.replay(medina.read_record(str(path)))
        assert (
            outcome.record.problems.errors == []
            and outcome.errors == []
            and outcome.result_errors == []
        )
        again = outcome.game
        assert (
            again.move_stack == position.move_stack
            and again.legal_placements() == position.legal_placements()
        )
        assert (
            again.events == position.events
            and medina.score(again).to_json() == medina.score(position).to_json()
        )
    assert "result:" in source.to_record() and "result:" not in g.to_record()


def test_a_game_writes_and_draws_itself_after_importing_the_engine_alone():
    """`to_record()` and `_repr_svg_()` import the record writer and the SVG renderer when used: no
    registry that only the public package would have filled."""
    code = (
        "from medina_cli.engine.game import Game\n"
        "from medina_cli.rules.loader import load_ruleset\n"
        "game = Game(load_ruleset('original-2001').for_players(3), ['Anna', 'Ben', 'Cleo'], merchant='K7')\n"
        "game.push('grey K8')\n"
        "print(game.to_record(), end='')\n"
        "print(game._repr_svg_().startswith('<svg'))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    g = game()
    g.push("grey K8")
    assert out == g.to_record() + "True\n"


def test_replay_to_a_turn():
    record = medina.read_record(str(EXAMPLES / "original-2001-4p.yaml"))
    outcome = medina.replay(record, to_turn=3)
    assert outcome.valid and outcome.turns_played == 3 and not outcome.game.is_over()
    assert len(outcome.game.move_stack) == sum(len(t.actions) for t in record.turns[:3])


def test_the_package_ships_py_typed():
    from importlib.resources import files

    assert files("medina_cli").joinpath("py.typed").is_file()


def test_compare_and_the_readings_sweep_at_the_top_level():
    record = medina.read_record(str(EXAMPLES / "original-2001-3p.yaml"))
    comparison = medina.compare(record, ["original-2001", "bsw-dm-2003"])
    assert (
        isinstance(comparison, medina.Comparison)
        and comparison.to_json()["format"] == "medina-compare/1"
    )
    assert [o.name for o in comparison.outcomes] == ["original-2001", "bsw-dm-2003"]
    sweep = medina.sweep_readings(record)
    assert isinstance(sweep, medina.Readings) and sweep.to_json()["ruleset"] == "original-2001"


def test_to_record_names_a_ruleset_file_so_that_it_reads_back_from_anywhere(tmp_path, monkeypatch):
    club = tmp_path / "club"
    club.mkdir()
    (club / "house.yaml").write_text(
        "medina: ruleset/1\nid: our-club\nextends: original-2001\nsupply: {3: {walls: 8}}\n"
    )
    monkeypatch.chdir(club)
    g = medina.Game(
        medina.load_ruleset("house.yaml", players=3), ["Anna", "Ben", "Cleo"], merchant="K7"
    )
    g.push("grey K8")
    text = g.to_record()
    assert f"ruleset: {club / 'house.yaml'}" in text
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.yaml").write_text(text)
    again = medina.replay(medina.read_record("game.yaml"))
    assert again.valid and again.game.move_stack == g.move_stack and again.game.supply == g.supply
    with_set = medina.Game(
        medina.load_ruleset("original-2001", players=3, overrides={"supply.3.walls": 8}),
        ["Anna", "Ben", "Cleo"],
        merchant="K7",
    )
    with pytest.raises(ValueError, match="overrides"):
        with_set.to_record()
    assert "ruleset: club/house.yaml" in with_set.to_record(ruleset="club/house.yaml")


def test_friendly_errors_of_the_python_surface():
    g = game()
    with pytest.raises(IndexError, match="empty move stack"):
        g.pop()
    with pytest.raises(medina.IllegalPlacement) as refused:
        g.push("gery K8")
    assert "did you mean grey?" in str(refused.value) and "neutral" not in str(refused.value)
    with pytest.raises(medina.BadArgument, match="is for 3 or 4 players, not 2"):
        medina.load_ruleset("original-2001").for_players(2)


@pytest.mark.parametrize(
    "overrides",
    [
        [("turns.placements", 1), ("towers.reconnect", "every_new_contact")],  # pairs
        {
            "turns.placements": "1",
            "towers.reconnect": "every_new_contact",
        },  # text read as --set reads it
        ["turns.placements=1", "towers.reconnect=every_new_contact"],
    ],
)
def test_overrides_in_every_form(overrides):
    rules = medina.load_ruleset("original-2001", players=3, overrides=overrides)
    assert (rules.turns.placements, rules.towers.reconnect) == (1, "every_new_contact")


def test_a_palace_score_shows_its_cells_by_name_not_its_mask():
    import re

    game = medina.replay(medina.read_record(str(EXAMPLES / "original-2001-3p.yaml"))).game
    palace = medina.score(game).players[0].palaces[0]
    shown = repr(palace)
    assert shown.startswith(f"PalaceScore(colour={palace.colour!r}, cells={palace.cells!r}, ")
    assert f"points={palace.points}" in shown and not re.search(r"\d{6}", shown)


@pytest.mark.parametrize(
    "setup, words",
    [
        (
            {"merchant": "K7", "well": "K7"},
            "the start merchant and the well must be on different cells",
        ),
        (
            {"merchant": "B2", "well": "K7"},
            "setup merchant B2: must be an interior cell off the edge row",
        ),
        (
            {"merchant": "K7", "well": "B2"},
            "setup well B2: must be an interior cell off the edge row",
        ),
        (
            {"merchant": "A7", "well": "K7"},
            "setup merchant A7: must be an interior cell off the edge row",
        ),
    ],
)
def test_a_game_refuses_the_setups_a_record_refuses_in_the_same_words(setup, words, tmp_path):
    """Game and the record reader share one owner of the setup rules: what Game takes, to_record()
    writes as a record that validates; what it refuses, a record of it is refused for, in the same words."""
    rules = medina.load_ruleset("second-edition-2014")
    with pytest.raises(ValueError) as refused:
        medina.Game(rules, ["A", "B"], **setup)
    assert str(refused.value) == words
    text = medina.Game(rules, ["A", "B"], merchant="K7", well="F5").to_record()
    path = tmp_path / "game.yaml"
    path.write_text(text.replace("K7", setup["merchant"]).replace("F5", setup["well"]))
    problems = medina.replay(medina.read_record(str(path))).problems
    assert [(p.code, p.message) for p in problems] == [("bad-setup", words)]
