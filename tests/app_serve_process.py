"""``layerbench app serve`` as the tests run it: a subprocess in a process group of its own,
ready once it has printed its "serving" line, and ended by its group (SIGINT, then SIGKILL)."""

import os
import select
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from layerbench.proc.ports import free_port

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
# layerbench on a machine without nginx (this one has it: its finding is what is replaced).
WITHOUT_NGINX = [
    sys.executable,
    "-c",
    "from layerbench.cli import app_cmd\n"
    "from layerbench.errors import MissingBinaryError\n"
    "def nginx_missing(program, apt_package):\n"
    "    raise MissingBinaryError(program, apt_package)\n"
    "app_cmd.find_program = nginx_missing\n"
    "from layerbench.cli.main import main\n"
    "main()\n",
]
START_LIMIT_S = 30
STOP_LIMIT_S = 30


@dataclass
class Serving:
    process: "subprocess.Popen[str]"
    base_url: str
    # Its first line of output (the "serving" line).
    serving_line: str
    # Its stderr: a file, never a pipe that a busy server's log could fill and block it.
    stderr: IO[str]

    def stop(self) -> tuple[int, str]:
        """Ctrl-C to its group; its exit status and everything it wrote to stderr."""
        stop_group(self.process)
        self.process.communicate()
        self.stderr.seek(0)
        return self.process.returncode, self.stderr.read()


def stop_group(process: "subprocess.Popen[str]") -> None:
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGINT)
    try:
        process.wait(STOP_LIMIT_S)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@contextmanager
def app_serve(
    *args: str, cwd: Path | None = None, nginx: bool = True, env: dict[str, str] | None = None
) -> Iterator[Serving]:
    """``app serve ARGS --port PORT`` (a free port) running until the block ends; with
    ``nginx=False`` as on a machine without nginx; ``env`` its environment (ours by default)."""
    port = free_port()
    with tempfile.TemporaryFile(mode="w+") as stderr:
        process = subprocess.Popen(
            [*(LAYERBENCH if nginx else WITHOUT_NGINX), "app", "serve", *args, "--port", str(port)],
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            start_new_session=True,
            cwd=cwd,
            env=env,
        )
        try:
            assert process.stdout is not None
            ready, _, _ = select.select([process.stdout], [], [], START_LIMIT_S)
            assert ready, f"app serve said nothing within {START_LIMIT_S} s"
            line = process.stdout.readline()  # printed whole and flushed, or '' at its exit
            if f"serving http://127.0.0.1:{port}/" not in line:
                stop_group(process)
                process.communicate()
                stderr.seek(0)
                raise AssertionError(f"app serve did not start: {line!r} {stderr.read()}")
            yield Serving(process, f"http://127.0.0.1:{port}", line, stderr)
        finally:
            stop_group(process)
            # What is left in its pipe, so that nothing stays open.
            if process.stdout and not process.stdout.closed:
                process.communicate()
