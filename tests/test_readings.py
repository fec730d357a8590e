"""Open readings: `compare --variant` columns, `compare FILE --readings` (medina-readings/1) and the
sweep behind it, on small games where one reading flips the winner and others change nothing."""

from __future__ import annotations

import json

import pytest
from conftest import EXAMPLES, record_text
from scorekit import run

from medina_cli.comparison import sweep_readings
from medina_cli.records.record import parse_record
from medina_cli.rules.loader import alternatives, load_ruleset

MALT_TOWERS = "board.towers={NW: 1, NE: 2, SW: 3, SE: 4}"
# Anna's grey palace at Q2 touches the wall Q1 of the south-east tower when she roofs it: tower tile 2
# as written (5 points against Ben's 6), tile 4 under MALT's numbering (7 against 6)
FLIP = [
    "Anna: grey Q2, wall Q1",
    "Ben: black D7, black D8",
    "Cleo: brown M10, wall A2",
    "Anna: roof Q2, wall A12",
    "Ben: black D9, stable E8",
    "Cleo: wall A3, wall A4",
    "Anna: wall B13, wall C13",
    "Ben: roof D8, wall A5",
]
# a blocked grey palace at B2 roofed by Ben: legal as written, illegal if a blocked palace may not be roofed
BLOCKED = ["Anna: grey B2, orange C4", "Ben: brown D2, roof B2"]


@pytest.fixture
def game(tmp_path):
    def write(turns, ruleset="original-2001"):
        path = tmp_path / "game.yaml"
        path.write_text(record_text(ruleset, ["Anna", "Ben", "Cleo"], turns))
        return path

    return write


def readings_json(path, *args):
    code, out, err = run("compare", path, "--readings", "--json", *args)
    return code, json.loads(out), err


def by_param(doc, param, value):
    return next(r for r in doc["readings"] if r["param"] == param and r["value"] == value)


def test_tower_numbering_flips_the_winner_and_the_merchant_reading_changes_nothing(game):
    code, doc, _ = readings_json(game(FLIP))
    assert code == 0 and doc["format"] == "medina-readings/1" and doc["ruleset"] == "original-2001"
    assert doc["baseline"]["valid"] and doc["baseline"]["winners"] == ["Ben"]
    assert doc["baseline"]["totals"] == {"Anna": 5, "Ben": 6, "Cleo": 0}
    flip = by_param(doc, "board.towers", {"NW": 1, "NE": 2, "SW": 3, "SE": 4})
    assert (
        flip["valid"]
        and flip["winners"] == ["Anna"]
        and flip["totals"] == {"Anna": 7, "Ben": 6, "Cleo": 0}
    )
    assert flip["changes_winner"] and flip["changes_scores"]
    same = by_param(doc, "merchants.new_chain_max_neighbours", 1)
    assert (
        same["valid"] and same["winners"] == ["Ben"] and same["totals"] == doc["baseline"]["totals"]
    )
    assert not same["changes_winner"] and not same["changes_scores"]
    # 2001's text settles the tie-break and the tower re-connection: neither is swept
    assert {r["param"] for r in doc["readings"]} == {
        "board.towers",
        "merchants.new_chain_max_neighbours",
        "roofs.on_blocked_palace",
        "turns.forced_roof",
    }


def test_the_text_puts_the_winner_changes_first_and_lists_what_has_no_effect(game):
    code, out, _ = run("compare", game(FLIP), "--readings")
    assert code == 0
    table, rest = out.split("No effect on this game: ")
    assert table.index("as written") < table.index(MALT_TOWERS) and "changes the winner" in table
    assert "merchants.new_chain_max_neighbours=1" in rest and "merchants" not in table


def test_a_reading_can_make_the_record_illegal(game):
    code, doc, _ = readings_json(game(BLOCKED))
    assert code == 0 and doc["baseline"]["valid"]
    blocked = by_param(doc, "roofs.on_blocked_palace", False)
    assert (
        blocked["valid"] is False and blocked["changes_legality"] and not blocked["changes_winner"]
    )
    assert (blocked["error"]["turn"], blocked["error"]["placement"], blocked["error"]["code"]) == (
        2,
        2,
        "roof-on-blocked-palace",
    )
    assert blocked["winners"] == [] and blocked["totals"] == {}
    out = run("compare", game(BLOCKED), "--readings")[1]
    assert "roofs.on_blocked_palace=false  illegal at turn 2, placement 2 (Ben)" in out


