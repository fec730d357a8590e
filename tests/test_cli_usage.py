"""The command line as a user meets it: closed pipes, directory expansion, help texts, --version,
and `moves` on a record with an illegal placement."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from importlib.metadata import version

import pytest
from conftest import EXAMPLES, ROOT, record_text
from scorekit import run

GAME = str(EXAMPLES / "original-2001-4p.yaml")
# Ben's grey D4 is fine, his wall D5 is not (walls go on the ring): replay stops inside turn 2
ILLEGAL = record_text(
    "original-2001", ["Anna", "Ben", "Cleo"], ["Anna: wall A12, wall A11", "Ben: grey D4, wall D5"]
)


@pytest.mark.skipif(not hasattr(signal, "SIGPIPE"), reason="no SIGPIPE on this platform")
@pytest.mark.parametrize(
    "args",
    [
        ("score", GAME),
        ("replay", GAME),
        ("compare", GAME),
        ("moves", GAME, "--to", "3"),
        ("validate", str(EXAMPLES)),
    ],
    ids=lambda a: a[0],
)
def test_a_closed_pipe_ends_the_process_quietly_by_sigpipe(args):
    reader, writer = os.pipe()
    proc = subprocess.Popen(
        [sys.executable, "-m", "medina_cli", *args], stdout=writer, stderr=subprocess.PIPE, cwd=ROOT
    )
    os.close(writer)
    os.close(reader)  # the reader is gone before medina has started writing
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGPIPE and err == b""


def test_directories_skip_hidden_files_rulesets_and_boards(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "a.yaml").write_text(
        record_text("original-2001", ["A", "B", "C"], ["A: wall A12, wall A11"])
    )
    site = tmp_path / ".venv" / "lib" / "site-packages"
    site.mkdir(parents=True)
    (site / "config.yaml").write_text("key: value\n")
    (tmp_path / ".pre-commit-config.yaml").write_text("repos: []\n")
    (tmp_path / "house.yaml").write_text(
        "# my house rules\nmedina: ruleset/1\nextends: original-2001\n"
    )
    (tmp_path / "end.yml").write_text(
        (ROOT / "tests/fixtures/boards/e1-original-2001.yaml").read_text()
    )
    code, out, err = run("validate", tmp_path, "--json")
    assert code == 0
    assert [r["file"] for r in json.loads(out)["results"]] == [str(tmp_path / "games" / "a.yaml")]
    assert err.splitlines() == [
        f"{tmp_path / 'end.yml'}: skipped: a finished board, not a record (use medina score)",
        f"{tmp_path / 'house.yaml'}: skipped: a ruleset, not a record",
    ]
    code, out, _ = run(
        "validate", tmp_path / "house.yaml"
    )  # named on the command line: validated as before
    assert code == 1 and "[bad-format-tag]" in out


def test_single_file_commands_refuse_a_directory(tmp_path):
    for command in ("replay", "moves", "render", "view"):
        code, out, err = run(command, tmp_path)
        assert code == 2 and out == "" and "is a directory; this command takes one record" in err, (
            command
        )


COMMANDS = [
    ("validate",),
    ("replay",),
    ("moves",),
    ("score",),
    ("compare",),
    ("render",),
    ("view",),
    ("simulate",),
    ("import", "boardspace"),
    ("add",),
    ("undo",),
    ("status",),
    ("play",),
    ("rules", "show"),
    ("rules", "diff"),
]
ARGUMENT_TYPES = {
    ("add",): {"<path>", "<placement>"},
    ("undo",): {"<path>"},
    ("rules", "show"): {"<ruleset>"},
    ("rules", "diff"): {"<ruleset>"},
    ("simulate",): set(),
}


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help_shows_plain_metavars_and_what_each_argument_is(command):
    """The usage line names arguments plainly (`FILE`, not `{FILE}`); beside each argument its type is a
    word that says what it takes (`<path>`, `<ruleset>`, `<placement>`), never Python's `<str>`."""
    code, out, _ = run(*command, "--help")
    assert code == 0
    usage = next(line for line in out.splitlines() if "Usage:" in line).split()
    if command not in ARGUMENT_TYPES:
        assert usage[-1] == (
            "FILE..."
            if command in (("validate",), ("score",), ("import", "boardspace"))
            else "FILE"
        )
    assert {
        word for word in ("<path>", "<ruleset>", "<placement>") if word in out
    } == ARGUMENT_TYPES.get(command, {"<path>"})
    for odd in ("{", "<str>", "<int", "[x>=", "[default: -]", "…"):
        assert odd not in out, odd


