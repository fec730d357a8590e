"""Everyday use of the command line (issue 16): another ruleset on a record with a result, YAML 1.1
words in ruleset files, compare on boardspace records, and the other paths a new user runs into."""

from __future__ import annotations

import json

import pytest
from conftest import EXAMPLES
from scorekit import run
from terminal import on_terminal
from test_boardspace_reader import SGF, STORY

from medina_cli.rules.loader import load_ruleset

GAME = EXAMPLES / "original-2001-4p.yaml"


def wrong_result(tmp_path):
    """The 4-player example with a result that is wrong under its own ruleset."""
    text = GAME.read_text()
    assert "result: {Anna: 39," in text
    path = tmp_path / "game.yaml"
    path.write_text(text.replace("result: {Anna: 39,", "result: {Anna: 40,"))
    return path


# --- 1. another ruleset or --set: the claimed result is not checked ------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ("validate",),
        ("score",),
        ("replay",),
        ("render", "-o", "out.svg"),
        ("view", "-o", "out.html"),
        ("moves",),
    ],
    ids=lambda c: c[0],
)
@pytest.mark.parametrize(
    "other",
    [("--set", "towers.reconnect=once_per_palace_arm"), ("-r", "bsw-dm-2003")],
    ids=["set", "ruleset"],
)
@pytest.mark.slow
def test_another_ruleset_or_set_warns_that_the_result_is_not_checked(
    tmp_path, monkeypatch, command, other
):
    monkeypatch.chdir(tmp_path)
    path = wrong_result(tmp_path)
    assert run(*command, path)[0] == 1  # under its own ruleset the wrong result is an error
    code, out, err = run(*command, path, *other)
    assert code == 0, out + err
    warning = [line for line in (out + err).splitlines() if "[result-unchecked]" in line]
    assert len(warning) == 1 and warning[0].startswith("warning: ") and other[1] in warning[0]


def test_the_records_own_ruleset_given_with_r_still_checks_the_result(tmp_path):
    code, out, _ = run("validate", wrong_result(tmp_path), "-r", "original-2001")
    assert code == 1 and "[result-mismatch]" in out


def test_validate_json_lists_the_unchecked_result_as_a_warning(tmp_path):
    code, out, _ = run("validate", wrong_result(tmp_path), "-r", "bsw-dm-2003", "--json")
    result = json.loads(out)["results"][0]
    assert (
        code == 0
        and result["valid"]
        and [w["code"] for w in result["warnings"]] == ["result-unchecked"]
    )


# --- 2. YAML 1.1 booleans where the schema wants a word -------------------------------------------


