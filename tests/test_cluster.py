"""`medina simulate --scheduler`: a study on a Dask distributed cluster started here (2 worker
processes) gives the local document, survives a worker killed mid-study, resumes after Ctrl-C, and
stops with exit 2 when the scheduler is lost or has no worker for a while, keeping the finished
games; analyse's reviews on the cluster are those of one process."""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import signal
import socketserver
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest

distributed = pytest.importorskip(
    "distributed", reason="needs the [cluster] extra: pip install '.[test,cluster]'"
)

import fuzzkit  # noqa: E402
from conftest import EXAMPLES  # noqa: E402
from studykit import finished_games  # noqa: E402

from medina_cli.records.record import parse_record  # noqa: E402
from medina_cli.rules.loader import load_ruleset  # noqa: E402
from medina_cli.study.analysis import analyse  # noqa: E402
from medina_cli.study.parallel import Workers  # noqa: E402
from medina_cli.study.results import Statistics  # noqa: E402
from medina_cli.study.runner import Part, Study, play_chunk, run_study, spans  # noqa: E402

BIN = Path(sys.executable).parent
MEDINA = BIN / "medina"
pytestmark = [
    pytest.mark.skipif(
        not MEDINA.exists(), reason=f"no installed `medina` next to {sys.executable}"
    ),
    pytest.mark.slow,
]
HOUSE = (
    "medina: ruleset/1\nid: short-house\ntitle: Short games\nextends: original-2001\n"
    "supply:\n  4:\n    walls: 5\n"
)  # short games: the studies here take seconds


@pytest.fixture(scope="module")
def cluster():
    with local_cluster(2) as local:
        yield local


@pytest.fixture
def house(tmp_path) -> Path:
    (tmp_path / "short.yaml").write_text(HOUSE)
    return tmp_path / "short.yaml"


def medina(*args, cwd=None):
    proc = subprocess.run(
        [str(MEDINA), *map(str, args)], capture_output=True, text=True, timeout=300, cwd=cwd
    )
    assert "Traceback" not in proc.stdout + proc.stderr and "internal error" not in proc.stderr
    return proc.returncode, proc.stdout, proc.stderr


def interrupt_when(proc, out: Path, count: int, sig=signal.SIGINT, target=None):
    """Send `sig` to `target` (default: proc) once `count` games are finished in `out`."""
    deadline = time.monotonic() + 120
    while finished_games(out) < count and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    (target or proc).send_signal(sig)


def test_the_same_document_as_local_processes(cluster, house):
    command = (
        "simulate",
        "--rulesets",
        f"{house},second-edition-2014",
        "-p",
        4,
        "-g",
        30,
        "-s",
        5,
        "--json",
    )
    code, local, _ = medina(*command, "--jobs", 2)
    assert code == 0
    code, remote, err = medina(*command, "--scheduler", cluster.scheduler_address)
    assert code == 0 and err == "" and remote == local, err


def statistics_of(games) -> dict:
    """The statistics document of a study's tasks, merged."""
    games = list(games)
    total = Statistics(games[0].statistics.ruleset, 4)
    for played in games:
        total.merge(played.statistics)
    return total.to_json()


def test_a_worker_killed_mid_study_costs_only_its_games(cluster):
    ruleset = load_ruleset("original-2001", ("supply.4.walls=5",))
    study = Study((Part(ruleset.id, ruleset.for_players(4)),), 6000, 9)
    with distributed.Client(cluster, set_as_default=False) as client:
        victim = next(iter(client.run(os.getpid).values()))
        played = []
        for task in run_study(study, Workers(scheduler=cluster.scheduler_address)):
            if not played:
                os.kill(victim, signal.SIGKILL)  # tasks of its were on their way
            played.append(task)
        assert (
            victim not in client.run(os.getpid).values()
        )  # the worker did die (its nanny started another)
        client.wait_for_workers(2, timeout=60)
    assert sorted(index for task in played for index in range(task.start, task.stop)) == list(
        range(6000)
    )
    assert statistics_of(played) == statistics_of(run_study(study))


