"""Inputs that once broke the tool (an internal error, unbounded memory, a wrong verdict), each with
what it must do instead: a clear message naming the file (and line), exit 1 or 2."""

from __future__ import annotations

import os
import resource
import subprocess
import sys

import pytest
from conftest import EXAMPLES, ROOT
from scorekit import FIXTURES, run

CASES = FIXTURES / "robustness"
GAME_3P = EXAMPLES / "original-2001-3p.yaml"
GAME_4P = EXAMPLES / "original-2001-4p.yaml"
LONG_NAME = "o" * 300  # longer than any file system allows for one name


def test_compare_reports_a_player_name_read_as_a_boolean():
    code, out, err = run("compare", CASES / "compare-player-named-no.yaml")
    assert code == 1
    assert (
        f"{CASES / 'compare-player-named-no.yaml'}:3: player `no` is read by YAML as a boolean"
        in out + err
    )
    assert "[yaml-not-text]" in out + err


def test_a_ruleset_without_player_counts_is_a_ruleset_error(tmp_path):
    (tmp_path / "house.yaml").write_text(
        "medina: ruleset/1\nid: house\nextends: original-2001\nplayers: []\n"
    )
    game = tmp_path / "game.yaml"
    game.write_text(GAME_3P.read_text().replace("ruleset: original-2001", "ruleset: house.yaml"))
    code, out, _ = run("validate", game)
    assert code == 2  # a broken ruleset makes the record unreadable
    assert (
        f"{tmp_path / 'house.yaml'}:4: players: at least one player count is needed [ruleset-invalid]"
        in out
    )


@pytest.mark.parametrize(
    "args",
    [
        ("replay", GAME_3P),
        ("simulate", "--ruleset", "original-2001", "--players", "3", "--games", "2"),
    ],
    ids=lambda a: a[0],
)
def test_set_players_to_no_counts_is_a_usage_error(args):
    code, _out, err = run(*args, "--set", "players=[]")
    assert code == 2
    assert ": 'players=[]': at least one player count is needed [bad-set]" in err


@pytest.mark.slow
def test_the_nesting_guard_applies_to_set_values():
    code, out, err = run("validate", "--set", "supply.4.walls=" + "[" * 2000, GAME_4P)
    assert code == 2
    assert (out + err).startswith("--set: 'supply.4.walls=[[[")
    assert "YAML nested deeper than 64 levels [bad-set]" in err  # usage errors go to stderr


@pytest.mark.slow
@pytest.mark.parametrize("loader", ["libyaml", "pure-python"])
def test_deep_nesting_in_a_record_is_named_by_the_guard_whatever_the_loader(
    tmp_path, monkeypatch, loader
):
    """libyaml's own cap (PyYAML 6.0.4 and later) must not take the message over: the guard speaks first."""
    from medina_cli import yamlio

    if loader == "pure-python":
        monkeypatch.setattr(yamlio, "LOADER", yamlio.yaml.SafeLoader)
    record = tmp_path / "deep.yaml"
    record.write_text("medina: record/1\nruleset: original-2001\nturns: " + "[" * 3000 + "\n")
    with pytest.raises(yamlio.MedinaError) as caught:
        yamlio.parse_yaml(record.read_text(), str(record))
    assert str(caught.value) == f"{record}:3: YAML nested deeper than 64 levels [yaml-syntax]"


@pytest.mark.parametrize("value", ["[&x 1, *x]", "[1, !!python/object:os.system 2]"])
def test_set_values_are_read_as_safely_as_files(value):
    code, out, err = run("validate", "--set", f"tea.awards={value}", GAME_4P)
    assert code == 2 and "[bad-set]" in out + err


@pytest.mark.slow
@pytest.mark.parametrize("command,suffix", [("render", ".svg"), ("view", ".html")])
def test_an_output_name_too_long_cannot_be_written(tmp_path, command, suffix):
    target = tmp_path / (LONG_NAME + suffix)
    code, _out, err = run(command, GAME_3P, "-o", target)
    assert code == 2
    assert err.strip() == f"{target}: cannot write: File name too long [cannot-write]"


