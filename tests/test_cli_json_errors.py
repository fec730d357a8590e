"""--json prints the command's one document also when the command fails (docs/format.md §5): for
`simulate` (and `--readings`), `hint` and `analyse`, every kind of failure they can meet comes as
that document with its `format` and the error in `errors`, nothing on stderr, and the exit status
the command has without --json."""

from __future__ import annotations

import json

import pytest
from conftest import EXAMPLES, record_text
from scorekit import run

from medina_cli.study.backend import StudyError

GAME = str(EXAMPLES / "original-2001-4p.yaml")
# Ben's grey D4 is fine, his wall D5 is not (walls go on the ring): replay stops inside turn 2
ILLEGAL = record_text(
    "original-2001", ["Anna", "Ben", "Cleo"], ["Anna: wall A12, wall A11", "Ben: grey D4, wall D5"]
)
FILES = {  # written into the test's folder; `{name}` in a case's arguments is its path there
    "illegal.yaml": ILLEGAL.encode(),
    "unknown-edition.yaml": ILLEGAL.replace(
        "ruleset: original-2001", "ruleset: no-such-edition"
    ).encode(),
    "malformed.yaml": b"medina: record/1\nruleset: [\n",
    "binary.yaml": b"\x00\x01\xff",
    "a-file.txt": b"not a folder\n",
}

RECORD_CASES = [  # (what is wrong, arguments after FILE or instead of it, error code, exit status)
    ("missing", ["{tmp}/nope.yaml"], "file-not-found", 2),
    ("not-text", ["{binary.yaml}"], "not-text", 2),
    ("malformed", ["{malformed.yaml}"], "yaml-syntax", 1),
    (
        "unknown-edition-in-record",
        ["{unknown-edition.yaml}"],
        "unknown-ruleset",
        2,
    ),  # the record cannot be read
    ("illegal-turn", ["{illegal.yaml}"], "wrong-square", 1),
    ("directory", ["{tmp}"], "usage", 2),
    ("bad-ruleset", [GAME, "--ruleset", "no-such-edition"], "unknown-ruleset", 2),
    ("bad-set", [GAME, "--set", "no.such=1"], "bad-set", 2),
    ("unknown-agent", [GAME, "--agent", "deep-blue"], "usage", 2),
    ("agent-that-does-not-rate", [GAME, "--agent", "random"], "usage", 2),
]
SIMULATE_CASES = [  # (what is wrong, arguments, error code, exit status)
    ("no-ruleset", [], "usage", 2),
    ("ruleset-and-rulesets", ["-r", "original-2001", "--rulesets", "bsw-dm-2003"], "usage", 2),
    ("bad-ruleset", ["-r", "no-such-edition"], "unknown-ruleset", 2),
    (
        "bad-ruleset-in-rulesets",
        ["--rulesets", "original-2001,no-such-edition"],
        "unknown-ruleset",
        2,
    ),
    ("empty-rulesets-entry", ["--rulesets", "original-2001,,bsw-dm-2003"], "usage", 2),
    ("player-count", ["-r", "original-2001", "--players", "2"], "unsupported-player-count", 2),
    ("agents-count", ["-r", "original-2001", "--agents", "random,random"], "usage", 2),
    (
        "unknown-agent",
        ["-r", "original-2001", "--agents", "bogus,random,random,random"],
        "usage",
        2,
    ),
    ("bad-set", ["-r", "original-2001", "--set", "no.such=1"], "bad-set", 2),
    (
        "out-with-set",
        ["-r", "original-2001", "--out", "{tmp}/out", "--set", "towers.reconnect=never"],
        "usage",
        2,
    ),
    ("resume-without-out", ["-r", "original-2001", "--resume"], "usage", 2),
    ("resume-without-study", ["-r", "original-2001", "--out", "{tmp}", "--resume"], "usage", 2),
    ("out-not-a-folder", ["-r", "original-2001", "--out", "{a-file.txt}"], "cannot-write", 2),
    (
        "out-same-ids",
        ["--rulesets", "original-2001,original-2001", "--out", "{tmp}/out"],
        "usage",
        2,
    ),
    (
        "jobs-and-scheduler",
        ["-r", "original-2001", "--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"],
        "usage",
        2,
    ),
]
READINGS_CASES = [
    ("bad-ruleset", ["-r", "no-such-edition"], "unknown-ruleset", 2),
    ("bad-set", ["-r", "original-2001", "--set", "no.such=1"], "bad-set", 2),
    ("player-count", ["-r", "original-2001", "--players", "2"], "unsupported-player-count", 2),
    ("with-rulesets", ["--rulesets", "original-2001,bsw-dm-2003"], "usage", 2),
    ("with-agents", ["-r", "original-2001", "--agents", "random,random,random,random"], "usage", 2),
]
UNDO_CASES = [
    case
    for case in RECORD_CASES
    if case[0] in ("missing", "not-text", "malformed", "unknown-edition-in-record", "directory")
]
CASES = (
    [(("hint",), "medina-hint/1", *case) for case in RECORD_CASES]
    + [(("status",), "medina-status/1", *case) for case in RECORD_CASES if "agent" not in case[0]]
    + [(("undo",), "medina-undo/1", *case) for case in UNDO_CASES]
    + [(("analyse",), "medina-analyse/1", *case) for case in RECORD_CASES]
    + [(("simulate", "-g", "2"), "medina-simulate/1", *case) for case in SIMULATE_CASES]
    + [
        (("simulate", "-g", "2", "--readings"), "medina-simulate-readings/1", *case)
        for case in READINGS_CASES
    ]
)


