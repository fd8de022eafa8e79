"""``layerbench writes``, the job: options in, a :class:`WritesResult` out.

Every store named is started (:mod:`writes_stores`) and grown to ``objects`` objects first;
then ``repeats`` passes, each measuring every store at every number of writers in turn (A B C
A B C…, so that a drift of the machine spreads over all of them alike). A trial is one writers
process (:mod:`writes_worker`) sharing ``commits`` commits among its threads, sampled with the
store's server as the database role; the database grows by every trial's commits, which each
trial records (``objects_before``). A store whose service is not installed is not measured,
naming its package; the others are.
"""

import json
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

from layerbench.console.numbers import MAX_COUNT
from layerbench.errors import ConfigError, LayerbenchError, MissingPackageError
from layerbench.lab.conditions import collect_conditions
from layerbench.lab.cpu_layout import plan_cpu_layout
from layerbench.lab.publish import now
from layerbench.lab.run_skeleton import NO_SAVING, Saving, measured_run
from layerbench.lab.sampler import Sampler
from layerbench.lab.service_settings import service_arguments
from layerbench.proc.process import ManagedProcess
from layerbench.results.usage import Usage
from layerbench.roles import CLIENT_ROLE, DATABASE_ROLE
from layerbench.servers.server_settings import SettingsBook, check_sections
from layerbench.stats.percentile import percentile
from layerbench.typed_documents import Bounds, JsonObject, decode
from layerbench.words import did_you_mean
from layerbench.writes.writes_result import WritesResult, WritesTrial
from layerbench.writes.writes_stores import (
    STORES,
    ZODB_STORES,
    SharedServices,
    StoreRunning,
    split_store,
)

WORKER_MODULE = "layerbench_sites.writes_worker"
GROW_TIMEOUT_S = 1800.0
TRIAL_TIMEOUT_S = 900.0


@dataclass(frozen=True)
class WritesOptions:
    stores: tuple[str, ...] = (*ZODB_STORES, "site-postgres")
    writers: tuple[int, ...] = (1, 4, 16)
    objects: int = 1000
    commits: int = 200
    repeats: int = 3
    book: SettingsBook = field(default_factory=dict)

    def check(self) -> None:
        unknown = [store for store in self.stores if split_store(store)[0] not in STORES]
        if unknown:
            raise ConfigError(
                did_you_mean(
                    f"no store named {', '.join(unknown)}",
                    unknown[0],
                    STORES,
                    f"the stores are {', '.join(STORES)}",
                )
            )
        for store in self.stores:
            base, profile = split_store(store)
            if profile is not None and STORES[base] != "mariadb":
                raise ConfigError(f"{store}: only a MariaDB store names a profile")
            if profile is not None:
                service_arguments({"mariadb": {"profile": profile}}, "mariadb")
        if len(set(self.stores)) != len(self.stores):
            raise ConfigError("each store can be named once")
        if not self.writers or min(self.writers) < 1:
            raise ConfigError("--writers: whole numbers from 1")
        if self.objects < 0 or self.repeats < 1:
            raise ConfigError("--objects is 0 or more, --repeats 1 or more")
        if self.commits < max(self.writers):
            raise ConfigError(f"--commits {self.commits}: at least one per writer")
        check_sections(self.book, ["mariadb"])
        service_arguments(self.book, "mariadb")


class WritesError(LayerbenchError):
    """The writers failed (the store refused a commit): the error from their log."""


@dataclass(frozen=True)
class WritersAnswer:
    """What the writers' process answers after a measuring trial
    (``layerbench_sites.writes_worker``): every commit's latency, in microseconds."""

    commits: Annotated[int, Bounds(low=0)]
    elapsed_s: Annotated[float, Bounds(low=0)]
    latencies_us: Annotated[list[float], Bounds(most=MAX_COUNT)]
    conflicts: Annotated[int, Bounds(low=0)]


TrialObserver = Callable[[WritesTrial], None]