@pytest.mark.parametrize(
    "command", [(), ("rules",), ("import",)], ids=lambda c: " ".join(("medina", *c))
)
def test_a_group_without_a_command_shows_its_help_and_exits_2(command):
    code, out, _ = run(*command)
    assert code == 2 and "Usage: medina" in out and "Commands" in out


def test_help_of_simulate_says_a_ruleset_is_required():
    out = " ".join(run("simulate", "--help")[1].split())
    assert "One of --ruleset and --rulesets is required" in out


def test_to_must_be_a_whole_number():
    code, _, err = run("score", GAME, "--to", "abc")
    assert code == 2 and "'abc' is not a whole number (≥ 0)" in err and "int range" not in err


def test_to_before_the_start_says_what_to_counts():
    for command in ("replay", "score", "render", "moves"):
        code, out, err = run(command, GAME, "--to", "-1")
        assert (code, out) == (2, "") and err.count("\n") == 1, err
        assert (
            "-1 is before the start: --to counts the turns replayed from the start of the record"
            in err
        )
        assert "is not a whole number" not in err


def test_to_past_the_end_is_a_warning_so_prefixed():
    turns = (EXAMPLES / "original-2001-4p.yaml").read_text().count("\n  - ")
    for command in ("replay", "score", "moves"):
        code, _, err = run(command, GAME, "--to", "1000")
        assert code == 0 and err == (
            f"warning: {GAME}: --to 1000: the record has {turns} turns; showing where it ends\n"
        )


@pytest.mark.parametrize(
    "item, count", [("supply.5.walls=3", 5), ("board.interior.2=[14, 10]", 2), ("supply.6={}", 6)]
)
def test_set_for_a_player_count_the_ruleset_does_not_take_names_it(item, count):
    code, out, err = run("validate", GAME, "--set", item)
    assert (code, out) == (2, "") and err.count("\n") == 1, err
    assert (
        f"original-2001 is for 3 or 4 players, not {count} (to add a player count, --set players as well"
        in err
    )
    assert err.endswith("[bad-set]\n") and "missing required key" not in err


def test_set_may_add_a_player_count_with_its_table_entries():
    code, _, err = run("validate", GAME, "--set", "players=[3, 4, 5]", "--set", "supply.5.walls=3")
    assert (
        code == 2 and "supply.5: missing required key" in err
    )  # the count is taken; its supply is incomplete


def test_version():
    from medina_cli.engine.native import engine_name

    code, out, _ = run("--version")
    assert code == 0 and out == f"medina-cli {version('medina-cli')} ({engine_name()} engine)\n"


@pytest.mark.slow
@pytest.mark.parametrize(
    "value, ok", [("python", True), ("native", None), ("Python", True), ("fast", False)]
)
def test_medina_engine_picks_the_engine_or_refuses_to_start(value, ok):
    from medina_cli.engine.native import built

    if ok is None:  # native: runs where it was built, else refuses to start
        ok = built() is not None
    proc = subprocess.run(
        [sys.executable, "-m", "medina_cli", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "MEDINA_ENGINE": value},
    )
    if ok:
        assert proc.returncode == 0 and proc.stdout.endswith(f"({value.lower()} engine)\n")
    else:
        assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.count("\n") == 1
        assert proc.stderr.startswith("MEDINA_ENGINE=") and "Traceback" not in proc.stderr
        assert proc.stderr.endswith(" [usage]\n")


