"""Everyday use of the command line (issue 16): another ruleset on a record with a result, YAML 1.1
words in ruleset files, compare on boardspace records, and the other paths a new user runs into."""

from __future__ import annotations

import json

import pytest

from conftest import EXAMPLES
from medina_cli.rules.loader import load_ruleset
from scorekit import run
from test_boardspace_reader import SGF, STORY

GAME = EXAMPLES / "original-2001-4p.yaml"


def wrong_result(tmp_path):
    """The 4-player example with a result that is wrong under its own ruleset."""
    text = GAME.read_text()
    assert "result: {Anna: 39," in text
    path = tmp_path / "game.yaml"
    path.write_text(text.replace("result: {Anna: 39,", "result: {Anna: 40,"))
    return path


# --- 1. another ruleset or --set: the claimed result is not checked ------------------------------

@pytest.mark.parametrize("command", [("validate",), ("score",), ("replay",), ("render", "-o", "out.svg"),
                                     ("view", "-o", "out.html"), ("moves",)], ids=lambda c: c[0])
@pytest.mark.parametrize("other", [("--set", "towers.reconnect=once_per_palace_arm"), ("-r", "bsw-dm-2003")],
                         ids=["set", "ruleset"])
def test_another_ruleset_or_set_warns_that_the_result_is_not_checked(tmp_path, monkeypatch, command, other):
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
    assert code == 0 and result["valid"] and [w["code"] for w in result["warnings"]] == ["result-unchecked"]


# --- 2. YAML 1.1 booleans where the schema wants a word -------------------------------------------

def test_yaml_1_1_words_read_as_booleans_are_taken_back_as_words(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text("medina: ruleset/1\nextends: bsw-dm-2003\ntitle: 2003\nturns:\n  forced_roof: off\n"
                    "scoring:\n  merchants_touching_stables: no\n")
    ruleset = load_ruleset(str(path))
    assert ruleset.params["turns"]["forced_roof"] == "off"
    assert ruleset.title == "2003"
    assert ruleset.params["scoring"]["merchants_touching_stables"] is False  # a boolean parameter stays one


def test_a_boolean_that_is_none_of_the_words_is_still_refused(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text("medina: ruleset/1\nextends: original-2001\nturns:\n  forced_roof: yes\n")
    code, _, err = run("rules", "show", path)
    assert code == 2 and "turns.forced_roof" in err and "[ruleset-invalid]" in err


# --- 3. compare reads boardspace.net records -------------------------------------------------------

@pytest.mark.parametrize("name, text, own", [("game.txt", STORY, "boardspace-original-r100"),
                                             ("game.sgf", SGF, "boardspace-second-edition")])
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

BROKEN_RULESET = ("medina: ruleset/1\nextends: original-2001\nturns:\n  forced_roof: yes\n  placements: 9\n"
                  "bogus: 1\n")


def test_a_ruleset_file_reports_all_its_errors(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(BROKEN_RULESET)
    code, out, err = run("rules", "show", path)
    assert code == 2 and out == ""
    assert [line.split(": ")[0] for line in err.splitlines()] == [f"{path}:4", f"{path}:5", f"{path}:6"]
    assert all(line.endswith("[ruleset-invalid]") for line in err.splitlines())


def test_every_cross_check_error_of_a_ruleset_is_reported(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text("medina: ruleset/1\nextends: original-2001\nplayers: [3, 4, 5]\n"
                    "tea:\n  colour: pink\n")
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
    assert code == 2 and lines[0].startswith(f"{record}:2: the ruleset house.yaml cannot be used (3 errors")
    assert f"{record}: UNREADABLE" in lines and lines[-1] == "2 files: 1 valid, 1 invalid or unreadable"
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
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.txt", "game.yaml"]  # no temporary file left


def test_import_json_reports_what_it_wrote(tmp_path):
    source, target = tmp_path / "game.txt", tmp_path / "game.yaml"
    source.write_text(STORY)
    code, out, err = run("import", "boardspace", source, "-o", target, "--json")
    doc = json.loads(out)
    assert code == 0 and err == ""
    assert doc == {"format": "medina-import/1", "file": str(source), "output": str(target),
                   "ruleset": "boardspace-original-r100", "players": ["P0", "P1", "P2"], "turns": 3,
                   "errors": [], "warnings": []}
    code, out, _ = run("import", "boardspace", source, "-o", target, "--json")  # exists now
    doc = json.loads(out)
    assert code == 2 and [e["code"] for e in doc["errors"]] == ["file-exists"]
    code, out, _ = run("import", "boardspace", source, "--json")  # to standard output: the record inside
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


@pytest.mark.parametrize("path", list(command_paths()), ids=lambda p: " ".join(p) or "medina")
def test_every_help_states_the_exit_statuses(path):
    code, out, _ = run(*path, "--help")
    text = " ".join(out.replace("│", " ").split())
    assert code == 0 and "Exit status: 0" in text and " 2 " in text.split("Exit status: 0", 1)[1]


@pytest.mark.parametrize("args", [("score", "--bogus", "x"), ("score",), ("score", "--to", "x", "a.yaml"),
                                  ("rules", "show"), ("nonsense",), ("replay", "-o", "x.yaml", "a.yaml"),
                                  ("simulate",)], ids=" ".join)
def test_usage_errors_are_one_line_naming_where(args):
    code, out, err = run(*args)
    assert code == 2 and out == ""
    (line,) = err.splitlines()
    where = line.split(": ", 1)[0]
    assert where.startswith(("medina", "-")) and "╭" not in line and "Error" not in line, line


def test_file_errors_are_one_line_naming_the_file(tmp_path):
    code, out, err = run("score", tmp_path / "missing.yaml")
    assert code == 2 and out == "" and err.splitlines() == [
        f"{tmp_path / 'missing.yaml'}: cannot read: No such file or directory [file-not-found]"]
