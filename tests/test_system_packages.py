"""A missing system program is named with apt's package, and dnf's and Homebrew's where those
systems have it."""

import ast
from pathlib import Path

from layerbench.errors import MissingBinaryError
from layerbench.system_packages import OTHER_SYSTEMS, install_commands

PACKAGE = Path(__file__).resolve().parent.parent / "layerbench"


def test_a_package_every_system_has_names_all_three() -> None:
    assert install_commands("nginx") == (
        "apt-get install nginx (dnf install nginx; brew install nginx)"
    )


def test_a_system_without_the_package_is_left_out() -> None:
    assert install_commands("valgrind") == "apt-get install valgrind (dnf install valgrind)"
    assert install_commands("libapache2-mod-python") == "apt-get install libapache2-mod-python"


def test_several_packages_are_named_together_only_where_each_has_a_name() -> None:
    assert install_commands("uwsgi-core uwsgi-plugin-python3") == (
        "apt-get install uwsgi-core uwsgi-plugin-python3 (dnf install uwsgi uwsgi-plugin-python3)"
    )


def test_an_unknown_package_gets_apt_alone() -> None:
    assert install_commands("some-package") == "apt-get install some-package"


def test_the_missing_binary_error_says_it_in_one_line() -> None:
    message = str(MissingBinaryError("redis-server", "redis-server"))
    assert message == (
        "redis-server is not installed; install it with: apt-get install redis-server "
        "(dnf install redis; brew install redis)"
    )
    assert "\n" not in message


def packages_named_in_the_code() -> set[str]:
    """Every Debian package the instrument names for a missing program: the string constants
    given to a ``*_PACKAGE(S)``/``apt_package``/``module_package`` name, and the package
    arguments of ``find_program`` and ``MissingBinaryError``."""
    named: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            values: list[ast.expr] = []
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    name = (
                        target.id if isinstance(target, ast.Name) else getattr(target, "attr", "")
                    )
                    debian = name.endswith(("PACKAGE", "PACKAGES", "apt_package", "module_package"))
                    if debian and not name.startswith("PYTHON_") and node.value is not None:
                        values.append(node.value)
            elif isinstance(node, ast.Call):
                called = getattr(node.func, "id", getattr(node.func, "attr", ""))
                if called in ("find_program", "MissingBinaryError") and len(node.args) == 2:
                    values.append(node.args[1])
            for value in values:
                # A table of program -> package: its packages are its values.
                parts = value.values if isinstance(value, ast.Dict) else [value]
                for constant in (found for part in parts for found in ast.walk(part)):
                    if isinstance(constant, ast.Constant) and isinstance(constant.value, str):
                        named.update(constant.value.split())
    return named


def test_every_package_the_instrument_names_is_in_the_table() -> None:
    named = packages_named_in_the_code()
    assert {"nginx", "apache2", "valgrind", "postgresql", "uwsgi-core"} <= named
    assert named - set(OTHER_SYSTEMS) == set()
