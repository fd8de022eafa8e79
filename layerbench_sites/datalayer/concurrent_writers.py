"""Writers at once through several MariaDB servers (the nodes of a Galera cluster): each writer
its own connection to one node (writer i to node i mod N), the site's repository on it, every
write one ``Repository.write`` transaction, retried as the repository retries (a certification
conflict between nodes is error 1213, a deadlock to the client), and every retry counted.

Each writer posts comments to one video; every ``update_every``-th write is instead an edit of
that video's description, a row every writer on every node changes (the conflicts' source:
comments alone are new rows, which certify without conflict)."""

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from layerbench.proc.threads_together import run_together
from layerbench_sites.datalayer.changes import Row
from layerbench_sites.datalayer.mariadb_dialect import MariadbDialect
from layerbench_sites.datalayer.mariadb_repository import connect
from layerbench_sites.datalayer.repository import Repository
from layerbench_sites.ids.codec import decode


class CountingDialect(MariadbDialect):
    """MariaDB's dialect, counting the errors the repository retries."""

    def __init__(self) -> None:
        super().__init__()
        self.transient_retries = 0
        self.collision_retries = 0

    def is_transient(self, error: Exception) -> bool:
        transient = super().is_transient(error)
        self.transient_retries += transient
        return transient

    def is_id_collision(self, error: Exception) -> bool:
        collision = super().is_id_collision(error)
        self.collision_retries += collision
        return collision


@dataclass
class WriterTally:
    """What one writer did: through which URL, the comments it created (their ids), the
    edits of the video it committed, the transactions run again, and the writes given up."""

    url: str
    comment_ids: list[str] = field(default_factory=list)
    video_edits: int = 0
    transient_retries: int = 0
    # Writes the repository gave up after its bounded retries (still error 1213).
    gave_up: int = 0
    collision_retries: int = 0
    # Writes run again after MariaDB/Galera's trigger defect (is_trigger_parse_error).
    trigger_errors: int = 0


@dataclass(frozen=True)
class ConcurrentWrites:
    tallies: tuple[WriterTally, ...]
    elapsed_s: float

    @property
    def comment_ids(self) -> list[str]:
        return [identifier for tally in self.tallies for identifier in tally.comment_ids]

    @property
    def writes(self) -> int:
        return sum(len(tally.comment_ids) + tally.video_edits for tally in self.tallies)

    @property
    def gave_up(self) -> int:
        return sum(tally.gave_up for tally in self.tallies)

    @property
    def transient_retries(self) -> int:
        return sum(tally.transient_retries for tally in self.tallies)

    @property
    def trigger_errors(self) -> int:
        return sum(tally.trigger_errors for tally in self.tallies)

    @property
    def collision_retries(self) -> int:
        return sum(tally.collision_retries for tally in self.tallies)

    @property
    def writes_per_s(self) -> float:
        return self.writes / self.elapsed_s


def create_video(url: str, title: str) -> str:
    """A video to comment on, created through ``url``; its id."""
    repository = Repository(connect(url), MariadbDialect())
    try:
        return repository.create(
            "videos", {"title": title, "url": None, "description": None}, actor="setup"
        )
    finally:
        repository.connection.close()


# Recoveries from the trigger defect one writer makes before its error is raised.
MAX_TRIGGER_ERRORS = 5


def is_trigger_parse_error(error: Exception) -> bool:
    """MariaDB's 1064 for a trigger body it once parsed (seen under Galera's certification
    aborts: "Trigger 'videos_audit_insert' has an error in its body: ...")."""
    code = error.args[0] if error.args else None
    return code == 1064 and "has an error in its body" in str(error)


def flush_tables(url: str) -> None:
    connection = connect(url)
    try:
        with connection.cursor() as cursor:
            cursor.execute("FLUSH TABLES")
    finally:
        connection.close()


def run_writers(
    urls: list[str], video_id: str, writers: int, writes_each: int, update_every: int = 0
) -> ConcurrentWrites:
    """``writers`` threads, started together, each making ``writes_each`` writes through
    ``urls[i % len(urls)]``. A write still in conflict after the repository's bounded retries
    is counted as given up and the writer goes on; any other error is raised (the first), once
    every writer has stopped. Interrupted (Ctrl-C), the writers stop after the write they are
    making, and are waited for, before the interruption goes on."""
    tallies = [WriterTally(urls[number % len(urls)]) for number in range(writers)]
    video_numid = decode(video_id)

    def write(number: int, start: Callable[[], object], stop: threading.Event) -> None:
        tally = tallies[number]
        dialect = CountingDialect()
        repository = Repository(connect(tally.url), dialect)
        try:
            start()
            index = 0
            while index < writes_each and not stop.is_set():
                actor = f"writer-{number}"
                try:
                    if update_every and index % update_every == update_every - 1:
                        edit: Row = {"description": f"edited by {actor}, write {index}"}
                        repository.update("videos", video_id, edit, actor=actor)
                        tally.video_edits += 1
                    else:
                        values: Row = {"video_numid": video_numid, "author": actor}
                        values["body"] = f"#{index}"
                        created = repository.create("comments", values, actor=actor)
                        tally.comment_ids.append(created)
                except Exception as error:
                    if is_trigger_parse_error(error) and tally.trigger_errors < MAX_TRIGGER_ERRORS:
                        # MariaDB/Galera's defect (README): the node keeps a broken parse of the
                        # table's triggers until its tables are flushed. The write failed whole
                        # (nothing committed): counted, the node's tables flushed, written again.
                        tally.trigger_errors += 1
                        flush_tables(tally.url)
                        continue
                    if not dialect.is_transient(error):
                        raise
                    dialect.transient_retries -= 1  # counted here, not retried
                    tally.gave_up += 1
                index += 1
        finally:
            tally.transient_retries = dialect.transient_retries
            tally.collision_retries = dialect.collision_retries
            repository.connection.close()

    return ConcurrentWrites(tuple(tallies), run_together(writers, write))
