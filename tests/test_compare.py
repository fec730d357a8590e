"""`medina compare`: one record under several rulesets; applicability, scores and what differs."""

from __future__ import annotations

import json

from conftest import EXAMPLES, record_text
from scorekit import TILE_EXAMPLES, run

from medina_cli.engine.scoring import score_game
from medina_cli.records.record import read_record
from medina_cli.records.replay import replay
from medina_cli.rules.loader import builtin_ids, load_ruleset

E8 = TILE_EXAMPLES / "e8-tower-reconnect.yaml"


def compare_json(*args):
    code, out, err = run("compare", *args, "--json")
    return code, json.loads(out) if out else None, err


def test_the_reconnect_example_differs_between_2001_and_dm_2003():
    code, doc, _ = compare_json(E8, "--rulesets", "original-2001,bsw-dm-2003")
    assert code == 0 and doc["format"] == "medina-compare/1" and doc["players"] == ["A", "B", "C"]
    assert [(r["ruleset"], r["status"], r["finished"]) for r in doc["results"]] == [
        ("original-2001", "valid", False),
        ("bsw-dm-2003", "valid", False),
    ]
    # 2001 counts a palace's first connection to a tower only; DM counts every new contact
    assert doc["differences"]["tiles"] == [
        {"tile": "tower", "tower": 3, "holders": {"original-2001": "B", "bsw-dm-2003": "A"}}
    ]
    assert doc["differences"]["legality"] == []
    for result in doc["results"]:
        record = read_record(str(E8), ruleset=result["ruleset"])
        assert result["score"] == score_game(replay(record).game).to_json()
    winners = doc["differences"]["winners"]
    assert winners["by_ruleset"] == {r["ruleset"]: r["score"]["winners"] for r in doc["results"]}
    assert winners["changes"] == (
        winners["by_ruleset"]["original-2001"] != winners["by_ruleset"]["bsw-dm-2003"]
    )


def test_set_applies_to_every_ruleset():
    _, doc, _ = compare_json(
        E8, "--rulesets", "original-2001,bsw-dm-2003", "--set", "towers.reconnect=every_new_contact"
    )
    assert doc["differences"]["tiles"] == [] and doc["differences"]["winners"]["changes"] is False


def test_where_legality_diverges(tmp_path):
    few = tmp_path / "few-walls.yaml"
    few.write_text(
        "medina: ruleset/1\nid: few-walls\nextends: original-2001\nsupply: {3: {walls: 1}}\n"
    )
    game = tmp_path / "game.yaml"
    game.write_text(
        record_text("original-2001", ["Anna", "Ben", "Cleo"], ["Anna: wall A12, wall A11"])
    )
    code, doc, _ = compare_json(game, "--rulesets", f"original-2001,{few}")
    assert code == 0
    assert [r["status"] for r in doc["results"]] == ["valid", "invalid"]
    assert (
        doc["results"][1]["error"]["code"] == "not-in-supply" and doc["results"][1]["score"] is None
    )
    [spot] = doc["differences"]["legality"]
    assert (spot["turn"], spot["placement"], spot["player"]) == (1, 2, "Anna")
    assert list(spot["illegal_under"]) == ["few-walls"] and spot["legal_under"] == ["original-2001"]


def test_default_rulesets_and_the_not_applicable_ones():
    path = EXAMPLES / "original-2001-3p.yaml"
    code, doc, _ = compare_json(path)
    names = [r["ruleset"] for r in doc["results"]]
    expected = [
        rid
        for rid in builtin_ids()
        if 3 in load_ruleset(rid).player_counts and load_ruleset(rid).params["kind"] == "edition"
    ]
    assert code == 0 and names[0] == "original-2001" and sorted(names) == sorted(expected)
    assert not any(name.startswith("boardspace") for name in names)  # site profiles only when named
    second = next(r for r in doc["results"] if r["ruleset"] == "second-edition-2014")
    assert (
        second["status"] == "not-applicable"
        and "well" in second["reason"]
        and second["score"] is None
    )
    two = compare_json(
        EXAMPLES / "second-edition-2014-2p.yaml", "--rulesets", "second-edition-2014,original-2001"
    )[1]
    assert two["results"][1] == {
        "ruleset": "original-2001",
        "status": "not-applicable",
        "reason": "not for 2 players",
        "without_well": False,
        "finished": False,
        "turns_played": 0,
        "error": None,
        "score": None,
    }


