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
depended on the ``__pycache__`` files left by whatever ran before it.

A count does not depend on where it is made from. Every string a child holds before its window
(its environment, its arguments, the paths it is given) lays out its memory, and the layout
moves a count: one more environment variable moved ``orm`` by up to 1 %, a longer temporary
directory by 1.6 %. So a child gets a fixed environment (``FIXED_ENVIRONMENT``, the
caller's ``PYTHONPATH``, the application's own variables and those the user names), runs in
its repeat's directory with ``-P`` (no current directory on ``sys.path``), and is given every
path of the pass relative to it: its plan, its answers, the shim (copied into the pass's
directory), the bytecode cache and the application's files made for the repeat. Paths the
child makes absolute (SQLite keeps a database's full path) have the same length whatever the
temporary directory: the repeats' directories are padded to ``COUNTED_PATH_LENGTH``
characters. What still moves a count is where the application and its packages are installed:
their files' paths are in the child's memory too."""

import base64
import json
import os
import shutil
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
# A counted child's environment besides the application's variables and those the user names.
FIXED_ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
# The caller's variables every counted child is given when set: where it imports from.
IMPORT_VARIABLES = ("PYTHONPATH",)
BYTECODE_DIRECTORY = "bytecode"
SHIM_FILE = "callgrind_shim.so"
# The length of every repeat directory's path (:func:`counted_base`): a temporary directory of
# up to about 150 characters leaves room for it.
COUNTED_PATH_LENGTH = 200
PLAN_FILE = "plan.json"
ANSWERS_FILE = "answers.json"


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
    base = counted_base(workdir)
    base.mkdir()
    shim = base / SHIM_FILE
    shutil.copyfile(shim_library(), shim)
    measurement = CostMeasurement({request.label: [] for request in plan.requests})
    repeats = list(range(1, plan.repeats + 1))
    bytecode = base / BYTECODE_DIRECTORY
    _run_children(plan, None, shim, [base / "compiling"], bytecode)
    while repeats:
        batch, repeats = repeats[: plan.jobs], repeats[plan.jobs :]
        directories = [repeat_directory(base, number) for number in batch]
        _run_children(plan, valgrind, shim, directories, bytecode)
        for directory in directories:
            _read_repeat(plan, directory, measurement)
    if plan.profile is not None:
        dumps = dump_files(repeat_directory(base, 1))
        measurement.profile = top_functions(dumps[plan.profile])
    return measurement


def counted_base(workdir: Path) -> Path:
    """The directory below ``workdir`` that holds the pass's files: its name pads the repeats'
    directories to COUNTED_PATH_LENGTH characters (SQLite keeps a database's full path, and its
    length moves a count), unless ``workdir``'s own path is too long for that."""
    room = COUNTED_PATH_LENGTH - len(str(repeat_directory(workdir / "p", 1)))
    return workdir / ("p" * (1 + max(room, 0)))


def repeat_directory(base: Path, number: int) -> Path:
    return base / f"repeat-{number:03d}"


def child_environment(
    application_environment: dict[str, str],
    passed: tuple[str, ...] = (),
    bytecode: str | None = None,
    *,
    compiles: bool = False,
) -> dict[str, str]:
    """The fixed environment, the caller's import path and variables named in ``passed``, the
    application's.
    With ``bytecode``: the modules read from that cache, compiled into it only when
    ``compiles`` (the pass's first, native child)."""
    named = (*IMPORT_VARIABLES, *passed)
    inherited = {name: os.environ[name] for name in named if name in os.environ}
    environment = {
        **FIXED_ENVIRONMENT,
        **inherited,
        **application_environment,
        "PYTHONHASHSEED": HASH_SEED,
    }
    if bytecode is not None:
        environment["PYTHONPYCACHEPREFIX"] = bytecode
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
            environment = _relative_to(directory, plan.prepare(directory / "data"))
            _write_child_plan(plan, _relative(directory, shim), directory)
            tool = [
                str(valgrind),
                "--tool=callgrind",
                "--collect-atstart=no",
                "--instr-atstart=no",
                f"--callgrind-out-file={OUT_FILE}",
            ]
            argv = [
                *(tool if valgrind is not None else []),
                sys.executable,
                "-P",
                "-m",
                "layerbench.cost.collect_child",
                PLAN_FILE,
            ]
            child = ManagedProcess(
                "callgrind",
                argv,
                log_path=directory / "callgrind.log",
                env=child_environment(
                    environment,
                    plan.passed_environment,
                    _relative(directory, bytecode),
                    compiles=valgrind is None,
                ),
                cwd=directory,
            )
            children.append(child.start())
        for child in children:
            if child.wait() != 0:
                raise LayerbenchError(
                    f"the application {'under callgrind' if valgrind else 'natively'} failed "
                    f"(exit status {child.returncode()}; its environment holds only "
                    f"{', '.join((*FIXED_ENVIRONMENT, *IMPORT_VARIABLES))} and the variables "
                    "named with --env); "
                    "last lines of its log:\n" + child.log_tail()
                )
    finally:
        for child in children:
            child.stop()


def _relative(directory: Path, path: Path) -> str:
    """``path`` as the child in ``directory`` reaches it."""
    return os.path.relpath(path, directory)


def _relative_to(directory: Path, environment: dict[str, str]) -> dict[str, str]:
    """The application's variables, those that are paths below ``directory`` made relative."""
    below = f"{directory}{os.sep}"
    return {
        name: _relative(directory, Path(value)) if value.startswith(below) else value
        for name, value in environment.items()
    }


def _write_child_plan(plan: CostPlan, shim: str, directory: Path) -> None:
    document = {
        "shim_path": shim,
        "warmup": plan.warmup,
        "count": plan.count,
        "answers_path": ANSWERS_FILE,
        "requests": [_request_document(request) for request in plan.requests],
    }
    (directory / PLAN_FILE).write_text(json.dumps(document))


def _request_document(request: CostRequest) -> JsonObject:
    return {
        "label": request.label,
        "method": request.method,
        "path": request.path,
        "body_b64": base64.b64encode(request.body).decode() if request.body else None,
        "content_type": request.content_type,
    }


def _read_repeat(plan: CostPlan, directory: Path, measurement: CostMeasurement) -> None:
    answers = json.loads((directory / ANSWERS_FILE).read_text())
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
