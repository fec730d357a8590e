"""docs/rulings.md §2 setup: the start merchant and the well stand off the edge row, on different cells;
the well exists only in 2014; the first player in `players` starts."""

import pytest
from conftest import EDITIONS, record_text, replay_text
from rulekit import NAMES, Position


def setup_problems(ruleset, players=3, **setup):
    text = record_text(ruleset, list(NAMES[:players]), [], **setup)
    _record, outcome = replay_text(text)
    return text.splitlines(), outcome


def only_error(lines, outcome):
    assert len(outcome.problems) == 1, [p.human() for p in outcome.problems]
    problem = outcome.problems[0]
    return problem.code, lines[problem.line - 1].split(":")[0].strip()


def wells(ruleset):
    return {"well": "N10"} if ruleset == "second-edition-2014" else {}


@pytest.mark.parametrize("ruleset", EDITIONS)
@pytest.mark.parametrize("cell", ["C3", "P11", "J7"])
def test_start_merchant_off_the_edge_row_is_accepted(ruleset, cell):
    _lines, outcome = setup_problems(ruleset, merchant=cell, **wells(ruleset))
    assert outcome.problems == []
    assert (
        outcome.game.setup["merchant"] == cell.upper() and outcome.game.piece_at(cell) == "merchant"
    )


@pytest.mark.parametrize("ruleset", EDITIONS)
@pytest.mark.parametrize("cell", ["B2", "B7", "Q7", "H2", "H12", "Q12"])
def test_start_merchant_on_the_edge_row_is_refused(ruleset, cell):
    lines, outcome = setup_problems(ruleset, merchant=cell, **wells(ruleset))
    assert only_error(lines, outcome) == ("bad-setup", "merchant")
    assert outcome.game is None


@pytest.mark.parametrize("ruleset", EDITIONS)
@pytest.mark.parametrize("cell", ["A7", "H13", "R1"])
def test_start_merchant_on_the_wall_ring_or_a_tower_is_refused(ruleset, cell):
    lines, outcome = setup_problems(ruleset, merchant=cell, **wells(ruleset))
    assert only_error(lines, outcome) == ("bad-setup", "merchant")


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_start_merchant_off_the_board_is_a_bad_cell(ruleset):
    lines, outcome = setup_problems(ruleset, merchant="S7", **wells(ruleset))
    assert only_error(lines, outcome) == ("bad-cell", "merchant")


def test_two_player_board_has_its_own_edge_row_and_extent():
    # 2014, 2 players: interior B2-O11, so O10 and C11 are edge cells and P5 is on the ring
    for cell, code in (
        ("O10", "bad-setup"),
        ("C11", "bad-setup"),
        ("P5", "bad-setup"),
        ("Q5", "bad-cell"),
    ):
        lines, outcome = setup_problems("second-edition-2014", 2, merchant=cell, well="E5")
        assert only_error(lines, outcome) == (code, "merchant"), cell
    lines, outcome = setup_problems("second-edition-2014", 2, merchant="N10", well="C3")
    assert outcome.problems == []


@pytest.mark.parametrize("cell", ["C3", "P11"])
def test_well_off_the_edge_row_is_accepted(cell):
    _lines, outcome = setup_problems("second-edition-2014", merchant="J7", well=cell)
    assert outcome.problems == []
    assert outcome.game.well == outcome.game.variant.geometry.parse(cell)


@pytest.mark.parametrize("cell", ["B5", "Q11", "G12", "A5"])
def test_well_on_the_edge_row_or_ring_is_refused(cell):
    lines, outcome = setup_problems("second-edition-2014", merchant="J7", well=cell)
    assert only_error(lines, outcome) == ("bad-setup", "well")


def test_well_and_start_merchant_on_the_same_cell_is_refused():
    lines, outcome = setup_problems("second-edition-2014", merchant="J7", well="j7")
    assert only_error(lines, outcome) == ("bad-setup", "well")


def test_2014_needs_a_well():
    lines, outcome = setup_problems("second-edition-2014", merchant="J7")
    assert only_error(lines, outcome) == ("bad-setup", "setup")


@pytest.mark.parametrize("ruleset", ["original-2001", "bsw-dm-2003"])
def test_no_well_before_2014(ruleset):
    lines, outcome = setup_problems(ruleset, merchant="J7", well="F6")
    assert only_error(lines, outcome) == ("unknown-key", "well")


@pytest.mark.parametrize("ruleset", EDITIONS)
def test_the_first_listed_player_starts(ruleset):
    first = "Anna: wall A12" if ruleset == "second-edition-2014" else "Anna: wall A12, wall A11"
    text = record_text(ruleset, ["Anna", "Ben", "Cleo"], [first], **wells(ruleset))
    assert replay_text(text)[1].problems == []
    text = record_text(
        ruleset, ["Anna", "Ben", "Cleo"], [first.replace("Anna", "Ben")], **wells(ruleset)
    )
    problems = replay_text(text)[1].problems
    assert [(p.code, p.turn, p.player) for p in problems] == [("out-of-turn", 1, "Ben")]


# docs/rulings.md §1: what each player starts with, the board, the towers and the tiles, per edition
SUPPLIES = {  # per colour, roofs, neutral roofs, stables, merchants, walls
    ("original-2001", 3): (6, 4, 0, 4, 8, 10),
    ("original-2001", 4): (5, 4, 0, 3, 6, 8),
    ("bsw-dm-2003", 3): (6, 4, 0, 4, 8, 10),
    ("bsw-dm-2003", 4): (5, 4, 0, 3, 6, 8),
    ("second-edition-2014", 2): (8, 4, 2, 4, 12, 15),
    ("second-edition-2014", 3): (6, 4, 1, 4, 8, 12),
    ("second-edition-2014", 4): (5, 4, 0, 3, 6, 9),
}


@pytest.mark.parametrize("ruleset, players", SUPPLIES)
def test_board_and_pieces_per_edition_and_player_count(ruleset, players):
    game = Position(ruleset, players).game
    colours = (
        ("grey", "purple", "brown", "orange")
        if ruleset == "second-edition-2014"
        else ("grey", "black", "brown", "orange")
    )
    per_colour, roofs, neutral, stables, merchants, walls = SUPPLIES[ruleset, players]
    expected = {
        **dict.fromkeys(colours, per_colour),
        "roof": roofs,
        "neutral": neutral,
        "stable": stables,
        "merchant": merchants,
        "wall": walls,
    }
    assert game.supply == [expected] * players
    assert [(c.name, c.value) for c in game.rules.colours] == list(
        zip(colours, (1, 2, 3, 4), strict=True)
    )
    geo = game.variant.geometry
    assert (geo.columns, geo.rows) == ((14, 10) if players == 2 else (16, 11))
    corners = {
        "NW": geo.parse("A13" if players > 2 else "A12"),
        "SE": geo.parse("R1" if players > 2 else "P1"),
        "NE": geo.parse("R13" if players > 2 else "P12"),
        "SW": geo.parse("A1"),
    }
    assert geo.tower_cell == {
        1: corners["NW"],
        2: corners["SE"],
        3: corners["NE"],
        4: corners["SW"],
    }
    second = ruleset == "second-edition-2014"
    assert game.rules.towers.merchants == ({1: 3, 2: 2, 3: 1, 4: 0} if second else {})
    assert game.rules.tea.awards == ((3, 2, 1, 0) if second else ())
    assert (game.well is not None) == second
