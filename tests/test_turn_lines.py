"""The fast reading of one-line turns (`record._parse_turn_lines`) gives exactly what YAML gives for
the whole file, or steps aside (None) and lets YAML read it."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from medina_cli.errors import MedinaError
from medina_cli.records.record import _parse_turn_lines, parse_record
from medina_cli.rules.loader import load_ruleset
from medina_cli.study.games import play_one
from medina_cli.yamlio import parse_yaml

EXAMPLE_TEXTS = {
    path.name: path.read_text(encoding="utf-8") for path in sorted(EXAMPLES.glob("*.yaml"))
}


def yaml_reading(text: str):
    try:
        return parse_yaml(text, "r.yaml")
    except MedinaError as exc:
        return exc.problem.code


def reads_the_same(fast, text: str) -> bool:
    """The fast reading equals YAML's: data, lines, and the text as written of every value and key YAML
    read as another type than text (`Lines ==` compares the lines only)."""
    slow = yaml_reading(text)
    return fast == slow and (fast[1].written, fast[1].written_keys) == (
        slow[1].written,
        slow[1].written_keys,
    )


def simulated_text(ruleset: str, players: int, index: int) -> str:
    return play_one(load_ruleset(ruleset).for_players(players), 7, index, record_ref=ruleset)[1]


WRITTEN = [EXAMPLE_TEXTS[name] for name in EXAMPLE_TEXTS] + [
    simulated_text(ruleset, players, index)
    for ruleset, players in (("original-2001", 3), ("bsw-dm-2003", 4), ("second-edition-2014", 2))
    for index in range(2)
]


@pytest.mark.parametrize("text", WRITTEN)
def test_the_writers_layout_is_read_fast_and_exactly_as_yaml_reads_it(text):
    fast = _parse_turn_lines(text, "r.yaml")
    assert fast is not None
    assert fast == yaml_reading(text)
    assert reads_the_same(fast, text)


BASE = EXAMPLE_TEXTS["second-edition-2014-3p.yaml"].replace("event:", "x-note: tea time\nevent:")


def edit(text: str, line: int, new: str | None) -> str:
    """Replace line `line` (0-based) by `new` (None: delete it); `new` may hold several lines."""
    rows = text.split("\n")
    rows[line : line + 1] = [] if new is None else [new]
    return "\n".join(rows)


TURN = 7  # a turn line of BASE (the first one)
FALLS_BACK = {
    "player read as a boolean": edit(BASE, TURN, "  - yes: grey K6"),
    "player read as null": edit(BASE, TURN, "  - Null: grey K6"),
    "turn read as a boolean": edit(BASE, TURN, "  - Anna: off"),
    "quoted player": edit(BASE, TURN, "  - 'Anna': grey K6"),
    "blank line inside the turns": edit(BASE, TURN, "\n  - Anna: grey K6"),
    "comment line": edit(BASE, TURN, "  # opening\n  - Anna: grey K6"),
    "trailing comment": edit(BASE, TURN, "  - Anna: grey K6  # opening"),
    "continuation line": edit(BASE, TURN, "  - Anna: grey K6,\n      wall A12"),
    "tab": edit(BASE, TURN, "  - Anna:\tgrey K6"),
    "deeper indentation": edit(BASE, TURN, "    - Anna: grey K6"),
    "colon in the placements": edit(BASE, TURN + 1, "  - Ben: grey K5: wall A12"),
    "placements ending in a space": edit(BASE, TURN + 1, "  - Ben: grey K5 "),
    "CRLF line ends": BASE.replace("\n", "\r\n"),
    "turns inside a quoted scalar": BASE.replace("turns:\n", 'notes: "a\nturns:\n', 1).replace(
        "\nevent:", '\n"\nevent:'
    ),
    "flow sequence left open": BASE.replace("players: [Anna, Ben, Cleo]", "players: [Anna, Ben,"),
    "second turns key": BASE.replace("\nevent:", "\nturns:\n  - Anna: grey K6\nevent:"),
    "no turn lines": BASE.split("turns:")[0] + "turns:\nevent: x\n",
    "turn lines inside a quoted scalar, a real turns list later": BASE.replace(
        "setup:", 'notes: "a\nturns:\n  - Anna: grey K6\nend"\nsetup:'
    ),
    "turn lines inside a quoted scalar, an empty turns key later": BASE.split("turns:")[0].replace(
        "setup:", 'notes: "a\nturns:\n  - Anna: grey K6\nend"\nsetup:'
    )
    + "turns:\nevent: x\n",
}


def test_base_is_read_fast():
    assert "  - Anna: " in BASE.split("\n")[TURN]
    assert _parse_turn_lines(BASE, "r.yaml") is not None


@pytest.mark.parametrize("case", FALLS_BACK)
def test_any_other_layout_is_left_to_yaml(case):
    assert _parse_turn_lines(FALLS_BACK[case], "r.yaml") is None


@pytest.mark.parametrize("placements", ["grey K5,wall A12", "Grey k05 ,  tea", "grey K5,", "x"])
def test_odd_spellings_on_one_line_are_read_as_yaml_reads_them(placements):
    text = edit(BASE, TURN + 1, f"  - Ben: {placements}")
    fast = _parse_turn_lines(text, "r.yaml")
    assert fast is not None and fast == yaml_reading(text)
    assert reads_the_same(fast, text)
    assert fast[0]["turns"][1] == {"Ben": placements}


# inputs found by an adversarial review: YAML refuses or reads them otherwise; the fast reading must step aside
REVIEWED = {
    "a player name past YAML's key length limit": "\nturns:\n  - " + "A" * 1025 + ": b",
    "turns inside a flow mapping": "{\nturns:\n  - A: b\nc}",
    "turns inside an open flow sequence": "\rturns: [\nturns:\n  - A: b\nc]",
    "a carriage return before a quoted turns line": '\rturns: "\nturns:\n  - A: b\nc"',
    "a line separator before a quoted turns line": '\u2028turns: "\nturns:\n  - A: b\nc"',
    "a next line character before a quoted turns line": "a: 1\x85turns: 'x\nturns:\n  - A: b\nc'",
    "a syntax error reported past the last line": "{\nturns:\n  - A: b\nc",
}


@pytest.mark.parametrize("case", REVIEWED)
def test_reviewed_inputs_are_left_to_yaml(case):
    assert _parse_turn_lines(REVIEWED[case], "r.yaml") is None


def test_turn_lines_inside_a_quoted_scalar_are_text_to_yaml():
    data, _lines = yaml_reading(
        FALLS_BACK["turn lines inside a quoted scalar, an empty turns key later"]
    )
    assert data["notes"] == "a turns: - Anna: grey K6 end" and data["turns"] is None


def test_line_numbers_of_turns_and_of_what_follows_them():
    text = EXAMPLE_TEXTS["original-2001-4p.yaml"]
    record = parse_record(edit(text, 9, "  - Cleo: grey A1"), "r.yaml")  # turn 4: not Cleo's seat
    fast = _parse_turn_lines(text, "r.yaml")
    _data, lines = fast
    assert lines.of("turns", 3) == 10 and record.turns[3].line == 10
    rows = text.split("\n")
    assert lines.of("result") == rows.index(next(r for r in rows if r.startswith("result:"))) + 1


# random damage: every edit either keeps the fast reading identical to YAML's, or makes it step aside
PIECES_OF_TEXT = [
    "",
    "  - Anna: grey K6",
    "  - yes: tea",
    "  - Ben: no",
    "  - Cleo: pass",
    "  # c",
    "# c",
    "---",
    "...",
    "turns:",
    "turns: []",
    "  - Anna: grey K6 # c",
    "    wall A1",
    "\t- Ben: wall A1",
    "- Anna: grey K6",
    "  - Äli: grey K6",
    "  - P_1: Grey k06, tea",
    "  -  Anna: grey K6",
    "  - Anna:  grey K6",
    "  - Anna: grey K6 ",
    "notes: |",
    "notes: 'a",
    "' ",
    "x-a: [1,",
    "  - Anna: &a grey K6",
    "  - Dan: *a",
    "  - 12: grey K6",
    "  - Anna: grey K6: wall",
    "setup:",
]


@pytest.mark.slow
@settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    name=st.sampled_from(sorted(EXAMPLE_TEXTS) + ["base"]),
    edits=st.lists(
        st.tuples(st.integers(0, 200), st.sampled_from(PIECES_OF_TEXT + [None]), st.booleans()),
        min_size=1,
        max_size=4,
    ),
)
def test_damaged_records_read_as_yaml_reads_them(name, edits):
    text = BASE if name == "base" else EXAMPLE_TEXTS[name]
    for line, new, insert in edits:
        line %= text.count("\n") + 1
        if insert and new is not None:
            new += "\n" + text.split("\n")[line]
        text = edit(text, line, new)
    fast = _parse_turn_lines(text, "r.yaml")
    if fast is not None:
        assert fast == yaml_reading(text)
        assert reads_the_same(fast, text)


# generated turn lines: words YAML reads as other types (booleans, null, numbers, dates) as players and
# placements, odd spacing and commas, in a record whose other values are read as other types too
WORDS = [
    "Anna",
    "Ben",
    "yes",
    "No",
    "null",
    "Null",
    "NULL",
    "~",
    "true",
    "off",
    "12",
    "0x1F",
    "1e3",
    ".5",
    ".inf",
    "2001-01-01",
    "grey",
    "K6",
    "k06",
    "tea",
    "pass",
    "Äli",
    "P_1",
    "a1",
]


@pytest.mark.slow
@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(
    turns=st.lists(
        st.tuples(
            st.sampled_from(WORDS),
            st.lists(st.sampled_from(WORDS), min_size=1, max_size=4),
            st.sampled_from([", ", ",", " , ", " "]),
        ),
        min_size=1,
        max_size=6,
    ),
    date=st.sampled_from(["2001-01-01", "'2001-01-01'", "12", "yes", "~"]),
)
def test_generated_turn_lines_read_as_yaml_reads_them(turns, date):
    lines = [f"  - {player}: {separator.join(words)}" for player, words, separator in turns]
    text = BASE.replace("turns:\n", "turns:\n" + "\n".join(lines) + "\n", 1).replace(
        "event:", f"date: {date}\nevent:"
    )
    fast = _parse_turn_lines(text, "r.yaml")
    if fast is not None:
        assert reads_the_same(fast, text)
