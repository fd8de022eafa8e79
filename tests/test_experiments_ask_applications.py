"""No experiment names an application: each application declares in the catalogue
(``layerbench/rungs/applications.py``) what a run must do for it, and the experiments and the
lab's shared infrastructure ask the declaration. An application's name as a string, or an
application's constant imported from the catalogue, in their code fails here (docstrings and
comments may name one). The reference application, which every experiment runs by default and
compares the others with, is the one exception: it is named as ``REFERENCE``'s role, not as an
application with needs of its own."""

import ast
from pathlib import Path

from layerbench.rungs import applications
from layerbench.rungs.applications import APPLICATIONS, REFERENCE

PACKAGE = Path(__file__).resolve().parents[1] / "layerbench"
# The experiments' packages and the infrastructure they share.
EXPERIMENTS = ("ladder", "matrix", "mix", "smoke", "cost", "writes", "cluster", "replicate", "lab")
CATALOGUE = "layerbench.rungs.applications"
NAMES = frozenset(APPLICATIONS) - {REFERENCE.name}
CONSTANTS = frozenset(
    name
    for name, value in vars(applications).items()
    if isinstance(value, applications.Application) and value is not REFERENCE
)


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of the module, its classes and its functions."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def applications_named(source: str) -> list[str]:
    """Where ``source`` names an application other than the reference: ``line: what``."""
    tree = ast.parse(source)
    skipped = docstrings(tree)
    named: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and id(node) not in skipped and node.value in NAMES:
            named.append(f"{node.lineno}: {node.value!r}")
        elif isinstance(node, ast.ImportFrom) and node.module == CATALOGUE:
            named += [f"{node.lineno}: {a.name}" for a in node.names if a.name in CONSTANTS]
        elif isinstance(node, ast.Attribute) and node.attr in CONSTANTS:
            named.append(f"{node.lineno}: .{node.attr}")
    return named


def experiment_modules() -> list[Path]:
    return sorted(
        path
        for package in EXPERIMENTS
        if (PACKAGE / package).is_dir()
        for path in (PACKAGE / package).rglob("*.py")
    )


def test_no_experiment_names_an_application() -> None:
    found = {
        str(path.relative_to(PACKAGE)): named
        for path in experiment_modules()
        if (named := applications_named(path.read_text()))
    }
    assert found == {}


def test_the_check_sees_a_name_an_import_and_an_attribute_but_not_a_docstring() -> None:
    source = '''"""Runs zope and rails."""
from layerbench.rungs.applications import ZOPE, Application
from layerbench.rungs import applications as catalogue
ZOPE_APP = "zope"
def run(app: Application) -> bool:
    """Is it "rails"?"""
    return app.name == "rails" or app is catalogue.RAILS or app.name == "bare"
'''
    assert set(applications_named(source)) == {"2: ZOPE", "4: 'zope'", "7: 'rails'", "7: .RAILS"}


def test_the_check_covers_the_experiments_that_exist() -> None:
    assert len(experiment_modules()) > len(EXPERIMENTS)
    assert {"zope", "rails"} <= NAMES