@pytest.fixture
def folder(tmp_path):
    for name, data in FILES.items():
        (tmp_path / name).write_bytes(data)
    return tmp_path


def filled(args: list[str], folder) -> list[str]:
    """The arguments with `{tmp}` the test's folder and `{name}` the file `name` in it."""
    places = {"{tmp}": str(folder), **{f"{{{name}}}": str(folder / name) for name in FILES}}
    return [
        places.get(arg[: arg.index("}") + 1], "") + arg[arg.index("}") + 1 :]
        if arg.startswith("{")
        else arg
        for arg in args
    ]


def check_document(code: int, out: str, err: str, form: str, error: str, status: int) -> dict:
    """Exactly one JSON document on stdout, of format `form`, with `error` in `errors`; nothing on
    stderr; exit `status`."""
    doc = json.loads(out)  # one document: anything after it is "Extra data"
    assert (code, err, doc["format"]) == (status, "", form)
    assert error in [e["code"] for e in doc["errors"]] and isinstance(doc["warnings"], list)
    return doc


@pytest.mark.slow
@pytest.mark.parametrize(
    "command, form, what, args, error, status",
    CASES,
    ids=[f"{' '.join(c[0][::2])}-{c[2]}" for c in CASES],
)
def test_a_failure_is_the_commands_one_document(folder, command, form, what, args, error, status):
    greedy = (
        ["--agent", "greedy"] if command[0] == "hint" and "--agent" not in args else []
    )  # quick
    before = {name: (folder / name).read_bytes() for name in FILES}
    args = [*command, *filled(args, folder), *greedy]
    doc = check_document(*run(*args, "--json"), form, error, status)
    if command[0] == "simulate":
        assert doc.get("rulesets", doc.get("readings")) == []  # nothing played
    else:  # hint is for where an illegal record's replay stopped; analyse rates nothing then
        assert doc["file"] is not None and doc.get("placements", []) == []
    code, _, _ = run(*args)
    assert code == status  # the status without --json
    assert before == {
        name: (folder / name).read_bytes() for name in FILES
    }  # undo refused: nothing changed


@pytest.mark.parametrize(
    "failure, error",
    [
        (StudyError("--scheduler tcp://10.0.0.5:8786: lost the scheduler"), "usage"),
        (PermissionError(13, "Permission denied", "out/original-2001-1.yaml"), "cannot-write"),
    ],
    ids=["lost-cluster", "cannot-write-a-record"],
)
def test_a_study_that_fails_midway_is_the_document_too(monkeypatch, failure, error):
    import medina_cli.study.simulate

    def fail(*args, **kw):
        raise failure

    monkeypatch.setattr(medina_cli.study.simulate, "simulate", fail)
    check_document(
        *run("simulate", "-r", "original-2001", "-g", "2", "--json"), "medina-simulate/1", error, 2
    )
    code, out, err = run("simulate", "-r", "original-2001", "-g", "2")
    assert (code, out) == (2, "") and len(err.splitlines()) == 1


def test_hint_and_analyse_carry_the_records_warnings_and_leave_stderr_alone(tmp_path):
    """A valid record's warnings (its last turn is in progress) are in the document, not on stderr."""
    game = tmp_path / "in-progress.yaml"
    game.write_text(
        record_text(
            "original-2001", ["Anna", "Ben", "Cleo"], ["Anna: wall A12, wall A11", "Ben: grey D4"]
        )
    )
    for command in ("hint", "analyse"):
        code, out, err = run(command, game, "--agent", "greedy", "--json")
        doc = json.loads(out)
        assert (code, err, doc["errors"]) == (0, "", [])
        assert [w["code"] for w in doc["warnings"]] == ["turn-in-progress"]


def test_a_usage_error_in_the_document_names_what_it_is_about():
    code, out, err = run("hint", GAME, "--agent", "random", "--json")
    assert (
        code == 2
        and err == ""
        and json.loads(out)["errors"][0]["message"].startswith("--agent random: ")
    )
