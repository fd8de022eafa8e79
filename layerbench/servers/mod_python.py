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

    # The module of its PythonHandler.
    handler_module: str

    def handler_options(self) -> str:
        """Directives after PythonHandler (its options); none by default."""
        return ""

    def python_path(self) -> list[str]:
        raise NotImplementedError

    def preloaded_modules(self) -> tuple[str, ...]:
        """Every module a request looks up, imported by each child as it starts
        (``PythonImport``), before its threads take requests: the handler's, by default.
        mod_python's ``import_module`` takes a module it finds in ``sys.modules`` as imported,
        and a module is there from the start of its import: a request arriving while another
        thread of the child was still importing the handler's module got it half-imported,
        "module '…' contains no 'handler'", a 500."""
        return (self.handler_module,)

    def environment(self) -> dict[str, str]:
        # PythonImport runs before any PythonPath directive applies: the embedded interpreter
        # finds our modules through the environment it starts with.
        return embedded_python_environment(PYTHONPATH=os.pathsep.join(self.python_path()))

    def content(self) -> str:
        imports = "\n".join(
            f"PythonImport {module} main_interpreter" for module in self.preloaded_modules()
        )
        return f"""\
{imports}
PythonInterpreter main_interpreter
PythonAutoReload Off
<Location />
    SetHandler mod_python
    PythonHandler {self.handler_module}
{self.handler_options()}</Location>"""


class ModPythonHandler(ModPythonServer):
    """The string rung straight from a mod_python handler (:mod:`.mod_python_handler`)."""

    name = "mod_python"
    ready_path = HEALTH_PATH
    handler_module = HANDLER_MODULE

    def python_path(self) -> list[str]:
        return [str(PROJECT_ROOT)]


class ModPythonWsgi(ModPythonServer):
    """The reference application under mod_python's WSGI handler (:mod:`.mod_python_wsgi_handler`:
    ``mod_python.wsgi`` with its status bug mended)."""

    name = "mod_python-wsgi"
    handler_module = WSGI_HANDLER_MODULE

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

    def preloaded_modules(self) -> tuple[str, ...]:
        # The application, then the handler that looks it up on each request.
        return (MODULE, *super().preloaded_modules())

    def handler_options(self) -> str:
        return f"    PythonOption mod_python.wsgi.application {MODULE}::application\n"