def test_a_variant_is_added_after_the_default_columns():
    _, plain, _ = compare_json(EXAMPLES / "original-2001-4p.yaml")
    code, doc, _ = compare_json(
        EXAMPLES / "original-2001-4p.yaml",
        "--variant",
        "arm:original-2001,towers.reconnect=once_per_palace_arm",
    )
    defaults = [r["ruleset"] for r in plain["results"]]
    assert (
        code == 0
        and len(defaults) > 1
        and [r["ruleset"] for r in doc["results"]] == [*defaults, "arm"]
    )
    assert doc["results"][:-1] == plain["results"]


def test_a_record_with_a_well_is_played_without_it_under_a_ruleset_that_has_none():
    code, doc, _ = compare_json(
        EXAMPLES / "second-edition-2014-3p.yaml", "--rulesets", "second-edition-2014,original-2001"
    )
    own, dry = doc["results"]
    assert code == 0  # one ruleset replays the record
    assert own["without_well"] is False and own["status"] == "valid"
    assert dry["without_well"] is True and dry["status"] == "invalid"
    assert (
        dry["error"]["turn"] == 1 and dry["error"]["code"] == "too-few-placements"
    )  # 2014's single opening
    code, out, _ = run(
        "compare",
        EXAMPLES / "second-edition-2014-3p.yaml",
        "--rulesets",
        "second-edition-2014,original-2001",
    )
    assert code == 0
    assert (
        "Played without the record's well (these rulesets have none; its cell is free): original-2001"
        in out
    )


def test_validate_under_a_ruleset_without_a_well_plays_the_record_as_compare_does():
    """One behaviour: the well is set aside (said once, as a warning), each word that is no piece of the
    ruleset is said once, and the record is invalid where compare says it is."""
    record = EXAMPLES / "second-edition-2014-3p.yaml"
    code, out, err = run("validate", record, "--ruleset", "original-2001")
    assert code == 1 and "unknown setup key" not in out + err
    assert err == (
        f"warning: {record}:6: played without the record's well 'O4' (original-2001 has none; its cell "
        "is free) [well-set-aside]\n"
    )
    unknown = [line for line in out.splitlines() if line.endswith("[unknown-piece]")]
    assert len(unknown) == 1 and "'purple' is not a piece of original-2001" in unknown[0]
    assert unknown[0].startswith(f"{record}:10: turn 3 placement 1, Cleo: ")
    assert "; also in turns 4, 8, 22, 25, 31, 35 and 43 [unknown-piece]" in unknown[0]
    code, doc, _ = compare_json(record, "--rulesets", "original-2001")
    (compared,) = doc["results"]
    [validated] = json.loads(run("validate", record, "--ruleset", "original-2001", "--json")[1])[
        "results"
    ]
    first = min(validated["errors"], key=lambda e: (e["turn"], e["placement"] or 0))
    assert compared["without_well"] and (first["turn"], first["code"]) == (
        compared["error"]["turn"],
        compared["error"]["code"],
    )
    assert [w["code"] for w in validated["warnings"]] == ["well-set-aside"]


