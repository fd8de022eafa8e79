"""A deployment's servers started under callgrind, or natively with what counting needs fixed:
each server's own command (:meth:`ManagedServer.command`) run by valgrind's callgrind, every
process it forks followed (``--trace-children=yes``, but ``ps``), every thread of a process
counted together (``--separate-threads=no``), nothing counted until a window's start switches it on
(``--instr-atstart=no``: the start runs uninstrumented, faster); address-space randomisation off
(``setarch -R``) and Python's hash seed fixed, which a count depends on.

A server that, started as root, runs its children as another account (Apache, nginx) is started
as that account instead: a process that changes account after valgrind made its control FIFOs
as root can no longer answer vgdb. Its work directory and log become that account's.

A counted start is slower than a native one by what valgrind adds to each process it starts
(its own start, and translating the code each process runs first), so it is given more than
readiness's START_CAP_S: that much more for each process that loads the application. Its
timeout without progress is the native one: a stalled counted start fails as soon."""

import os
import platform
from collections.abc import Callable
from pathlib import Path

from layerbench.cost.shim_build import find_valgrind
from layerbench.proc.binaries import find_program
from layerbench.proc.readiness import START_CAP_S
from layerbench.proc.run_as import RunAs, unprivileged_account
from layerbench.roles import FRONT_ROLE, SERVER_ROLE
from layerbench.servers.deployment import Deployment, FrontedServer
from layerbench.servers.managed_server import ManagedServer
from layerbench.servers.nginx import NginxServer

HASH_SEED = "0"
DUMP_PREFIX = "callgrind.out"
VGDB_NAME = "vgdb"
UNFOLLOWED = "*/ps"
# callgrind's cache simulation with fixed sizes (size,associativity,line size): the figures of a
# run do not depend on the machine's own caches. Recorded in the conditions.
CACHE_SIZES = {"I1": "32768,8,64", "D1": "32768,8,64", "LL": "8388608,16,64"}
# What one process loading the application adds to a counted start's cap: twenty mod_wsgi
# daemon processes loaded in 225 s under callgrind (11 s each), sharing their one CPU with
# other runs; the native cap was 300 s for the whole start.
COUNTED_PROCESS_START_S = 60.0


def servers_of(deployment: Deployment) -> list[tuple[str, ManagedServer]]:
    """The deployment's servers, each with its role: nginx in front, then the server."""
    if isinstance(deployment, FrontedServer):
        return [(FRONT_ROLE, deployment.front), (SERVER_ROLE, deployment.back)]
    if isinstance(deployment, ManagedServer):
        return [(SERVER_ROLE, deployment)]
    raise TypeError(f"{type(deployment).__name__} is neither a server nor a fronted server")


def callgrind_argv(directory: Path, *, cache_sim: bool = False) -> list[str]:
    """What goes before a server's command to run it under callgrind, its dumps and vgdb's FIFOs
    in ``directory``."""
    cache = (
        ["--cache-sim=yes", *(f"--{level}={size}" for level, size in CACHE_SIZES.items())]
        if cache_sim
        else []
    )
    return [
        str(find_program("setarch", "util-linux")),
        platform.machine(),
        "-R",
        str(find_valgrind()),
        "--tool=callgrind",
        "--instr-atstart=no",
        "--trace-children=yes",
        # But not ps, which Passenger's core runs every 5 s to collect its Ruby processes'
        # metrics: under valgrind it lived a second or two in the core's session, where a count
        # found it and was made again for processes that changed. Never counted either way.
        f"--trace-children-skip={UNFOLLOWED}",
        "--separate-threads=no",
        "--vgdb=yes",
        f"--vgdb-prefix={directory / VGDB_NAME}",
        f"--callgrind-out-file={directory / DUMP_PREFIX}.%p",
        *cache,
    ]


def counted_start_cap_s(server: ManagedServer) -> float:
    """The most ``server``'s start under callgrind is given while it progresses: the native
    cap, and COUNTED_PROCESS_START_S for each of its processes that loads the application (one
    when it does not say how many)."""
    return START_CAP_S + COUNTED_PROCESS_START_S * max(1, server.workers_loading() or 1)


def fix_hash_seed(server: ManagedServer) -> None:
    """The server's Python (its own, or the one it embeds) hashes with a fixed seed."""
    environment = server.environment

    def seeded() -> dict[str, str]:
        return {**(environment() or os.environ), "PYTHONHASHSEED": HASH_SEED}

    setattr(server, "environment", seeded)  # noqa: B010 (the instance's, not the class's)


def run_under(server: ManagedServer, prefix: list[str], suffix: tuple[str, ...] = ()) -> None:
    """Start ``server``'s own command after ``prefix``, ``suffix`` after its arguments."""
    command: Callable[[], list[str]] = server.command
    setattr(server, "command", lambda: [*prefix, *command(), *suffix])  # noqa: B010


def drops_privileges(server: ManagedServer) -> RunAs | None:
    """The account ``server``'s children run as when it is started as root (Apache's
    ``run_as``, nginx's workers'); None when it changes none."""
    if os.geteuid() != 0:
        return None
    run_as = getattr(server, "run_as", None)
    if isinstance(run_as, RunAs):
        return run_as
    if isinstance(server, NginxServer):
        return unprivileged_account()
    return None


def run_as_from_start(server: ManagedServer, account: RunAs) -> list[str]:
    """Make ``server`` start as ``account``: its files (written by its preparation, and its
    log, which it reopens as /dev/stderr) become that account's; the prefix that starts it."""
    prepare = server.prepare

    def prepare_as_account() -> None:
        prepare()
        server.log_path.touch()
        for path in [server.workdir, *server.workdir.rglob("*")]:
            os.chown(path, account.uid, account.gid)

    setattr(server, "prepare", prepare_as_account)  # noqa: B010
    setpriv = find_program("setpriv", "util-linux")
    return [str(setpriv), f"--reuid={account.uid}", f"--regid={account.gid}", "--clear-groups"]


def count_deployment(
    deployment: Deployment,
    directory: Path,
    *,
    cache_sim: bool = False,
    server_arguments: tuple[str, ...] = (),
) -> None:
    """Make every server of ``deployment`` start under callgrind, its dumps in ``directory``
    (made writable by every account: Apache's and nginx's children run as another); the server
    (not the front) given ``server_arguments`` too (its adapter's declaration's)."""
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o1777)
    for role, server in servers_of(deployment):
        fix_hash_seed(server)
        server.start_cap_s = counted_start_cap_s(server)
        account = drops_privileges(server)
        start_as = run_as_from_start(server, account) if account is not None else []
        suffix = server_arguments if role == SERVER_ROLE else ()
        run_under(server, [*start_as, *callgrind_argv(directory, cache_sim=cache_sim)], suffix)
