"""Ruleset files: built-ins, extends, validation with file and line, --set overrides."""

from pathlib import Path

import pytest
from conftest import EDITIONS

from medina_cli.errors import MedinaError
from medina_cli.rules.loader import builtin_ids, load_ruleset
from medina_cli.rules.schema import NOT_PLAY, parameter_names


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def error_of(ref, overrides=(), base_dir=None):
    with pytest.raises(MedinaError) as info:
        load_ruleset(ref, overrides, base_dir=base_dir)
    return info.value.problem


def test_builtins_are_the_three_editions():
    assert set(EDITIONS) <= set(builtin_ids())


@pytest.mark.parametrize("rid", EDITIONS)
def test_builtin_has_sources_and_resolves_for_each_player_count(rid):
    ruleset = load_ruleset(rid)
    assert ruleset.sources
    for n in ruleset.player_counts:
        rules = ruleset.for_players(n)
        assert rules.players == n and rules.board.interior[0] >= 14


def test_dm_is_original_plus_exactly_its_overrides():
    original, dm = load_ruleset("original-2001").params, load_ruleset("bsw-dm-2003").params
    differing = {k for k in original if original[k] != dm[k]} - {
        "id",
        "title",
        "sources",
        "settled_readings",
    }
    assert differing == {
        "turns",
        "towers",
        "retirement",
    }  # in play; which readings its sources settle aside
    assert dm["turns"]["forced_roof"] == "only_player_with_roofs"
    assert dm["towers"]["reconnect"] == "every_new_contact"
    assert dm["retirement"] == ["all_players_own", "no_building_fits"]


def test_house_rules_extend_a_builtin(tmp_path):
    path = write(
        tmp_path,
        "club.yaml",
        "medina: ruleset/1\nextends: original-2001\ntowers: {reconnect: once_per_palace_arm}\n",
    )
    ruleset = load_ruleset(path)
    assert ruleset.id == "club"
    assert ruleset.params["towers"]["reconnect"] == "once_per_palace_arm"
    assert ruleset.params["supply"][4]["walls"] == 8  # inherited
    assert ruleset.sources == []  # identity is not inherited


def test_extends_a_file_relative_to_the_child(tmp_path):
    write(
        tmp_path,
        "base.yaml",
        "medina: ruleset/1\nextends: second-edition-2014\nsupply: {2: {walls: 20}}\n",
    )
    child = write(
        tmp_path,
        "child.yaml",
        "medina: ruleset/1\nextends: base.yaml\n"
        "scoring: {tiebreak: largest_palace_then_earliest_claim}\n",
    )
    params = load_ruleset(child).params
    assert params["supply"][2]["walls"] == 20 and params["supply"][2]["merchants"] == 12
    assert params["scoring"]["tiebreak"] == "largest_palace_then_earliest_claim"


def test_unknown_key_names_file_line_and_valid_keys(tmp_path):
    path = write(
        tmp_path, "bad.yaml", "medina: ruleset/1\nextends: original-2001\ntowers:\n  reconect: x\n"
    )
    problem = error_of(path)
    assert (
        problem.code == "ruleset-invalid"
        and problem.line == 4
        and problem.file.endswith("bad.yaml")
    )
    assert "reconnect" in problem.message and "merchants" in problem.message


def test_bad_choice_lists_the_valid_values(tmp_path):
    path = write(
        tmp_path,
        "bad.yaml",
        "medina: ruleset/1\nextends: original-2001\nturns:\n  forced_roof: always\n",
    )
    problem = error_of(path)
    assert problem.line == 4
    assert "only_player_with_roofs" in problem.message


def test_wrong_type_is_reported(tmp_path):
    path = write(
        tmp_path,
        "bad.yaml",
        "medina: ruleset/1\nextends: original-2001\nsupply: {4: {walls: many}}\n",
    )
    problem = error_of(path)
    assert problem.code == "ruleset-invalid" and problem.line == 3 and "integer" in problem.message


def test_missing_supply_for_a_player_count(tmp_path):
    path = write(
        tmp_path, "bad.yaml", "medina: ruleset/1\nextends: original-2001\nplayers: [3, 4, 5]\n"
    )
    assert "no entry for 5 players" in error_of(path).message


def test_extends_cycle_is_blamed_on_the_extends_that_closes_it(tmp_path):
    write(tmp_path, "a.yaml", "medina: ruleset/1\nextends: b.yaml\n")
    write(tmp_path, "b.yaml", "medina: ruleset/1\ntitle: B\nextends: a.yaml\n")
    problem = error_of(str(tmp_path / "a.yaml"))
    assert (problem.code, problem.file, problem.line) == (
        "ruleset-extends-cycle",
        str(tmp_path / "b.yaml"),
        3,
    )


