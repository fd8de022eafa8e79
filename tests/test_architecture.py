"""The package's layout holds: every module name of the instrument is unique, its packages
import one another without a cycle (servers and services never each other), the layout page
(docs/contributing/layout.md) names exactly the packages there are, and the instrument is apart
from what it measures: only ``layerbench/sites.py`` names the measured sites, and importing every
module of the instrument imports no site, framework, ORM or template engine. Imports are read
with ast, function-level ones included: a lazy import is a dependency too."""

import ast
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "layerbench"
SITES = PACKAGE.parent / "layerbench_sites"
LAYOUT = PACKAGE.parent / "docs" / "contributing" / "layout.md"
# The one module of the instrument that may import the measured sites (each when called).
GATEWAY = PACKAGE / "sites.py"
# What the measured sites bring and the instrument must never import.
MEASURED = (
    "layerbench_sites",
    "django",
    "flask",
    "pyramid",
    "Zope2",
    "OFS",
    "ZODB",
    "ZEO",
    "relstorage",
    "starlette",
    "fastapi",
    "pydantic",
    "falcon",
    "jinja2",
    "chameleon",
    "sqlalchemy",
    "alembic",
)


def modules() -> list[Path]:
    """Every module of the package but its own __init__ (alembic's migrations are scripts)."""
    return sorted(
        path
        for path in PACKAGE.rglob("*.py")
        if "migrations" not in path.parts and path != PACKAGE / "__init__.py"
    )


def part_of(module: str) -> str:
    """The package a dotted module name belongs to: layerbench.lab.trial -> lab; a module at
    the top (layerbench.errors) is a part of its own."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def imported_by(path: Path) -> set[str]:
    """The layerbench modules that a file imports (absolute or relative)."""
    return {name for name in all_imported_by(path) if name.startswith("layerbench.")}


def all_imported_by(path: Path) -> set[str]:
    """Every module a file imports (absolute or relative), at any depth of the file."""
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
    return found


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
    """The layout page's table of the instrument: package -> what its row says."""
    return dict(
        re.findall(r"^\| `layerbench/(\w+)/` \| (.*) \|$", LAYOUT.read_text(), flags=re.MULTILINE)
    )


def test_the_layout_names_every_measured_package() -> None:
    named = set(re.findall(r"^\| `layerbench_sites/(\w+)/` \|", LAYOUT.read_text(), re.MULTILINE))
    assert named == {path.parent.name for path in SITES.glob("*/__init__.py")}


def test_only_the_gateway_imports_the_measured_sites() -> None:
    naming = sorted(
        str(path.relative_to(PACKAGE.parent))
        for path in modules()
        if path != GATEWAY
        and any(name.split(".")[0] == "layerbench_sites" for name in all_imported_by(path))
    )
    assert naming == []


def test_importing_the_instrument_imports_nothing_it_measures() -> None:
    """Every module of the instrument imported in one fresh interpreter (those that run only
    inside an embedding server, mod_python's handlers, aside): not one of the measured sites,
    frameworks, ORMs or template engines is loaded by it."""
    names = [
        ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        for path in modules()
        if not path.name.startswith("mod_python_") and path.name != "__main__.py"
    ]
    script = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({MEASURED!r})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]", f"imported by the instrument: {result.stdout}"


def test_the_layout_names_every_package() -> None:
    packages = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert set(layout_rows()) == packages


def test_the_layout_says_what_each_package_uses() -> None:
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
        assert said == actual, f"{package}: layout {sorted(said)}, code {sorted(actual)}"
        assert not set(re.findall(r"`(\w+)/`", never)) & actual, package
