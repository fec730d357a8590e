"""The Dask distributed backend: tasks on an existing cluster (`--scheduler ADDRESS`).

The address is checked before anything is sent, and the scheduler must answer as a Dask scheduler
within CONNECT_SECONDS (a port that accepts connections but speaks another protocol does not hang
the study). Results are gathered in batches, as many as have finished at once. A cluster without
any worker (none has joined, or the last one was lost) is said at once and waited for, at most
`wait_for_workers` seconds. Dask plays a task again on another worker when the worker playing it is
lost; since a task's results depend only on the task, they are the same. `distributed` is an
optional extra (`pip install '.[cluster]'`), imported only here.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import queue
import time
from collections.abc import Callable
from typing import Any

from ..errors import as_named
from .backend import IN_FLIGHT_PER_WORKER, StudyError, run_task

CONNECT_SECONDS = 10  # to reach the scheduler, and to reach it again after losing it
SCHEMES = (
    "tcp",
    "tls",
    "ws",
    "wss",
)  # Dask's network transports (the secure ones need certificates)
ADDRESS_FORM = "tcp://HOST:PORT (or tls://, ws://, wss://)"
POLL_SECONDS = 1  # how often a wait for results looks at the workers
RECOUNT_SECONDS = 5  # how often the workers are counted while results come (workers may join)
GATHER_SECONDS = (
    5  # a fetch of finished tasks' results that takes longer looks at the workers, then tries again
)


def shown(address: str) -> str:
    """An address as a one-line message names it (quoted when empty or unprintable)."""
    return as_named(address) if address.strip() else repr(address)


def check_address(address: str) -> tuple[str, str, int]:
    """The scheme, host and port of a scheduler address `SCHEME://HOST:PORT`; StudyError for anything
    else, in the tool's words (without a scheme, the tcp:// address it may mean)."""
    scheme, separator, rest = address.partition("://")
    if not separator:
        scheme, rest = "", address
    host, _, port = rest.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]  # an IPv6 address
    malformed = (
        not host
        or not host.isprintable()
        or any(c.isspace() or c in "/[]" for c in host)
        or not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535)
    )
    if malformed or scheme not in SCHEMES:
        meant = f"; did you mean tcp://{address}?" if scheme == "" and not malformed else ""
        raise StudyError(
            f"--scheduler {shown(address)}: not a scheduler address; give {ADDRESS_FORM}{meant}"
        )
    return scheme, host, int(port)