def test_unknown_builtin_suggests_the_closest_and_lists_the_builtins():
    problem = error_of("original-2002")
    assert problem.code == "unknown-ruleset"
    assert (
        "did you mean original-2001?" in problem.message
        and ", ".join(builtin_ids()) in problem.message
    )


def test_a_bad_extends_is_blamed_on_the_ruleset_file_and_its_line(tmp_path):
    path = write(tmp_path, "h1.yaml", "medina: ruleset/1\nextends: original-2002\n")
    problem = error_of(path)
    assert (problem.code, problem.file, problem.line) == ("unknown-ruleset", path, 2)
    assert "did you mean original-2001?" in problem.message


def test_a_missing_extends_file_is_blamed_on_the_ruleset_file_and_its_line(tmp_path):
    path = write(tmp_path, "h1.yaml", "medina: ruleset/1\ntitle: H1\nextends: base/missing.yaml\n")
    problem = error_of(path)
    assert (problem.code, problem.file, problem.line) == ("file-not-found", path, 3)
    assert str(tmp_path / "base" / "missing.yaml") in problem.message


def test_a_relative_path_resolves_against_base_dir_never_the_current_directory(
    tmp_path, monkeypatch
):
    (tmp_path / "records").mkdir()
    write(
        tmp_path / "records",
        "house.yaml",
        "medina: ruleset/1\nextends: original-2001\ntowers: {reconnect: once_per_palace_arm}\n",
    )
    write(tmp_path, "house.yaml", "medina: ruleset/1\nextends: original-2001\n")
    monkeypatch.chdir(tmp_path)
    assert (
        load_ruleset("house.yaml", base_dir=Path("records")).params["towers"]["reconnect"]
        == "once_per_palace_arm"
    )
    assert (
        load_ruleset("house.yaml").params["towers"]["reconnect"] == "once_per_palace_tower"
    )  # no base_dir: here


def test_a_missing_ruleset_file_is_file_not_found_named_from_base_dir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    problem = error_of("rules/house.yaml", base_dir=Path("records"))
    assert (
        problem.code == "file-not-found" and problem.file is None
    )  # the caller names what referred to it
    assert "ruleset file records/rules/house.yaml: cannot read" in problem.message


def test_set_overrides_one_parameter():
    rules = load_ruleset(
        "original-2001", ["towers.reconnect=every_new_contact", "supply.4.walls=9"]
    ).for_players(4)
    assert rules.towers.reconnect == "every_new_contact" and rules.supply.walls == 9
    assert load_ruleset("original-2001").for_players(4).towers.reconnect == "once_per_palace_tower"


@pytest.mark.parametrize(
    "item, guess",
    [
        ("towers.reconect=every_new_contact", "towers.reconnect"),
        ("reconnect=every_new_contact", "towers.reconnect"),
        ("supply.4.wals=9", "supply.4.walls"),
        ("colours.grey.valeu=3", "colours.grey.value"),
    ],
)
def test_set_unknown_parameter_suggests_the_closest_then_lists_the_valid_names(item, guess):
    message = error_of("original-2001", [item]).message
    assert message.index(f"did you mean {guess}?") < message.index("Valid parameters: ")
    assert message.endswith(", ".join(parameter_names()))


@pytest.mark.parametrize("param", NOT_PLAY)
def test_set_refuses_what_only_names_or_describes_a_ruleset(param):
    problem = error_of("original-2001", [f"{param}=bsw-dm-2003"])
    assert problem.code == "bad-set" and f"`{param}` is not a parameter" in problem.message


def test_set_that_leaves_the_ruleset_inconsistent_is_blamed_on_the_set():
    problem = error_of("original-2001", ["players=[2]"])
    assert problem.code == "bad-set"
    assert (
        problem.message
        == "'players=[2]': board.interior: no entry for 2 players (players lists [2])"
    )


def test_set_bad_value_names_the_set():
    problem = error_of("original-2001", ["towers.reconnect=sometimes"])
    assert problem.code == "bad-set" and problem.message.startswith(
        "'towers.reconnect=sometimes': 'sometimes' is not"
    )
    assert "every_new_contact" in problem.message


@pytest.mark.parametrize(
    "item",
    [
        "towers.reconnect=" + "x" * 5000,
        "turns.placements=" + "9" * 5000,
        "towers.recon" + "x" * 5000 + "=1",
    ],
)
def test_a_long_set_value_is_shown_cut_once(item):
    problem = error_of("original-2001", [item])
    assert problem.code == "bad-set" and len(problem.message) < 1000 and "…" in problem.message


def test_set_off_stays_a_word_not_a_boolean():
    assert (
        load_ruleset("original-2001", ["turns.forced_roof=off"]).params["turns"]["forced_roof"]
        == "off"
    )


def test_parameter_names_are_dotted_and_unique():
    names = parameter_names()
    assert (
        len(names) == len(set(names))
        and "towers.reconnect" in names
        and "supply.<players>.walls" in names
    )
    assert not set(names) & set(NOT_PLAY)
