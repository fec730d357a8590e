"""How commands find a ruleset and report a bad one: `ruleset:` paths relative to the record,
`--ruleset` paths relative to the current directory, bad `extends:` blamed on the ruleset file,
did-you-mean for ids, and `--set` mistakes as usage errors."""

from __future__ import annotations

import json

import pytest
from scorekit import run

RECORD = (
    "medina: record/1\nruleset: {ruleset}\nplayers: [Anna, Ben, Cleo]\nsetup:\n  merchant: J7\nturns:\n"
    "  - Anna: wall A12\n  - Ben: wall B13, wall C13\n"
)  # valid only where the opening turn is a single placement
SINGLE_OPENING = "medina: ruleset/1\nextends: original-2001\nturns:\n  opening_single: {3: 1}\n"
PLAIN = "medina: ruleset/1\nextends: original-2001\n"


@pytest.fixture
def games(tmp_path, monkeypatch):
    """A `games/` directory beside the current directory's own files; runs happen in tmp_path."""
    (tmp_path / "games").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path / "games"


def test_a_ruleset_path_in_a_record_is_relative_to_the_record_even_when_the_current_directory_has_one(
    games,
):
    (games / "house.yaml").write_text(SINGLE_OPENING)
    (games.parent / "house.yaml").write_text(
        PLAIN
    )  # a different file of the same name, where we run
    (games / "game.yaml").write_text(RECORD.format(ruleset="house.yaml"))
    code, out, _ = run("validate", "games/game.yaml")
    assert code == 0, out


def test_a_ruleset_option_path_is_relative_to_the_current_directory(games):
    (games.parent / "house.yaml").write_text(SINGLE_OPENING)
    (games / "house.yaml").write_text(PLAIN)
    (games / "game.yaml").write_text(RECORD.format(ruleset="original-2001"))
    code, out, _ = run("validate", "games/game.yaml", "--ruleset", "house.yaml")
    assert code == 0, out
    code, out, _ = run(
        "compare", "games/game.yaml", "--rulesets", "house.yaml,original-2001", "--json"
    )
    assert code == 0 and [r["status"] for r in json.loads(out)["results"]] == [
        "valid",
        "invalid",
    ], out


def test_compare_starts_from_the_records_own_ruleset_file_beside_it(games):
    (games / "house.yaml").write_text(SINGLE_OPENING)
    (games.parent / "house.yaml").write_text(PLAIN)
    (games / "game.yaml").write_text(RECORD.format(ruleset="house.yaml"))
    code, out, _ = run("compare", "games/game.yaml", "--json")
    first = json.loads(out)["results"][0]
    assert code == 0 and (first["ruleset"], first["status"]) == ("house", "valid"), out


def test_a_missing_ruleset_file_is_named_as_resolved_from_the_record(games):
    (games / "game.yaml").write_text(RECORD.format(ruleset="rules/house.yaml"))
    code, out, _ = run("validate", "games/game.yaml")
    assert code == 2  # the record cannot be read, as under a broken ruleset
    assert "games/game.yaml:2: ruleset file games/rules/house.yaml: cannot read:" in out
    assert out.splitlines()[0].endswith("[file-not-found]")


def test_a_bad_extends_is_blamed_on_the_ruleset_file_not_the_record(games):
    (games / "h1.yaml").write_text("medina: ruleset/1\nextends: original-2002\n")
    (games / "game.yaml").write_text(RECORD.format(ruleset="h1.yaml"))
    code, out, _ = run("validate", "games/game.yaml")
    assert code == 2  # the record cannot be read under a broken ruleset
    assert out.splitlines()[0].startswith(
        "games/game.yaml:2: the ruleset h1.yaml cannot be used (1 error in it"
    )
    assert out.splitlines()[1].startswith(
        "games/h1.yaml:2: extends: unknown ruleset 'original-2002' (did you mean original-2001?)"
    )
    code, _, err = run("rules", "show", "games/h1.yaml")
    assert code == 2 and err.startswith("games/h1.yaml:2: extends: unknown ruleset")


@pytest.mark.parametrize(
    "args",
    [
        ("compare", "games/game.yaml", "--rulesets", "original-2001,bsw-dm-2030"),
        ("validate", "games/game.yaml", "--ruleset", "bsw-dm-2030"),
        ("simulate", "--rulesets", "original-2001,bsw-dm-2030", "--games", "1"),
    ],
)
def test_an_unknown_id_on_the_command_line_suggests_the_closest(games, args):
    (games / "game.yaml").write_text(RECORD.format(ruleset="original-2001"))
    code, out, err = run(*args)
    assert code == 2 and "unknown ruleset 'bsw-dm-2030' (did you mean bsw-dm-2003?)" in out + err


@pytest.mark.parametrize(
    "item, says",
    [
        ("players=[2]", "'players=[2]': board.interior: no entry for 2 players"),
        ("id=foo", "'id=foo': `id` is not a parameter"),
        ("extends=bsw-dm-2003", "use --ruleset"),
        ("towers.reconect=x", "did you mean towers.reconnect?"),
    ],
)
def test_a_bad_set_is_a_usage_error(games, item, says):
    (games / "game.yaml").write_text(RECORD.format(ruleset="original-2001"))
    code, out, err = run("validate", "games/game.yaml", "--set", item)
    assert code == 2 and says in out + err and (out + err).rstrip().endswith("[bad-set]")
