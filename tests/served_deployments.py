"""A deployment of one adapter for the served-cost tests, on the bare application and the
ladder's data, with the load that counts its windows on the string rung."""

from pathlib import Path

from layerbench.proc.ports import free_port
from layerbench.served.fixed_load import FixedLoad
from layerbench.servers.adapters import ServerPlan, find_adapter
from layerbench.servers.deployment import Deployment
from layerbench.servers.server_settings import SettingsBook
from layerbench.sites import prepare_app_data

STRING_PATH = "/ladder/string"
# Windows of the default suite's tests last at least this long (more than a 1 s timer's
# period): shorter than a run's, for the suite's time, a looser bound on one timer's fire.
SHORTEST_S = 2.0


def served_deployment(
    adapter: str,
    root: Path,
    book: SettingsBook | None = None,
    app_environment: dict[str, str] | None = None,
    path: str = STRING_PATH,
) -> tuple[Deployment, FixedLoad]:
    data = prepare_app_data(root / "data")
    plan = ServerPlan(
        workdir=root / "server",
        port=free_port(),
        db_path=data.db_path,
        static_files={},
        book=book or {},
        app_environment={**data.environment, **(app_environment or {})},
    )
    deployment = find_adapter(adapter).build(plan)
    return deployment, FixedLoad(deployment.base_url + path, root)
