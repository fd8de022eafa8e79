"""How many packages an experiment's path crosses, from its command to the stored JSON, computed
from the imports (tests/test_architecture.py reads them, function-level ones included).

The path of ``layerbench ladder``: every module that lies on an import chain from the command's
module (``layerbench.ladder.ladder_cmd``) to a module of ``store/`` (the command imports it,
directly or not, and it imports ``store/``, directly or not), and the modules ``store/`` itself
imports to keep and read back the document. The packages it crosses are the folders of
``layerbench/`` those modules are in; a top-level module (``errors.py``, ``documents.py``,
``typed_documents.py``) is not a package and is not counted. What the run only calls on its way
(the load generator, the servers) and that never leads to the store is not on this path.

``python -m tests.test_slice_paths layerbench.ladder.ladder_cmd ...`` prints each command's
path, its modules and packages."""

import sys

from tests.test_architecture import PACKAGE, imported_by, modules, part_of

# The experiments measured, and the most packages their path may cross: the slice, lab/ (the
# run skeleton, which saves the run) and store/ (the results database and the document file).
COMMANDS = {"layerbench.ladder.ladder_cmd": 3, "layerbench.matrix.matrix_cmd": 3}


def module_graph() -> dict[str, set[str]]:
    """Each module of the package (a package's ``__init__`` by the package's name) and the
    modules of the package it imports."""
    graph: dict[str, set[str]] = {}
    for path in modules():
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        graph[name.removesuffix(".__init__")] = imported_by(path)
    return {name: targets & set(graph) for name, targets in graph.items()}


def reached(graph: dict[str, set[str]], start: set[str]) -> set[str]:
    seen: set[str] = set()
    todo = list(start)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(graph.get(name, ()))
    return seen


def path_modules(command: str) -> set[str]:
    graph = module_graph()
    store = {name for name in graph if part_of(name) == "store"}
    importers: dict[str, set[str]] = {}
    for name, targets in graph.items():
        for target in targets:
            importers.setdefault(target, set()).add(name)
    return reached(graph, {command}) & reached(importers, store) | reached(graph, store)


def packages_of(names: set[str]) -> set[str]:
    return {part_of(name) for name in names if (PACKAGE / part_of(name)).is_dir()}


def test_a_runs_path_crosses_its_slice_and_shared_infrastructure() -> None:
    for command, most in COMMANDS.items():
        crossed = packages_of(path_modules(command))
        assert len(crossed) <= most, f"{command}: {sorted(crossed)}"


def test_the_path_finder_follows_chains_to_the_store() -> None:
    assert "layerbench.ladder.ladder_cmd" in path_modules("layerbench.ladder.ladder_cmd")
    assert "layerbench.store.results_db" in path_modules("layerbench.ladder.ladder_cmd")
    # The load generator is called by the run but leads to no store.
    assert "layerbench.lab.loadgen" not in path_modules("layerbench.ladder.ladder_cmd")


if __name__ == "__main__":
    for command in sys.argv[1:] or COMMANDS:
        names = path_modules(command)
        crossed = sorted(packages_of(names))
        print(f"{command}: {len(crossed)} packages ({', '.join(crossed)}), {len(names)} modules")
        for name in sorted(names):
            print(f"    {name}")