class DaskCluster:
    """Tasks on the Dask cluster whose scheduler is at `address`."""

    def __init__(
        self, address: str, wait_for_workers: float, notify: Callable[[str], None] | None = None
    ):
        scheme, self.host, self.port = check_address(address)
        try:
            import distributed
        except ImportError:
            raise StudyError(
                "--scheduler needs Dask distributed: pip install '.[cluster]' in medina-cli's "
                "checkout (on every machine, the same version)"
            ) from None
        gc.freeze()  # what Dask's import made lives to the end: the collector's full collections, at the
        # interpreter's exit above all, need not walk it again (~0.3 s of CPU, the client's largest fixed cost)
        self.distributed, self.address, self.named = distributed, address, shown(address)
        self.wait_for_workers, self.notify = wait_for_workers, notify
        security = distributed.Security()  # TLS certificates come from Dask's configuration
        if (
            scheme in ("tls", "wss")
            and security.get_connection_args("client").get("ssl_context") is None
        ):
            raise StudyError(
                f"--scheduler {self.named}: a {scheme}:// scheduler needs this client's certificates in "
                "Dask's configuration: distributed.comm.tls.ca-file, .client.cert and .client.key (or "
                "DASK_DISTRIBUTED__COMM__TLS__CA_FILE, ...__CLIENT__CERT, ...__CLIENT__KEY)"
            )
        self.handshake(security)
        try:
            self.client = distributed.Client(
                address, timeout=CONNECT_SECONDS, set_as_default=False, security=security
            )
        except Exception:  # noqa: BLE001 (Dask raises what its comms raise: every failure to connect is 'unreachable')
            raise StudyError(self.unreachable()) from None
        self.done: queue.Queue = queue.Queue()  # the futures that have finished
        self.threads = 0  # the workers' threads, as last counted
        self.counted = 0.0
        self.without_workers_since: float | None = None
        try:
            with self.failures():
                self.count_workers()
                while self.threads == 0:
                    time.sleep(POLL_SECONDS / 4)
                    self.count_workers()
        except BaseException:
            self.close()
            raise

    @property
    def workers(self) -> int:
        """How many tasks run at once (while there are none, as if there were one)."""
        return max(1, self.threads)

    @property
    def in_flight(self) -> int:
        return IN_FLIGHT_PER_WORKER * self.workers

    def unreachable(self) -> str:
        return (
            f"--scheduler {self.named}: cannot reach the scheduler (no Dask scheduler answered there within "
            f"{CONNECT_SECONDS} s)"
        )

    def knock(self) -> None:
        """Open a connection to the scheduler's host and port and close it: StudyError at once where the
        connection is refused (nothing listens there) or the host cannot be reached, or after CONNECT_SECONDS
        without an answer, where Dask would try again until its own timeout."""
        import socket

        try:
            socket.create_connection((self.host, self.port), timeout=CONNECT_SECONDS).close()
        except TimeoutError:
            raise StudyError(self.unreachable()) from None
        except OSError as exc:
            raise StudyError(
                f"--scheduler {self.named}: cannot reach the scheduler: {exc.strerror or exc} (is it "
                "running, at that address?)"
            ) from None

    def handshake(self, security) -> None:
        """Connect to the scheduler and part at once: StudyError unless it answers as Dask does within
        CONNECT_SECONDS (the Client alone would wait for ever at a port that accepts but never answers).
        A port nobody listens on is said at once (`knock`)."""
        import asyncio

        self.knock()

        async def greet():
            comm = await self.distributed.comm.connect(
                self.address, timeout=CONNECT_SECONDS, **security.get_connection_args("client")
            )
            await comm.close()

        try:
            asyncio.run(asyncio.wait_for(greet(), CONNECT_SECONDS))
        except Exception:  # noqa: BLE001 (as above: any failure of the greeting is 'unreachable')
            raise StudyError(self.unreachable()) from None

    def count_workers(self) -> None:
        """Count the cluster's worker threads; without any, say so and wait (at most wait_for_workers
        seconds in a row, then StudyError)."""
        self.threads, self.counted = sum(self.client.nthreads().values()), time.monotonic()
        if self.threads:
            self.without_workers_since = None
            return
        if self.without_workers_since is None:
            self.without_workers_since = self.counted
            if self.notify is not None:
                self.notify(
                    f"waiting for workers on {self.named}: it has none (giving up after "
                    f"{self.wait_for_workers:g} s without one)"
                )
        elif self.counted - self.without_workers_since >= self.wait_for_workers:
            raise StudyError(
                f"--scheduler {self.named}: no worker for {self.wait_for_workers:g} s (start some: "
                f"dask worker {self.named})"
            )

    def submit(self, work: Callable, task: tuple):
        future = self.client.submit(run_task, work, task, pure=False)
        future.add_done_callback(self.done.put)  # called in another thread as the task ends
        return future

    def finished(self, pending) -> list[tuple[object, tuple[float, object]]]:
        """(future, (seconds, result)) of every pending task that has finished, gathered at once; waits
        for one if need be. (Tasks of an earlier map left unfinished are dropped as they end.)"""
        with self.failures():
            done: list[Any] = []  # futures
            while not done:
                try:
                    done.append(self.done.get(timeout=POLL_SECONDS))
                except queue.Empty:
                    self.count_workers()
                while not self.done.empty():
                    done.append(self.done.get())
                for future in [future for future in done if future not in pending]:
                    done.remove(future)
                    future.release()
            if time.monotonic() - self.counted > RECOUNT_SECONDS:
                self.count_workers()
            results = self.gathered(done)
        for future in done:
            future.release()
        return list(zip(done, results, strict=True))

    def gathered(self, done: list) -> list:
        """The results of finished tasks, fetched at once. A worker lost meanwhile takes the results it held
        with it, and Dask plays those tasks again, which needs a worker: so the fetch is given GATHER_SECONDS
        at a time, the workers counted between tries (StudyError once there has been none for too long)."""
        while True:
            try:
                return self.client.sync(
                    lambda: self.client.gather(done, asynchronous=True),
                    callback_timeout=GATHER_SECONDS,
                )
            except (
                TimeoutError
            ):  # the fetch given up is left to end with the client: asyncio must not report it
                logging.getLogger("asyncio").setLevel(logging.CRITICAL)
                self.count_workers()

    @contextlib.contextmanager
    def failures(self):
        """What goes wrong with the cluster, as a StudyError saying what it means for the study."""
        from concurrent.futures import CancelledError

        try:
            yield
        except (StudyError, KeyboardInterrupt):
            raise
        except self.distributed.KilledWorker:
            raise StudyError(
                f"--scheduler {self.named}: the workers playing the same task died one after "
                "another (killed, or out of memory)"
            ) from None
        except ImportError:
            raise StudyError(
                f"--scheduler {self.named}: a worker cannot run the games: install medina-cli, the "
                "same version as here, on every worker"
            ) from None
        except Exception as exc:  # noqa: BLE001 (a task's failure on a worker can be anything it raised; classified below)
            # the client cancels every task when it gives up reaching its scheduler again
            if self.client.status in ("closing", "closed") or isinstance(
                exc, (CancelledError, OSError, TimeoutError)
            ):
                raise StudyError(f"--scheduler {self.named}: lost the scheduler") from None
            raise StudyError(
                f"--scheduler {self.named}: the cluster failed ({type(exc).__name__}: {exc})"
            ) from None

    def close(self, abandon: bool = False) -> None:
        self.client.close()  # the scheduler drops the tasks no client waits for
