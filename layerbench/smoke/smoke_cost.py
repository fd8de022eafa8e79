"""``layerbench smoke … --measure instructions``: each URL of the user's own application as a
GET, called in-process under callgrind (as ``layerbench cost`` calls the rungs); an answer
that is not 2xx is an error, never a count."""

import os
from dataclasses import dataclass
from pathlib import Path

from layerbench.cost.cost_conditions import cost_conditions
from layerbench.cost.cost_plan import DEFAULT_REQUESTS, DEFAULT_WARMUP, CostPlan, CostRequest
from layerbench.cost.cost_run import run_cost_pass
from layerbench.cost.instructions_baseline import CountedUnder, counted_under
from layerbench.cost.shim_build import find_valgrind
from layerbench.proc.work_dirs import work_directory
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.site_contract import DB_PATH_VARIABLE, USER_APP_PATH_VARIABLE, USER_APP_VARIABLE
from layerbench.typed_documents import JsonObject


@dataclass(frozen=True)
class InstructionsMeasurement:
    conditions: CountedUnder
    # Every URL's instructions per request, one per repeat.
    instructions: dict[str, list[float]]


def url_request(url: str) -> CostRequest:
    return CostRequest(
        label=url,
        method="GET",
        path=url,
        accepts=lambda status, body: 200 <= status < 300,
        expected="2xx",
    )


def current_conditions() -> JsonObject:
    """What the counts of a run here would be measured under (valgrind must be installed)."""
    return cost_conditions(find_valgrind())


def measure_urls(
    app: str,
    urls: tuple[str, ...],
    app_path: tuple[str, ...],
    *,
    repeats: int,
    requests: int = DEFAULT_REQUESTS,
    warmup: int = DEFAULT_WARMUP,
    passed: tuple[str, ...] = (),
) -> InstructionsMeasurement:
    paths = os.pathsep.join(str(Path(p).resolve()) for p in app_path)

    def prepare(directory: Path) -> dict[str, str]:
        directory.mkdir(parents=True)
        return {
            USER_APP_VARIABLE: app,
            USER_APP_PATH_VARIABLE: paths,
            DB_PATH_VARIABLE: str(create_seeded_database(directory)),
        }

    plan = CostPlan(
        requests=tuple(url_request(url) for url in urls),
        prepare=prepare,
        count=requests,
        warmup=warmup,
        repeats=repeats,
        jobs=len(os.sched_getaffinity(0)),
        passed_environment=passed,
    )
    conditions = counted_under(current_conditions())
    with work_directory("layerbench-smoke-") as workdir:
        measurement = run_cost_pass(plan, workdir)
    return InstructionsMeasurement(conditions, measurement.per_request)
