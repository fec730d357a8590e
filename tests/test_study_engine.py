"""Agent-made study documents record their engine (issue 31, item 5): `simulate --agents` and `medina
study`, where a seat is an agent other than `random`, say `"engine"`, and `--resume` refuses to finish
such a study on the other engine; a study of random play, or a folder written before the engine was
recorded, is as before; a worker on another engine than the study's refuses to play it."""

from __future__ import annotations

import json

import pytest
from scorekit import run

from medina_cli.engine import native
from medina_cli.rules.loader import load_ruleset
from medina_cli.study.backend import StudyError
from medina_cli.study.runner import Part, Study, play_chunk, spans

needs_native = pytest.mark.skipif(
    native.built() is None, reason="no native core built: one engine only"
)
SIMULATE = ("simulate", "-r", "second-edition-2014", "-p", "2", "-g", "3", "-s", "5", "--json")
OTHER = {"native": "python", "python": "native"}


def on(monkeypatch, engine: str, *args) -> tuple[int, dict, str]:
    """`medina ARGS` with MEDINA_ENGINE=engine: exit code, the --json document, stderr."""
    monkeypatch.setenv(native.ENGINE_VARIABLE, engine)
    code, out, err = run(*args)
    return code, json.loads(out), err


def held_options(folder) -> dict:
    return json.loads((folder / ".study" / "study.json").read_text())


def engines_here() -> list[str]:
    return ["python"] + (["native"] if native.built() is not None else [])


@pytest.mark.parametrize("engine", engines_here())
def test_simulate_with_an_agent_records_its_engine(monkeypatch, tmp_path, engine):
    code, doc, _ = on(monkeypatch, engine, *SIMULATE, "--agents", "greedy,random", "-o", tmp_path)
    assert code == 0 and doc["engine"] == engine and list(doc)[-4:-2] == ["engine", "agents"]
    assert held_options(tmp_path)["engine"] == engine


@pytest.mark.parametrize("agents", [(), ("--agents", "random,random")])
def test_random_play_records_no_engine(monkeypatch, tmp_path, agents):
    code, doc, _ = on(monkeypatch, "python", *SIMULATE, *agents, "-o", tmp_path)
    assert code == 0 and "engine" not in doc
    assert set(held_options(tmp_path)) == {
        "format",
        "players",
        "games",
        "seed",
        "seats",
        "rulesets",
    }


@needs_native
@pytest.mark.parametrize("made", ["native", "python"])
def test_resume_on_the_other_engine_is_refused_naming_both(monkeypatch, tmp_path, made):
    args = (*SIMULATE, "--agents", "greedy,random", "-o", tmp_path)
    assert on(monkeypatch, made, *args)[0] == 0
    code, doc, _ = on(monkeypatch, OTHER[made], *args, "--resume")
    assert code == 2 and [error["message"] for error in doc["errors"]] == [
        f"--resume: the study in {tmp_path} was started with the {made} engine, not the "
        f"{OTHER[made]} engine (MEDINA_ENGINE={made} resumes it); give the same options, or another "
        "--out folder"
    ]
    code, again, _ = on(monkeypatch, made, *args, "--resume")
    assert code == 0 and again["engine"] == made


@pytest.mark.parametrize("resumed", engines_here())
def test_a_folder_written_before_the_engine_was_recorded_resumes_on_either(
    monkeypatch, tmp_path, resumed
):
    args = (*SIMULATE, "--agents", "greedy,random", "-o", tmp_path)
    code, whole, _ = on(monkeypatch, "python", *args)
    options = held_options(tmp_path)
    del options["engine"]
    (tmp_path / ".study" / "study.json").write_text(json.dumps(options))
    for round_file in tmp_path.glob("*.jsonl"):
        round_file.unlink()
    code, resumed_doc, _ = on(monkeypatch, resumed, *args, "--resume")
    assert code == 0 and resumed_doc == {**whole, "engine": resumed}  # greedy: alike on both


def test_an_engine_that_is_none_is_refused_as_damaged_options(monkeypatch, tmp_path):
    args = (*SIMULATE, "--agents", "greedy,random", "-o", tmp_path)
    assert on(monkeypatch, "python", *args)[0] == 0
    study = tmp_path / ".study" / "study.json"
    study.write_text(json.dumps({**held_options(tmp_path), "engine": "quantum"}))
    code, doc, _ = on(monkeypatch, "python", *args, "--resume")
    assert code == 2 and doc["errors"][0]["message"] == (
        f"{study}: not a study's options ('engine' is none of native, python); the study cannot be "
        "resumed: start it again in another folder"
    )


STUDY = ("study", "--rulesets", "second-edition-2014", "-p", "2", "-g", "2", "--json")


@pytest.mark.parametrize("agents,engine", [("random,greedy", "python"), ("random", None)])
def test_a_study_report_records_the_engine_of_its_agents(monkeypatch, tmp_path, agents, engine):
    code, doc, _ = on(monkeypatch, "python", *STUDY, "--agents", agents, "--out", tmp_path)
    assert code == 0 and doc.get("engine") == engine
    assert json.loads((tmp_path / "report.json").read_text()).get("engine") == engine
    assert "engine" not in held_options(tmp_path / "2p-random-self-play")


@needs_native
def test_a_study_made_on_one_engine_is_not_resumed_or_reported_on_the_other(monkeypatch, tmp_path):
    args = (*STUDY, "--agents", "random,greedy", "--out", tmp_path)
    assert on(monkeypatch, "python", *args)[0] == 0
    for extra in ("--resume", "--so-far"):
        code, doc, _ = on(monkeypatch, "native", *args, extra)
        assert (
            code == 2 and "the python engine, not the native engine" in doc["errors"][0]["message"]
        )


@needs_native
@pytest.mark.parametrize("made", ["native", "python"])
def test_a_worker_on_the_other_engine_refuses_to_play_the_study(monkeypatch, made):
    rules = load_ruleset("second-edition-2014").for_players(2)
    study = Study((Part("second-edition-2014", rules),), 2, 1, ("greedy", "random"))
    monkeypatch.setenv(native.ENGINE_VARIABLE, made)  # the client's engine
    [(context, start, stop)] = spans(study, [()])
    assert play_chunk(context, start, stop).statistics.games == 2
    monkeypatch.setenv(native.ENGINE_VARIABLE, OTHER[made])  # a worker's
    with pytest.raises(StudyError) as refused:
        play_chunk(context, start, stop)
    assert str(refused.value).startswith(
        f"a worker plays on the {OTHER[made]} engine, not on the {made} engine of this study"
    )
