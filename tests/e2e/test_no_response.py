"""A run that completes no request says why, from what the load generator counted: against a
real loopback listener that accepts and never answers, and against a port nobody listens on."""

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from layerbench.errors import LoadGeneratorError
from layerbench.lab.loadgen import LoadSpec, run_load


@pytest.fixture
def silent_listener() -> Iterator[str]:
    """Accepts every connection, reads nothing, answers nothing; closed at the end."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except TimeoutError:
                continue
            except OSError:
                return

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/"
    finally:
        stop.set()
        thread.join(timeout=5)
        for connection in accepted:
            connection.close()
        listener.close()


def test_a_server_that_never_answers(
    load_binary: Path, tmp_path: Path, silent_listener: str
) -> None:
    spec = LoadSpec(concurrency=5, duration_s=0.5, warmup_s=0)
    with pytest.raises(LoadGeneratorError) as raised:
        run_load(binary=load_binary, url=silent_listener, spec=spec, workdir=tmp_path, label="x")
    assert str(raised.value) == (
        "no request completed in the 0.5 s trial at c=5 (request timeout 30 s): none failed "
        "either, so all 5 connections were still connecting or waiting for an answer when "
        "the time ran out"
    )


def test_a_port_that_refuses(load_binary: Path, tmp_path: Path) -> None:
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{closed.getsockname()[1]}/"
    spec = LoadSpec(concurrency=3, duration_s=0.3, warmup_s=0)
    try:
        with pytest.raises(LoadGeneratorError) as raised:
            run_load(binary=load_binary, url=url, spec=spec, workdir=tmp_path, label="x")
    finally:
        closed.close()
    message = str(raised.value)
    assert message.startswith("no request completed in the 0.3 s trial at c=3 (request timeout")
    assert "failed (ECONNREFUSED " in message and "connecting)" in message, message
