"""How each adapter's processes are counted: which of them run the application, told apart from
those that start the server or hand requests on. An adapter without a declaration is refused
before anything starts, saying why."""

import re
from dataclasses import dataclass
from pathlib import Path

from layerbench.errors import ConfigError
from layerbench.served.served_roles import WorkerTest
from layerbench.servers.managed_server import ManagedServer

# uWSGI's master logs each process it forks: its HTTP router hands requests on.
_UWSGI_ROUTER = re.compile(r"^spawned uWSGI http \d+ \(pid: (\d+)\)", re.MULTILINE)


@dataclass(frozen=True)
class Counting:
    # Its processes and their roles, in words (the docs' table).
    processes: str
    runs_application: WorkerTest
    # Arguments the server is given when counted: what only a server slowed by callgrind needs
    # (a health check's timeout), never a change to its work per request.
    counted_arguments: tuple[str, ...] = ()


def forked(server: ManagedServer, pid: int) -> bool:
    """Not the process that started the server."""
    return pid != server.session


def every_child(server: ManagedServer, pid: int) -> bool:
    """Every process the server forks runs the application (gunicorn's workers; Apache's
    children under mod_wsgi's embedded mode), not the process that forked them."""
    return forked(server, pid)


def the_one_process(server: ManagedServer, pid: int) -> bool:
    """The server is one process, whose threads run the application (waitress, cheroot, paste,
    Daphne)."""
    return True


def spawned_worker(server: ManagedServer, pid: int) -> bool:
    """A worker multiprocessing spawned (``spawn_main`` on its command line: uvicorn's and
    Hypercorn's), not multiprocessing's resource tracker, which only waits for its exit."""
    return forked(server, pid) and any("multiprocessing.spawn" in a for a in _arguments(pid))


def puma_worker(server: ManagedServer, pid: int) -> bool:
    """puma's cluster workers; its master, when it has none (``workers = 0``: it serves)."""
    settings = getattr(server, "settings", None)
    if getattr(settings, "workers", 1) == 0:
        return True
    return forked(server, pid)


def passenger_ruby(server: ManagedServer, pid: int) -> bool:
    """A Ruby process Passenger's core spawned (the application, its preloader), not Apache's
    processes nor Passenger's watchdog and core."""
    return forked(server, pid) and any(_is_ruby(argument) for argument in _arguments(pid))


def _is_ruby(argument: str) -> bool:
    """Ruby's binary or a Ruby script on a command line (under valgrind, the command line is
    valgrind's, the client's after its options), or the title Passenger gives its Ruby."""
    return (
        Path(argument).name.startswith("ruby")
        or argument.endswith(".rb")
        or argument.startswith("Passenger RubyApp")
    )


def _arguments(pid: int) -> list[str]:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    return [part.decode(errors="replace") for part in raw.split(b"\0") if part]


def no_application(server: ManagedServer, pid: int) -> bool:
    """A static server: every process serves the file, none runs an application."""
    return False


def uwsgi_worker(server: ManagedServer, pid: int) -> bool:
    """A process uWSGI's master forked, other than its HTTP router (which its log names)."""
    log = server.log_path.read_text(errors="replace") if server.log_path.exists() else ""
    return forked(server, pid) and pid not in {int(found) for found in _UWSGI_ROUTER.findall(log)}


def mod_wsgi_daemon_process(server: ManagedServer, pid: int) -> bool:
    """A process that holds mod_wsgi's daemon socket (``WSGISocketPrefix``, in the server's work
    directory): mod_wsgi closes it in Apache's children, which only pass requests on to it."""
    if not forked(server, pid):
        return False  # Apache's parent made the socket, and keeps it
    paths = unix_socket_paths(pid)
    prefix = str(server.workdir / "wsgi")
    return any(path.startswith(prefix) for path in paths)


def unix_socket_paths(pid: int) -> set[str]:
    """The paths of the unix sockets ``pid`` holds open (/proc/net/unix by inode)."""
    inodes = set()
    try:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            target = _readlink(fd)
            if target.startswith("socket:["):
                inodes.add(target[len("socket:[") : -1])
    except OSError:
        return set()
    paths = set()
    for line in Path("/proc/net/unix").read_text().splitlines()[1:]:
        fields = line.split()
        if len(fields) >= 8 and fields[6] in inodes:
            paths.add(fields[7])
    return paths


def _readlink(path: Path) -> str:
    try:
        return str(path.readlink())
    except OSError:
        return ""


COUNTED: dict[str, Counting] = {
    "gunicorn": Counting("the arbiter (server), its sync workers (application)", every_child),
    "gunicorn-gthread": Counting(
        "the arbiter (server), its threaded workers (application)", every_child
    ),
    "uwsgi": Counting(
        "the master and its HTTP router (server), its workers (application)", uwsgi_worker
    ),
    "uwsgi-nginx": Counting(
        "nginx's master and workers (front), uWSGI's master (server), its workers (application)",
        uwsgi_worker,
    ),
    "mod_wsgi-embedded": Counting(
        "Apache's parent (server), its children running the application (application)",
        every_child,
    ),
    "mod_python": Counting(
        "Apache's parent (server), its children running the handler (application)", every_child
    ),
    "mod_python-wsgi": Counting(
        "Apache's parent (server), its children running the application (application)",
        every_child,
    ),
    "nginx-static": Counting(
        "nginx's master and workers serving the file (server)", no_application
    ),
    "apache-static": Counting(
        "Apache's parent and children serving the file (server)", no_application
    ),
    "mod_wsgi-daemon": Counting(
        "Apache's parent and children passing requests on (server), mod_wsgi's daemon "
        "processes (application)",
        mod_wsgi_daemon_process,
    ),
    "gunicorn-uvicorn": Counting(
        "the arbiter (server), its uvicorn workers (application)", every_child
    ),
    "uvicorn": Counting(
        "the supervisor and multiprocessing's resource tracker (server), the spawned workers "
        "(application)",
        spawned_worker,
        # Its supervisor kills a worker that does not answer its ping within 5 s: under
        # callgrind a starting worker does not, and was replaced again and again.
        ("--timeout-worker-healthcheck", "3600"),
    ),
    "hypercorn": Counting(
        "the supervisor and multiprocessing's resource tracker (server), the spawned workers "
        "(application)",
        spawned_worker,
    ),
    "granian": Counting("granian's main process (server), its workers (application)", every_child),
    "granian-asgi": Counting(
        "granian's main process (server), its workers (application)", every_child
    ),
    "waitress": Counting("one process, its threads running the application", the_one_process),
    "cheroot": Counting("one process, its thread pool running the application", the_one_process),
    "paste": Counting("one process, its thread pool running the application", the_one_process),
    "daphne": Counting("one process, Twisted's loop running the application", the_one_process),
    "passenger": Counting(
        "Apache's parent and children (front), Passenger's watchdog and core (server), the "
        "Ruby processes running Rails (application)",
        passenger_ruby,
    ),
    "puma": Counting(
        "puma's master (server), its cluster workers running Rails (application)", puma_worker
    ),
}
# Why an adapter is not counted, where there is more to say than that it is not declared (every
# adapter is declared today).
WHY_NOT: dict[str, str] = {}


def counting_for(adapter: str) -> Counting:
    """The adapter's declaration; a ConfigError naming it, and why, when it has none."""
    counting = COUNTED.get(adapter)
    if counting is None:
        why = WHY_NOT.get(adapter, "which of its processes run the application is not declared")
        raise ConfigError(
            f"--measure instructions cannot count {adapter}: {why} (counted: {', '.join(COUNTED)})"
        )
    return counting
