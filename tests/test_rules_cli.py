"""`medina rules list|show|diff|params`."""

from __future__ import annotations

import json
import re

import yaml
from conftest import ROOT
from scorekit import run

from medina_cli.rules.loader import builtin_ids, load_ruleset
from medina_cli.rules.schema import SCHEMA, parameter_rows


def test_list_names_every_built_in_ruleset():
    code, out, _ = run("rules", "list", "--json")
    doc = json.loads(out)
    assert code == 0 and [r["id"] for r in doc["rulesets"]] == builtin_ids()
    for entry in doc["rulesets"]:
        ruleset = load_ruleset(entry["id"])
        assert (entry["title"], entry["players"], entry["sources"]) == (
            ruleset.title,
            ruleset.player_counts,
            ruleset.sources,
        )
    text = run("rules", "list")[1]
    assert any(
        line.split()[:4] == ["second-edition-2014", "2,", "3,", "4"] for line in text.splitlines()
    )
    assert "Spanish translation of the 2014 rules" in text


def test_sources_cite_only_what_a_user_can_find():
    for rid in builtin_ids():
        for source in load_ruleset(rid).sources:
            assert "shared/" not in source and "RULINGS.md" not in source, (rid, source)
            for cited in re.findall(r"\bdocs/[\w.-]+", source):
                assert (ROOT / cited).is_file(), (rid, cited)
    assert "docs/rulings.md, column original-2001" in run("rules", "show", "original-2001")[1]


def test_show_gives_a_stand_alone_ruleset_with_extends_applied(tmp_path):
    code, out, _ = run("rules", "show", "bsw-dm-2003")
    assert code == 0 and "extends" not in out and "&" not in out
    path = tmp_path / "dm.yaml"
    path.write_text(out)
    assert load_ruleset(str(path)).params == load_ruleset("bsw-dm-2003").params
    assert yaml.safe_load(out)["turns"]["forced_roof"] == "only_player_with_roofs"  # DM's own value


def test_show_applies_set():
    out = run("rules", "show", "original-2001", "--set", "towers.reconnect=once_per_palace_arm")[1]
    assert yaml.safe_load(out)["towers"]["reconnect"] == "once_per_palace_arm"


def test_diff_lists_exactly_the_differing_parameters():
    code, out, _ = run("rules", "diff", "original-2001", "bsw-dm-2003", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["rulesets"] == ["original-2001", "bsw-dm-2003"]
    a, b = (load_ruleset(r).params for r in doc["rulesets"])
    differing = {k for k in a if k not in ("id", "title", "sources", "extends") and a[k] != b[k]}
    assert {d["parameter"].split(".")[0] for d in doc["differences"]} == differing
    assert {
        "parameter": "towers.reconnect",
        "values": ["once_per_palace_tower", "every_new_contact"],
    } in doc["differences"]


def test_diff_of_three_shows_values_side_by_side_and_absent_ones():
    out = run("rules", "diff", "original-2001", "bsw-dm-2003", "second-edition-2014")[1]
    header = out.splitlines()[0].split()
    assert header == ["parameter", "original-2001", "bsw-dm-2003", "second-edition-2014"]
    assert any(line.split() == ["colours.purple.value", "—", "—", "2"] for line in out.splitlines())
    assert run("rules", "diff", "original-2001", "original-2001")[1].endswith(
        "no parameter differs\n"
    )
    assert "(— :" in out and "(— :" not in run("rules", "diff", "original-2001", "bsw-dm-2003")[1]


def test_diff_shows_words_without_yaml_quotes():
    out = run("rules", "diff", "original-2001", "second-edition-2014")[1]
    row = next(line.split() for line in out.splitlines() if line.startswith("turns.forced_roof"))
    assert row == ["turns.forced_roof", "only_player_who_can_place", "off"] and "'" not in out
    doc = json.loads(run("rules", "diff", "original-2001", "second-edition-2014", "--json")[1])
    assert {
        "parameter": "turns.forced_roof",
        "values": ["only_player_who_can_place", "off"],
    } in doc["differences"]


def test_diff_usage_errors():
    assert run("rules", "diff", "original-2001")[0] == 2
    code, _, err = run("rules", "diff", "original-2001", "no-such")
    assert code == 2 and "unknown-ruleset" in err


def test_params_lists_every_schema_parameter():
    doc = json.loads(run("rules", "params", "--json")[1])
    assert [p["parameter"] for p in doc["parameters"]] == [row[0] for row in parameter_rows()]
    out = run("rules", "params")[1]
    assert "towers.reconnect" in out and "once_per_palace_arm" in out


def test_params_text_breaks_lines_between_words_only():
    words = set(run("rules", "params")[1].split())
    for row in parameter_rows():
        assert set(" ".join(row).split()) <= words, row[0]


def test_params_json_gives_json_values():
    doc = json.loads(run("rules", "params", "--json")[1])
    assert doc["format"] == "medina-rules-params/2"
    by_name = {p["parameter"]: p for p in doc["parameters"]}
    assert by_name["turns.forced_roof"]["default"] == "off"
    assert by_name["turns.forced_roof"]["allowed"] == list(
        SCHEMA.fields["turns"].fields["forced_roof"].choices
    )
    assert (by_name["tea.colour"]["default"], by_name["tea.colour"]["allowed"]) == (None, None)
    assert by_name["retirement"]["default"] == ["all_players_own"]
    towers = by_name["board.towers"]
    assert {k: v for k, v in towers.items() if k != "readings"} == {
        "parameter": "board.towers",
        "type": "mapping",
        "allowed": [1, 2, 3, 4],
        "keys": ["NW", "NE", "SE", "SW"],
        "default": {"NW": 1, "SE": 2, "NE": 3, "SW": 4},
        "required": False,
        "meaning": "tower number at each corner",
    }
    [numbering] = towers["readings"]  # boardspace's corners against MALT's reading order
    assert numbering["param"] == "board.towers" and [v["value"] for v in numbering["values"]] == [
        {"NW": 1, "SE": 2, "NE": 3, "SW": 4},
        {"NW": 1, "NE": 2, "SW": 3, "SE": 4},
    ]
    assert by_name["tea.colour"]["readings"] == []
    [tiles] = by_name["colours.<colour>.value"]["readings"]
    assert tiles["param"] == "colours.purple.value" and tiles["values"][1]["also"] == [
        "colours.grey.value=2"
    ]
    assert (
        by_name["players"]["required"],
        by_name["players"]["default"],
        by_name["players"]["allowed"],
    ) == (True, None, [2, 3, 4, 5, 6])
    assert by_name["well.enabled"]["allowed"] == [True, False]


def test_params_text_marks_the_open_readings():
    out = run("rules", "params")[1]
    readings = out[out.index("Open readings") :]
    for param in (
        "towers.reconnect",
        "scoring.tiebreak",
        "roofs.on_blocked_palace",
        "turns.forced_roof",
        "merchants.new_chain_max_neighbours",
        "board.towers",
        "colours.purple.value",
    ):
        assert f"  {param}: " in readings, param
    assert (
        "    only_player_with_pieces: FI, twice: the only player who still has pieces" in readings
    )
    assert "[open reading]" in out[: out.index("Open readings")]


def test_settled_readings_name_open_readings_only(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("medina: ruleset/1\nextends: original-2001\nsettled_readings: [well.bonus]\n")
    code, _, err = run("rules", "show", house)
    assert code == 2 and "'well.bonus' is not an open reading" in err and "towers.reconnect" in err