def test_which_readings_apply_to_which_edition():
    params = {
        rid: [a.label for a in alternatives(load_ruleset(rid))]
        for rid in ("original-2001", "bsw-dm-2003", "second-edition-2014")
    }
    assert "towers.reconnect=once_per_palace_arm" in params["bsw-dm-2003"]
    assert "towers.reconnect=once_per_palace_arm" in params["second-edition-2014"]
    assert not any(p.startswith("towers.") for p in params["original-2001"])  # FI and JA agree
    assert "scoring.tiebreak=largest_palace_then_earliest_claim" in params["second-edition-2014"]
    assert not any(
        p.startswith("scoring.") for p in params["original-2001"] + params["bsw-dm-2003"]
    )
    assert "turns.forced_roof=only_player_with_pieces" in params["original-2001"]
    assert not any(
        p.startswith("turns.") for p in params["bsw-dm-2003"] + params["second-edition-2014"]
    )
    assert "colours.purple.value=3, colours.brown.value=2" in params["second-edition-2014"]


def test_the_library_sweep_is_what_the_command_prints(game):
    path = game(FLIP)
    sweep = sweep_readings(parse_record(path.read_text(), str(path)))
    assert {**sweep.to_json(), "errors": [], "warnings": []} == readings_json(path)[1]
    assert sweep.ranked()[0].alternative.label == MALT_TOWERS


def test_variants_are_columns_named_by_label_or_by_their_overrides(game):
    path = game(FLIP)
    code, out, _ = run(
        "compare",
        path,
        "--variant",
        f"malt:original-2001,{MALT_TOWERS}",
        "--variant",
        "original-2001,merchants.new_chain_max_neighbours=1",
        "--json",
    )
    doc = json.loads(out)
    defaults = [r["ruleset"] for r in json.loads(run("compare", path, "--json")[1])["results"]]
    assert code == 0 and [r["ruleset"] for r in doc["results"]] == [
        *defaults,
        "malt",
        "original-2001 merchants.new_chain_max_neighbours=1",
    ]
    assert {
        k: v
        for k, v in doc["differences"]["winners"]["by_ruleset"].items()
        if k not in defaults[1:]
    } == {
        "original-2001": ["Ben"],
        "malt": ["Anna"],
        "original-2001 merchants.new_chain_max_neighbours=1": ["Ben"],
    }
    both = json.loads(
        run(
            "compare",
            path,
            "--rulesets",
            "original-2001,bsw-dm-2003",
            "--variant",
            "x:bsw-dm-2003,towers.reconnect=once_per_palace_arm",
            "--json",
        )[1]
    )
    assert [r["ruleset"] for r in both["results"]] == ["original-2001", "bsw-dm-2003", "x"]


@pytest.mark.parametrize(
    "args, words",
    [
        (("--variant", "lonely:"), "expected [LABEL:]ID,PARAM=VALUE"),
        (("--variant", "original-2001,towers.reconnect"), "expected [LABEL:]ID,PARAM=VALUE"),
        (("--variant", "x:original-2001,no.such=1"), "no such parameter"),
        (
            ("--variant", "original-2001:original-2001,scoring.tiebreak=shared"),
            "another column has this name",
        ),
        (("--readings", "--rulesets", "original-2001"), "does not go with --rulesets"),
        (("--readings", "--set", "no.such=1"), "no such parameter"),
    ],
)
def test_bad_variants_and_readings_are_usage_errors(game, args, words):
    code, out, err = run("compare", game(FLIP), *args)
    assert code == 2 and out == "" and words in err
    code, out, err = run("compare", game(FLIP), *args, "--json")  # one document, errors inside
    doc = json.loads(out)
    assert code == 2 and doc["format"] == (
        "medina-readings/1" if "--readings" in args else "medina-compare/1"
    )
    assert words in doc["errors"][0]["message"]


# --- simulate --readings --------------------------------------------------------------------------


def test_wilson_interval():
    from medina_cli.study.stats import wilson_interval

    assert wilson_interval(0, 0) is None
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    assert tuple(round(x, 4) for x in wilson_interval(5, 10)) == (0.2366, 0.7634)
    assert tuple(round(x, 4) for x in wilson_interval(10, 10)) == (0.7225, 1.0)