def test_moves_of_an_invalid_record_lists_them_where_replay_stopped(tmp_path):
    source = tmp_path / "illegal.yaml"
    source.write_text(ILLEGAL)
    code, out, err = run("moves", source, "--no-color")
    assert code == 1 and "turn 2 placement 2, Ben: wall D5" in err and "[wrong-square]" in err
    assert "where the replay stopped (turn 2 is illegal): Ben to move" in out
    assert "  grey        4: C4 D3 D5 E4" in out  # his grey palace, begun at D4, must grow
    code, out, _ = run("moves", source, "--json")
    doc = json.loads(out)
    assert (
        code == 1
        and doc["format"] == "medina-moves/1"
        and doc["player"] == "Ben"
        and doc["after_turn"] == 1
    )
    assert [p for p in doc["placements"] if p.startswith("grey")] == [
        "grey C4",
        "grey D3",
        "grey D5",
        "grey E4",
    ]


SGF = (
    ROOT
    / "tests"
    / "fixtures"
    / "boardspace"
    / "A-v1-start-merchant-seat-v1-4p-00286-to-turn32.sgf"
)


@pytest.mark.parametrize(
    "args, form, message",
    [
        (("compare", GAME, "--rulesets", "a,,b"), "medina-compare/1", "an entry is empty"),
        (
            ("import", "boardspace", SGF, "--players", "A,,B,C"),
            "medina-import/1",
            "an entry is empty",
        ),
        (("replay", GAME, "-o", "final.yaml"), "medina-replay/1", "goes only with --final-board"),
        (("replay", GAME, "--final-board"), "medina-replay/1", "not with --final-board"),
    ],
    ids=lambda a: a[0] if isinstance(a, tuple) else "",
)
def test_options_that_do_not_go_together_are_a_json_document_under_json(args, form, message):
    """What our own checks refuse on a command line typer understood is, with --json, the command's one
    document with the `usage` error (as a bad --ruleset is); without --json, a line on stderr."""
    code, out, err = run(*args, "--json")
    doc = json.loads(out)
    assert (code, err, doc["format"]) == (2, "", form) and doc["file"] in map(str, args)
    assert [e["code"] for e in doc["errors"]] == ["usage"] and message in doc["errors"][0][
        "message"
    ]
    if "--final-board" not in args:  # that one is refused only beside --json
        code, out, err = run(*args)
        assert (code, out) == (2, "") and message in err


BOARD = str(ROOT / "tests/fixtures/boards/e3-second-edition-2014.yaml")


