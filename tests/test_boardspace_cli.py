"""`medina import boardspace`, and `validate` reading boardspace records directly."""

import json
import subprocess

import fuzzkit
import pytest
from test_boardspace_reader import SGF, STORY, story

from medina_cli.records.record import read_record
from medina_cli.records.replay import replay


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
    assert text.startswith(
        "medina: record/1\nruleset: boardspace-original-r100\nplayers: [P0, P1, P2]\n"
    )
    assert "  merchant: K7\n" in text and "  - P0: grey P11, black D3\n" in text
    record = read_record(str(target))
    assert record.problems.errors == [] and record.meta["x-boardspace"]["revision"] == 100
    checked = medina("validate", target)
    assert (
        checked.returncode == 0 and "valid (unfinished; boardspace-original-r100" in checked.stdout
    )


def test_import_of_a_game_seat_a_did_not_start_writes_the_sites_supplies(tmp_path):
    source, target = tmp_path / "game.txt", tmp_path / "game.yaml"
    source.write_text(
        story(
            "Start P1",
            "onboard m B 0 K 7",
            "onboard m B 0 K 6",
            "onboard m B 0 K 5",
            "done",
            header="medina 3 1",
        )
    )
    done = medina("import", "boardspace", source, "-o", target)
    assert done.returncode == 0 and "warning" not in done.stderr, done.stderr
    assert (
        "  merchant: K7\n  supply:\n    P1: {merchant: 7}\n    P0: {merchant: 9}\nturns:\n"
        in target.read_text()
    )
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
    assert (
        done.stdout.count('"valid": true') == 2
        and '"ruleset": "boardspace-second-edition"' in done.stdout
    )


def test_unreadable_record_exits_1_naming_the_action(tmp_path):
    source = tmp_path / "bad.txt"
    source.write_text(STORY.replace("13 onboard p b 0 O 11", "13 onboard q b 0 O 11"))
    for command in (
        ["import", "boardspace", source, "-o", tmp_path / "out.yaml"],
        ["validate", source],
    ):
        done = medina(*command)
        output = done.stdout + done.stderr
        assert (
            done.returncode == 1
            and "action 13 `onboard q b 0 O 11`" in output
            and "Traceback" not in output
        )
    assert not (tmp_path / "out.yaml").exists()


def test_unusable_input_and_overwriting_the_input_exit_2(tmp_path):
    assert medina("import", "boardspace", tmp_path / "missing.sgf").returncode == 2
    source = tmp_path / "game.txt"
    source.write_text(STORY)
    done = medina("import", "boardspace", source, "-o", source)
    assert (
        done.returncode == 2
        and "overwrite the input" in done.stderr
        and source.read_text() == STORY
    )


def test_score_reads_a_story_directly(tmp_path):
    source = tmp_path / "game.txt"
    source.write_text(STORY)
    done = medina("score", source, "--json")
    assert done.returncode == 0, done.stderr
    assert '"ruleset": "boardspace-original-r100"' in done.stdout and '"name": "P0"' in done.stdout


def test_players_that_do_not_fit_the_game_are_a_usage_error(tmp_path):
    source = tmp_path / "game.sgf"
    source.write_text(SGF)  # 3 players
    for players, why in (
        ("A,B", "--players A, B: 2 names for a 3-player game; give 3"),
        ("A,A,B", "a name given twice"),
        ("A,B,neutral", "`neutral` is reserved"),
        ("A,,B", "an entry is empty"),
    ):
        done = medina("import", "boardspace", source, "--players", players)
        assert done.returncode == 2 and done.stdout == "" and why in done.stderr, done.stderr
        assert "['A'" not in done.stderr and ":1:" not in done.stderr


# --- many files in one run: import boardspace FILE|DIR... -o DIR ---------------------------------------

BROKEN_STORY = STORY.replace("13 onboard p b 0 O 11", "13 onboard q b 0 O 11")  # unreadable: exit 1


def alone(source):
    """What the one-file form writes for `source`: its record/1 text, and its --json document."""
    done = medina("import", "boardspace", source)
    assert done.returncode == 0, done.stderr
    return done.stdout, json.loads(medina("import", "boardspace", source, "--json").stdout)


def test_a_directory_is_imported_into_the_output_directory_as_each_file_alone(tmp_path):
    games = tmp_path / "games"
    (games / "club").mkdir(parents=True)
    (games / "duel.sgf").write_text(SGF)
    (games / "club" / "story.txt").write_text(STORY)  # a story is found by what it holds
    (games / "notes.md").write_text("not a record\n")
    (games / ".hidden.sgf").write_text(SGF)
    out = tmp_path / "out"
    done = medina("import", "boardspace", games, "-o", out)
    assert done.returncode == 0, done.stderr
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*")) == [
        "club",
        "club/story.yaml",
        "duel.yaml",
    ]
    assert (out / "duel.yaml").read_text() == alone(games / "duel.sgf")[0]
    assert (out / "club" / "story.yaml").read_text() == alone(games / "club" / "story.txt")[0]
    assert f"wrote {out / 'duel.yaml'} (boardspace-second-edition, 3 players" in done.stderr
    assert (
        done.stderr.splitlines()[-1]
        == f"2 files: 2 converted into {out}, 0 not; 1 other files passed over"
    )
    assert medina("validate", out).returncode == 0


