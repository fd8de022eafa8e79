"""A cost pass: each repeat a child Python under callgrind (``collect_child``) that imports the
application once and collects every request of the plan in turn; its dumps read, its answers
verified, the harness's own cost taken off. Up to ``plan.jobs`` repeats run at once.

Each child runs with ``PYTHONHASHSEED=0`` (a random hash seed moves a count by whole percents),
its imports uninstrumented (``--instr-atstart=no``: they are not measured, and run faster), and
nothing collected but the N calls of each request (``--collect-atstart=no``).

Every child imports the same compiled modules: before the repeats, one child runs the plan
natively and compiles every module the plan imports into a bytecode cache of the pass's own
(``PYTHONPYCACHEPREFIX``); the counted children read it and write nothing. A module compiled
from its source in the child, rather than read from its cache, lays out the interpreter's
memory otherwise and moved a rung's count by up to 1.4 %: which modules a child compiled
depended on the ``__pycache__`` files left by whatever ran before it."""

import base64
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from layerbench.cost.callgrind_dumps import OUT_FILE, dump_files, instructions, top_functions
from layerbench.cost.collect_child import HARNESS_LABEL, CollectAnswer
from layerbench.cost.cost_plan import CostPlan, CostRequest
from layerbench.cost.shim_build import find_valgrind, shim_library
from layerbench.errors import LayerbenchError, VerificationError
from layerbench.proc.process import ManagedProcess
from layerbench.profile.callgrind_objects import dump_objects, objects_by_layer
from layerbench.profile.frame_layers import LayerMap
from layerbench.sites import site_directories
from layerbench.typed_documents import JsonObject, decode

HASH_SEED = "0"
BYTECODE_DIRECTORY = "bytecode"


@dataclass
class CostMeasurement:
    # Per request label, its instructions per request, one per repeat.
    per_request: dict[str, list[float]] = field(default_factory=dict)
    harness: list[float] = field(default_factory=list)
    profile: str | None = None
    # `--by-layer`: per request label, per repeat, its instructions per request by layer.
    by_layer: dict[str, list[dict[str, float]]] = field(default_factory=dict)


def run_cost_pass(plan: CostPlan, workdir: Path) -> CostMeasurement:
    valgrind = find_valgrind()
    shim = shim_library()
    measurement = CostMeasurement({request.label: [] for request in plan.requests})
    repeats = list(range(1, plan.repeats + 1))
    bytecode = workdir / BYTECODE_DIRECTORY
    _run_children(plan, None, shim, [workdir / "compile"], bytecode)
    while repeats:
        batch, repeats = repeats[: plan.jobs], repeats[plan.jobs :]
        directories = [workdir / f"repeat-{number}" for number in batch]
        _run_children(plan, valgrind, shim, directories, bytecode)
        for directory in directories:
            _read_repeat(plan, directory, measurement)
    if plan.profile is not None:
        dumps = dump_files(workdir / "repeat-1")
        measurement.profile = top_functions(dumps[plan.profile])
    return measurement


def child_environment(
    application_environment: dict[str, str], bytecode: Path | None = None, *, compiles: bool = False
) -> dict[str, str]:
    """With ``bytecode``: the modules read from that cache, compiled into it only when
    ``compiles`` (the pass's first, native child)."""
    environment = {**os.environ, **application_environment, "PYTHONHASHSEED": HASH_SEED}
    if bytecode is not None:
        environment["PYTHONPYCACHEPREFIX"] = str(bytecode)
        environment.pop("PYTHONDONTWRITEBYTECODE", None)
        if not compiles:
            environment["PYTHONDONTWRITEBYTECODE"] = "1"
    return environment


def _run_children(
    plan: CostPlan, valgrind: Path | None, shim: Path, directories: list[Path], bytecode: Path
) -> None:
    """Each directory's child, under callgrind; natively, compiling the bytecode cache,
    without ``valgrind``."""
    children = []
    try:
        for directory in directories:
            directory.mkdir(parents=True)
            environment = plan.prepare(directory / "data")
            plan_path = _write_child_plan(plan, shim, directory)
            tool = [
                str(valgrind),
                "--tool=callgrind",
                "--collect-atstart=no",
                "--instr-atstart=no",
                f"--callgrind-out-file={directory / OUT_FILE}",
            ]
            argv = [
                *(tool if valgrind is not None else []),
                sys.executable,
                "-m",
                "layerbench.cost.collect_child",
                str(plan_path),
            ]
            child = ManagedProcess(
                "callgrind",
                argv,
                log_path=directory / "callgrind.log",
                env=child_environment(environment, bytecode, compiles=valgrind is None),
                cwd=directory,
            )
            children.append(child.start())
        for child in children:
            if child.wait() != 0:
                raise LayerbenchError(
                    f"the application {'under callgrind' if valgrind else 'natively'} failed "
                    f"(exit status {child.returncode()}); last lines of its log:\n"
                    + child.log_tail()
                )
    finally:
        for child in children:
            child.stop()


def _write_child_plan(plan: CostPlan, shim: Path, directory: Path) -> Path:
    document = {
        "shim_path": str(shim),
        "warmup": plan.warmup,
        "count": plan.count,
        "answers_path": str(directory / "answers.json"),
        "requests": [_request_document(request) for request in plan.requests],
    }
    path = directory / "plan.json"
    path.write_text(json.dumps(document))
    return path


def _request_document(request: CostRequest) -> JsonObject:
    return {
        "label": request.label,
        "method": request.method,
        "path": request.path,
        "body_b64": base64.b64encode(request.body).decode() if request.body else None,
        "content_type": request.content_type,
    }


def _read_repeat(plan: CostPlan, directory: Path, measurement: CostMeasurement) -> None:
    answers = json.loads((directory / "answers.json").read_text())
    for request in plan.requests:
        answer = decode(CollectAnswer, answers[request.label], f"the answer of {request.label}")
        _verify(request, answer)
    dumps = dump_files(directory)
    harness = instructions(dumps[HARNESS_LABEL]) / plan.count
    measurement.harness.append(harness)
    for request in plan.requests:
        total = instructions(dumps[request.label]) / plan.count
        measurement.per_request[request.label].append(total - harness)
    if plan.by_layer:
        _read_layers(plan, dumps, measurement)


def _read_layers(plan: CostPlan, dumps: dict[str, Path], measurement: CostMeasurement) -> None:
    """Each request's instructions per request by layer, the harness's taken off layer by
    layer (:mod:`layerbench.profile.callgrind_objects`)."""
    layer_of = LayerMap.of_this_python(site_directories()).layer_of
    harness = objects_by_layer(dump_objects(dumps[HARNESS_LABEL]), layer_of)
    for request in plan.requests:
        layers = objects_by_layer(dump_objects(dumps[request.label]), layer_of)
        own = {
            layer: (layers.get(layer, 0) - harness.get(layer, 0)) / plan.count
            for layer in {*layers, *harness}
        }
        measurement.by_layer.setdefault(request.label, []).append(own)


def _verify(request: CostRequest, answer: CollectAnswer) -> None:
    """Every collected call answered the same status, and the last answer is right."""
    statuses = answer.statuses
    body = base64.b64decode(answer.last_body_b64)
    status = answer.last_status
    if len(statuses) != 1 or not request.accepts(status, body):
        seen = ", ".join(f"{count} x {code}" for code, count in sorted(statuses.items()))
        raise VerificationError(
            f"{request.label} ({request.method} {request.path}) answered {seen}, "
            f"last {status} {body[:80]!r}; expected {request.expected}"
        )
