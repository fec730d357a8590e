"""`medina import boardspace`, and `validate` reading boardspace records directly."""

import subprocess

import fuzzkit
from medina_cli.records.record import read_record
from medina_cli.records.replay import replay
from test_boardspace_reader import SGF, STORY, story


def medina(*args):
    """`medina ARGS` in this process, as the installed command runs it (fuzzkit.run: an internal error fails)."""
    args = [str(arg) for arg in args]
    return subprocess.CompletedProcess(args, *fuzzkit.run(args))


def test_import_writes_a_record_that_validates_under_the_profile(tmp_path):
    source, target = tmp_path / "game.txt", tmp_path / "game.yaml"
    source.write_text(STORY)
    done = medina("import", "boardspace", source, "-o", target)
    assert done.returncode == 0, done.stderr
    assert "wrote" in done.stderr and source.read_text() == STORY
    text = target.read_text()
    assert text.startswith("medina: record/1\nruleset: boardspace-original-r100\nplayers: [P0, P1, P2]\n")
    assert "  merchant: K7\n" in text and "  - P0: grey P11, black D3\n" in text
    record = read_record(str(target))
    assert record.problems.errors == [] and record.meta["x-boardspace"]["revision"] == 100
    checked = medina("validate", target)
    assert checked.returncode == 0 and "valid (unfinished; boardspace-original-r100" in checked.stdout


def test_import_of_a_game_seat_a_did_not_start_writes_the_sites_supplies(tmp_path):
    source, target = tmp_path / "game.txt", tmp_path / "game.yaml"
    source.write_text(story("Start P1", "onboard m B 0 K 7", "onboard m B 0 K 6", "onboard m B 0 K 5", "done",
                            header="medina 3 1"))
    done = medina("import", "boardspace", source, "-o", target)
    assert done.returncode == 0 and "warning" not in done.stderr, done.stderr
    assert "  merchant: K7\n  supply:\n    P1: {merchant: 7}\n    P0: {merchant: 9}\nturns:\n" in target.read_text()
    outcome = replay(read_record(str(target)))
    assert outcome.problems == [] and [s["merchant"] for s in outcome.game.supply] == [5, 8, 9]


def test_import_to_standard_output_with_player_names(tmp_path):
    source = tmp_path / "game.sgf"
    source.write_text(SGF)
    done = medina("import", "boardspace", source, "--players", "Ann,Bo,Cy")
    assert done.returncode == 0, done.stderr
    assert "players: [Ann, Bo, Cy]" in done.stdout and "  well: J5\n" in done.stdout
    assert "  - Ann: roof C3, tea\n" in done.stdout
    written = tmp_path / "game.yaml"
    written.write_text(done.stdout)
    record = read_record(str(written))
    assert record.ruleset.id == "boardspace-second-edition" and replay(record).problems == []


def test_validate_reads_sgf_and_story_files_directly(tmp_path):
    (tmp_path / "a.sgf").write_text(SGF)
    (tmp_path / "b.story").write_text(STORY)
    done = medina("validate", tmp_path / "a.sgf", tmp_path / "b.story", "--json")
    assert done.returncode == 0, done.stdout
    assert done.stdout.count('"valid": true') == 2 and '"ruleset": "boardspace-second-edition"' in done.stdout


def test_unreadable_record_exits_1_naming_the_action(tmp_path):
    source = tmp_path / "bad.txt"
    source.write_text(STORY.replace("13 onboard p b 0 O 11", "13 onboard q b 0 O 11"))
    for command in (["import", "boardspace", source, "-o", tmp_path / "out.yaml"], ["validate", source]):
        done = medina(*command)
        output = done.stdout + done.stderr
        assert done.returncode == 1 and "action 13 `onboard q b 0 O 11`" in output and "Traceback" not in output
    assert not (tmp_path / "out.yaml").exists()


def test_unusable_input_and_overwriting_the_input_exit_2(tmp_path):
    assert medina("import", "boardspace", tmp_path / "missing.sgf").returncode == 2
    source = tmp_path / "game.txt"
    source.write_text(STORY)
    done = medina("import", "boardspace", source, "-o", source)
    assert done.returncode == 2 and "overwrite the input" in done.stderr and source.read_text() == STORY


def test_score_reads_a_story_directly(tmp_path):
    source = tmp_path / "game.txt"
    source.write_text(STORY)
    done = medina("score", source, "--json")
    assert done.returncode == 0, done.stderr
    assert '"ruleset": "boardspace-original-r100"' in done.stdout and '"name": "P0"' in done.stdout


def test_players_that_do_not_fit_the_game_are_a_usage_error(tmp_path):
    source = tmp_path / "game.sgf"
    source.write_text(SGF)  # 3 players
    for players, why in (("A,B", "--players A, B: 2 names for a 3-player game; give 3"),
                         ("A,A,B", "a name given twice"), ("A,B,neutral", "`neutral` is reserved"),
                         ("A,,B", "an entry is empty")):
        done = medina("import", "boardspace", source, "--players", players)
        assert done.returncode == 2 and done.stdout == "" and why in done.stderr, done.stderr
        assert "['A'" not in done.stderr and ":1:" not in done.stderr
