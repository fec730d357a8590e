"""`medina simulate`: simulated games are real games (they validate and score the same after a
write/read round trip), a seed fixes the games whatever the number of jobs, and the statistics
add up to what the games hold."""

from __future__ import annotations

import json

import fuzzkit
import pytest
from conftest import EDITIONS, rules_for

from medina_cli.engine.playout import play_random_game
from medina_cli.engine.scoring import score_game
from medina_cli.records.record import parse_record
from medina_cli.records.replay import replay
from medina_cli.rules.loader import load_ruleset
from medina_cli.study.folder import StudyFolder, options_of
from medina_cli.study.games import PER_GAME, SOURCES, GameSummary, game_rng, play_one, player_names
from medina_cli.study.parallel import Workers
from medina_cli.study.results import Statistics
from medina_cli.study.runner import Part, Study, run_study

COMBINATIONS = [(edition, n) for edition in EDITIONS for n in load_ruleset(edition).player_counts]


@pytest.mark.parametrize("edition,players", COMBINATIONS, ids=lambda x: str(x))
def test_simulated_games_round_trip(edition, players):
    rules = rules_for(edition, players)
    for index in range(3):
        summary, text = play_one(rules, seed=7, index=index, record_ref=edition)
        game = play_random_game(rules, player_names(players), game_rng(7, index))
        record = parse_record(text, f"sim-{index}.yaml")
        outcome = replay(record)
        assert outcome.problems == [] and outcome.finished
        assert record.result == dict(zip(player_names(players), summary.totals, strict=True))
        assert score_game(outcome.game).to_json() == score_game(game).to_json()
        assert outcome.game.placements_made == summary.placements == game.placements_made
        assert len(record.turns) == summary.turns


def study_of(ref, players, games, seed, overrides=(), record_ref=None):
    ruleset = load_ruleset(ref, overrides)
    return Study((Part(ruleset.id, ruleset.for_players(players), record_ref),), games, seed)


def simulate(ref, players, games, seed, overrides=(), jobs=1):
    """The summaries of a study's games in game order (read from the games the tasks bring)."""
    study = study_of(ref, players, games, seed, overrides, record_ref=ref)
    found = sorted(
        (game["game"], game["summary"])
        for played in run_study(study, Workers(jobs))
        for game in played.games
    )
    assert [number for number, _ in found] == list(range(1, games + 1))
    return [GameSummary.from_json(json.loads(json.dumps(summary))) for _, summary in found]


