"""`medina validate` on bad input, through the installed command: one line per problem naming the
file, line, turn and player; exit 1 (invalid) or 2 (unusable input, usage); never a traceback,
never a hang, and the input file is left exactly as it was."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES

MEDINA = Path(sys.executable).with_name("medina")
pytestmark = pytest.mark.skipif(
    not MEDINA.exists(), reason=f"no installed `medina` next to {sys.executable}"
)

HEAD = "medina: record/1\nruleset: original-2001\nplayers: [Anna, Ben, Cleo]\nsetup:\n  merchant: J7\nturns:\n"
OPENING = "  - Anna: wall A12, wall A11\n"  # line 7


def medina(*args, stdin: bytes | None = None):
    proc = subprocess.run(
        [str(MEDINA), *map(str, args)], input=stdin, capture_output=True, timeout=60
    )
    out, err = proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in out + err
    return proc.returncode, out, err


def validate_file(tmp_path, content: str | bytes, *args):
    """Run `medina validate` on a file holding `content`; the file must come back unchanged."""
    path = tmp_path / "game.yaml"
    data = content.encode() if isinstance(content, str) else content
    path.write_bytes(data)
    result = medina("validate", path, *args)
    assert path.read_bytes() == data
    return (path, *result)


def problem_lines(text: str, code: str) -> list[str]:
    return [line for line in text.splitlines() if line.endswith(f"[{code}]")]


# (case, record text, code, line, "turn N[ placement K]" or None, player or None)
INVALID = [
    (
        "malformed-yaml",
        HEAD + "  - Anna: [wall A12\n",
        "yaml-syntax",
        7,
        None,
        None,
    ),  # the unclosed `[`
    ("wrong-tag", HEAD.replace("record/1", "board/1") + OPENING, "bad-format-tag", 1, None, None),
    (
        "unknown-colour",
        HEAD + OPENING + "  - Ben: purple D4, wall B13\n",
        "unknown-piece",
        8,
        "turn 2 placement 1",
        "Ben",
    ),
    (
        "cell-off-board",
        HEAD + OPENING + "  - Ben: grey D4, wall B14\n",
        "bad-cell",
        8,
        "turn 2 placement 2",
        "Ben",
    ),
    (
        "wall-in-interior",
        HEAD + OPENING + "  - Ben: grey D4, wall D5\n",
        "wrong-square",
        8,
        "turn 2 placement 2",
        "Ben",
    ),
    (
        "building-on-ring",
        HEAD + OPENING + "  - Ben: grey A5, wall B13\n",
        "wrong-square",
        8,
        "turn 2 placement 1",
        "Ben",
    ),
    (
        "out-of-turn",
        HEAD + OPENING + "  - Cleo: wall B13, wall C13\n",
        "out-of-turn",
        8,
        "turn 2",
        "Cleo",
    ),
    (
        "three-placements",
        HEAD + OPENING + "  - Ben: wall B13, wall C13, wall D13\n",
        "too-many-placements",
        8,
        "turn 2 placement 3",
        "Ben",
    ),
    (
        "never-held",
        HEAD + OPENING + "  - Ben: grey D4, neutral D4\n",
        "not-in-supply",
        8,
        "turn 2 placement 2",
        "Ben",
    ),
    (
        "illegal-building",
        HEAD + "  - Anna: grey D4, grey H8\n",
        "building-not-adjacent",
        7,
        "turn 1 placement 2",
        "Anna",
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    "text, code, line, turn, player", [c[1:] for c in INVALID], ids=[c[0] for c in INVALID]
)
def test_invalid_record(tmp_path, text, code, line, turn, player):
    path, status, out, err = validate_file(tmp_path, text)
    assert status == 1
    (message,) = problem_lines(out + err, code)
    assert message.startswith(f"{path}:{line}: ")
    context = message.split(": ")[1]
    if turn is not None:
        assert context.startswith(turn) and context.endswith(player)
    assert f"{path}: INVALID" in out


@pytest.mark.slow
def test_a_piece_the_player_no_longer_holds(tmp_path):
    text = (
        HEAD
        + OPENING
        + "  - Ben: wall B13, wall C13\n  - Cleo: wall Q13, wall P13\n  - Anna: wall A10, grey D4\n"
    )
    path, status, out, _err = validate_file(tmp_path, text, "--set", "supply.3.walls=2")
    assert status == 1
    (message,) = problem_lines(out, "not-in-supply")
    assert message.startswith(f"{path}:10: turn 4 placement 1, Anna: ")


@pytest.mark.slow
def test_alias_bomb_is_refused_quickly(tmp_path):
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [{', '.join([f'*{prev}'] * 9)}]")
    path, status, out, _err = validate_file(tmp_path, HEAD + OPENING + "\n".join(lines) + "\n")
    assert status == 1
    (message,) = problem_lines(out, "yaml-alias")
    assert message.startswith(f"{path}:8: ")


@pytest.mark.slow
@pytest.mark.parametrize(
    "nesting", ["[" * 100_000 + "]" * 100_000, "\n" + "- " * 30_000 + "x"], ids=["flow", "block"]
)
def test_deeply_nested_yaml_is_refused(tmp_path, nesting):
    """Far inside the size limit, yet deep enough to overflow a recursive parser's C stack."""
    _path, status, out, err = validate_file(tmp_path, HEAD + "x-deep: " + nesting + "\n")
    assert status in (1, 2), f"exit {status}: {err[-300:]}"
    assert problem_lines(out + err, "yaml-syntax")


