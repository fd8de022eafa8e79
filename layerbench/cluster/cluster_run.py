"""``layerbench cluster``'s run: the topology's hosts as namespaces, Galera's three nodes on
the db hosts, the memcached pool on the cache hosts, then the writers (by the site's repository
on every node, then through node 1 alone; then through the site's HTTP API, nginx's front on
every app host) and the site under each condition (the page cache shared or per host,
reads causal or not), every measurement made from the client host. Whatever ends the run (its
end, an error, Ctrl-C), every server is stopped and the namespaces removed; what was measured
by then is in the result the caller handed in, filled as the run goes, and saved after every
step and once more at the end (the run skeleton, :mod:`layerbench.lab.run_skeleton`)."""

from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from layerbench.cluster.cluster_http_check import http_writers_row
from layerbench.cluster.cluster_http_writes import run_http_writers
from layerbench.cluster.cluster_plan import SHARED, ClusterOptions, ClusterPlan
from layerbench.cluster.cluster_reads import balance, read_your_write
from layerbench.cluster.cluster_result import ClusterResult, SiteCondition
from layerbench.cluster.cluster_site import site_on_hosts
from layerbench.cluster.cluster_writes import count_on_node, measure_writers
from layerbench.hosts.lab_network import LabNetwork
from layerbench.hosts.placement import Placement, placement_of
from layerbench.lab.publish import now
from layerbench.lab.run_skeleton import NO_SAVING, Saving, measured_run
from layerbench.services.galera import NODES, GaleraService
from layerbench.services.mariadb import connect_mariadb
from layerbench.services.memcached_pool import MemcachedPoolService
from layerbench.sites import migrate_database

SYNC_WAITS = (0, 1)


def set_sync_wait(urls: list[str], value: int) -> None:
    """New sessions on every node read causally (1) or not (0)."""
    for url in urls:
        connection = connect_mariadb(url)
        with connection, connection.cursor() as cursor:
            cursor.execute(f"SET GLOBAL wsrep_sync_wait = {int(value)}")


def empty_result(plan: ClusterPlan) -> ClusterResult:
    return ClusterResult(
        hosts={host.name: list(host.roles) for host in plan.topology.hosts},
        app_hosts=len(plan.apps),
        started_at=now(),
    )


def run_cluster(
    plan: ClusterPlan,
    options: ClusterOptions,
    result: ClusterResult,
    progress: Callable[[str], None] = lambda line: None,
    saving: Saving[ClusterResult] = NO_SAVING,
) -> ClusterResult:
    """Fills ``result`` as it measures (what was measured stays in it, whatever ends the run);
    ``saving`` keeps it after every step and once more however the run ends (the run
    skeleton's, :mod:`layerbench.lab.run_skeleton`)."""
    # Marked as this run's (a killed run's is swept by the next command); traversable by
    # nginx's unprivileged workers, which reach their configuration below it.
    with (
        measured_run(result, saving, prefix="layerbench-cl-", topology=plan.topology) as run,
        ExitStack() as stack,
    ):
        network = run.placements.network
        assert network is not None  # made for plan.topology

        def step(line: str) -> None:
            run.checkpoint()
            progress(line)

        nodes = [placement_of(network, plan.dbs[n % len(plan.dbs)]) for n in range(NODES)]
        galera = GaleraService(placements=nodes)
        stack.callback(galera.stop)
        galera.start()
        urls = list(galera.urls)
        step(f"Galera: {NODES} nodes on {', '.join(node.name for node in nodes)}")
        cache_url = None
        if plan.caches:
            pool = MemcachedPoolService(
                placements=[placement_of(network, host) for host in plan.caches]
            )
            stack.callback(pool.stop)
            cache_url = pool.start().url
            step(f"the page cache: memcached on {', '.join(h.name for h in plan.caches)}")
        client = placement_of(network, plan.client)
        with client.entered():
            migrate_database(urls[0])
            measure_all_writers(urls, options, result, step)
        cluster = RunningCluster(network, plan, client, urls, cache_url)
        measure_http_writers(cluster, options, result, run.workdir / "http-writers", step)
        for cache in options.caches:
            for sync_wait in SYNC_WAITS:
                condition = measure_site(
                    cluster,
                    cache=cache,
                    sync_wait=sync_wait,
                    workdir=run.workdir / f"{cache}-{sync_wait}",
                    duration_s=options.duration_s,
                )
                result.site.append(condition)
                step(f"site, cache {cache}, wsrep_sync_wait={sync_wait}: measured")
    return result


