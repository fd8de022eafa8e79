"""Following a server's log file as it grows (``tail -f``): what was written since the last
look, copied whole lines at a time to a stream of ours."""

from pathlib import Path
from typing import TextIO


class LogFollower:
    def __init__(self, path: Path, out: TextIO) -> None:
        self.path = path
        self.out = out
        self._offset = 0
        self._partial = b""

    def pump(self) -> None:
        """Copies the lines completed since the last call (a line still being written waits
        for its end, so that two servers' lines never mix)."""
        try:
            with self.path.open("rb") as log:
                log.seek(self._offset)
                data = log.read()
        except FileNotFoundError:
            return
        self._offset += len(data)
        lines = (self._partial + data).split(b"\n")
        self._partial = lines.pop()
        if lines:
            self.out.write("".join(f"{line.decode(errors='replace')}\n" for line in lines))
            self.out.flush()

    def finish(self) -> None:
        """Copies what is left, an unfinished last line included."""
        self.pump()
        if self._partial:
            self.out.write(self._partial.decode(errors="replace") + "\n")
            self._partial = b""
            self.out.flush()