@pytest.mark.slow
def test_each_simulated_game_counts_as_compare_readings_judges_its_record():
    from medina_cli.comparison import sweep_readings
    from medina_cli.study.games import play_one
    from medina_cli.study.readings import readings_chunk

    rules = load_ruleset("second-edition-2014").for_players(3)
    per_game = readings_chunk(("second-edition-2014", (), 3, 7), 0, 4)
    for index, effects in enumerate(per_game):
        _, text = play_one(rules, 7, index, record_ref="second-edition-2014")
        sweep = sweep_readings(parse_record(text, f"game-{index}.yaml"))
        assert [e[:4] for e in effects] == [
            (
                r.changes_winner,
                r.changes_scores,
                not r.outcome.comparable,
                r.outcome.comparable and not r.outcome.game.is_over(),
            )
            for r in sweep.readings
        ]


@pytest.mark.slow
def test_each_game_played_under_a_reading_counts_as_its_record_replayed_as_written():
    from medina_cli.engine.playout import play_random_game
    from medina_cli.engine.scoring import score_game
    from medina_cli.records.replay import replay
    from medina_cli.study.games import game_rng, player_names
    from medina_cli.study.readings import readings_chunk

    ruleset = load_ruleset("second-edition-2014")
    per_game = readings_chunk(("second-edition-2014", (), 3, 7), 0, 4)
    illegal = 0
    for index, effects in enumerate(per_game):
        for alt, effect in zip(alternatives(ruleset), effects, strict=True):
            other = load_ruleset(ruleset, alt.overrides).for_players(3)
            game = play_random_game(other, player_names(3), game_rng(7, index))
            written = replay(
                parse_record(game.to_record("second-edition-2014"), "game.yaml"), check_result=False
            )
            valid = not written.problems
            sheets = (score_game(game), score_game(written.game)) if valid else None
            assert effect[4:] == (
                valid and sheets[0].winners != sheets[1].winners,
                valid and sheets[0].totals != sheets[1].totals,
                not valid,
                valid and not written.game.is_over(),
            ), (index, alt.label)
            illegal += not valid
    assert (
        illegal
    )  # some reading (another tower numbering) lets a game go where the written rules do not


@pytest.mark.slow
def test_simulate_readings_json_and_text():
    code, out, _ = run(
        "simulate",
        "--ruleset",
        "original-2001",
        "--players",
        "3",
        "--games",
        "6",
        "--readings",
        "--json",
    )
    doc = json.loads(out)
    assert code == 0 and doc["format"] == "medina-simulate-readings/1" and doc["games"] == 6
    assert [r["overrides"] for r in doc["readings"]] == [
        [a.label] for a in alternatives(load_ruleset("original-2001"))
    ]
    for r in doc["readings"]:
        low, high = r["changes_winner_interval"]
        assert low <= r["changes_winner_share"] <= high and r["changes_winner"] + r["illegal"] <= 6
    code, out, _ = run(
        "simulate", "--ruleset", "original-2001", "--players", "3", "--games", "6", "--readings"
    )
    assert code == 0 and "95% interval (Wilson)" in out and MALT_TOWERS in out
    code, _, err = run("simulate", "--rulesets", "original-2001,bsw-dm-2003", "--readings")
    assert code == 2 and "--readings goes with --ruleset" in err


def test_set_moves_the_baseline_and_a_reading_can_make_the_record_legal(game):
    code, doc, _ = readings_json(game(BLOCKED), "--set", "roofs.on_blocked_palace=false")
    assert code == 1 and doc["baseline"]["valid"] is False and doc["baseline"]["error"]["turn"] == 2
    allowed = by_param(doc, "roofs.on_blocked_palace", True)
    assert allowed["valid"] and allowed["changes_legality"] and not allowed["changes_winner"]
    out = run("compare", game(BLOCKED), "--readings", "--set", "roofs.on_blocked_palace=false")[1]
    assert "roofs.on_blocked_palace=true  legal under this reading" in out


def test_readings_of_a_record_its_ruleset_does_not_apply_to_say_so(tmp_path):
    """A 2014 record without the well its ruleset needs: the sweep says why it does not apply (it was an
    internal error) and lists no reading as having no effect."""
    text = (EXAMPLES / "second-edition-2014-2p.yaml").read_text()
    path = tmp_path / "nowell.yaml"
    path.write_text("".join(line for line in text.splitlines(keepends=True) if "well:" not in line))
    code, out, err = run("compare", path, "--readings")
    assert (code, err) == (1, "")
    assert out.strip().splitlines() == [
        f"{path}: 2 players (Anna, Ben) under second-edition-2014; as written: not applicable: the ruleset "
        "needs a well; the record's setup has none"
    ]
