"""`--scheduler ADDRESS` said wrong or pointing nowhere: refused before any wait (README, "On a cluster")."""

from __future__ import annotations

import socket

import fuzzkit
import pytest

pytest.importorskip(
    "distributed", reason="needs the [cluster] extra: pip install '.[test,cluster]'"
)


def simulate_on(address: str) -> tuple[int, str, str]:
    return fuzzkit.run(
        ["simulate", "-r", "original-2001", "-g", "2", "--scheduler", address]
    )  # in-process


def test_an_address_without_its_scheme_is_refused_with_the_one_it_may_mean():
    code, out, err = simulate_on("127.0.0.1:8786")
    assert (code, out) == (2, "") and err == (
        "--scheduler 127.0.0.1:8786: not a scheduler address; give "
        "tcp://HOST:PORT (or tls://, ws://, wss://); did you mean "
        "tcp://127.0.0.1:8786? [usage]\n"
    )


def test_a_port_nobody_listens_on_is_said_to_refuse_the_connection(monkeypatch):
    from medina_cli.study import cluster

    monkeypatch.setattr(
        cluster, "CONNECT_SECONDS", 2
    )  # before: no Dask scheduler answered within 2 s
    with (
        socket.socket() as placeholder
    ):  # a port of this machine that nothing listens on once it is closed
        placeholder.bind(("127.0.0.1", 0))
        port = placeholder.getsockname()[1]
    code, out, err = simulate_on(f"tcp://127.0.0.1:{port}")
    assert (code, out) == (2, "") and err == (
        f"--scheduler tcp://127.0.0.1:{port}: cannot reach the scheduler: "
        "Connection refused (is it running, at that address?) [usage]\n"
    )
