"""The package's layout holds: every module name is unique, the packages import one another
without a cycle (servers and services never each other), and the README's layout table names
exactly the packages there are. Imports are read with ast, function-level ones included: a
lazy import is a dependency too."""

import ast
import re
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "layerbench"
README = PACKAGE.parent / "README.md"


def modules() -> list[Path]:
    """Every module of the package but its own __init__ (alembic's migrations are scripts)."""
    return sorted(
        path
        for path in PACKAGE.rglob("*.py")
        if "migrations" not in path.parts and path != PACKAGE / "__init__.py"
    )


def part_of(module: str) -> str:
    """The package a dotted module name belongs to: layerbench.lab.ladder -> lab; a module at
    the top (layerbench.errors) is a part of its own."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def imported_by(path: Path) -> set[str]:
    """The layerbench modules that a file imports (absolute or relative)."""
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    here = list(relative.parts if path.name != "__init__.py" else relative.parts[:-1])
    if path.name != "__init__.py":
        here = here[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                found.add(".".join([*base, node.module or ""]).rstrip("."))
            elif node.module:
                found.add(node.module)
    return {name for name in found if name.startswith("layerbench.")}


def package_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in modules():
        own = part_of(".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts))
        targets = {part_of(name) for name in imported_by(path)} - {own}
        graph.setdefault(own, set()).update(targets)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one package (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_every_module_name_is_unique() -> None:
    names = Counter(path.name for path in modules() if path.name != "__init__.py")
    repeated = {
        name: [str(p.relative_to(PACKAGE)) for p in modules() if p.name == name]
        for name, count in names.items()
        if count > 1
    }
    assert repeated == {}


def test_no_import_cycle_between_packages() -> None:
    assert cycles(package_graph()) == []


def test_servers_and_services_do_not_import_each_other() -> None:
    graph = package_graph()
    assert "services" not in graph.get("servers", set())
    assert "servers" not in graph.get("services", set())


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def layout_rows() -> dict[str, str]:
    """The README's layout table: package -> what its row says."""
    table = README.read_text().split("## Layout", 1)[1]
    return dict(re.findall(r"^\| `layerbench/(\w+)/` \| (.*) \|$", table, flags=re.MULTILINE))


def test_the_readme_layout_names_every_package() -> None:
    packages = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert set(layout_rows()) == packages


def test_the_readme_layout_says_what_each_package_uses() -> None:
    """Each row ends 'uses `a/`, `b/`[, never `c/`]', 'uses nothing' or 'uses every package',
    and says exactly the packages that the code imports (top-level modules such as errors.py
    aside)."""
    graph = package_graph()
    packages = set(layout_rows())
    for package, text in layout_rows().items():
        clause = re.search(r"uses (.*)$", text)
        assert clause, f"{package}: its row does not say what it uses"
        used, _, never = clause.group(1).partition("never")
        said = set(re.findall(r"`(\w+)/`", used))
        if used.startswith("every package"):
            said = packages - {package}
        actual = graph.get(package, set()) & packages
        assert said == actual, f"{package}: README {sorted(said)}, code {sorted(actual)}"
        assert not set(re.findall(r"`(\w+)/`", never)) & actual, package
