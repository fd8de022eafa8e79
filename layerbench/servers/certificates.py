"""Throwaway TLS certificates for local servers, made with the openssl command."""

import subprocess
from dataclasses import dataclass
from pathlib import Path

from layerbench.proc.binaries import find_program


@dataclass(frozen=True)
class Certificate:
    """A self-signed certificate and its private key, as PEM files."""

    certificate: Path
    key: Path


def self_signed(directory: Path, host: str = "127.0.0.1") -> Certificate:
    """An ECDSA P-256 certificate for ``host`` and localhost, valid for two days."""
    openssl = find_program("openssl", "openssl")
    certificate, key = directory / "server.crt", directory / "server.key"
    san = f"IP:{host}" if host.replace(".", "").isdigit() or ":" in host else f"DNS:{host}"
    subprocess.run(
        [
            str(openssl), "req", "-x509", "-newkey", "ec",
            "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
            "-subj", "/CN=layerbench test server",
            "-addext", f"subjectAltName={san},DNS:localhost",
            "-addext", "basicConstraints=critical,CA:FALSE",
            "-keyout", str(key), "-out", str(certificate),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return Certificate(certificate, key)