def test_a_well_in_a_record_whose_own_ruleset_has_none_is_the_records_error(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(
        record_text("original-2001", ["Anna", "Ben", "Cleo"], ["Anna: grey C3, grey C4"], well="F6")
    )
    code, out, err = run("validate", path)
    assert (
        code == 1
        and "unknown setup key 'well' (this ruleset has no well)" in out
        and "well-set-aside" not in err
    )


def test_the_table_for_people():
    code, out, _ = run("compare", E8, "--rulesets", "original-2001,bsw-dm-2003,second-edition-2014")
    assert code == 0
    assert "original-2001  valid, unfinished (stops after turn 7)" in out
    assert (
        "Not applicable (the ruleset needs a well; the record's setup has none): second-edition-2014"
        in out
    )
    assert "Scores (standings where the record stops: it is unfinished):" in out
    assert "tower tile 3  B                A" in out
    winners = compare_json(E8, "--rulesets", "original-2001,bsw-dm-2003")[1]["differences"][
        "winners"
    ]["by_ruleset"]
    assert winners["original-2001"] != winners["bsw-dm-2003"]  # tower tile 3 is worth 3 points
    assert (
        f"leader changes: {winners['original-2001'][0]} under original-2001; "
        f"{winners['bsw-dm-2003'][0]} under bsw-dm-2003"
    ) in out


def test_the_summary_names_a_leader_where_the_record_is_unfinished(tmp_path):
    finished = (EXAMPLES / "original-2001-3p.yaml").read_text()
    unfinished = tmp_path / "unfinished.yaml"
    unfinished.write_text(finished.partition("  - Ben: stable G12")[0])
    for path, who in ((EXAMPLES / "original-2001-3p.yaml", "winner"), (unfinished, "leader")):
        code, out, _ = run("compare", path)
        assert code == 0
        assert out.splitlines()[-1].startswith(f"  - {who}: "), out


def test_exit_status_and_bad_input(tmp_path):
    assert (
        compare_json(EXAMPLES / "original-2001-3p.yaml", "--rulesets", "second-edition-2014")[0]
        == 1
    )
    assert run("compare", EXAMPLES / "original-2001-3p.yaml", "--rulesets", "nope")[0] == 2
    assert run("compare", tmp_path / "missing.yaml")[0] == 2
    board = tmp_path / "board.yaml"
    board.write_text("medina: board/1\nruleset: original-2001\nplayers: [A, B, C]\n")
    code, _, err = run("compare", board)
    assert (
        code == 2 and "bad-format-tag" in err
    )  # a board is no record: a usage error (format.md's exit codes)


def test_an_empty_ruleset_entry_or_a_directory_is_a_usage_error():
    for rulesets in (",", " , ", "original-2001,,bsw-dm-2003", "original-2001,"):
        code, out, err = run("compare", EXAMPLES / "original-2001-3p.yaml", "--rulesets", rulesets)
        assert code == 2 and out == "" and "--rulesets" in err and "an entry is empty" in err, (
            rulesets
        )
    code, out, err = run("compare", EXAMPLES)
    assert (
        code == 2
        and out == ""
        and "compare takes one record file" in err
        and "file-not-found" not in err
    )


def test_the_library_model_is_what_the_command_prints():
    from medina_cli.comparison import compare

    record = read_record(str(E8))
    comparison = compare(record, ["original-2001", "bsw-dm-2003"])
    assert [o.name for o in comparison.outcomes] == ["original-2001", "bsw-dm-2003"]
    assert comparison.tiles() == [
        {"tile": "tower", "tower": 3, "holders": {"original-2001": "B", "bsw-dm-2003": "A"}}
    ]
    doc = {
        **comparison.to_json(),
        "errors": [],
        "warnings": [],
    }  # the command adds its own (none here)
    doc["file"] = str(E8)
    assert doc == {
        **compare_json(E8, "--rulesets", "original-2001,bsw-dm-2003")[1],
        "file": str(E8),
    }
    labelled = compare(record, {"as written": record.ruleset, "DM": "bsw-dm-2003"})
    assert labelled.winners()["by_ruleset"] == {
        "as written": comparison.outcomes[0].winners,
        "DM": comparison.outcomes[1].winners,
    }
