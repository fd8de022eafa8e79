"""layerbench-load's --json output, from real runs against a real nginx, validates against the
committed schema with a full draft 2020-12 validator, and its counts are the counts asked for."""

import time
from pathlib import Path

from layerbench.proc.ports import free_port
from layerbench.rungs.definitions import STATIC_BODY, STATIC_FILE
from layerbench.servers.certificates import self_signed
from layerbench.servers.nginx import NginxStatic, TlsListener
from tests.load_documents import nginx, run_load, validate

__all__ = ["nginx"]  # the fixture, used by name


def test_keep_alive_run_validates_and_counts_every_request(
    load_binary: Path, nginx: NginxStatic
) -> None:
    document = run_load(
        load_binary, "-n", "500", "-c", "5", "-k", nginx.base_url + "/" + STATIC_FILE
    )
    validate(document)
    assert document["requests_completed"] == 500
    assert document["requests_failed"] == 0
    assert document["status_counts"] == {"200": 500}
    assert document["document_length_bytes"] == len(STATIC_BODY)
    assert document["html_transferred_bytes"] == 500 * len(STATIC_BODY)
    assert document["server_software"].startswith("nginx")
    assert document["keep_alive_requests"] == 500
    latency = document["latency_us"]
    assert 0 < latency["min"] <= latency["p50"] <= latency["p99"] <= latency["max"]


def test_non_keep_alive_404_run_validates_and_counts_non_2xx(
    load_binary: Path, nginx: NginxStatic
) -> None:
    document = run_load(load_binary, "-n", "50", "-c", "2", nginx.base_url + "/missing")
    validate(document)
    assert document["requests_completed"] == 50
    assert document["non_2xx_responses"] == 50
    assert document["status_counts"] == {"404": 50}
    assert document["keep_alive_requests"] == 0


def test_timed_run_validates(load_binary: Path, nginx: NginxStatic) -> None:
    began = time.monotonic()
    document = run_load(
        load_binary,
        "-t",
        "0.5",
        "--warmup",
        "0.2",
        "-c",
        "4",
        "-k",
        nginx.base_url + "/" + STATIC_FILE,
    )
    validate(document)
    assert document["requests_completed"] > 0
    # The measured 0.5 s, not the warm-up (a busy machine may stretch both, never shrink them).
    assert 0.4 < document["elapsed_s"] <= time.monotonic() - began - 0.2


def test_open_loop_run_validates_with_its_rate_and_both_latencies(
    load_binary: Path, nginx: NginxStatic
) -> None:
    document = run_load(
        load_binary,
        "--rate",
        "2000",
        "-n",
        "1000",
        "-c",
        "4",
        "-k",
        nginx.base_url + "/" + STATIC_FILE,
    )
    validate(document)
    assert document["requests_completed"] == 1000
    assert document["options"]["rate_per_s"] == 2000
    rate = document["rate"]
    assert rate["scheduled_requests"] == 1000
    assert rate["unsent_requests"] == 0
    assert document["latency_us"]["p50"] >= document["latency_uncorrected_us"]["p50"]


def test_https_against_nginx_validates_and_resumes_sessions(
    load_binary: Path, nginx_binary: Path, workdir: Path
) -> None:
    """nginx with a self-signed certificate: keep-alive makes one handshake a connection;
    without it, every request a handshake and nearly all of them resume nginx's sessions."""
    certificate = self_signed(workdir)
    tls = TlsListener(free_port(), certificate.certificate, certificate.key)
    server = NginxStatic(workdir / "nginx", free_port(), {STATIC_FILE: STATIC_BODY}, tls=tls)
    with server:
        url = server.tls_base_url + "/" + STATIC_FILE
        kept = run_load(load_binary, "-n", "300", "-c", "3", "-k", "--insecure", url)
        closed = run_load(load_binary, "-n", "100", "-c", "1", "--cacert", str(tls.certificate),
                          url.replace("127.0.0.1", "localhost"))  # fmt: skip
    for document in (kept, closed):
        validate(document)
        assert document["requests_failed"] == 0, document["errors_by_kind"]
        assert document["status_counts"] == {"200": document["requests_completed"]}
        assert document["tls"]["protocol"] == "TLSv1.3"
    assert kept["requests_completed"] == 300
    assert kept["tls"]["handshakes_full"] + kept["tls"]["handshakes_resumed"] == 3
    assert kept["options"]["tls_verify"] is False
    assert closed["requests_completed"] == 100
    assert closed["tls"]["handshakes_full"] == 1
    assert closed["tls"]["handshakes_resumed"] == 99
