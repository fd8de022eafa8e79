"""Apache mod_python (Debian's libapache2-mod-python), the way seed 002 measured it: a pure
mod_python handler answering the string rung (``mod_python``), and the reference application
under mod_python's WSGI handler (``mod_python-wsgi``, mended). Both run in Apache's own children, in
mod_python's main interpreter."""

import os
from pathlib import Path

import layerbench
from layerbench.proc.ports import LOOPBACK
from layerbench.servers.apache import ApacheServer, ApacheSettings
from layerbench.servers.app_script import MODULE
from layerbench.servers.embedded_app import EmbeddedApp
from layerbench.servers.embedded_python import embedded_python_environment
from layerbench.site_contract import HEALTH_PATH

APT_PACKAGE = "libapache2-mod-python"
HANDLER_MODULE = "layerbench.servers.mod_python_handler"
WSGI_HANDLER_MODULE = "layerbench.servers.mod_python_wsgi_handler"
# The directory layerbench is imported from, for mod_python's interpreter.
PROJECT_ROOT = Path(layerbench.__file__).resolve().parent.parent


class ModPythonServer(ApacheServer):
    modules = (("python_module", "mod_python.so"),)
    module_package = APT_PACKAGE

    def handler_directives(self) -> str:
        raise NotImplementedError

    def python_path(self) -> list[str]:
        raise NotImplementedError

    def preloaded_module(self) -> str:
        """The module each child imports when it starts (``PythonImport``), so that its first
        requests, arriving at once on many threads, do not race to import it."""
        raise NotImplementedError

    def environment(self) -> dict[str, str]:
        # PythonImport runs before any PythonPath directive applies: the embedded interpreter
        # finds our modules through the environment it starts with.
        return embedded_python_environment(PYTHONPATH=os.pathsep.join(self.python_path()))

    def content(self) -> str:
        return f"""\
PythonImport {self.preloaded_module()} main_interpreter
PythonInterpreter main_interpreter
PythonAutoReload Off
<Location />
    SetHandler mod_python
{self.handler_directives()}
</Location>"""


class ModPythonHandler(ModPythonServer):
    """The string rung straight from a mod_python handler (:mod:`.mod_python_handler`)."""

    name = "mod_python"
    ready_path = HEALTH_PATH

    def python_path(self) -> list[str]:
        return [str(PROJECT_ROOT)]

    def preloaded_module(self) -> str:
        return HANDLER_MODULE

    def handler_directives(self) -> str:
        return f"    PythonHandler {HANDLER_MODULE}"


class ModPythonWsgi(ModPythonServer):
    """The reference application under mod_python's WSGI handler (:mod:`.mod_python_wsgi_handler`:
    ``mod_python.wsgi`` with its status bug mended)."""

    name = "mod_python-wsgi"

    def __init__(
        self,
        workdir: Path,
        port: int,
        app: EmbeddedApp,
        settings: ApacheSettings,
        cpus: frozenset[int] | None = None,
        *,
        host: str = LOOPBACK,
    ) -> None:
        super().__init__(workdir, port, settings, cpus, host=host)
        self.app = app
        self.ready_path = app.ready_path

    def workers_loading(self) -> int:
        """Each of Apache's children imports the application as it starts (PythonImport)."""
        return self.children_loading()

    def prepare(self) -> None:
        self.app.install(self.workdir, self.run_as)
        super().prepare()

    def python_path(self) -> list[str]:
        return [str(self.workdir), str(PROJECT_ROOT)]

    def preloaded_module(self) -> str:
        return MODULE

    def handler_directives(self) -> str:
        return f"""\
    PythonHandler {WSGI_HANDLER_MODULE}
    PythonOption mod_python.wsgi.application {MODULE}::application"""
