"""The one Redis client factory (layerbench.services.redis.redis_client), used by the probes,
the seeding, the redis rung and the page cache: a server that hangs up is tried once more, at
once, and then its error is raised (redis-py's default retries three times with a backoff)."""

import socket
import threading

import pytest

from layerbench.services.redis import redis_client

redis = pytest.importorskip("redis")


def test_a_server_that_hangs_up_is_tried_twice_then_its_error_raised() -> None:
    accepted: list[socket.socket] = []
    with socket.create_server(("127.0.0.1", 0)) as listener:
        listener.settimeout(3)  # the accept loop ends once no more tries come

        def hang_up() -> None:
            try:
                while True:
                    connection, _ = listener.accept()
                    accepted.append(connection)
                    connection.close()
            except OSError:
                return

        thread = threading.Thread(target=hang_up)
        thread.start()
        client = redis_client(f"redis://127.0.0.1:{listener.getsockname()[1]}/0")
        try:
            with pytest.raises(redis.ConnectionError):
                client.ping()
        finally:
            client.close()
            thread.join()
    assert len(accepted) == 2