@pytest.mark.slow
@pytest.mark.parametrize(
    "args,expected",
    [
        (("rules", "params"), "players (2..6) -> list"),
        (("rules", "show", "original-2001"), "(Hans im Gluck, 2001)"),
    ],
)
def test_an_ascii_terminal_gets_ascii(args, expected):
    proc = subprocess.run(
        [sys.executable, "-m", "medina_cli", *args],
        capture_output=True,
        timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
    )
    assert proc.returncode == 0, proc.stderr
    assert expected in proc.stdout.decode("ascii")


def test_characters_ascii_lacks_get_ascii_spellings():
    import codecs

    from medina_cli.cli.common import _ascii_spelling

    codecs.register_error("test-ascii-spelling", _ascii_spelling)
    assert "─│┼╭ é中 → ≥".encode("ascii", "test-ascii-spelling") == b"-|++ e? -> >="


@pytest.mark.parametrize("name", ["deep-brackets-in-string.yaml", "deep-braces-in-comment.yaml"])
def test_brackets_in_quoted_text_or_comments_are_not_nesting(name):
    code, out, _ = run("validate", CASES / name)
    assert code == 0, out


def test_a_tag_on_the_root_is_an_error_with_its_line():
    code, out, _ = run("validate", CASES / "tag-on-root.yaml")
    assert code == 1
    assert (
        f"{CASES / 'tag-on-root.yaml'}:1: the YAML tag `!!python/object:__main__.X` is not accepted"
        in out
    )


@pytest.mark.parametrize(
    "middle,line",
    [
        ("players: !!set {Anna, Ben, Cleo}\nsetup: {merchant: K7}", 3),
        ("players: !mine [Anna, Ben, Cleo]\nsetup: {merchant: K7}", 3),
        ("players: [Anna, Ben, Cleo]\nsetup: !!omap [merchant: K7]", 4),
    ],
)
def test_a_tag_on_any_node_is_an_error_with_its_line(tmp_path, middle, line):
    path = tmp_path / "tagged.yaml"
    path.write_text(f"medina: record/1\nruleset: original-2001\n{middle}\nturns: []\n")
    code, out, _ = run("validate", path)
    assert code == 1 and f"{path}:{line}: the YAML tag" in out


@pytest.mark.parametrize(
    "aliases,clash",
    [
        ("[black]", "'black' already spells black"),
        ("[k]", "'k' already spells black"),
        ("[roof]", "'roof' is a piece or a turn's word"),
        ("[gray, pass]", "'pass' is a piece or a turn's word"),
        ("[Tea]", "'Tea' is a piece or a turn's word"),
    ],
)
def test_a_colour_alias_may_not_spell_anything_else(tmp_path, aliases, clash):
    path = tmp_path / "house.yaml"
    path.write_text(
        f"medina: ruleset/1\nid: house\nextends: original-2001\n"
        f"colours: {{grey: {{value: 1, letter: g, aliases: {aliases}}}}}\n"
    )
    code, _out, err = run("rules", "show", path)
    assert code == 2
    assert f"{path}:4: colours.grey.aliases." in err and clash in err and "[ruleset-invalid]" in err