def measure_all_writers(
    urls: list[str],
    options: ClusterOptions,
    result: ClusterResult,
    progress: Callable[[str], None],
) -> None:
    for writers in options.writers:
        row = measure_writers(urls, urls, writers, options.writes_each, options.edit_every)
        result.writers.append(row)
        progress(f"{writers} writers on 3 nodes: {row.writes_per_s:.0f} writes/s")
    most = max(options.writers)
    result.one_node = measure_writers(urls[:1], urls, most, options.writes_each, options.edit_every)
    progress(f"{most} writers on node 1: {result.one_node.writes_per_s:.0f} writes/s")


def measure_http_writers(
    cluster: "RunningCluster",
    options: ClusterOptions,
    result: ClusterResult,
    workdir: Path,
    progress: Callable[[str], None],
) -> None:
    """The writer counts through the site's HTTP API, nginx's front on every app host (the
    site with the first cache measured, Galera's default reads), checked on every node."""
    cache_url = cluster.cache_url if options.caches[0] == SHARED else None
    nodes = min(len(cluster.plan.apps), NODES)
    with site_on_hosts(cluster.network, cluster.plan, cluster.urls, cache_url, workdir) as site:
        for writers in options.writers:
            writes = run_http_writers(
                site.front, writers, options.writes_each, options.edit_every, cluster.client.entered
            )
            with cluster.client.entered():
                row = http_writers_row(writes, writers, nodes, cluster.urls)
            result.writers.append(row)
            progress(
                f"{writers} writers through HTTP on {nodes} nodes: {row.writes_per_s:.0f} writes/s"
            )


@dataclass(frozen=True)
class RunningCluster:
    """What the site conditions share: the hosts, the client's placement, Galera's nodes and
    the shared cache's URL (None: no shared cache)."""

    network: LabNetwork
    plan: ClusterPlan
    client: Placement
    urls: list[str]
    cache_url: str | None


def measure_site(
    cluster: RunningCluster, *, cache: str, sync_wait: int, workdir: Path, duration_s: float
) -> SiteCondition:
    """The site started with the page cache ``cache`` and Galera's reads causal or not, its
    read-your-write rounds and its spread through nginx measured from the client host."""
    client, urls = cluster.client, cluster.urls
    cache_url = cluster.cache_url if cache == SHARED else None
    with client.entered():
        set_sync_wait(urls, sync_wait)
    try:
        with (
            site_on_hosts(cluster.network, cluster.plan, urls, cache_url, workdir) as site,
            client.entered(),
        ):
            rounds = read_your_write(site.apps[0], site.apps[-1], duration_s)
            served = balance(site.front, len(site.apps))
            audit_lost = site_audit_lost(urls, rounds.video_id, rounds.rounds)
    finally:
        with client.entered():
            set_sync_wait(urls, 0)
    return SiteCondition(
        cache=cache,
        wsrep_sync_wait=sync_wait,
        read_your_write=rounds,
        served_by_upstream=served,
        audit_rows_lost=audit_lost,
    )


def site_audit_lost(urls: list[str], video_id: str, edits: int) -> int:
    """The site's edits of ``video_id`` without their audit row, summed over the nodes."""
    return sum(max(0, edits - count_on_node(url, video_id, [])[2]) for url in urls)