def test_yaml_1_1_words_read_as_booleans_are_taken_back_as_words(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(
        "medina: ruleset/1\nextends: bsw-dm-2003\ntitle: 2003\nturns:\n  forced_roof: off\n"
        "scoring:\n  merchants_touching_stables: no\n"
    )
    ruleset = load_ruleset(str(path))
    assert ruleset.params["turns"]["forced_roof"] == "off"
    assert ruleset.title == "2003"
    assert (
        ruleset.params["scoring"]["merchants_touching_stables"] is False
    )  # a boolean parameter stays one


def test_a_boolean_that_is_none_of_the_words_is_still_refused(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text("medina: ruleset/1\nextends: original-2001\nturns:\n  forced_roof: yes\n")
    code, _, err = run("rules", "show", path)
    assert code == 2 and "turns.forced_roof" in err and "[ruleset-invalid]" in err


# --- 3. compare reads boardspace.net records -------------------------------------------------------


@pytest.mark.parametrize(
    "name, text, own",
    [
        ("game.txt", STORY, "boardspace-original-r100"),
        ("game.sgf", SGF, "boardspace-second-edition"),
    ],
)
def test_compare_reads_boardspace_records(tmp_path, name, text, own):
    path = tmp_path / name
    path.write_text(text)
    code, out, err = run("compare", path, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["results"][0]["ruleset"] == own and doc["results"][0]["status"] == "valid"
    assert len(doc["results"]) > 1
    code, out, _ = run("compare", path)
    assert code == 0 and out.startswith(f"{path}: 3 players")


# --- 7. a ruleset file reports every error; --ruleset: usage error, named by a record: unreadable --

BROKEN_RULESET = (
    "medina: ruleset/1\nextends: original-2001\nturns:\n  forced_roof: yes\n  placements: 9\n"
    "bogus: 1\n"
)


def test_a_ruleset_file_reports_all_its_errors(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(BROKEN_RULESET)
    code, out, err = run("rules", "show", path)
    assert code == 2 and out == ""
    assert [line.split(": ")[0] for line in err.splitlines()] == [
        f"{path}:4",
        f"{path}:5",
        f"{path}:6",
    ]
    assert all(line.endswith("[ruleset-invalid]") for line in err.splitlines())


def test_every_cross_check_error_of_a_ruleset_is_reported(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(
        "medina: ruleset/1\nextends: original-2001\nplayers: [3, 4, 5]\ntea:\n  colour: pink\n"
    )
    err = run("rules", "show", path)[2]
    assert "no entry for 5 players" in err and "'pink' is not a colour" in err


def test_an_invalid_ruleset_given_with_ruleset_is_a_usage_error(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(BROKEN_RULESET)
    for command in ("validate", "score", "replay"):
        code, out, err = run(command, GAME, "--ruleset", path)
        assert code == 2 and (out + err).count("[ruleset-invalid]") == 3, command


def test_an_invalid_ruleset_named_by_a_record_makes_the_record_unreadable(tmp_path):
    (tmp_path / "house.yaml").write_text(BROKEN_RULESET)
    record = tmp_path / "game.yaml"
    record.write_text(GAME.read_text().replace("ruleset: original-2001", "ruleset: house.yaml"))
    code, out, _ = run("validate", record, GAME)
    lines = out.splitlines()
    assert code == 2 and lines[0].startswith(
        f"{record}:2: the ruleset house.yaml cannot be used (3 errors"
    )
    assert (
        f"{record}: UNREADABLE" in lines
        and lines[-1] == "2 files: 1 valid, 1 invalid or unreadable"
    )
    code, out, _ = run("validate", record, "--json")
    result = json.loads(out)["results"][0]
    assert code == 2 and result["file"] == str(record) and len(result["errors"]) == 4
    code, _, err = run("score", record)
    assert code == 2 and err.count("[ruleset-invalid]") == 4


# --- 18. import -o refuses to overwrite without --force; import --json says what it wrote ---------


def test_import_refuses_to_overwrite_without_force(tmp_path):
    source, target = tmp_path / "game.txt", tmp_path / "game.yaml"
    source.write_text(STORY)
    target.write_text("my own notes\n")
    code, out, err = run("import", "boardspace", source, "-o", target)
    assert code == 2 and out == "" and "--force" in err and "[file-exists]" in err
    assert target.read_text() == "my own notes\n"
    code, _, err = run("import", "boardspace", source, "-o", target, "--force")
    assert code == 0 and target.read_text().startswith("medina: record/1\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "game.txt",
        "game.yaml",
    ]  # no temporary file left


def test_import_json_reports_what_it_wrote(tmp_path):
    source, target = tmp_path / "game.txt", tmp_path / "game.yaml"
    source.write_text(STORY)
    code, out, err = run("import", "boardspace", source, "-o", target, "--json")
    doc = json.loads(out)
    assert code == 0 and err == ""
    assert doc == {
        "format": "medina-import/1",
        "file": str(source),
        "output": str(target),
        "ruleset": "boardspace-original-r100",
        "players": ["P0", "P1", "P2"],
        "turns": 3,
        "errors": [],
        "warnings": [],
    }
    code, out, _ = run("import", "boardspace", source, "-o", target, "--json")  # exists now
    doc = json.loads(out)
    assert code == 2 and [e["code"] for e in doc["errors"]] == ["file-exists"]
    code, out, _ = run(
        "import", "boardspace", source, "--json"
    )  # to standard output: the record inside
    assert code == 0 and json.loads(out)["record"] == target.read_text()
    code, out, _ = run("import", "boardspace", tmp_path / "missing.txt", "--json")
    assert code == 2 and [e["code"] for e in json.loads(out)["errors"]] == ["file-not-found"]


# --- 16. every --help states the exit statuses; one error style -----------------------------------


def command_paths(command=None, path=()):
    """Every command and group of `medina`, as argument lists."""
    import typer

    from medina_cli.cli.app import app

    command = command or typer.main.get_command(app)
    yield list(path)
    for name, sub in getattr(command, "commands", {}).items():
        yield from command_paths(sub, (*path, name))


@pytest.mark.slow
@pytest.mark.parametrize("path", list(command_paths()), ids=lambda p: " ".join(p) or "medina")
def test_every_help_states_the_exit_statuses(path):
    code, out, _ = run(*path, "--help")
    text = " ".join(out.replace("│", " ").split())
    assert code == 0 and "Exit status: 0" in text and " 2 " in text.split("Exit status: 0", 1)[1]


@pytest.mark.parametrize(
    "args",
    [
        ("score", "--bogus", "x"),
        ("score",),
        ("score", "--to", "x", "a.yaml"),
        ("rules", "show"),
        ("nonsense",),
        ("replay", "-o", "x.yaml", "a.yaml"),
        ("simulate",),
    ],
    ids=" ".join,
)
def test_usage_errors_are_one_line_naming_where(args):
    code, out, err = run(*args)
    assert code == 2 and out == ""
    (line,) = err.splitlines()
    where = line.split(": ", 1)[0]
    assert where.startswith(("medina", "-")) and "╭" not in line and "Error" not in line, line


def test_file_errors_are_one_line_naming_the_file(tmp_path):
    code, out, err = run("score", tmp_path / "missing.yaml")
    assert (
        code == 2
        and out == ""
        and err.splitlines()
        == [f"{tmp_path / 'missing.yaml'}: cannot read: No such file or directory [file-not-found]"]
    )


# --- 4. render and view do not pour markup onto a terminal -----------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "command, suffix, mark", [("render", ".svg", "<svg"), ("view", ".html", "<html")]
)
def test_render_and_view_refuse_a_terminal_but_pipe(tmp_path, command, suffix, mark):
    import subprocess
    import sys

    code, shown, err = on_terminal(command, GAME)
    assert (
        code == 2 and shown == "" and f"give -o FILE{suffix}" in err and len(err.splitlines()) == 1
    )
    piped = subprocess.run(
        [sys.executable, "-m", "medina_cli", command, GAME], capture_output=True, text=True
    )
    assert piped.returncode == 0 and mark in piped.stdout
    target = tmp_path / f"out{suffix}"
    code, shown, err = on_terminal(command, GAME, "-o", target)
    assert (
        code == 0
        and shown == ""
        and mark in target.read_text()
        and err.strip() == f"wrote {target}"
    )


# --- 6. --json prints one document, also when the input is unreadable, malformed or illegal -------

ILLEGAL = (
    "medina: record/1\nruleset: original-2001\nplayers: [Anna, Ben, Cleo]\nsetup:\n  merchant: J7\n"
    "turns:\n  - Anna: wall A12, wall A11\n  - Ben: grey D4, wall D5\n"
)
JSON_COMMANDS = {
    ("score",): "medina-score/1",
    ("replay",): "medina-replay/1",
    ("moves",): "medina-moves/1",
    ("compare",): "medina-compare/1",
}


def one_document(*args) -> tuple[int, dict, str]:
    code, out, err = run(*args, "--json")
    return code, json.loads(out), err  # json.loads refuses anything but exactly one document


@pytest.mark.parametrize("command", list(JSON_COMMANDS), ids=" ".join)
def test_json_on_a_missing_a_malformed_and_an_illegal_record(tmp_path, command):
    tag = JSON_COMMANDS[command]
    code, doc, err = one_document(*command, tmp_path / "missing.yaml")
    assert (code, doc["format"], [e["code"] for e in doc["errors"]], err) == (
        2,
        tag,
        ["file-not-found"],
        "",
    )
    malformed = tmp_path / "malformed.yaml"
    malformed.write_text("medina: record/1\nplayers: [Anna\n")
    code, doc, _ = one_document(*command, malformed)
    assert (code, doc["format"], [e["code"] for e in doc["errors"]]) == (1, tag, ["yaml-syntax"])
    illegal = tmp_path / "illegal.yaml"
    illegal.write_text(ILLEGAL)
    code, doc, _ = one_document(*command, illegal)
    assert code == 1 and doc["format"] == tag
    if command == ("compare",):  # illegal under every edition: each result says so
        errors = {(r["status"], r["error"]["code"]) for r in doc["results"] if r["error"]}
        assert errors == {("invalid", "wrong-square")}
    else:
        assert [(e["turn"], e["placement"], e["code"]) for e in doc["errors"]] == [
            (2, 2, "wrong-square")
        ]
    code, doc, _ = one_document(
        *command,
        illegal,
        *(("--rulesets", "nope") if command == ("compare",) else ("--ruleset", "nope")),
    )
    assert (
        code == 2
        and doc["format"] == tag
        and [e["code"] for e in doc["errors"]] == ["unknown-ruleset"]
    )


def test_replay_json_is_the_event_log_turn_by_turn():
    code, doc, _ = one_document("replay", EXAMPLES / "second-edition-2014-3p.yaml")
    assert code == 0 and doc["format"] == "medina-replay/1" and doc["errors"] == []
    assert doc["setup"]["merchant"] and doc["setup"]["well"]
    assert [t["turn"] for t in doc["turns"]] == list(range(1, len(doc["turns"]) + 1))
    events = [e for t in doc["turns"] for e in t["events"]]
    assert {"claim", "game-end"} <= {e["kind"] for e in events}
    assert all(e["text"] and "player" in e for e in events)
    claim = next(e for e in events if e["kind"] == "claim" and e["player"])
    assert claim["player"] in doc["players"] and claim["holder"] == claim["player"]
    assert (
        claim["cell"] in claim["text"] and claim["colour"] in claim["text"] and claim["size"] >= 1
    )
    assert all(
        set(e) == set(events[0]) for e in events
    )  # every field of every kind, null where unused
    assert doc["position"]["finished"] and doc["position"]["to_move"] is None


def test_rules_diff_json_with_an_unknown_ruleset():
    code, doc, _ = one_document("rules", "diff", "original-2001", "nope")
    assert (
        code == 2
        and doc["format"] == "medina-rules-diff/1"
        and doc["errors"][0]["code"] == "unknown-ruleset"
    )
    code, doc, _ = one_document("rules", "diff", "original-2001")
    assert code == 2 and doc["errors"][0]["code"] == "usage"


# --- 12. score takes several files and directories, and ends with standings ------------------------


def test_score_several_games_ends_with_standings(tmp_path):
    from conftest import ROOT

    board = ROOT / "tests/fixtures/boards/e1-original-2001.yaml"
    games = [EXAMPLES / "original-2001-3p.yaml", EXAMPLES / "original-2001-4p.yaml", board]
    sheets = [json.loads(run("score", game, "--json")[1]) for game in games]
    code, out, _ = run("score", *games)
    assert code == 0
    lines = out.splitlines()
    start = lines.index("Standings over 3 games:")
    assert lines[start + 1].split() == ["player", "games", "wins", "shared", "wins", "points"]
    rows = {line.split()[0]: [int(n) for n in line.split()[1:]] for line in lines[start + 3 :]}
    for name, (played, wins, shared, points) in rows.items():
        mine = [s for s in sheets if name in [p["name"] for p in s["players"]]]
        assert played == len(mine)
        assert points == sum(p["total"] for s in mine for p in s["players"] if p["name"] == name)
        assert wins == sum(s["winners"] == [name] for s in mine)
        assert shared == sum(name in s["winners"] and len(s["winners"]) > 1 for s in mine)
    code, out, _ = run("score", *games, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["format"] == "medina-scores/1"
    assert [g["file"] for g in doc["games"]] == list(map(str, games))
    assert {
        r["player"]: [r["games"], r["wins"], r["shared_wins"], r["points"]]
        for r in doc["standings"]
    } == rows


def test_score_a_directory_mixes_records_and_boards_and_leaves_out_invalid_games(tmp_path):
    from conftest import ROOT

    (tmp_path / "board.yaml").write_text(
        (ROOT / "tests/fixtures/boards/e1-original-2001.yaml").read_text()
    )
    (tmp_path / "game.yaml").write_text(GAME.read_text())
    (tmp_path / "illegal.yaml").write_text(ILLEGAL)
    code, out, err = run("score", tmp_path, "--json")
    doc = json.loads(out)
    assert code == 1 and [g["file"] for g in doc["games"]] == [
        str(tmp_path / n) for n in ("board.yaml", "game.yaml", "illegal.yaml")
    ]
    assert doc["games"][2]["errors"][0]["code"] == "wrong-square" and err == ""
    counted = doc["games"][:2]  # the illegal game is left out
    assert sum(r["games"] for r in doc["standings"]) == sum(len(g["players"]) for g in counted)
    code, out, _ = run("score", tmp_path)
    left_out = tmp_path / "illegal.yaml"
    assert (
        code == 1
        and f"Standings over 2 games (left out, invalid or unfinished: {left_out}):" in out
    )


# --- 5. shell completion ---------------------------------------------------------------------------


def complete(words: str) -> list[str]:
    """What bash completion offers for the last of `words` (as the installed `medina` script answers)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {
        **os.environ,
        "_MEDINA_COMPLETE": "complete_bash",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1)),
    }
    done = subprocess.run(
        [str(Path(sys.executable).parent / "medina")], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.parametrize(
    "words, offered",
    [
        ("medina sc", ["score"]),
        ("medina rules s", ["show"]),
        ("medina score --no", ["--no-color"]),
        ("medina validate --ruleset bsw", ["bsw-dm-2003"]),
        ("medina compare --rulesets original-2001,second", ["original-2001,second-edition-2014"]),
        ("medina simulate --rulesets ", None),  # every built-in id
        ("medina rules diff original-2001 seco", ["second-edition-2014"]),
        ("medina score --set towers.re", ["towers.reconnect="]),
    ],
)
def test_shell_completion_of_commands_options_rulesets_and_set(words, offered):
    from medina_cli.rules.loader import builtin_ids

    assert complete(words) == (offered if offered is not None else builtin_ids())


@pytest.mark.parametrize(
    "example, ruleset, neutral",
    [
        ("original-2001-4p", None, False),
        ("bsw-dm-2003-4p", None, False),
        ("second-edition-2014-2p", None, True),
        (
            "second-edition-2014-4p",
            None,
            False,
        ),  # the 2014 edition has no neutral roof for 4 players
        (
            "original-2001-3p",
            "second-edition-2014",
            True,
        ),  # the --ruleset typed before --piece decides
    ],
)
@pytest.mark.slow
def test_piece_completion_offers_only_the_pieces_the_records_ruleset_supplies(
    example, ruleset, neutral
):
    from medina_cli.records.record import read_record

    path = EXAMPLES / f"{example}.yaml"
    record = read_record(str(path), ruleset=ruleset)
    assert (record.ruleset.for_players(len(record.players)).supply.neutral_roofs > 0) == neutral
    typed = f"medina moves {path}" + (f" --ruleset {ruleset}" if ruleset else "")
    offered = complete(f"{typed} --piece ")
    assert ("neutral" in offered) == neutral and {
        "roof",
        "wall",
        "stable",
        "merchant",
        "orange",
    } <= set(offered)
    assert complete(f"{typed} --piece n") == (["neutral"] if neutral else [])
    if ruleset is None:  # add plays by the record's own ruleset
        assert complete(f"medina add {path} n") == (["neutral"] if neutral else [])


def test_show_completion_prints_a_script_for_the_shell():
    from scorekit import run as run_in_process

    code, out, _ = run_in_process("--show-completion", "bash")
    assert code == 0 and "_MEDINA_COMPLETE" in out and "complete" in out


@pytest.mark.parametrize(
    "shell, mark",
    [
        ("bash", "complete -o default -F _medina_completion medina"),
        ("zsh", "#compdef medina"),
        ("fish", "complete --command medina"),
        ("powershell", "Register-ArgumentCompleter"),
    ],
)
def test_show_completion_prints_the_script_of_the_shell_named_whatever_shell_runs_it(
    shell, mark, monkeypatch
):
    import shellingham
    from scorekit import run as run_in_process

    monkeypatch.setattr(shellingham, "detect_shell", lambda: ("bash", "/bin/bash"))
    code, out, err = run_in_process("--show-completion", shell)
    assert (code, err) == (0, "") and mark in out and "_MEDINA_COMPLETE" in out
    code, out, _ = run_in_process("--show-completion")  # no shell named: the one this runs in
    assert code == 0 and "complete -o default -F _medina_completion medina" in out


def test_show_completion_without_a_shell_it_knows_says_how_to_name_one(monkeypatch):
    import shellingham
    from scorekit import run as run_in_process

    def undetected():
        raise shellingham.ShellDetectionFailure()

    monkeypatch.setattr(shellingham, "detect_shell", undetected)
    for args, said in (
        (["--show-completion"], "cannot tell which shell this is"),
        (["--show-completion", "tcsh"], "'tcsh' is not a shell medina completes"),
        (["--install-completion", "csh"], "'csh' is not a shell medina completes"),
    ):
        code, out, err = run_in_process(*args)
        option = args[0]
        assert (code, out) == (2, "") and said in err, err
        assert f"name one: {option} bash, zsh, fish or powershell" in err and err.count("\n") == 1


def test_install_completion_writes_the_start_up_file_of_the_shell_named(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    done = subprocess.run(
        [str(Path(sys.executable).parent / "medina"), "--install-completion", "fish"],
        env={**os.environ, "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    script = tmp_path / ".config/fish/completions/medina.fish"
    assert "complete --command medina" in script.read_text()


def json_commands():
    """(argument list, whether it takes arguments) of every command with a --json option."""
    import typer

    from medina_cli.cli.app import app

    for path in command_paths():
        command = typer.main.get_command(app)
        for name in path:
            command = command.commands[name]
        if any("--json" in getattr(param, "opts", ()) for param in command.params):
            yield path, any(param.param_type_name == "argument" for param in command.params)


@pytest.mark.parametrize(
    "path, takes_files",
    [pytest.param(path, takes, id=" ".join(path)) for path, takes in json_commands()],
)
def test_json_commands_give_the_command_lines_own_usage_errors_as_their_document(
    path, takes_files, tmp_path
):
    """An unknown option or a malformed value, found before the command runs, still gives one document:
    the command's format (as on a missing file), the error with code `usage`, nothing on stderr."""
    code, doc, err = one_document(*path, "--bogus-option")
    assert (code, err, list(doc)) == (2, "", ["format", "errors", "warnings"])
    [error] = doc["errors"]
    assert error["code"] == "usage" and "No such option: --bogus-option" in error["message"]
    assert f"(usage: medina {' '.join(path)} [OPTIONS]" in error["message"]
    own = json.loads(
        run(*path, *[tmp_path / "missing.yaml"] * takes_files, "--json")[1]
    )  # what the command prints
    assert doc["format"] == own["format"]
    code, out, err = run(*path, "--bogus-option")  # without --json: one line on stderr, as ever
    assert (
        (code, out) == (2, "") and err.count("\n") == 1 and "No such option: --bogus-option" in err
    )


def test_validate_json_on_a_usage_error_is_one_document(tmp_path):
    code, doc, err = one_document("validate", GAME, "--ruleset", "nope")
    assert (code, doc["format"], doc["results"], err) == (2, "medina-validate/1", [], "")
    assert [e["code"] for e in doc["errors"]] == ["unknown-ruleset"]
    code, doc, _ = one_document("validate", tmp_path)  # an empty folder
    assert code == 2 and [e["code"] for e in doc["errors"]] == ["usage"]
    code, out, err = run("validate", GAME, "--ruleset", "nope")
    assert code == 2 and out == "" and err.endswith("[unknown-ruleset]\n")


def test_rules_show_json_gives_the_ruleset_or_every_error(tmp_path):
    code, doc, _ = one_document("rules", "show", "bsw-dm-2003")
    assert code == 0 and doc["format"] == "medina-rules-show/1" and doc["errors"] == []
    assert doc["ruleset"]["id"] == "bsw-dm-2003" and doc["ruleset"]["medina"] == "ruleset/1"
    path = tmp_path / "house.yaml"
    path.write_text(BROKEN_RULESET)
    code, doc, err = one_document("rules", "show", path)
    assert (code, doc["ruleset"], err) == (2, None, "")
    assert [(e["line"], e["code"]) for e in doc["errors"]] == [
        (4, "ruleset-invalid"),
        (5, "ruleset-invalid"),
        (6, "ruleset-invalid"),
    ]
