"""`Rules` is generated from the schema (issue 12 item 4): every parameter reads under its dotted name,
the values are immutable and hashable, `turns.forced_roof`'s former spelling still loads, and the
engine honours `well.enabled`."""

import dataclasses

import pytest

from medina_cli.engine.game import Game
from medina_cli.rules.loader import builtin_ids, load_ruleset, value_at
from medina_cli.rules.schema import parameter_names
from medina_cli.rules.typed import FrozenMap, Rules


def attribute_at(rules, dotted: str, players: int, colour: str):
    """The value of a `rules params` name on a `Rules`: `<players>` is its count, `<colour>` a colour."""
    value = rules
    for part in dotted.split("."):
        if part == "<players>":
            continue
        if part == "<colour>":
            value = next(c for c in value if c.name == colour)
        else:
            value = getattr(value, part)
    return value


def param_at(params: dict, dotted: str, players: int, colour: str):
    value = value_at(
        params,
        dotted.replace(".<players>", f".{players}").replace("<colour>", colour).split(".<")[0],
    )
    if dotted in ("board.interior", "turns.opening_single"):  # mappings by player count
        value = value.get(players, 0)
    return value


@pytest.mark.parametrize("ruleset_id", builtin_ids())
def test_every_parameter_reads_under_its_dotted_name(ruleset_id):
    ruleset = load_ruleset(ruleset_id)
    for players in ruleset.player_counts:
        rules = ruleset.for_players(players)
        colour = rules.colours[-1].name
        assert rules.players == players  # `players` lists the counts; a Rules is for one of them
        for name in parameter_names():
            if name == "players":
                continue
            got = attribute_at(rules, name, players, colour)
            want = param_at(ruleset.params, name, players, colour)
            assert got == (tuple(want) if isinstance(want, list) else want), (
                ruleset_id,
                players,
                name,
            )


