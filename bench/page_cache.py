"""The page cache's worth: one comment's JSON, uncached and from each cache backend, against
nginx serving a 13-byte file, in one run.

    .venv/bin/python bench/page_cache.py [--duration 10] [--repeats 3] [--connections 50]

The application runs under gunicorn (one process, gthread, 8 threads) on a SQLite file with
one video and one comment; `GET /videos/{id}/comments/{cid}` is measured with the page cache
off (``none``), in-process (``local``), in memcached, in Redis, and in the page-cache directory
served by nginx in front (``directory``); the anchor is nginx (one worker) serving the static
file. The bare WSGI string rung on the same gunicorn shows the server's own ceiling. Every
server and service is pinned to the first CPU, the load generator (keep-alive,
c=50, one second of warm-up) to the last. Each response is checked before it is measured (the
directory's must come from nginx's file), the configurations run interleaved (A B C … A B C),
and each median is printed as a ratio to the static file's median and to the uncached page's.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from layerbench.lab.loadgen import find_load_generator
from layerbench.proc.http_probe import http_get
from layerbench.proc.ports import LOOPBACK, free_port
from layerbench.rungs.rung_data import HELLO_VALUE
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.servers.gunicorn import GunicornServer, GunicornSettings
from layerbench.servers.nginx import NginxStatic
from layerbench.servers.nginx_front import NginxFront
from layerbench.services.memcached import MemcachedService
from layerbench.services.redis import RedisService
from layerbench_sites.app.app_config import (
    CACHE_URL_VARIABLE,
    DATABASE_URL_VARIABLE,
    SECRET_VARIABLE,
)
from layerbench_sites.app.videos import Catalog
from layerbench_sites.datalayer.open_repository import open_repository, prepare

STATIC_BODY = b"Hello World!\n"
STATIC = "static"
STRING = "string"
UNCACHED = "none"
BACKENDS = (UNCACHED, "local", "memcached", "redis", "directory")
# The expected answer of each configuration's first request, by X-Cache (static has none).
SERVED_FROM = {"local": "hit", "memcached": "hit", "redis": "hit", "directory": "front"}


@dataclass(frozen=True)
class Target:
    name: str
    url: str


@dataclass(frozen=True)
class Run:
    name: str
    requests_per_s: float


def seed_site(workdir: Path) -> tuple[str, str]:
    """A SQLite site with one video and one comment; the comment's path."""
    database = str(workdir / "site.sqlite3")
    prepare(database)
    catalog = Catalog(open_repository(database))
    video = catalog.create_video({"title": "Toxic", "url": "https://example.org/t"}, "bench")
    fields = {"name": "Ann", "email": "ann@example.org", "body": "Catchy."}
    comment = catalog.create_comment(video, fields, "bench")
    catalog.repository.connection.close()
    return database, f"/videos/{video}/comments/{comment['id']}"


@contextmanager
def running_targets(
    workdir: Path, server_cpus: frozenset[int], path: str, database: str
) -> Iterator[list[Target]]:
    with ExitStack() as stack:
        nginx = NginxStatic(
            workdir / "nginx", free_port(), {"hello.txt": STATIC_BODY}, cpus=server_cpus
        )
        stack.enter_context(nginx)
        targets = [Target(STATIC, nginx.base_url + "/hello.txt")]
        memcached = stack.enter_context(MemcachedService(cpus=server_cpus))
        redis = stack.enter_context(RedisService(cpus=server_cpus))
        pages = workdir / "pages"
        cache_urls = {
            UNCACHED: UNCACHED,
            "local": "local",
            "memcached": memcached.url,
            "redis": redis.url,
            "directory": f"file://{pages}",
        }
        rung_db = create_seeded_database(workdir)
        for name in BACKENDS:
            application = GunicornServer(
                workdir / f"gunicorn-{name}",
                free_port(),
                rung_db,
                GunicornSettings(workers=1, worker_class="gthread", threads=8),
                server_cpus,
                app_environment={
                    DATABASE_URL_VARIABLE: database,
                    CACHE_URL_VARIABLE: cache_urls[name],
                    SECRET_VARIABLE: "bench",
                },
            )
            stack.enter_context(application)
            base = application.base_url
            if name == "directory":
                upstream = f"{LOOPBACK}:{application.port}"
                front = NginxFront(
                    workdir / "nginx-front", free_port(), upstream, pages, cpus=server_cpus
                )
                base = stack.enter_context(front).base_url
            targets.append(Target(name, base + path))
            if name == UNCACHED:
                targets.append(Target(STRING, base + "/ladder/string"))
        yield targets