def test_resume_after_ctrl_c_gives_the_same_document(cluster, house, tmp_path):
    command = (
        "simulate",
        "-r",
        house,
        "-g",
        400,
        "-s",
        2,
        "--json",
    )  # games enough to be interrupted midway
    code, whole, _ = medina(*command, "--jobs", 2)
    assert code == 0
    out = tmp_path / "games"
    run = subprocess.Popen(
        [str(MEDINA), *map(str, command), "--scheduler", cluster.scheduler_address, "--out", out],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    interrupt_when(run, out, 20)
    stdout, err = run.communicate(timeout=120)
    assert run.returncode == 130 and stdout == "", err
    finished = finished_games(out)
    assert (
        20 <= finished < 400
        and f"interrupted: {finished} of 400 games are finished in {out}" in err
    )
    code, resumed, err = medina(
        *command, "--scheduler", cluster.scheduler_address, "--out", out, "--resume"
    )
    assert code == 0 and resumed == whole, err
    assert err == f"wrote {400 - finished} games to {out} ({finished} were there already)\n"


def test_a_lost_scheduler_stops_the_study_with_exit_2_and_keeps_the_finished_games(house, tmp_path):
    scheduler_file = tmp_path / "scheduler.json"
    scheduler = start_scheduler(scheduler_file)
    workers = None
    try:
        address = wait_for_address(scheduler_file)
        workers = subprocess.Popen(
            [
                str(BIN / "dask"),
                "worker",
                address,
                "--nworkers",
                "2",
                "--nthreads",
                "1",
                "--no-dashboard",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        with distributed.Client(address, set_as_default=False) as client:
            client.wait_for_workers(
                2, timeout=120
            )  # else the study would start by waiting for them (and say so)
        out = tmp_path / "games"
        command = ("simulate", "-r", house, "-g", 5000, "-s", 3, "--json")
        run = subprocess.Popen(
            [str(MEDINA), *map(str, command), "--scheduler", address, "--out", out],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        interrupt_when(run, out, 20, signal.SIGKILL, target=scheduler)
        stdout, err = run.communicate(timeout=120)
    finally:
        scheduler.kill()
        if workers is not None:
            os.killpg(workers.pid, signal.SIGKILL)
    assert run.returncode == 2 and err == "", err  # --json: the failure is in the document
    doc = json.loads(stdout)
    assert (
        doc["format"] == "medina-simulate/1" and doc["rulesets"] == [] and len(doc["errors"]) == 1
    )
    message = doc["errors"][0]["message"]
    assert message.startswith(f"--scheduler {address}: lost the scheduler")
    finished = finished_games(out)
    assert finished >= 20 and f": {finished} of 5000 games are finished in {out}" in message


def local_cluster(workers: int):
    with (
        warnings.catch_warnings()
    ):  # its HTTP server takes another port when Dask's default one is busy
        warnings.simplefilter("ignore", UserWarning)
        return distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        )


def test_a_cluster_that_never_had_a_worker_is_said_at_once_then_given_up(house, tmp_path):
    out = tmp_path / "games"
    with local_cluster(0) as empty:
        address = empty.scheduler_address
        run = subprocess.Popen(
            [
                str(MEDINA),
                "simulate",
                "-r",
                str(house),
                "-g",
                "20",
                "--out",
                str(out),
                "--scheduler",
                address,
                "--worker-wait",
                "3",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        started = time.monotonic()
        said = run.stderr.readline()
        assert (
            said
            == f"waiting for workers on {address}: it has none (giving up after 3 s without one)\n"
        )
        assert time.monotonic() - started < 15  # within seconds (the client's start included)
        stdout, err = run.communicate(timeout=60)
        waited = time.monotonic() - started
    assert run.returncode == 2 and stdout == "" and 3 <= waited < 20
    assert err == (
        f"--scheduler {address}: no worker for 3 s (start some: dask worker {address}): 0 of 20 games are "
        f"finished in {out}; the same command with --resume plays the rest [usage]\n"
    )


def test_a_cluster_that_loses_its_only_worker_stops_keeping_the_finished_games(house, tmp_path):
    """The study is paused (SIGSTOP) once 20 games are finished and its worker leaves meanwhile: it goes on
    with the games it holds and finishes no more than those, however fast the machine, so that a few
    hundred games are enough for the loss to come midway."""
    command = ("simulate", "-r", house, "-g", 400, "-s", 4, "--json")
    out = tmp_path / "games"
    with local_cluster(1) as cluster:
        run = subprocess.Popen(
            [
                str(MEDINA),
                *map(str, command),
                "--scheduler",
                cluster.scheduler_address,
                "--out",
                out,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "MEDINA_WORKER_WAIT": "2"},
        )
        interrupt_when(run, out, 20, signal.SIGSTOP)
        try:
            cluster.scale(0)  # its one worker leaves; the scheduler stays
        finally:
            run.send_signal(signal.SIGCONT)
        stdout, err = run.communicate(timeout=120)
        address = cluster.scheduler_address
    assert (
        run.returncode == 2
        and err
        == f"waiting for workers on {address}: it has none (giving up after 2 s without one)\n"
    )
    message = json.loads(stdout)["errors"][0]["message"]
    finished = finished_games(out)
    assert 20 <= finished < 400 and message == (
        f"--scheduler {address}: no worker for 2 s (start some: dask worker {address}): {finished} of 400 games are "
        f"finished in {out}; the same command with --resume plays the rest"
    )
    code, resumed, err = medina(*command, "--out", out, "--resume", "--jobs", 2)
    assert (
        code == 0
        and err == f"wrote {400 - finished} games to {out} ({finished} were there already)\n"
    )
    assert resumed == medina(*command, "--jobs", 2)[1]


def test_a_dask_scheduler_whose_worker_is_killed_says_so_then_gives_up_keeping_the_games(
    house, tmp_path
):
    """`dask scheduler` and one `dask worker` started as a user starts them; the worker (and its nanny) killed
    mid-study: the wait is said at once, and after MEDINA_WORKER_WAIT seconds the study stops with exit 2,
    its finished games kept for --resume."""
    scheduler_file = tmp_path / "scheduler.json"
    scheduler = start_scheduler(scheduler_file)
    worker = None
    try:
        address = wait_for_address(scheduler_file)
        worker = subprocess.Popen(
            [str(BIN / "dask"), "worker", address, "--nthreads", "1", "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        with distributed.Client(address, set_as_default=False) as client:
            client.wait_for_workers(1, timeout=120)
        out = tmp_path / "games"
        command = ("simulate", "-r", house, "-g", 5000, "-s", 6)
        run = subprocess.Popen(
            [str(MEDINA), *map(str, command), "--scheduler", address, "--out", out],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "MEDINA_WORKER_WAIT": "3"},
        )
        interrupt_when(run, out, 20, signal.SIGKILL, target=worker)
        os.killpg(worker.pid, signal.SIGKILL)  # the nanny's worker process too
        killed = time.monotonic()
        said = run.stderr.readline()
        assert (
            said
            == f"waiting for workers on {address}: it has none (giving up after 3 s without one)\n"
        )
        assert time.monotonic() - killed < 15
        stdout, err = run.communicate(timeout=120)
        waited = time.monotonic() - killed
    finally:
        scheduler.kill()
        if worker is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(worker.pid, signal.SIGKILL)
    finished = finished_games(out)
    assert run.returncode == 2 and stdout == "" and 3 <= waited < 60 and 20 <= finished < 5000
    assert err == (
        f"--scheduler {address}: no worker for 3 s (start some: dask worker {address}): {finished} of 5000 "
        f"games are finished in {out}; the same command with --resume plays the rest [usage]\n"
    )


def start_scheduler(scheduler_file: Path) -> subprocess.Popen:
    """`dask scheduler` as a user starts it, on a free local port it writes into `scheduler_file`."""
    return subprocess.Popen(
        [
            str(BIN / "dask"),
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--scheduler-file",
            str(scheduler_file),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wait_for_address(scheduler_file: Path) -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            return json.loads(scheduler_file.read_text())["address"]
        except (OSError, ValueError, KeyError):
            time.sleep(0.1)
    raise AssertionError("the scheduler did not start")


def test_maps_one_after_another_on_a_cluster_started_once(cluster):
    ruleset = load_ruleset("original-2001", ("supply.4.walls=5",))
    study = Study((Part(ruleset.id, ruleset.for_players(4)),), 600, 9)
    alone = statistics_of(run_study(study))
    with Workers(scheduler=cluster.scheduler_address).started() as pool:
        abandoned = pool.map(play_chunk, spans(study, [()]), 600)
        next(
            abandoned
        )  # a map left before its end: its tasks still running do not reach the next map
        abandoned.close()
        for _ in range(2):
            assert statistics_of(pool.map(play_chunk, spans(study, [()]), 600)) == alone


def test_analyse_on_the_cluster_gives_the_reviews_of_one_process(cluster):
    record = parse_record((EXAMPLES / "original-2001-3p.yaml").read_text(), "original-2001-3p.yaml")
    alone = analyse(record, "greedy", seed=3)
    assert (
        len(alone) > 50
        and analyse(record, "greedy", seed=3, workers=Workers(scheduler=cluster.scheduler_address))
        == alone
    )


@pytest.mark.parametrize(
    "address",
    [
        "nonsense://x",
        "tcp://127.0.0.1:notaport",
        "",
        "tcp://127.0.0.1",
        "tcp://:8786",
        "tcp://127.0.0.1:99999",
        "tcp://a b:8786",
        "tcp://a\nb:8786",
    ],
)
def test_a_malformed_address_is_refused_at_once(address):
    started = time.monotonic()
    code, out, err = fuzzkit.run(
        ["simulate", "-r", "original-2001", "-g", "2", "--scheduler", address]
    )  # in-process
    named = repr(address) if not address.strip() or not address.isprintable() else address
    assert (
        (code, out) == (2, "")
        and err
        == f"--scheduler {named}: not a scheduler address; give tcp://HOST:PORT "
        "(or tls://, ws://, wss://) [usage]\n"
    )
    assert time.monotonic() - started < 10  # no wait for the client to give up (it is never made)


def test_a_tls_scheduler_without_certificates_is_named(tmp_path):
    code, out, err = medina(
        "simulate", "-r", "original-2001", "-g", 2, "--scheduler", "tls://127.0.0.1:1", "--json"
    )
    assert code == 2 and err == ""
    message = json.loads(out)["errors"][0]["message"]
    assert message.startswith(
        "--scheduler tls://127.0.0.1:1: a tls:// scheduler needs this client's certificates in "
        "Dask's configuration: distributed.comm.tls.ca-file"
    )


class Silent(socketserver.BaseRequestHandler):
    def handle(self):
        time.sleep(60)  # reads nothing, answers nothing


class QuietHTTP(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # on the test's own stderr, beside medina's
        pass


@pytest.mark.parametrize("server", [QuietHTTP, Silent], ids=["http", "silent"])
def test_a_port_that_is_not_a_dask_scheduler_is_given_up_in_bounded_time(server, monkeypatch):
    from medina_cli.study import cluster as dask_cluster

    assert dask_cluster.CONNECT_SECONDS == 10
    monkeypatch.setattr(
        dask_cluster, "CONNECT_SECONDS", 2
    )  # in-process, so that the test waits 2 s, not 10
    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), server) as listening:
        listening.daemon_threads = True
        threading.Thread(target=listening.serve_forever, daemon=True).start()
        address = f"tcp://127.0.0.1:{listening.server_address[1]}"
        started = time.monotonic()
        code, out, err = fuzzkit.run(
            ["simulate", "-r", "original-2001", "-g", "2", "--scheduler", address]
        )
        took = time.monotonic() - started
        listening.shutdown()
    assert (code, out) == (2, "") and took < 10
    assert err == (
        f"--scheduler {address}: cannot reach the scheduler (no Dask scheduler answered there within "
        "2 s) [usage]\n"
    )


def test_analyse_and_study_on_the_cluster_give_the_local_documents(cluster, tmp_path):
    game = EXAMPLES / "second-edition-2014-2p.yaml"
    code, local, _ = medina(
        "analyse", game, "--agent", "mcts:30", "--seed", 2, "--json", "--jobs", 2
    )
    assert code == 0
    code, remote, err = medina(
        "analyse",
        game,
        "--agent",
        "mcts:30",
        "--seed",
        2,
        "--json",
        "--scheduler",
        cluster.scheduler_address,
    )
    assert code == 0 and remote == local, err
    command = (
        "study",
        "--rulesets",
        "second-edition-2014",
        "--players",
        2,
        "--agents",
        "random,greedy",
        "--games",
        6,
        "--json",
    )
    code, local, _ = medina(*command, "--out", tmp_path / "local")
    assert code == 0
    code, remote, err = medina(
        *command, "--out", tmp_path / "remote", "--scheduler", cluster.scheduler_address
    )
    assert code == 0, err
    local, remote = json.loads(local), json.loads(remote)
    assert (
        remote.pop("command") != local.pop("command") and remote == local
    )  # the commands name their --out