@pytest.mark.slow
@pytest.mark.parametrize(
    "args, line",
    [
        (
            ("render", GAME, "-o", "/nonexistent/x.svg"),
            "/nonexistent/x.svg: cannot write: No such file or directory [cannot-write]",
        ),
        (
            ("view", GAME, "-o", "x.txt"),
            "-o x.txt: the output is an HTML page; name a .html or .htm file, or - for "
            "standard output [usage]",
        ),
        (
            ("hint", GAME, "--agent", "alphazero"),
            "--agent: agent 'alphazero': unknown agent; the agents are random, "
            "greedy, mcts, mcts:N, mcts:Ts, mcts@C, mcts:N@C, alphabeta, alphabeta:D [usage]",
        ),
        (
            ("hint", GAME, "--agent", "random"),
            "--agent random: it does not rate placements; use greedy, mcts, mcts:N or alphabeta [usage]",
        ),
        (
            ("play", "q.yaml"),
            "medina play: a new game needs --ruleset and a --seat for each player (or --continue to go "
            "on with FILE's game) [usage]",
        ),
        (
            ("render", BOARD, "--to", "3", "-o", "x.svg"),
            f"{BOARD}: --to, --legal and --last apply to records, not to a finished board [usage]",
        ),
        (
            ("compare", GAME, "--rulesets", "original-2001,nope"),
            "--rulesets: unknown ruleset 'nope'; built-in rulesets:",
        ),
        (
            ("simulate", "--rulesets", "original-2001,nope", "--games", "1"),
            "--rulesets: unknown ruleset 'nope';",
        ),
    ],
)
def test_every_usage_error_is_one_line_naming_where_and_ending_in_its_code(tmp_path, args, line):
    """Each refusal is `WHERE: what is wrong [code]`, WHERE the file or the option at fault."""
    done = subprocess.run(
        [sys.executable, "-m", "medina_cli", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert (done.returncode, done.stdout) == (2, "") and len(done.stderr.splitlines()) == 1
    assert done.stderr.startswith(line) and done.stderr.rstrip().endswith("]")


def test_jobs_cut_to_the_limit_is_said_as_a_warning():
    code, _, err = run("simulate", "-r", "original-2001", "--games", "1", "--jobs", "100000")
    assert code == 0 and err.startswith("warning: --jobs 100000 is more than 4 per CPU: using ")


def test_score_of_games_none_of_which_counts_says_why_there_are_no_standings():
    code, out, _ = run("score", str(EXAMPLES), "--to", "10")
    last = out.splitlines()[-1]
    assert code == 0 and "Standings over" not in out
    assert last.startswith(
        "No standings: they count valid, finished games, and none of these 6 is one (invalid or "
        "unfinished: "
    )


@pytest.mark.parametrize(
    "args",
    [("view", "-o", "x.html"), ("replay",), ("moves",), ("hint",), ("compare",), ("status",)],
    ids=lambda a: a[0],
)
def test_a_board_given_to_a_command_that_takes_records_is_a_usage_error(tmp_path, args):
    """A board/1 file is valid, just not a record: exit 2, and the commands that take boards are named."""
    command, *options = args
    code, out, err = run(command, BOARD, *options)
    assert (code, out) == (2, "")
    assert err == (
        f"{BOARD}:3: `medina:` must be 'record/1', found 'board/1' (a finished board: `medina score` and "
        "`medina render` take it) [bad-format-tag]\n"
    )
    assert (
        run("score", BOARD)[0] == 0 and run("render", BOARD, "-o", tmp_path / "board.svg")[0] == 0
    )


def test_a_board_is_told_by_its_content_not_by_its_name(tmp_path):
    """The same board/1 text named .txt, or given on standard input, is refused as the .yaml file is."""
    text = open(BOARD, encoding="utf-8").read()
    named = tmp_path / "board.txt"
    named.write_text(text, encoding="utf-8")
    for args, stdin, where in (
        (("replay", named), None, str(named)),
        (("status", "-"), text, "<stdin>"),
    ):
        code, out, err = run(*args, stdin=stdin)
        assert (code, out) == (2, "") and err.startswith(
            f"{where}:3: `medina:` must be 'record/1', found 'board/1'"
        )


@pytest.mark.parametrize("args", [("add", "grey K8"), ("undo",)], ids=lambda a: a[0])
def test_a_board_given_to_a_command_that_changes_records_is_a_usage_error_and_stays(tmp_path, args):
    command, *rest = args
    board = tmp_path / "board.yaml"
    board.write_bytes(open(BOARD, "rb").read())
    code, out, err = run(command, board, *rest)
    assert (code, out) == (2, "") and board.read_bytes() == open(BOARD, "rb").read()
    assert err == (
        f"{board}:3: `medina:` must be 'record/1', found 'board/1' (a finished board: `medina score` and "
        "`medina render` take it) [bad-format-tag]\n"
    )


def test_simulate_help_names_the_games_write_records_takes():
    code, out, _ = run("simulate", "--help")
    words = " ".join(out.replace("│", " ").split())
    assert code == 0
    assert "each named by its ruleset and number, e.g. original-2001-0017," in words