def check(target: Target) -> None:
    """The target answers 200 with the comment; a cached one, from where it is kept."""
    for _ in range(2):  # the first request may build the page
        response = http_get(target.url)
    if response.status != 200:
        sys.exit(f"bench: {target.name} answered {response.status}: {response.body[:200]!r}")
    if target.name in (STATIC, STRING):
        expected = STATIC_BODY if target.name == STATIC else HELLO_VALUE.encode()
        if response.body != expected:
            sys.exit(f"bench: {target.name} came back as {response.body!r}")
        return
    if json.loads(response.body).get("name") != "Ann":
        sys.exit(f"bench: {target.name} did not answer the comment: {response.body[:200]!r}")
    kept_in = SERVED_FROM.get(target.name, "miss")
    served = {k.lower(): v for k, v in response.headers.items()}.get("x-cache")
    if served != kept_in:
        sys.exit(f"bench: {target.name}: X-Cache {served}, not {kept_in}")


def measure(binary: Path, target: Target, args: argparse.Namespace, cpus: frozenset[int]) -> Run:
    argv = ["taskset", "-c", ",".join(map(str, sorted(cpus))), str(binary), "-q", "-k"]
    argv += ["-c", str(args.connections), "-t", str(args.duration), "--warmup", "1"]
    argv += ["--json", "-", target.url]
    completed = subprocess.run(
        argv, capture_output=True, text=True, timeout=args.duration + 60, check=False
    )
    if completed.returncode != 0:
        sys.exit(f"bench: {target.name}: layerbench-load failed: {completed.stderr.strip()}")
    document = json.loads(completed.stdout)
    if document["requests_failed"] or document["non_2xx_responses"]:
        sys.exit(
            f"bench: {target.name}: {document['requests_failed']} failed, "
            f"{document['non_2xx_responses']} non-2xx"
        )
    return Run(target.name, document["requests_per_s"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--connections", type=int, default=50)
    args = parser.parse_args()
    cpus = sorted(os.sched_getaffinity(0))
    server_cpus, client_cpus = frozenset(cpus[:1]), frozenset(cpus[-1:])
    binary = find_load_generator()
    runs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="layerbench-bench-") as directory:
        workdir = Path(directory)
        workdir.chmod(0o711)
        database, path = seed_site(workdir)
        with running_targets(workdir, server_cpus, path, database) as targets:
            print(
                f"GET {path}; servers on CPU {min(server_cpus)}, load on CPU "
                f"{min(client_cpus)}, c={args.connections}, keep-alive, {args.duration} s "
                f"per run, {args.repeats} repeats"
            )
            for target in targets:
                check(target)
            for _ in range(args.repeats):
                for target in targets:
                    runs.append(measure(binary, target, args, client_cpus))
                    print(f"  {target.name:<10} {runs[-1].requests_per_s:>10,.0f} req/s")
    report(runs)


def report(runs: list[Run]) -> None:
    names = [STATIC, STRING, *BACKENDS]
    medians = {
        name: statistics.median(r.requests_per_s for r in runs if r.name == name) for name in names
    }
    for name in names:
        print(
            f"median {name:<10} {medians[name]:>10,.0f} req/s  "
            f"x{medians[name] / medians[STATIC]:.3f} of static  "
            f"x{medians[name] / medians[UNCACHED]:.2f} of uncached"
        )
    print(f"goal: directory >= 0.8 of static: x{medians['directory'] / medians[STATIC]:.3f}")
    print(f"goal: local >= 10 x uncached: x{medians['local'] / medians[UNCACHED]:.2f}")


if __name__ == "__main__":
    main()
