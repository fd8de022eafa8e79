"""Before a run starts anything: the server's settings, as its adapter reads them, and the port
it was told to use. The ladder, the mix and the smoke test refuse a typo here, in one line,
instead of after the first rungs were measured."""

from pathlib import Path

from layerbench.errors import ConfigError, MissingPackageError, PortInUseError
from layerbench.lab.service_settings import service_arguments, service_sections
from layerbench.proc.ports import LOOPBACK, ensure_port_free
from layerbench.proc.work_dirs import work_directory
from layerbench.rungs.definitions import STATIC_BODY, STATIC_FILE
from layerbench.servers.adapters import ServerPlan, find_adapter
from layerbench.servers.server_settings import SettingsBook, check_sections


def check_server(server: str, settings: SettingsBook, port: int | None = None) -> None:
    """A ``ConfigError`` for a server name no adapter has, a setting the server does not have
    or a value of the wrong type, settings for a section no part of it reads, and a ``port``
    something already listens on. The server is built in a throwaway directory (building starts
    nothing); one that is not installed is left to the run, which skips it and says how to
    install it."""
    adapter = find_adapter(server)
    with work_directory("layerbench-check-") as scratch:
        plan = ServerPlan(
            workdir=Path(scratch) / "server",
            port=port or 0,
            db_path=Path(scratch) / "data" / "app.sqlite3",
            static_files={STATIC_FILE: STATIC_BODY},
            book=settings,
        )
        try:
            adapter.build(plan)
        except MissingPackageError:
            pass
        else:
            check_sections(settings, [*plan.used, *service_sections()])
    for kind in service_sections():  # a service's settings, read as its run would
        service_arguments(settings, kind)
    if port is not None:
        try:
            ensure_port_free(LOOPBACK, port)
        except PortInUseError as error:
            raise ConfigError(f"--port {port}: {error}") from None
