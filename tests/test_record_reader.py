"""The record/1 reader: every problem it can report, with its code, line, turn, placement and player.

Each case is a whole record (line numbers in the comments) and the one problem it must produce.
"""

import pytest
from conftest import EXAMPLES

from medina_cli.engine.placement import Placement
from medina_cli.errors import CODES, BadArgument, MedinaError, UnusableInput
from medina_cli.records.record import parse_record, read_record
from medina_cli.records.replay import replay

HEAD = (
    "medina: record/1\nruleset: original-2001\nplayers: [Anna, Ben, Cleo]\nsetup:\n  merchant: J7\n"
)
GOOD_TURNS = "turns:\n  - Anna: wall A12, wall A11\n  - Ben: wall B13, wall C13\n"  # lines 6-8


def only_problem(text, **kw):
    record = parse_record(text, "game.yaml", **kw)
    problems = record.problems.errors
    assert len(problems) == 1, [p.human() for p in problems]
    p = problems[0]
    assert p.file == "game.yaml" and p.code in CODES
    return p.code, p.line, p.turn, p.placement, p.player


# (case id, record text, (code, line, turn, placement, player))
CASES = [
    # --- YAML hazards (yamlio)
    (
        "syntax",
        HEAD + "turns: [\n",
        ("yaml-syntax", 6, None, None, None),
    ),  # the line of the unclosed `[`
    ("tab-indent", HEAD + "turns:\n\t- Anna: wall A12\n", ("yaml-syntax", 7, None, None, None)),
    (
        "two-documents",
        HEAD + "---\nmedina: record/1\n",
        ("yaml-multiple-documents", 6, None, None, None),
    ),
    (
        "alias",
        HEAD + "turns:\n  - &t {Anna: wall A12, wall A11}\n  - *t\n",
        ("yaml-alias", 7, None, None, None),
    ),
    ("duplicate-key", HEAD + "players: [Anna, Ben]\n", ("yaml-duplicate-key", 6, None, None, None)),
    ("complex-key", HEAD + "? [a, b]\n: c\n", ("yaml-wrong-type", 6, None, None, None)),
    ("unreadable-value", HEAD + "date: 2025-13-45\n", ("yaml-syntax", 6, None, None, None)),
    (
        "unknown-tag",
        HEAD + "event: !python/name:os.system x\n",
        ("yaml-syntax", 6, None, None, None),
    ),
    ("undefined-alias", HEAD + "turns:\n  - *t\n", ("yaml-syntax", 7, None, None, None)),
    (
        "flow-too-deep",
        HEAD + "x-deep: " + "[" * 100 + "]" * 100 + "\n",
        ("yaml-syntax", 6, None, None, None),
    ),
    (
        "block-too-deep",
        HEAD + "x-deep:\n" + "- " * 2000 + "x\n",
        ("yaml-syntax", 7, None, None, None),
    ),
    ("syntax-past-the-end", "[\na", ("yaml-syntax", 1, None, None, None)),  # libyaml says line 3
    ("syntax-after-a-line-separator", "\u2028[", ("yaml-syntax", 1, None, None, None)),
    # --- the top level
    ("not-a-mapping", "- medina: record/1\n", ("bad-format-tag", 1, None, None, None)),
    ("empty", "", ("bad-format-tag", None, None, None, None)),
    (
        "wrong-tag",
        HEAD.replace("record/1", "record/2") + GOOD_TURNS,
        ("bad-format-tag", 1, None, None, None),
    ),
    ("board-tag", HEAD.replace("record/1", "board/1"), ("bad-format-tag", 1, None, None, None)),
    ("no-tag", HEAD.replace("medina: record/1\n", ""), ("bad-format-tag", 1, None, None, None)),
    ("number-key", HEAD + GOOD_TURNS + "7: seven\n", ("yaml-not-text", 9, None, None, None)),
    ("unknown-key", HEAD + GOOD_TURNS + "winner: Anna\n", ("unknown-key", 9, None, None, None)),
    (
        "event-date",
        HEAD + GOOD_TURNS + "event: 2025-03-14\n",
        ("yaml-not-text", 9, None, None, None),
    ),
    ("event-number", HEAD + GOOD_TURNS + "event: 42\n", ("yaml-not-text", 9, None, None, None)),
    ("notes-mapping", HEAD + GOOD_TURNS + "notes: {a: b}\n", ("bad-notes", 9, None, None, None)),
    ("notes-numbers", HEAD + GOOD_TURNS + "notes: [1, 2]\n", ("bad-notes", 9, None, None, None)),
    # --- ruleset and players
    (
        "no-ruleset",
        HEAD.replace("ruleset: original-2001\n", ""),
        ("missing-key", 1, None, None, None),
    ),
    (
        "ruleset-number",
        HEAD.replace("original-2001", "2001"),
        ("yaml-not-text", 2, None, None, None),
    ),
    (
        "no-players",
        HEAD.replace("players: [Anna, Ben, Cleo]\n", ""),
        ("missing-key", 1, None, None, None),
    ),
    (
        "players-text",
        HEAD.replace("[Anna, Ben, Cleo]", "Anna"),
        ("bad-players", 3, None, None, None),
    ),
    (
        "players-empty",
        HEAD.replace("[Anna, Ben, Cleo]", "[]"),
        ("bad-players", 3, None, None, None),
    ),
    (
        "player-no",
        HEAD.replace("[Anna, Ben, Cleo]", "[Anna, no, Cleo]"),
        ("yaml-not-text", 3, None, None, None),
    ),
    (
        "player-spaces",
        HEAD.replace("[Anna, Ben, Cleo]", "[Anna, ' Ben', Cleo]"),
        ("bad-players", 3, None, None, None),
    ),
    (
        "player-neutral",
        HEAD.replace("[Anna, Ben, Cleo]", "[Anna, neutral, Cleo]"),
        ("bad-players", 3, None, None, None),
    ),
    (
        "player-twice",
        HEAD.replace("[Anna, Ben, Cleo]", "[Anna, Ben, Anna]"),
        ("bad-players", 3, None, None, None),
    ),
    (
        "two-players",
        HEAD.replace("[Anna, Ben, Cleo]", "[Anna, Ben]"),
        ("unsupported-player-count", 3, None, None, None),
    ),
    # --- setup
    (
        "no-setup",
        HEAD.replace("setup:\n  merchant: J7\n", ""),
        ("missing-key", 1, None, None, None),
    ),
    (
        "setup-list",
        HEAD.replace("setup:\n  merchant: J7\n", "setup: [J7]\n"),
        ("bad-setup", 4, None, None, None),
    ),
    ("setup-unknown", HEAD + "  start: J7\n", ("unknown-key", 6, None, None, None)),
    ("setup-well-2001", HEAD + "  well: F6\n", ("unknown-key", 6, None, None, None)),
    (
        "setup-no-merchant",
        HEAD.replace("  merchant: J7\n", "  x-note: later\n"),
        ("bad-setup", 4, None, None, None),
    ),
    ("setup-bad-cell", HEAD.replace("J7", "J77"), ("bad-cell", 5, None, None, None)),
    ("setup-number", HEAD.replace("J7", "7"), ("bad-cell", 5, None, None, None)),
    ("setup-edge", HEAD.replace("J7", "J12"), ("bad-setup", 5, None, None, None)),
    (
        "setup-same-cell",
        HEAD.replace("original-2001", "second-edition-2014") + "  well: j7\n",
        ("bad-setup", 6, None, None, None),
    ),
    ("supply-list", HEAD + "  supply: [Ben]\n", ("bad-setup", 6, None, None, None)),
    (
        "supply-stranger",
        HEAD + "  supply: {Dora: {merchant: 9}}\n",
        ("bad-setup", 6, None, None, None),
    ),
    (
        "supply-count-text",
        HEAD + "  supply:\n    Ben: {merchant: many}\n",
        ("bad-setup", 7, None, None, None),
    ),
    (
        "supply-negative",
        HEAD + "  supply:\n    Ben:\n      merchant: -1\n",
        ("bad-setup", 8, None, None, None),
    ),
    (
        "supply-unknown-piece",
        HEAD + "  supply:\n    Ben: {purple: 2}\n",
        ("bad-setup", 7, None, None, None),
    ),
    (
        "supply-neutral-none-supplied",
        HEAD + "  supply:\n    Ben: {neutral: 1}\n",
        ("bad-setup", 7, None, None, None),
    ),
    ("supply-not-mapping", HEAD + "  supply:\n    Ben: 7\n", ("bad-setup", 7, None, None, None)),
    # --- turns
    ("turns-mapping", HEAD + "turns: {Anna: wall A12}\n", ("yaml-wrong-type", 6, None, None, None)),
    (
        "turn-two-keys",
        HEAD + "turns:\n  - {Anna: wall A12, Ben: wall A11}\n",
        ("bad-turn", 7, 1, None, None),
    ),
    ("turn-text", HEAD + GOOD_TURNS + "  - Cleo wall Q13\n", ("bad-turn", 9, 3, None, None)),
    (
        "turn-player-bool",
        HEAD + GOOD_TURNS + "  - yes: wall Q13, wall P13\n",
        ("yaml-not-text", 9, 3, None, None),
    ),
    (
        "turn-unknown-player",
        HEAD + GOOD_TURNS + "  - Dora: wall Q13, wall P13\n",
        ("unknown-player", 9, 3, None, "Dora"),
    ),
    (
        "turn-case-of-name",
        HEAD + GOOD_TURNS + "  - cleo: wall Q13, wall P13\n",
        ("unknown-player", 9, 3, None, "cleo"),
    ),
    ("turn-no-placements", HEAD + GOOD_TURNS + "  - Cleo:\n", ("bad-turn", 9, 3, None, "Cleo")),
    (
        "turn-list",
        HEAD + GOOD_TURNS + "  - Cleo: [wall Q13, wall P13]\n",
        ("bad-turn", 9, 3, None, "Cleo"),
    ),
    (
        "placement-words",
        HEAD + GOOD_TURNS + "  - Cleo: wall Q13 P13, wall P13\n",
        ("bad-placement", 9, 3, 1, "Cleo"),
    ),
    (
        "placement-empty",
        HEAD + GOOD_TURNS + "  - Cleo: wall Q13,, wall P13\n",
        ("bad-placement", 9, 3, 2, "Cleo"),
    ),
    (
        "unknown-piece",
        HEAD + GOOD_TURNS + "  - Cleo: wall Q13, purple D4\n",
        ("unknown-piece", 9, 3, 2, "Cleo"),
    ),
    (
        "cell-off-board",
        HEAD + GOOD_TURNS + "  - Cleo: wall Q13, wall S13\n",
        ("bad-cell", 9, 3, 2, "Cleo"),
    ),
    (
        "cell-garbage",
        HEAD + GOOD_TURNS + "  - Cleo: wall 13Q, wall P13\n",
        ("bad-cell", 9, 3, 1, "Cleo"),
    ),
    (
        "pass-with-placement",
        HEAD + GOOD_TURNS + "  - Cleo: pass, wall Q13\n",
        ("bad-turn", 9, 3, None, "Cleo"),
    ),
    # --- result
    ("result-list", HEAD + GOOD_TURNS + "result: [1, 2, 3]\n", ("bad-result", 9, None, None, None)),
    (
        "result-stranger",
        HEAD + GOOD_TURNS + "result: {Anna: 1, Ben: 2, Cleo: 3, Dora: 4}\n",
        ("bad-result", 9, None, None, None),
    ),
    (
        "result-not-whole",
        HEAD + GOOD_TURNS + "result: {Anna: 1, Ben: 2.5, Cleo: 3}\n",
        ("bad-result", 9, None, None, None),
    ),
    (
        "result-bool",
        HEAD + GOOD_TURNS + "result:\n  Anna: 1\n  Ben: true\n  Cleo: 3\n",
        ("bad-result", 11, None, None, None),
    ),
    (
        "result-missing",
        HEAD + GOOD_TURNS + "result: {Anna: 1, Ben: 2}\n",
        ("bad-result", 9, None, None, None),
    ),
]