def test_two_colours_may_not_share_an_alias(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(
        "medina: ruleset/1\nid: house\nextends: original-2001\ncolours:\n"
        "  black: {value: 2, letter: k, aliases: [dark]}\n"
        "  brown: {value: 3, letter: b, aliases: [dark]}\n"
    )
    code, _, err = run("rules", "show", path)
    assert code == 2 and f"{path}:6: colours.brown.aliases.0: 'dark' already spells black" in err


@pytest.mark.parametrize("command", ["validate", "replay", "moves", "score", "render", "view"])
def test_an_empty_ruleset_option_is_a_usage_error(command):
    code, out, err = run(command, "--ruleset=", GAME_3P)
    assert code == 2 and out == ""
    assert "Invalid value for '--ruleset'" in err


# --- bounded time and memory: the reader in a child process under a memory limit and a timeout -----

MEMORY_LIMIT = 768 * 1024 * 1024


def _limited(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """`medina ARGS` in a child process that may use MEMORY_LIMIT of address space at most."""

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    return subprocess.run(
        [sys.executable, "-m", "medina_cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=limit,
    )


@pytest.mark.slow
def test_a_huge_player_count_is_refused_before_anything_is_allocated():
    proc = _limited("validate", str(CASES / "sgf-huge-player-count.sgf"))
    assert proc.returncode == 1, proc.stderr
    assert (
        f"{CASES / 'sgf-huge-player-count.sgf'}:4: boardspace-second-edition is for 2, 3 or 4 players, "
        "not 99999999 [unsupported-player-count]"
    ) in proc.stdout


@pytest.mark.slow
def test_a_folder_holding_a_huge_player_count_still_validates(tmp_path):
    (tmp_path / "huge.sgf").write_bytes((CASES / "sgf-huge-player-count.sgf").read_bytes())
    (tmp_path / "game.yaml").write_bytes(GAME_3P.read_bytes())
    proc = _limited("validate", str(tmp_path))
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.splitlines()[-1] == "2 files: 1 valid, 1 invalid or unreadable"


@pytest.mark.slow
def test_a_folder_holding_a_named_pipe_does_not_wait_for_it(tmp_path):
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "game.yaml").write_bytes(GAME_3P.read_bytes())
    proc = _limited("validate", str(tmp_path), timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert f"{tmp_path / 'pipe.yaml'}: skipped: not a regular file" in proc.stderr


@pytest.mark.slow
def test_a_fifty_megabyte_record_is_refused_within_the_memory_limit(tmp_path):
    path = tmp_path / "huge.yaml"
    turns = "".join(f"  - Anna: grey A{i % 9 + 1}, wall A{i % 9 + 2}\n" for i in range(1000))
    with open(path, "w") as handle:
        handle.write(GAME_3P.read_text().split("turns:")[0] + "turns:\n")
        while handle.tell() < 50 * 1024 * 1024:
            handle.write(turns)
    size = path.stat().st_size
    proc = _limited("validate", str(path))
    assert proc.returncode == 2, proc.stderr
    assert f"{path}: larger than 1024 KiB; not read [too-large]" in proc.stdout + proc.stderr
    assert path.stat().st_size == size


# --- found by the fuzz harness (tests/test_fuzz.py, benchmarks/fuzz_campaign.py) --------------------


@pytest.mark.parametrize(
    "ruleset,says",
    [
        ("x" * 300, "unknown ruleset"),
        ('"house\\0.yaml"', "cannot hold a NUL"),
        ("x" * 300 + ".yaml", "ruleset file"),
    ],
)
def test_a_ruleset_name_no_file_can_have_is_reported_on_the_record(tmp_path, ruleset, says):
    path = tmp_path / "game.yaml"
    path.write_text(
        f"medina: record/1\nruleset: {ruleset}\nplayers: [Anna, Ben, Cleo]\nsetup: {{merchant: K7}}\n"
    )
    code, out, err = run("validate", path)
    assert code in (1, 2) and f"{path}:2: " in out + err and says in out + err


SGF = (CASES / "sgf-huge-player-count.sgf").read_text()


@pytest.mark.parametrize(
    "change,says",
    [
        (
            ("SU[Medina-v2 104 3 123456]", "SU[Medina-v2 104 3 " + "9" * 5000 + "]"),
            "[boardspace-header]",
        ),
        (('P0[id "Anna"]', 'P0[id "Anna"]P' + "1" * 5000 + '[id "Zed"]'), ""),
        (("", ""), "valid (unfinished"),
        (("P1[3 onboard p B 0 P 11]", "P1[3 onboard p B \u00b2 P 11]"), "[boardspace-action]"),
        (("P0[0 Start P0]", "P0[0 Start P" + "9" * 5000 + "]"), "[boardspace-action]"),
    ],
    ids=["huge key", "huge seat property", "a fine record", "superscript index", "huge start seat"],
)
def test_numbers_in_a_boardspace_record_are_read_within_bounds(tmp_path, change, says):
    path = tmp_path / "game.sgf"
    path.write_text(
        SGF.replace("SU[Medina-v2 104 99999999 123456]", "SU[Medina-v2 104 3 123456]").replace(
            *change
        )
    )
    code, out, _err = run("validate", path)
    assert code in (0, 1) and says in out


def test_a_board_tile_key_of_digits_int_cannot_read_is_an_error(tmp_path):
    board = (
        FIXTURES / "boards" / "e1-original-2001.yaml"
    ).read_text() + "tiles: {tower: {'\u00b2': Anna}}\n"
    path = tmp_path / "board.yaml"
    path.write_text(board)
    code, out, err = run("score", path)
    assert code == 1 and "[board-tiles]" in out + err


def test_a_ruleset_without_a_board_section_says_what_the_board_needs(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(
        "\n".join(
            line
            for line in (ROOT / "rulesets" / "original-2001.yaml").read_text().split("\n")
            if not line.startswith(("board:", "  interior:", "  towers:"))
        )
    )
    code, _, err = run("rules", "show", path)
    assert (
        code == 2 and f"{path}:1: board: missing required key 'interior' [ruleset-invalid]" in err
    )


HUGE_HEX = (
    "0x" + "f" * 5000
)  # YAML reads it without Python's limit on digits; printing it would hit that limit


def test_a_huge_number_in_set_is_refused_in_a_short_line():
    code, _out, err = run("validate", "--set", f"turns.placements={HUGE_HEX}", GAME_4P)
    assert code == 2 and "a number this large is not read" in err and len(err) < 400


def test_a_huge_number_in_a_result_is_an_error_of_its_line(tmp_path):
    game = tmp_path / "game.yaml"
    game.write_text(GAME_4P.read_text().replace("result: {Anna: 39", f"result: {{Anna: {HUGE_HEX}"))
    code, out, err = run("validate", game)
    assert (
        code == 1
        and f"{game}:80: unreadable value" in out + err
        and "internal error" not in out + err
    )


def test_a_huge_number_from_python_is_shown_short():
    import medina_cli as medina

    with pytest.raises(medina.MedinaError) as refused:
        medina.load_ruleset("original-2001", players=3, overrides={"turns.placements": 10**5000})
    assert "too long to show" in str(refused.value) and len(str(refused.value)) < 300


def test_a_ruleset_path_across_lines_is_named_on_one_line(tmp_path):
    """Found by the fuzz campaign (seed 12): a plain YAML value that runs on into the next line."""
    house = tmp_path / "house.yaml"
    house.write_text(
        'medina: ruleset/1\nextends: original-2001\n\n  - "see github.com/somewhere"\n'
    )
    code, _out, err = run("rules", "show", house)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert err.startswith(
        f"{house}:2: extends: ruleset file '{tmp_path}/original-2001\\n- \"see github.com/somewhere\"'"
    )


def test_a_player_name_holding_a_line_break_is_named_on_one_line():
    """Found by the fuzz campaign (seed 13): an SGF player id that runs into the next property."""
    from medina_cli.errors import Problem

    problem = Problem(
        "boardspace-action",
        "takes a piece from seat B's rack",
        file="game.sgf",
        line=80,
        turn=24,
        player='P0"OnBoard\nP1[id "P1',
    )
    assert problem.human() == (
        "game.sgf:80: turn 24, 'P0\"OnBoard\\nP1[id \"P1': takes a piece from seat B's rack "
        "[boardspace-action]"
    )


@pytest.mark.slow
def test_a_record_listing_a_hundred_thousand_players_is_refused_in_bounded_time(tmp_path):
    """Under the 1 MiB input limit fit 100,000 player names: each is checked once (a name seen before is
    looked up in a set), so the count is refused at once; looked up in a list, this took minutes."""
    names = ", ".join(f"p{i}" for i in range(100_000))
    path = tmp_path / "many.yaml"
    path.write_text(
        f"medina: record/1\nruleset: original-2001\nplayers: [{names}]\nsetup: {{merchant: K7}}\nturns: []\n"
    )
    assert path.stat().st_size < 1024 * 1024
    proc = _limited("validate", str(path), timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert (
        f"{path}:3: original-2001 is for 3 or 4 players, not 100000 [unsupported-player-count]"
        in proc.stdout
    )