def run_writes(
    options: WritesOptions,
    observe: TrialObserver,
    saving: Saving[WritesResult] = NO_SAVING,
) -> WritesResult:
    """Measures ``options``' stores, telling ``observe`` of each trial; ``saving`` keeps the
    result after every trial and once more however the run ends (the run skeleton's,
    :mod:`layerbench.lab.run_skeleton`)."""
    options.check()
    profile = str(service_arguments(options.book, "mariadb")["profile"])
    result = WritesResult(
        options.stores,
        options.writers,
        options.objects,
        options.commits,
        options.repeats,
        profile,
        conditions=collect_conditions(plan_cpu_layout(pin=False)),
        started_at=now(),
    )
    with (
        measured_run(result, saving, prefix="layerbench-writes-") as run,
        ExitStack() as stack,
    ):
        workdir = run.workdir
        running: dict[str, StoreRunning] = {}
        services = SharedServices(stack, options.book)
        for store in options.stores:
            try:
                running[store] = stack.enter_context(StoreRunning(store, services))
            except MissingPackageError as error:
                result.not_measured[store] = str(error)
        grown: dict[str, int] = {}
        for store, up in running.items():
            spec: JsonObject = {"target": up.target, "mode": "grow", "objects": options.objects}
            spec["writers"] = max(options.writers)
            _run_worker(workdir, f"grow-{store}", spec, GROW_TIMEOUT_S)
            grown[store] = options.objects if split_store(store)[0] in ZODB_STORES else 0
        for repeat in range(1, options.repeats + 1):
            for store, up in running.items():
                for writers in options.writers:
                    at = (repeat, grown[store])
                    trial = _trial(workdir, up, writers, options.commits, at)
                    grown[store] += trial.commits
                    result.trials.append(trial)
                    run.checkpoint()
                    observe(trial)
    return result


def _trial(
    workdir: Path, store: StoreRunning, writers: int, commits: int, at: tuple[int, int]
) -> WritesTrial:
    """One trial; ``at``: its repeat's number, and the objects in the database before it."""
    repeat, objects = at
    spec: JsonObject = {
        "target": store.target,
        "mode": "measure",
        "writers": writers,
        "commits": commits,
    }
    name = f"{store.name}-w{writers}-r{repeat}"
    sampler = Sampler({DATABASE_ROLE: set(store.sessions), CLIENT_ROLE: set()})
    answer, usage = _run_worker(workdir, name, spec, TRIAL_TIMEOUT_S, sampler)
    assert usage is not None
    measured = decode(WritersAnswer, answer, f"the writers' answer on {name}")
    latencies = measured.latencies_us
    return WritesTrial(
        store=store.name,
        writers=writers,
        repeat=repeat,
        objects_before=objects,
        commits=measured.commits,
        elapsed_s=measured.elapsed_s,
        p50_latency_us=percentile(latencies, 500),
        p99_latency_us=percentile(latencies, 990),
        conflicts=measured.conflicts,
        cpu_percent={role: usage.roles[role].cpu_percent for role in usage.roles},
        pss_bytes={role: usage.roles[role].pss_bytes for role in usage.roles},
    )


def _run_worker(
    workdir: Path, name: str, spec: JsonObject, timeout_s: float, sampler: Sampler | None = None
) -> tuple[object, Usage | None]:
    """The writers' answer (parsed JSON), and what the sampler saw while they ran."""
    spec_path = workdir / f"{name}.spec.json"
    result_path = workdir / f"{name}.result.json"
    ready, go = workdir / f"{name}.ready", workdir / f"{name}.go"
    spec_path.write_text(json.dumps({**spec, "ready": str(ready), "go": str(go)}))
    argv = [sys.executable, "-m", WORKER_MODULE, str(spec_path), str(result_path)]
    worker = ManagedProcess(name, argv, log_path=workdir / f"{name}.log", cwd=workdir)
    with worker:
        try:
            if sampler is not None:
                _wait_ready(worker, ready, timeout_s)
                sampler.watch(CLIENT_ROLE, worker.pid)
                sampler.start()
                go.touch()
            status = worker.wait(timeout_s)
        except subprocess.TimeoutExpired:
            raise WritesError(f"the writers on {name} took over {timeout_s:.0f} s") from None
        finally:
            usage = sampler.stop() if sampler is not None else None
    if status != 0:
        raise WritesError(f"the writers on {name} failed (exit {status}): {_last_line(worker)}")
    answer: object = json.loads(result_path.read_text())
    return answer, usage


def _wait_ready(worker: ManagedProcess, ready: Path, timeout_s: float) -> None:
    """Until the writers have opened their store (or have failed: their status tells)."""
    deadline = time.monotonic() + timeout_s
    while not ready.exists() and worker.returncode() is None:
        if time.monotonic() > deadline:
            raise subprocess.TimeoutExpired(worker.argv, timeout_s)
        time.sleep(0.005)


def _last_line(worker: ManagedProcess) -> str:
    lines = worker.log_tail(5).splitlines()
    return lines[-1] if lines else "(no output)"
