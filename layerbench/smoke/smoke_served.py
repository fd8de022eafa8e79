"""``smoke --measure instructions --served``: each URL's instructions per request counted under
the application's real server (``--server``, its ``--set`` settings), every process of it
(:mod:`layerbench.served`), rather than the application called alone: a regression in the
server's settings, its middleware or a dependency of the server is counted too. What each repeat
gives a URL is the total over the server's roles; the baseline and its verdict are those of
``--measure instructions``."""

import os
from dataclasses import replace
from pathlib import Path

from layerbench.cost.instructions_baseline import CountedUnder, counted_under
from layerbench.errors import ConfigError, LayerbenchError, NothingMeasuredError
from layerbench.proc.ports import free_port
from layerbench.proc.work_dirs import work_directory
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.served.fixed_load import FixedLoad
from layerbench.served.served_cost import measure_served_requests
from layerbench.served.served_counting import counting_for
from layerbench.served.served_windows import Windows
from layerbench.servers.adapters import ServerPlan, find_adapter
from layerbench.servers.server_settings import SettingsBook, check_sections
from layerbench.site_contract import USER_APP_PATH_VARIABLE, USER_APP_VARIABLE
from layerbench.smoke.smoke_cost import InstructionsMeasurement, current_conditions
from layerbench.smoke.smoke_gate import InstructionsSmoke


def count_served_urls(
    smoke: InstructionsSmoke, server: str, book: SettingsBook
) -> InstructionsMeasurement:
    """Each URL's served instructions per request (every role's), one per repeat: each repeat
    a start of its own, natively then under callgrind, over windows of ``smoke.requests`` and
    three times as many requests. Whatever stops it before a count is a NothingMeasuredError."""
    try:
        return _count(smoke, server, book)
    except ConfigError:
        raise
    except LayerbenchError as error:
        raise NothingMeasuredError(error) from error


def _count(smoke: InstructionsSmoke, server: str, book: SettingsBook) -> InstructionsMeasurement:
    counting = counting_for(server)
    windows = Windows(smoke.requests, 3 * smoke.requests, starts=1)  # its instructions alone
    paths = os.pathsep.join(str(Path(p).resolve()) for p in smoke.app_path)
    counted: dict[str, list[float]] = {url: [] for url in smoke.urls}
    for _ in range(smoke.repeats):
        with work_directory("layerbench-served-smoke-") as workdir:
            (workdir / "data").mkdir()
            plan = ServerPlan(
                workdir=workdir / "server",
                port=free_port(),
                db_path=create_seeded_database(workdir / "data"),
                static_files={},
                book=book,
                app_environment={USER_APP_VARIABLE: smoke.app, USER_APP_PATH_VARIABLE: paths},
            )
            deployment = find_adapter(server).build(plan)
            check_sections(book, plan.used)
            loads = {url: FixedLoad(deployment.base_url + url, workdir) for url in smoke.urls}
            costs = measure_served_requests(
                deployment, counting, loads, workdir / "served", windows
            )
        for url in smoke.urls:
            counted[url].append(costs[url].total_instructions)
    now = counted_under(current_conditions())
    return InstructionsMeasurement(replace(now, served_by=server), counted)


def check_same_serving(baseline_conditions: CountedUnder, server: str | None) -> None:
    """A ConfigError when the baseline was counted otherwise (in-process, or under another
    server) than this run counts (``server``; None: in-process)."""
    theirs = baseline_conditions.served_by
    if theirs != server:
        raise ConfigError(
            f"the baseline was counted {_how(theirs)} and this run counts {_how(server)}: "
            "measure a new baseline with --save"
        )


def _how(server: object) -> str:
    return "in-process" if server is None else f"served by {server}"