def test_rules_are_immutable_and_hashable():
    rules = load_ruleset("second-edition-2014").for_players(3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.turns = None
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.tea.colour = "grey"
    with pytest.raises(TypeError):
        rules.towers.merchants[1] = 9
    same = load_ruleset("second-edition-2014", ["towers.reconnect=every_new_contact"]).for_players(
        3
    )
    other = load_ruleset(
        "second-edition-2014", ["towers.reconnect=once_per_palace_arm"]
    ).for_players(3)
    assert same == rules and hash(same) == hash(rules) and other != rules
    assert {rules: 1, same: 2, other: 3} == {rules: 2, other: 3}
    assert isinstance(rules, Rules) and isinstance(rules.board.towers, FrozenMap)


def test_the_types_come_from_the_schema():
    fields = {
        f.name: f.type
        for f in dataclasses.fields(load_ruleset("original-2001").for_players(3).turns)
    }
    assert fields["placements"] is int and fields["neutral_spares_forced_roof"] is bool
    assert set(fields["forced_roof_check"].__args__) == {"turn_start", "after_first_placement"}


def test_the_names_docs_api_published_first_still_read():
    rules = load_ruleset("original-2001").for_players(4)
    assert (rules.placements_per_turn, rules.tower_reconnect) == (
        rules.turns.placements,
        rules.towers.reconnect,
    )


def test_a_value_the_schema_refuses_is_refused_by_replace():
    rules = load_ruleset("original-2001").for_players(3)
    with pytest.raises(ValueError, match="forced_roof_check"):
        dataclasses.replace(rules.turns, forced_roof_check="at_some_point")
    with pytest.raises(
        ValueError, match="forced_roof"
    ):  # the former spelling is for ruleset files only
        dataclasses.replace(rules.turns, forced_roof="second_placement_only_player_who_can_place")


def test_forced_roof_splits_into_who_and_when(tmp_path):
    former = tmp_path / "former.yaml"
    former.write_text(
        "medina: ruleset/1\nextends: original-2001\nturns:\n"
        "  forced_roof: second_placement_only_player_who_can_place\n"
    )
    split = tmp_path / "split.yaml"
    split.write_text(
        "medina: ruleset/1\nextends: original-2001\nturns:\n  forced_roof_check: after_first_placement\n"
    )
    turns = load_ruleset(str(former)).for_players(3).turns
    assert turns == load_ruleset(str(split)).for_players(3).turns
    assert (turns.forced_roof, turns.forced_roof_check) == (
        "only_player_who_can_place",
        "after_first_placement",
    )
    explicit = (
        load_ruleset(str(former), ["turns.forced_roof_check=turn_start"]).for_players(3).turns
    )
    assert explicit.forced_roof_check == "turn_start"  # a value the file or --set gives itself wins


@pytest.mark.parametrize(
    "ruleset_id, well", [("second-edition-2014", None), ("original-2001", "F5")]
)
def test_the_engine_reads_well_enabled(ruleset_id, well):
    rules = load_ruleset(ruleset_id).for_players(3)
    with pytest.raises(ValueError, match="well"):
        Game(rules, ["Anna", "Ben", "Cleo"], merchant="K7", well=well)
    overridden = load_ruleset(
        ruleset_id, [f"well.enabled={str(well is not None).lower()}"]
    ).for_players(3)
    Game(overridden, ["Anna", "Ben", "Cleo"], merchant="K7", well=well)


@pytest.mark.parametrize(
    "overrides, check",
    [
        (["turns.forced_roof=second_placement_only_player_who_can_place"], "after_first_placement"),
        (
            [
                "turns.forced_roof_check=turn_start",
                "turns.forced_roof=second_placement_only_player_who_can_place",
            ],
            "turn_start",
        ),
    ],
)
def test_the_former_spelling_in_set(overrides, check):
    turns = load_ruleset("original-2001", overrides).for_players(3).turns
    assert (turns.forced_roof, turns.forced_roof_check) == ("only_player_who_can_place", check)


def written(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text("medina: ruleset/1\n" + text)
    return str(path)


def test_a_file_that_gives_forced_roof_means_what_it_meant_before_the_split(tmp_path):
    """`forced_roof: X` alone in a file (or one call's overrides) is X checked at turn start, whatever the
    file it extends says; the former spelling is after the first placement, whatever the parent says."""
    house = written(
        tmp_path,
        "house.yaml",
        "extends: boardspace-original\nturns: {forced_roof: only_player_with_roofs}\n",
    )
    assert load_ruleset(house).for_players(3).turns.forced_roof_check == "turn_start"
    written(
        tmp_path, "parent.yaml", "extends: original-2001\nturns: {forced_roof_check: turn_start}\n"
    )
    child = written(
        tmp_path,
        "child.yaml",
        "extends: parent.yaml\nturns: {forced_roof: second_placement_only_player_who_can_place}\n",
    )
    assert load_ruleset(child).for_players(3).turns.forced_roof_check == "after_first_placement"
    inherits = written(
        tmp_path, "inherits.yaml", "extends: boardspace-original\nturns: {placements: 2}\n"
    )
    assert load_ruleset(inherits).for_players(3).turns.forced_roof_check == "after_first_placement"
    overridden = load_ruleset("boardspace-original", ["turns.forced_roof=only_player_with_roofs"])
    assert overridden.for_players(3).turns.forced_roof_check == "turn_start"


@pytest.mark.parametrize("value", ["[x]", "{a: 1}", "3"])
def test_a_forced_roof_of_another_type_is_a_ruleset_error(tmp_path, value):
    from medina_cli.errors import MedinaError

    path = written(
        tmp_path, "bad.yaml", f"extends: original-2001\nturns: {{forced_roof: {value}}}\n"
    )
    for ref, overrides in ((path, ()), ("original-2001", [f"turns.forced_roof={value}"])):
        with pytest.raises(MedinaError) as refused:
            load_ruleset(ref, overrides)
        assert refused.value.problem.code in (
            "ruleset-invalid",
            "bad-set",
        ) and "is not one of" in str(refused.value)
