"""The fallback contract: the schema owns the rules' limits, the native core its own (its MAX_ constants,
`Unsupported` where a variant goes beyond them). Every ruleset the schema allows, at every maximum at
once, plays natively and alike on both engines; one beyond the core plays on the Python engine with a
one-line warning."""

from __future__ import annotations

import dataclasses
import os
import string
import subprocess
import sys

import pytest
import yaml

from medina_cli.engine import native
from medina_cli.engine.game import Game
from medina_cli.rules.loader import load_ruleset
from medina_cli.rules.schema import (
    PLAYER_COUNT,
    RESERVED_LETTERS,
    SCHEMA,
    Bool,
    Choice,
    Int,
    ListOf,
    MapOf,
)

needs_native = pytest.mark.skipif(native.built() is None, reason="no native core built")
LETTERS = [c for c in string.ascii_lowercase if c not in RESERVED_LETTERS]
LONGEST_LIST = 2 * 144 + 1  # a list the schema leaves unbounded: longer than any core holds palaces


def highest(spec):
    """The largest value `spec` allows: an Int's high, true, a Choice's last choice, every key of a mapping
    keyed by player count or tower, a list of the longest with each entry at its highest (distinct
    entries: every choice)."""
    if isinstance(spec, Int):
        return spec.high
    if isinstance(spec, Bool):
        return True
    if isinstance(spec, Choice):
        return spec.choices[-1]
    if isinstance(spec, ListOf):
        if spec.unique:
            return list(spec.item.allowed_values())
        return [highest(spec.item)] * LONGEST_LIST
    if isinstance(spec, MapOf):
        return {key: highest(spec.value) for key in spec.key.allowed_values()}
    return {
        key: highest(sub)
        for key, sub in spec.fields.items()
        if isinstance(sub, (Int, Bool, Choice, ListOf, MapOf)) or getattr(sub, "fields", None)
    }


def maximal_ruleset() -> str:
    """A ruleset/1 text with every parameter at the schema's maximum: every player count on the largest
    board, as many colours as there are letters, the longest tea awards."""
    play = {
        key: highest(spec)
        for key, spec in SCHEMA.fields.items()
        if key
        in (
            "board",
            "supply",
            "well",
            "turns",
            "roofs",
            "merchants",
            "towers",
            "tea",
            "retirement",
            "scoring",
        )
    }
    value = SCHEMA.fields["colours"].value.fields["value"].high
    colours = {f"c{letter}": {"value": value, "letter": letter} for letter in LETTERS}
    play["tea"]["colour"] = next(iter(colours))
    cells = SCHEMA.fields["board"].fields["interior"].value.item.high
    play["board"] = {
        "interior": {
            players: [cells, cells] for players in play["board"]["interior"]
        },  # [columns, rows]
        "towers": SCHEMA.fields["board"].fields["towers"].default,
    }  # a permutation: none is highest
    play["turns"]["forced_roof"] = "only_player_who_can_place"
    document = {
        "medina": "ruleset/1",
        "id": "maximal",
        "players": list(PLAYER_COUNT.allowed_values()),
        "colours": colours,
        **play,
    }
    return yaml.safe_dump(document, sort_keys=False)