def test_fifty_megabyte_file_is_unusable(tmp_path):
    path = tmp_path / "huge.yaml"
    with open(path, "wb") as handle:
        handle.write(HEAD.encode())
        handle.truncate(50 * 1024 * 1024)
    status, out, err = medina("validate", path)
    assert status == 2
    (message,) = problem_lines(out + err, "too-large")
    assert message.startswith(f"{path}: ")
    assert path.stat().st_size == 50 * 1024 * 1024
    with open(path, "rb") as handle:
        assert handle.read(len(HEAD)) == HEAD.encode()


@pytest.mark.slow
@pytest.mark.parametrize(
    "junk",
    [
        bytes(range(256)) * 4,
        b"\x89PNG\r\n\x1a\n" + b"\xff" * 100,
        "medina: record/1\nevent: Caf\xe9\n".encode("latin-1"),
    ],
    ids=["bytes", "png", "latin-1"],
)
def test_binary_junk_is_unusable(tmp_path, junk):
    path, status, out, err = validate_file(tmp_path, junk)
    assert status == 2
    (message,) = problem_lines(out + err, "not-text")
    assert message.startswith(f"{path}: ")


@pytest.mark.slow
def test_missing_file_is_unusable(tmp_path):
    status, out, err = medina("validate", tmp_path / "nope.yaml")
    assert status == 2 and problem_lines(out + err, "file-not-found")


@pytest.mark.slow
def test_worst_status_wins_over_several_files(tmp_path):
    good = EXAMPLES / "original-2001-3p.yaml"
    bad = tmp_path / "bad.yaml"
    bad.write_text(HEAD + "  - Ben: wall A12, wall A11\n")
    assert medina("validate", good, good)[0] == 0
    assert medina("validate", good, bad)[0] == 1
    assert medina("validate", bad, tmp_path / "nope.yaml", good)[0] == 2


