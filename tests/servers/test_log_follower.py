"""Following a server's log as ``app serve`` does: whole lines only, each once, the last one
finished at the end."""

import io
from pathlib import Path

from layerbench.servers.log_follower import LogFollower


def test_lines_are_copied_whole_and_once(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    out = io.StringIO()
    follower = LogFollower(log, out)
    follower.pump()  # not there yet
    log.write_bytes(b"first\nsec")
    follower.pump()
    assert out.getvalue() == "first\n"
    with log.open("ab") as more:
        more.write(b"ond\nthird \xff")
    follower.pump()
    follower.pump()
    assert out.getvalue() == "first\nsecond\n"
    follower.finish()
    assert out.getvalue() == "first\nsecond\nthird \ufffd\n"
