"""``--topology FILE`` of ``layerbench ladder``, ``matrix`` and ``mix``: the run on a
topology's hosts, and its per-host table after the run's."""

import argparse
import os
from pathlib import Path

from layerbench.errors import ConfigError
from layerbench.hosts.topology import Topology, read_topology
from layerbench.lab.topology_run import SavesDocuments
from layerbench.render.host_table import Items, format_host_table, per_host
from layerbench.typed_documents import JsonObject


def add_topology_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--topology",
        type=Path,
        metavar="FILE",
        help="run on the hosts of this topology (TOML; see layerbench hosts), each role on its "
        "hosts as network namespaces made for the run (root needed); a per-host table after",
    )


def topology_of(args: argparse.Namespace) -> Topology | None:
    """The topology ``--topology`` names, read and checked; None without one."""
    if args.topology is None:
        return None
    topology = read_topology(args.topology)
    if os.geteuid() != 0:
        raise ConfigError("--topology makes network namespaces: it needs root")
    return topology


def with_hosts(
    results: SavesDocuments,
    document: JsonObject,
    tables: list[str],
    items: Items,
) -> None:
    """On a topology: the per-host table put after the run's own (``tables[0]``), and its rows
    added to ``document`` (``per_host``: the run's own document, made to be published),
    saved."""
    rows = per_host(document["conditions"], items)
    if not rows:
        return
    tables.insert(1, format_host_table(rows, [label for label, _ in items]))
    document["per_host"] = [row.to_dict() for row in rows]
    results.save(document)