@pytest.mark.slow
def test_directories_are_searched_for_yaml_files(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.yaml").write_text(HEAD + OPENING)
    (tmp_path / "b.yml").write_text(HEAD + "  - Ben: wall A12, wall A11\n")
    (tmp_path / "c.txt").write_text("not a record")
    status, out, _err = medina("validate", tmp_path, "--json")
    assert status == 1
    results = json.loads(out)["results"]
    assert [(Path(r["file"]).name, r["valid"]) for r in results] == [
        ("b.yml", False),
        ("a.yaml", True),
    ]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert medina("validate", empty)[0] == 2


@pytest.mark.slow
def test_stdin(tmp_path):
    status, out, _err = medina(
        "validate", "-", stdin=(HEAD + "  - Ben: wall A12, wall A11\n").encode()
    )
    assert status == 1
    (message,) = problem_lines(out, "out-of-turn")
    assert message.startswith("<stdin>:7: turn 1, Ben: ")
    status, out, _err = medina(
        "validate", "-", stdin=(EXAMPLES / "original-2001-3p.yaml").read_bytes()
    )
    assert status == 0 and "<stdin>: valid (finished" in out


@pytest.mark.slow
def test_json_document_shape(tmp_path):
    path, status, out, _err = validate_file(
        tmp_path, HEAD + OPENING + "  - Ben: grey D4, grey H8\n", "--json"
    )
    assert status == 1
    doc = json.loads(out)
    assert list(doc) == ["format", "results"] and doc["format"] == "medina-validate/1"
    (result,) = doc["results"]
    assert set(result) == {"file", "ruleset", "valid", "finished", "errors", "warnings"}
    assert (result["file"], result["ruleset"], result["valid"], result["finished"]) == (
        str(path),
        "original-2001",
        False,
        False,
    )
    (error,) = result["errors"]
    assert set(error) == {"turn", "placement", "player", "line", "code", "message"}
    assert (error["turn"], error["placement"], error["player"], error["line"], error["code"]) == (
        2,
        2,
        "Ben",
        8,
        "building-not-adjacent",
    )
    assert isinstance(error["message"], str) and "\n" not in error["message"]
    assert result["warnings"] == []


@pytest.mark.slow
def test_json_turn_level_error_has_null_placement(tmp_path):
    _path, status, out, _err = validate_file(
        tmp_path, HEAD + "  - Anna: wall A12\n  - Ben: wall B13, wall C13\n", "--json"
    )
    assert status == 1
    (error,) = json.loads(out)["results"][0]["errors"]
    assert (error["code"], error["turn"], error["placement"], error["player"]) == (
        "too-few-placements",
        1,
        None,
        "Anna",
    )


@pytest.mark.slow
def test_json_for_unreadable_input(tmp_path):
    _path, status, out, _err = validate_file(tmp_path, b"\x00\x01junk", "--json")
    assert status == 2
    (result,) = json.loads(out)["results"]
    assert (result["valid"], result["errors"][0]["code"]) == (False, "not-text")


@pytest.mark.slow
def test_unfinished_record_is_valid_with_a_warning(tmp_path):
    path, status, out, err = validate_file(tmp_path, HEAD + OPENING)
    assert status == 0
    assert [
        line for line in err.splitlines() if line.startswith("warning: ")
    ] == [  # warnings on stderr
        f"warning: {path}: the record stops before the game ends (Ben could still place) [unfinished]"
    ]
    assert out.startswith(f"{path}: valid (unfinished;") and out.count("\n") == 1
    path, status, out, err = validate_file(tmp_path, HEAD + OPENING, "--json")
    (result,) = json.loads(out)["results"]
    assert (result["valid"], result["finished"], [w["code"] for w in result["warnings"]]) == (
        True,
        False,
        ["unfinished"],
    )


@pytest.mark.slow
def test_result_mismatch(tmp_path):
    text = (EXAMPLES / "original-2001-3p.yaml").read_text()
    claimed = re.search(r"^result: .*Ben: (\d+)", text, re.M)
    assert claimed, "the example states a result"
    wrong = text.replace(f"Ben: {claimed.group(1)}", f"Ben: {int(claimed.group(1)) + 3}")
    path, status, out, _err = validate_file(tmp_path, wrong)
    assert status == 1
    (message,) = problem_lines(out, "result-mismatch")
    line = next(
        number for number, text in enumerate(wrong.splitlines(), 1) if text.startswith("result:")
    )
    assert message.startswith(f"{path}:{line}: Ben: ")
    assert (
        f"claims {int(claimed.group(1)) + 3} for Ben, the replay scores {claimed.group(1)}"
        in message
    )


@pytest.mark.parametrize(
    "second_placement, code",
    [
        ("black D7", "cell-occupied"),  # illegal
        ("black B99", "bad-cell"),  # unreadable
        ("purple B9", "unknown-piece"),
    ],
)
def test_every_error_that_stops_checking_says_what_was_not_checked(
    tmp_path, second_placement, code
):
    text = (EXAMPLES / "original-2001-3p.yaml").read_text()
    assert "  - Ben: grey D7, black B9\n" in text
    broken = text.replace("  - Ben: grey D7, black B9\n", f"  - Ben: grey D7, {second_placement}\n")
    path, status, out, _err = validate_file(tmp_path, broken)
    assert status == 1
    assert len(problem_lines(out, code)) == 1
    assert out.splitlines()[-1] == (
        f"{path}: INVALID (1 error; checking stopped at turn 2: "
        "later turns and the claimed result not checked)"
    )


def test_a_player_not_in_players_stops_checking(tmp_path):
    path, status, out, _err = validate_file(
        tmp_path, HEAD + OPENING + "  - Zed: wall A10, wall A9\n  - Cleo: wall A8, wall A7\n"
    )
    assert status == 1
    assert len(problem_lines(out, "unknown-player")) == 1
    assert out.splitlines()[-1] == (
        f"{path}: INVALID (1 error; checking stopped at turn 2: later turns not checked)"
    )


@pytest.mark.slow
def test_ruleset_option_overrides_the_file(tmp_path):
    (tmp_path / "single.yaml").write_text(
        "medina: ruleset/1\nextends: original-2001\nturns:\n  opening_single: {3: 1, 4: 1}\n"
    )
    text = HEAD + "  - Anna: wall A12\n  - Ben: wall B13, wall C13\n"
    _path, status, out, _err = validate_file(tmp_path, text)
    assert status == 1 and problem_lines(out, "too-few-placements")
    _path, status, out, _err = validate_file(tmp_path, text, "--ruleset", tmp_path / "single.yaml")
    assert status == 0, out
    _path, status, out, _err = validate_file(
        tmp_path,
        text.replace("original-2001", "bsw-dm-2003"),
        "--json",
        "--ruleset",
        "original-2001",
    )
    assert json.loads(out)["results"][0]["ruleset"] == "original-2001"


def test_set_option(tmp_path):
    text = HEAD + "  - Anna: wall A12\n  - Ben: wall B13, wall C13\n"
    _path, status, out, _err = validate_file(tmp_path, text, "--set", "turns.opening_single.3=1")
    assert status == 0, out


@pytest.mark.slow
@pytest.mark.parametrize(
    "args, code",
    [
        (("--ruleset", "original-1999"), "unknown-ruleset"),
        (("--set", "no.such.param=1"), "bad-set"),
        (("--set", "towers.reconnect=sometimes"), "bad-set"),
    ],
)
def test_bad_options_are_usage_errors(tmp_path, args, code):
    _path, status, out, err = validate_file(tmp_path, HEAD + OPENING, *args)
    assert status == 2
    assert problem_lines(out + err, code)


@pytest.mark.slow
def test_usage_errors_from_the_command_line_itself():
    status, _out, err = medina("validate")
    assert status == 2 and "(usage: medina validate [OPTIONS] FILE...;" in err
    status, _out, err = medina("validate", "--no-such-option", "x.yaml")
    assert status == 2