@pytest.mark.parametrize(
    "text, expected", [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_reader_problem(text, expected):
    assert only_problem(text) == expected


def test_every_case_is_a_distinct_record():
    assert len({case[1] for case in CASES}) == len(CASES)


def test_the_good_record_has_no_problem():
    record = parse_record(HEAD + GOOD_TURNS, "game.yaml")
    assert record.problems.errors == [] and [t.player for t in record.turns] == ["Anna", "Ben"]


def test_setup_supply_gives_a_player_other_pieces_than_the_ruleset():
    text = (
        HEAD + "  supply:\n    Ben: {merchant: 7, Gray: 5}\n    Anna: {merchant: 9}\n" + GOOD_TURNS
    )
    record = parse_record(text, "game.yaml")
    assert record.problems.errors == []
    assert record.supply == {"Ben": {"merchant": 7, "grey": 5}, "Anna": {"merchant": 9}}
    game = replay(record).game
    assert [(s["merchant"], s["grey"]) for s in game.supply] == [(9, 6), (7, 5), (8, 6)]


def test_names_match_exactly_but_pieces_and_cells_ignore_case():
    record = parse_record(
        HEAD + "turns:\n  - Anna: WALL a12, Wall A11\n  - Ben: gray D4, GREY d5\n", "game.yaml"
    )
    assert record.problems.errors == []
    assert record.turns[1].actions == [Placement("grey", "D4"), Placement("grey", "D5")]


def test_x_keys_are_kept_and_ignored():
    record = parse_record(
        HEAD.replace("  merchant: J7\n", "  merchant: J7\n  x-drawn: by lot\n")
        + GOOD_TURNS
        + "x-scorer: Dan\n",
        "game.yaml",
    )
    assert record.problems.errors == [] and record.meta["x-scorer"] == "Dan"


def test_an_unquoted_date_is_read_as_the_text_written():
    for written in ("2025-03-14", "2025-03-14 20:15:00"):
        record = parse_record(HEAD + GOOD_TURNS + f"date: {written}\n", "game.yaml")
        assert record.problems.errors == [] and record.meta["date"] == written


def test_problems_are_collected_not_stopped_at():
    text = HEAD.replace("J7", "J12") + GOOD_TURNS + "winner: Anna\nresult: {Anna: 1}\n"
    codes = [(p.code, p.line) for p in parse_record(text, "game.yaml").problems.errors]
    assert codes == [("unknown-key", 9), ("bad-setup", 5), ("bad-result", 10)]


def test_a_bad_turn_stops_the_replay_there():
    text = HEAD + GOOD_TURNS + "  - Cleo: wall Q13, wall S13\n  - Anna: wall A10, wall A9\n"
    outcome = replay(parse_record(text, "game.yaml"))
    assert outcome.turns_played == 2 and outcome.errors == []
    assert [(p.code, p.turn) for p in outcome.problems] == [("bad-cell", 3)]


# --- replay-level problems of a whole record ------------------------------------------------------


def test_result_mismatch_names_the_player_and_line():
    text = (EXAMPLES / "original-2001-3p.yaml").read_text()
    outcome = replay(parse_record(text, "game.yaml"))
    assert outcome.problems == [] and outcome.finished
    claimed = outcome.record.result
    wrong = text.replace(f"Ben: {claimed['Ben']}", f"Ben: {claimed['Ben'] + 1}")
    assert wrong != text
    outcome = replay(parse_record(wrong, "game.yaml"))
    (problem,) = outcome.problems
    assert (problem.code, problem.player) == ("result-mismatch", "Ben")
    assert (
        outcome.finished and outcome.errors == []
    )  # the replay reached the end; only the claim is wrong
    assert f"Ben: {claimed['Ben'] + 1}" in wrong.splitlines()[problem.line - 1]


def test_unfinished_record_warns_and_leaves_the_result_unchecked():
    outcome = replay(
        parse_record(HEAD + GOOD_TURNS + "result: {Anna: 1, Ben: 2, Cleo: 3}\n", "game.yaml")
    )
    assert outcome.problems == []
    assert [w.code for w in outcome.warnings] == ["unfinished", "result-unchecked"]


# --- unusable input: raised, not collected --------------------------------------------------------


def raised(path, **kw):
    with pytest.raises(MedinaError) as caught:
        read_record(str(path), **kw)
    return caught.value


def test_missing_file(tmp_path):
    error = raised(tmp_path / "nope.yaml")
    assert (error.problem.code, type(error)) == ("file-not-found", UnusableInput)


def test_binary_file(tmp_path):
    path = tmp_path / "junk.yaml"
    path.write_bytes(b"medina: record/1\n\x00\x01\x02")
    assert raised(path).problem.code == "not-text"


def test_not_utf8(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes(HEAD.encode() + "event: Café\n".encode("latin-1"))
    error = raised(path)
    assert (error.problem.code, type(error)) == ("not-text", UnusableInput)


def test_too_large(tmp_path):
    path = tmp_path / "big.yaml"
    with open(path, "wb") as handle:
        handle.write(HEAD.encode())
        handle.truncate(50 * 1024 * 1024)
    assert raised(path).problem.code == "too-large"


def test_utf8_bom_is_accepted(tmp_path):
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + (HEAD + GOOD_TURNS).encode())
    assert read_record(str(path)).problems.errors == []


@pytest.mark.parametrize(
    "ruleset, code", [("original-1999", "unknown-ruleset"), ("rules/none.yaml", "file-not-found")]
)
def test_a_ruleset_line_naming_no_ruleset_makes_the_record_unusable(ruleset, code):
    """Unusable as under a broken ruleset file (docs/format.md: one exit status for every ruleset that
    cannot be loaded), and named on the record's `ruleset:` line."""
    with pytest.raises(MedinaError) as caught:
        parse_record(HEAD.replace("original-2001", ruleset) + GOOD_TURNS, "game.yaml")
    problem = caught.value.problem
    assert (type(caught.value), problem.code, problem.file, problem.line) == (
        UnusableInput,
        code,
        "game.yaml",
        2,
    )


def test_command_line_ruleset_and_set_errors_are_usage_errors():
    with pytest.raises(MedinaError) as caught:
        parse_record(HEAD + GOOD_TURNS, "game.yaml", ruleset="original-1999")
    assert (caught.value.problem.code, type(caught.value)) == ("unknown-ruleset", BadArgument)
    with pytest.raises(MedinaError) as caught:
        parse_record(HEAD + GOOD_TURNS, "game.yaml", overrides=("towers.reconnect=sometimes",))
    assert (caught.value.problem.code, type(caught.value)) == ("bad-set", BadArgument)
    with pytest.raises(MedinaError) as caught:
        parse_record(HEAD + GOOD_TURNS, "game.yaml", overrides=("no.such.param=1",))
    assert caught.value.problem.code == "bad-set"


def test_a_broken_ruleset_file_names_its_own_file_and_line(tmp_path):
    (tmp_path / "house.yaml").write_text(
        "medina: ruleset/1\nextends: original-2001\nturns:\n  placements: 9\n"
    )
    path = tmp_path / "game.yaml"
    path.write_text(HEAD.replace("original-2001", "house.yaml") + GOOD_TURNS)
    with pytest.raises(MedinaError) as raised:  # the record cannot be read under a broken ruleset
        read_record(str(path))
    lead, problem = raised.value.problems
    assert isinstance(raised.value, UnusableInput) and (lead.file, lead.line) == (str(path), 2)
    assert (problem.code, problem.line) == ("ruleset-invalid", 4)
    assert problem.file.endswith("house.yaml")


def test_a_ruleset_file_beside_the_record(tmp_path):
    (tmp_path / "house.yaml").write_text(
        "medina: ruleset/1\nextends: original-2001\ntowers:\n  reconnect: once_per_palace_arm\n"
    )
    path = tmp_path / "game.yaml"
    path.write_text(HEAD.replace("original-2001", "house.yaml") + GOOD_TURNS)
    record = read_record(str(path))
    assert record.problems.errors == [] and record.rules.towers.reconnect == "once_per_palace_arm"


def test_each_action_reads_back_as_the_token_it_was_read_from():
    text = EXAMPLES.joinpath("original-2001-4p.yaml").read_text(encoding="utf-8")
    record = parse_record(text, "r.yaml")
    written = [line.split(": ", 1)[1] for line in text.split("\n") if line.startswith("  - ")]
    assert [", ".join(record.tokens(entry)) for entry in record.turns] == written
    assert [str(Placement("tea")), str(Placement("pass")), str(Placement("grey", "K8"))] == [
        "tea",
        "pass",
        "grey K8",
    ]