def test_several_files_go_on_past_the_ones_that_fail_one_line_each(tmp_path):
    (tmp_path / "a.sgf").write_text(SGF)
    (tmp_path / "b.txt").write_text(BROKEN_STORY)
    out = tmp_path / "out"
    done = medina("import", "boardspace", tmp_path / "b.txt", tmp_path / "a.sgf", "-o", out)
    assert done.returncode == 1 and (out / "a.yaml").read_text() == alone(tmp_path / "a.sgf")[0]
    [failure] = [line for line in done.stderr.splitlines() if "b.txt" in line]
    assert "action 13 `onboard q b 0 O 11`" in failure and not (out / "b.yaml").exists()
    done = medina(
        "import",
        "boardspace",
        tmp_path / "missing.sgf",
        tmp_path / "a.sgf",
        tmp_path / "b.txt",
        "-o",
        out,
    )
    assert (
        done.returncode == 2
    )  # the worst: an unreadable file (2) beside a bad record (1), as validate
    assert (
        "missing.sgf: cannot read" in done.stderr
        and f"{out / 'a.yaml'}: exists; give --force" in done.stderr
    )
    assert done.stderr.splitlines()[-1] == f"3 files: 0 converted into {out}, 3 not"
    (out / "a.yaml").write_text("old\n")
    assert (
        medina(
            "import", "boardspace", tmp_path / "a.sgf", tmp_path / "a.sgf", "-o", out, "--force"
        ).returncode
        == 2
    )
    assert (out / "a.yaml").read_text() == alone(tmp_path / "a.sgf")[
        0
    ]  # written once; the second said so


def test_several_files_with_json_say_what_was_written_for_each(tmp_path):
    (tmp_path / "a.sgf").write_text(SGF)
    (tmp_path / "b.txt").write_text(BROKEN_STORY)
    out = tmp_path / "out"
    done = medina(
        "import", "boardspace", tmp_path / "a.sgf", tmp_path / "b.txt", "-o", out, "--json"
    )
    doc = json.loads(done.stdout)
    assert done.returncode == 1 and done.stderr == ""
    assert (doc["format"], doc["output"], doc["skipped"], doc["errors"]) == (
        "medina-imports/1",
        str(out),
        [],
        [],
    )
    good, bad = doc["results"]
    by_itself = alone(tmp_path / "a.sgf")[1]
    assert by_itself.pop("record") == (out / "a.yaml").read_text()
    assert good == {**by_itself, "output": str(out / "a.yaml")}
    assert (
        bad["format"] == "medina-import/1"
        and bad["file"] == str(tmp_path / "b.txt")
        and bad["ruleset"] is None
    )
    assert bad["errors"][0]["message"].startswith("action 13")


@pytest.mark.parametrize(
    "args, said",
    [
        (["{a}", "{b}"], "give -o DIR"),
        (["{a}", "{b}", "-o", "-"], "give -o DIR"),
        (["{a}", "-", "-o", "{out}"], "standard input is imported alone"),
        (["{a}", "{b}", "-o", "{tmp}/game.yaml"], "name a directory"),
        (["{empty}", "-o", "{out}"], "no boardspace.net records"),
        (["{a}", "{b}", "-o", "{a}"], "cannot make the directory"),
    ],
)
def test_several_inputs_need_an_output_directory(tmp_path, args, said):
    (tmp_path / "a.sgf").write_text(SGF)
    (tmp_path / "b.txt").write_text(STORY)
    (tmp_path / "empty").mkdir()
    names = {
        "a": tmp_path / "a.sgf",
        "b": tmp_path / "b.txt",
        "out": tmp_path / "out",
        "tmp": tmp_path,
        "empty": tmp_path / "empty",
    }
    args = [arg.format(**names) for arg in args]
    done = medina("import", "boardspace", *args)
    assert done.returncode == 2 and said in done.stderr and done.stdout == "", done.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "game.yaml").exists()
    doc = json.loads(medina("import", "boardspace", *args, "--json").stdout)
    assert doc["format"] == "medina-imports/1" and said in doc["errors"][0]["message"]


@pytest.mark.slow
def test_the_corpus_is_imported_in_one_run_as_file_by_file(tmp_path):
    from conftest import BOARDSPACE_CORPUS as CORPUS

    from medina_cli.records.boardspace import is_boardspace, parse_boardspace

    if not CORPUS.is_dir():
        pytest.skip(
            f"{CORPUS} is absent: the shared folder beside the checkout holds the real records"
        )
    records = [
        p for p in sorted(CORPUS.rglob("*")) if p.is_file() and is_boardspace(p.name, p.read_text())
    ]
    out = tmp_path / "out"
    done = medina("import", "boardspace", CORPUS, "-o", out, "--json")
    doc = json.loads(done.stdout)
    assert done.returncode == 0 and [r["file"] for r in doc["results"]] == [str(p) for p in records]
    for path, result in zip(records, doc["results"], strict=True):
        target = out / path.relative_to(CORPUS).with_suffix(".yaml")
        assert result["output"] == str(target) and result["errors"] == []
        assert target.read_text() == parse_boardspace(path.read_text(), str(path)).to_record()


@pytest.mark.parametrize(
    "text",
    [
        "// notes on the story-game-java-comment.txt What: one real (partial) game, and more\n",
        "line one\nthe story of it all, as told\n",
    ],
)
def test_import_of_a_text_that_is_no_boardspace_record_says_so(tmp_path, text):
    source, target = tmp_path / "notes.txt", tmp_path / "x.yaml"
    source.write_text(text)
    done = medina("import", "boardspace", source, "-o", target)
    line = text.split("story")[0].count("\n") + 1
    assert done.returncode == 1 and not target.exists()
    assert done.stderr.startswith(
        f"{source}:{line}: not a boardspace.net record: expected an SGF file or a story line"
    )
    assert "names no Medina variant" not in done.stderr