def medina(*args, engine: str | None = None, cwd=None) -> subprocess.CompletedProcess:
    env = {**os.environ, native.ENGINE_VARIABLE: engine or ""}
    return subprocess.run(
        [sys.executable, "-m", "medina_cli", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=600,
    )


@pytest.fixture(scope="module")
def maximal_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("limits") / "maximal.yaml"
    path.write_text(maximal_ruleset(), encoding="utf-8")
    return path


@needs_native
def test_a_ruleset_at_every_schema_maximum_fits_the_native_core(maximal_file, capsys):
    ruleset = load_ruleset(str(maximal_file))
    for players in ruleset.player_counts:
        table = native.tables(ruleset.for_players(players))
        assert table is not None and table.size == 26 * 26
    assert capsys.readouterr().err == ""


@needs_native
@pytest.mark.parametrize("players", [PLAYER_COUNT.low, PLAYER_COUNT.high])
@pytest.mark.slow
def test_a_ruleset_at_every_schema_maximum_plays_alike_on_both_engines(
    maximal_file, players, monkeypatch
):
    """Random play (the `random` agent), then greedy's and mcts's ratings mid-game, then `simulate`: the
    same on the native core and on the Python engine, without a warning."""
    from medina_cli.agents import make_agent
    from medina_cli.engine.playout import random_setup

    rules = load_ruleset(str(maximal_file)).for_players(players)
    seen = {}
    for engine in ("native", "python"):
        monkeypatch.setenv(native.ENGINE_VARIABLE, engine)
        game = Game(
            rules,
            [f"P{seat}" for seat in range(players)],
            *random_setup(rules, native.generator(7)),
        )
        for _ in range(40):
            game.push(make_agent("random", len(game.move_stack)).choose(game))
        simulated = medina(
            "simulate",
            "-r",
            str(maximal_file),
            "-p",
            str(players),
            "-g",
            "2",
            "--json",
            engine=engine,
        )
        seen[engine] = (
            [str(p) for p in game.move_stack],
            make_agent("greedy", 1).rate(game)[:20],
            make_agent("mcts:60", 1).rate(game),
            simulated.returncode,
            simulated.stderr,
            simulated.stdout,
        )
    assert seen["native"][3:5] == (0, "") and seen["native"] == seen["python"]


@needs_native
def test_a_variant_beyond_the_core_plays_on_the_python_engine_with_a_one_line_warning(
    capsys, monkeypatch
):
    """Rules the schema would refuse (a tea award beyond the core's MAX_TEA_AWARD), as a library caller
    may build them: no native tables, a warning naming the ruleset and the limit, and the agents play on
    the Python engine exactly as MEDINA_ENGINE=python plays."""
    from medina_cli.agents import make_agent

    rules = load_ruleset("second-edition-2014").for_players(3)
    beyond = dataclasses.replace(
        rules, tea=dataclasses.replace(rules.tea, awards=(native.built().MAX_TEA_AWARD + 1,))
    )
    assert native.tables(beyond) is None and native.tables(beyond) is None
    warning = capsys.readouterr().err
    assert (
        warning.count("\n") == 1 and "second-edition-2014" in warning and "Python engine" in warning
    )
    game = Game(beyond, ["A", "B", "C"], merchant="K7", well="E5")
    chosen = make_agent("greedy", 3).choose(game)
    monkeypatch.setenv(native.ENGINE_VARIABLE, "python")
    assert make_agent("greedy", 3).choose(game) == chosen


@needs_native
@pytest.mark.slow
def test_more_tea_awards_than_claims_play_natively(tmp_path):
    """Fault 15: a valid ruleset with 1,025 tea awards (more than any game has claims) plays on the native
    core, as on the Python engine: no internal error."""
    ruleset = tmp_path / "tea1025.yaml"
    ruleset.write_text(
        "medina: ruleset/1\nid: tea1025\nextends: second-edition-2014\ntea:\n  awards: ["
        + ",".join(["1"] * 1025)
        + "]\n",
        encoding="utf-8",
    )
    assert native.tables(load_ruleset(str(ruleset)).for_players(3)) is not None
    simulated = {
        engine: medina(
            "simulate", "-r", str(ruleset), "-p", "3", "-g", "2", "--json", engine=engine
        )
        for engine in ("native", "python")
    }
    assert simulated["native"].returncode == 0 and simulated["native"].stderr == ""
    assert simulated["native"].stdout == simulated["python"].stdout
    assert (
        medina(
            "new",
            "t.yaml",
            "--ruleset",
            str(ruleset),
            "--players",
            "A,B,C",
            "--merchant",
            "K7",
            "--well",
            "E5",
            cwd=tmp_path,
        ).returncode
        == 0
    )
    hint = medina("hint", "t.yaml", "--agent", "greedy", cwd=tmp_path)
    assert hint.returncode == 0 and hint.stderr == ""