def test_seed_gives_the_same_games_with_one_and_two_jobs(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    for folder, jobs in ((one, 1), (two, 2)):
        study = study_of("second-edition-2014", 3, 12, 5, record_ref="second-edition-2014")
        out = StudyFolder(folder, study)
        out.start(options_of(study, 3, [{}]))
        for played in run_study(study, Workers(jobs)):
            out.write(played)
    records = sorted(p.name for p in StudyFolder.opened(one).write_records())
    assert records == [f"second-edition-2014-{i:04d}.yaml" for i in range(1, 13)]
    assert records == sorted(p.name for p in StudyFolder.opened(two).write_records())
    for name in records:
        assert (one / name).read_text() == (two / name).read_text()


def test_seeds_and_indices_give_different_games():
    rules = rules_for("original-2001", 4)
    texts = {
        play_one(rules, seed, index, record_ref="original-2001")[1].split("turns:")[1]
        for seed in (1, 2)
        for index in (0, 1)
    }
    assert len(texts) == 4


def test_summary_counts_what_the_game_holds():
    rules = rules_for("bsw-dm-2003", 4)
    for index in range(4):
        summary, _ = play_one(rules, seed=3, index=index)
        # watch the tiles placement by placement: a transfer is a tile leaving the palace (palace tiles)
        # or the player (tower tiles) that held it
        holders, transfers = {}, [0]

        def watch(game, holders=holders, transfers=transfers):
            now = {
                **{("palace", c): p for c, p in game.palace_tile.items() if p is not None},
                **{("tower", t): p.owner for t, p in game.tower_tile.items() if p is not None},
            }
            transfers[0] += sum(
                1 for tile, holder in now.items() if tile in holders and holders[tile] != holder
            )
            holders.update(now)

        game = play_random_game(rules, player_names(4), game_rng(3, index), on_placement=watch)
        sheet = score_game(game)
        assert summary.counts["tile transfers"] == transfers[0]
        assert (
            sum(summary.points.values())
            == sum(summary.totals)
            == sum(p.total for p in sheet.players)
        )
        assert summary.counts["passes"] == sum(e.kind == "pass" for e in game.events)
        assert summary.counts["forced roofs"] == sum(e.kind == "forced-roof" for e in game.events)
        assert summary.counts["colour retirements"] == len(game.retired)
        assert [player_names(4)[s] for s in summary.winners] == sheet.winners


def test_statistics_of_known_summaries():
    zero = dict.fromkeys(PER_GAME, 0)
    summaries = [
        GameSummary(
            [10, 20, 30],
            [2],
            {**dict.fromkeys(SOURCES, 0), "walls": 60},
            40,
            80,
            {**zero, "passes": 2},
        ),
        GameSummary(
            [30, 30, 10], [0, 1], {**dict.fromkeys(SOURCES, 0), "merchants": 70}, 50, 100, zero
        ),
    ]
    stats = Statistics.of("x", 3, summaries)
    assert (stats.winning.mean, stats.winning.sd) == (30, 0)
    assert stats.losing.mean == pytest.approx((10 + 20 + 10) / 3)
    assert stats.point_shares["walls"] == pytest.approx(60 / 130)
    assert stats.seat_wins == pytest.approx([0.25, 0.25, 0.5])
    assert stats.turns.mean == 45 and stats.placements.sd == pytest.approx(14.142, abs=1e-3)
    assert stats.per_game["passes"] == 1


def medina(*args):
    """`medina ARGS` in this process, as the installed command runs it (fuzzkit.run: an internal error fails)."""
    code, out, err = fuzzkit.run([str(arg) for arg in args])
    assert "Traceback" not in out + err
    return code, out, err


def test_cli_json_side_by_side_and_records_validate(tmp_path):
    code, out, err = medina(
        "simulate",
        "--rulesets",
        "original-2001,second-edition-2014",
        "--players",
        3,
        "--games",
        6,
        "--seed",
        9,
        "--jobs",
        2,
        "--out",
        tmp_path,
        "--json",
    )
    assert (
        code == 0 and err == f"wrote 12 games to {tmp_path}\n"
    )  # no progress bar: stderr is not a terminal
    doc = json.loads(out)
    assert doc["format"] == "medina-simulate/1" and doc["games"] == 6 and doc["seed"] == 9
    assert [r["ruleset"] for r in doc["rulesets"]] == ["original-2001", "second-edition-2014"]
    for result in doc["rulesets"]:
        assert sum(result["point_shares"].values()) == pytest.approx(1, abs=1e-3)
        assert sum(result["seat_wins"]) == pytest.approx(1, abs=1e-3)
        assert set(result["per_game"]) == {
            "tile_transfers",
            "passes",
            "colour_retirements",
            "forced_roofs",
        }
    assert (
        doc["rulesets"][0]["point_shares"]["well"] == 0 < doc["rulesets"][1]["point_shares"]["well"]
    )
    assert (
        list(tmp_path.glob("*.yaml")) == [] and len(list(tmp_path.glob("*.jsonl"))) < 12
    )  # a file per round
    code, out, _ = medina("simulate", "--out", tmp_path, "--write-records", "all")
    assert code == 0 and len(out.split()) == len(list(tmp_path.glob("*.yaml"))) == 12
    code, out, _ = medina("validate", tmp_path)
    assert code == 0 and out.count("valid (finished") == 12


def test_cli_text_table():
    code, out, _ = medina("simulate", "-r", "bsw-dm-2003", "-g", 3, "-s", 2)
    assert code == 0
    assert "bsw-dm-2003" in out and "seat 4 wins" in out and "forced roofs per game" in out


def test_cli_text_table_names_the_well_only_for_rulesets_that_have_one():
    code, out, _ = medina("simulate", "-r", "original-2001", "-p", 3, "-g", 2)
    assert code == 0 and "points from tower tiles" in out and "well" not in out
    code, out, _ = medina(
        "simulate", "--rulesets", "original-2001,second-edition-2014", "-p", 3, "-g", 2
    )
    row = next(line for line in out.splitlines() if line.startswith("points from well"))
    assert code == 0 and row.split()[3] == "—" and row.split()[4].endswith("%")


@pytest.mark.parametrize(
    "args,words",
    [
        ((), "needs --ruleset ID or --rulesets A,B,..."),
        (("-r", "original-2001", "--rulesets", "bsw-dm-2003"), "not both"),
        (("-r", "original-2001", "-p", 2), "not 2"),
        (("-r", "no-such-edition"), "unknown ruleset"),
        (("--rulesets", " , "), "an entry is empty"),
        (("--rulesets", "original-2001,,bsw-dm-2003"), "an entry is empty"),
        (("-r", "original-2001", "--set", "towers.reconnect=sometimes"), "towers.reconnect"),
    ],
)
def test_cli_usage_errors(args, words):
    code, _out, err = medina("simulate", "-g", 1, *args)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1


def test_cli_counts_must_be_whole_numbers():
    code, _, err = medina("simulate", "-r", "original-2001", "--games", 0)
    assert code == 2 and "'0' is not a whole number (≥ 1)" in err


WALLS = "supply.4.walls=5"  # far fewer walls than the editions' 4-player supply: shorter games


def test_overrides_keep_a_seed_to_the_same_games_with_one_and_two_jobs():
    plain = simulate("original-2001", 4, 8, seed=4)
    one = simulate("original-2001", 4, 8, seed=4, overrides=(WALLS,))
    assert one == simulate("original-2001", 4, 8, seed=4, overrides=(WALLS,), jobs=2)
    assert sum(s.placements for s in one) < sum(s.placements for s in plain)


def test_cli_set_applies_to_every_ruleset():
    def placements(*extra):
        code, out, _ = medina(
            "simulate", "--rulesets", "original-2001,bsw-dm-2003", "-g", 4, "--json", *extra
        )
        assert code == 0
        doc = json.loads(out)
        return doc["overrides"], [r["length"]["placements"]["mean"] for r in doc["rulesets"]]

    (none, plain), (given, fewer) = placements(), placements("--set", WALLS)
    assert none == [] and given == [WALLS]
    assert all(f < p for f, p in zip(fewer, plain, strict=True))
    code, out, _ = medina("simulate", "-r", "original-2001", "-g", 2, "--set", WALLS)
    assert code == 0 and f"with --set {WALLS}" in out


def test_cli_refuses_out_with_set(tmp_path):
    code, out, err = medina(
        "simulate", "-r", "original-2001", "-g", 2, "--set", WALLS, "--out", tmp_path / "games"
    )
    assert code == 2 and out == "" and "--out cannot go with --set" in err and "extends:" in err
    assert not (tmp_path / "games").exists()
