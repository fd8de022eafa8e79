"""Run the matrix: every column's server is built first (a wrong setting or name stops the run
before anything starts; a missing package skips its column), then, column by column, started,
its rung verified, measured at every concurrency level and stopped; with repeats, that many
passes over the columns (A B C A B C: a slow drift of the machine spreads over every cell
alike), each server alone while it is measured. Every cell is recorded as soon as it is known,
its req/s the median of its trials'; a cell whose trial fails runs no more, and a server that does
not start or dies ends its column, not the run."""

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from layerbench.errors import LayerbenchError, MissingPackageError
from layerbench.hosts.placement import Placement
from layerbench.lab.app_storage import refuse_storage_outside_ladder
from layerbench.lab.app_under_test import app_environment, not_applicable
from layerbench.lab.cpu_layout import CpuLayout
from layerbench.lab.loadgen import LoadSpec
from layerbench.lab.service_settings import service_sections
from layerbench.lab.site_database import refuse_site_outside_ladder
from layerbench.lab.topology_run import LOCAL_PLACEMENTS, Placements
from layerbench.lab.trial import TrialRunner, load_spec_for
from layerbench.lab.verify import verify_rung
from layerbench.matrix.matrix_options import Column, MatrixOptions
from layerbench.matrix.matrix_result import Cell, ColumnInfo, MatrixResult
from layerbench.proc.ports import free_port
from layerbench.profile.trial_profiling import TrialProfiling
from layerbench.replicate.served_counts import first_requests_counts, further_counts
from layerbench.replicate.settled_counts import settled_counts
from layerbench.results.status import Status
from layerbench.results.trials import MAX_REPEATS, Trial
from layerbench.rungs.definitions import STATIC_BODY, STATIC_FILE, Rung
from layerbench.served.served_columns import CountedTarget, in_process_anchors, measure_targets
from layerbench.served.served_table import served_document
from layerbench.served.served_windows import Windows
from layerbench.servers.adapters import ServerPlan, Serves, find_adapter
from layerbench.servers.deployment import Deployment
from layerbench.servers.server_settings import check_sections
from layerbench.site_contract import ServiceUrls
from layerbench.sites import prepare_app_data
from layerbench.typed_documents import JsonObject
from layerbench.words import counted


class MatrixObserver(Protocol):
    def pass_starting(self, number: int, passes: int) -> None: ...

    def column_starting(self, column: ColumnInfo) -> None: ...

    def cell_starting(self, column: ColumnInfo, concurrency: int) -> None: ...

    def cell_finished(self, cell: Cell) -> None: ...


@dataclass
class PlannedColumn:
    info: ColumnInfo
    rung: Rung
    # None when its server cannot run here (``skipped`` says why).
    deployment: Deployment | None
    skipped: str | None = None
    # SKIPPED (its server not installed) or NOT_APPLICABLE (its application has no such rung).
    skip_status: Status = Status.SKIPPED


# --until-decided's question after each pass from the last of --repeats on: whether the result
# so far, after that many passes, is enough (every comparison decided, or the time up).
Enough = Callable[[MatrixResult, int], bool]


class Matrix:
    def __init__(
        self,
        *,
        options: MatrixOptions,
        layout: CpuLayout,
        load_binary: Path,
        workdir: Path,
        result: MatrixResult,
        observer: MatrixObserver,
        checkpoint: Callable[[], None] = lambda: None,
        services: ServiceUrls | None = None,
        service_sessions: dict[str, set[int]] | None = None,
        placements: Placements = LOCAL_PLACEMENTS,
        enough: Enough | None = None,
    ) -> None:
        """``services``: the URLs of the services its rung reads (the upstream rung's delaying
        server), started by the caller; ``service_sessions``: their sessions by role;
        ``placements``: each part's host on a topology (loopback without); ``enough``
        (``--until-decided``): passes go on after ``repeats`` until it says so."""
        self.options = options
        self.enough = enough
        self.placements = placements
        self.services = services or ServiceUrls()
        self.service_sessions = service_sessions or {}
        self.layout = layout
        self.workdir = workdir
        self.result = result
        self.observer = observer
        self.checkpoint = checkpoint
        self.trials = TrialRunner(load_binary, workdir, layout.client_cpus, placements.network)
        self.profiling: TrialProfiling | None = None
        if options.profile:  # py-spy on the client's CPUs, off the server's
            self.profiling = TrialProfiling.start(
                workdir, options.profile_rate_hz, layout.client_cpus
            )
            result.conditions["profile"] = self.profiling.conditions()

    def plan(self) -> list[PlannedColumn]:
        return [
            self._plan_column(index, column) for index, column in enumerate(self.options.columns)
        ]

    def run(self, planned: list[PlannedColumn]) -> None:
        self._cells: dict[tuple[int, int], Cell] = {}
        self._order = [(index, row) for index in range(len(planned)) for row in self._rows]
        ended: set[int] = set()  # columns whose server could not start or died
        number = 0
        while self._another_pass(number):
            number += 1
            self.observer.pass_starting(number, max(number, self.options.repeats))
            for index, column in enumerate(planned):
                if number == 1:
                    self.result.columns.append(column.info)
                if index not in ended and not self._run_column(index, column, number):
                    ended.add(index)
        if self.options.measure is not None:
            self._count_served(planned, self.options.measure)

    def _count_served(self, planned: list[PlannedColumn], measure: str) -> None:
        """``--measure``: each column's served cost, its server started alone twice more
        (natively, then under callgrind), and its application's in-process count beside it;
        with --measure-counts, counted as many times; with --first-requests, its first
        requests after a fresh start counted instead (layerbench/replicate/served_counts.py)."""
        targets = [
            CountedTarget(c.info.label, c.info.server, c.deployment, c.rung, c.info.app, c.skipped)
            for c in planned
        ]
        told = getattr(self.observer, "served_starting", None) or (lambda label: None)
        if self.options.settled is not None:
            self.result.served = settled_counts(
                targets,
                self.workdir,
                concurrency=self.options.settled,
                counts=self.options.served_counts,
                client_cpus=self.layout.client_cpus,
                told=told,
                kept=self._served_so_far,
            )
            self.checkpoint()
            return
        if self.options.first_requests is not None:
            self.result.served = first_requests_counts(
                targets,
                self.workdir,
                requests=self.options.first_requests,
                second_run=self.options.second_run,
                concurrency=self.options.concurrency[0],
                counts=self.options.served_counts,
                client_cpus=self.layout.client_cpus,
                told=told,
                kept=self._served_so_far,
            )
            self.checkpoint()
            return
        costs = measure_targets(
            targets,
            self.workdir,
            Windows(),
            measure=measure,
            client_cpus=self.layout.client_cpus,
            told=told,
        )
        self.result.served = served_document(costs, {})
        self.checkpoint()  # kept, whatever the anchors' pass does
        anchors = in_process_anchors([t for t in targets if t.deployment is not None])
        self.result.served = served_document(costs, anchors)
        self.checkpoint()
        if self.options.served_counts > 1:
            self.result.served |= further_counts(
                targets,
                self.workdir,
                costs,
                counts=self.options.served_counts,
                measure=measure,
                client_cpus=self.layout.client_cpus,
                told=told,
                kept=self._served_so_far,
            )
            self.checkpoint()

    def _served_so_far(self, counted: JsonObject) -> None:
        """What the counts finished hold, kept in the result however the counting ends."""
        self.result.served |= counted

    def _another_pass(self, made: int) -> bool:
        """Whether to make a pass after ``made``: up to ``repeats``; then, with ``enough``,
        until it says the result is enough (at most MAX_REPEATS passes)."""
        if made < self.options.repeats:
            return True
        return self.enough is not None and made < MAX_REPEATS and not self.enough(self.result, made)

    @property
    def _rows(self) -> range:
        return range(len(self.options.concurrency))

    def _plan_column(self, index: int, column: Column) -> PlannedColumn:
        rung = self.options.rung_for(column)
        unanswered = not_applicable(column.application, rung)
        if unanswered is not None:
            info = ColumnInfo(column.label, column.adapter, rung.name, app=column.app)
            return PlannedColumn(info, rung, None, unanswered, Status.NOT_APPLICABLE)
        root = self.workdir / f"column-{index}"
        with self.placements.app.entered():
            data = prepare_app_data(root / "data", self.services)
        static = find_adapter(column.adapter).serves is Serves.STATIC
        plans: list[ServerPlan] = []

        def build(where: Placement, host_name: str) -> Deployment:
            plan = ServerPlan(
                workdir=root / "server" / host_name,
                port=free_port(),
                db_path=data.db_path,
                static_files={STATIC_FILE: STATIC_BODY},
                book=column.book,
                cpus=self.layout.server_cpus,
                host=where.address,
                app_environment={**data.environment, **app_environment(column.application)},
            )
            plans.append(plan)
            return find_adapter(column.adapter).build(plan)

        try:
            if static:  # the static file's server, on the front host
                deployment = build(self.placements.front, "")
            else:
                deployment = self.placements.deployment(build, root)
        except MissingPackageError as error:
            info = ColumnInfo(column.label, column.adapter, rung.name, app=column.app)
            return PlannedColumn(info, rung, None, skipped=str(error))
        plan = plans[-1]
        check_sections(column.book, [*plan.used, *service_sections()])
        refuse_storage_outside_ladder(column.book, "matrix")
        refuse_site_outside_ladder(column.book, "matrix")
        info = ColumnInfo(column.label, column.adapter, rung.name, column.app, settings=plan.used)
        return PlannedColumn(info, rung, deployment)

    def _run_column(self, index: int, column: PlannedColumn, number: int) -> bool:
        """One pass over the column's levels; False when the column ends."""
        self.observer.column_starting(column.info)
        if column.deployment is None:
            self._end_column(index, column.info, column.skip_status, column.skipped)
            return False
        deployment = column.deployment
        static = find_adapter(column.info.server).serves is Serves.STATIC
        placed = self.placements.started_in_front if static else self.placements.started
        try:
            with placed(deployment):
                if number == 1:
                    column.info.versions.update(deployment.versions())
                    column.info.url = deployment.base_url + column.rung.path
                with self.placements.probe.entered():
                    verify_rung(deployment.base_url, column.rung)
                for row in self._rows:
                    if not self._failed(index, row):
                        self._measure(index, column, deployment, row)
        except LayerbenchError as error:
            self._end_column(index, column.info, Status.ERROR, str(error))
            return False
        return True

    def _failed(self, index: int, row: int) -> bool:
        cell = self._cells.get((index, row))
        return cell is not None and cell.status is not Status.OK

    def _measure(self, index: int, column: PlannedColumn, deployment: Deployment, row: int) -> None:
        """A trial of the cell; a server that died meanwhile raises (it ends the column)."""
        concurrency = self.options.concurrency[row]
        self.observer.cell_starting(column.info, concurrency)
        warmup_s = self.options.warmup_s
        rerun = concurrency in self.options.concurrency[:row]
        if rerun and self.options.rerun_warmup_s is not None:
            warmup_s = self.options.rerun_warmup_s
        spec = LoadSpec(
            concurrency=concurrency,
            duration_s=self.options.duration_s,
            warmup_s=warmup_s,
            keep_alive=self.options.keep_alive,
        )
        spec = load_spec_for(spec, column.rung, self.workdir, deployment.base_url)
        url = deployment.base_url + column.rung.path
        previous = self._cells.get((index, row))
        trials = previous.trials if previous else ()
        label = f"{column.info.server}-{index}-r{row}-c{concurrency}-{len(trials) + 1}"
        info = column.info
        profile = previous.profile if previous else None
        # A static file's server has no Python worker to sample.
        static = find_adapter(info.server).serves is Serves.STATIC
        profiler = None if self.profiling is None or static else self.profiling.recorder
        try:
            load, usage = self.trials.run(
                deployment, url, spec, label, self.service_sessions, profiler=profiler
            )
        except LayerbenchError as error:
            deployment.check_alive()  # a dead server ends the column
            cell = Cell(info.label, row, concurrency, Status.ERROR, str(error), trials, profile)
            self._record(index, cell)
            return
        deployment.check_alive()
        measured = (*trials, Trial(load, usage))
        if self.profiling is not None and profiler is not None:
            profile = self.profiling.added(profile, load, usage)
        cell = Cell(info.label, row, concurrency, Status.OK, None, measured, profile)
        self._record(index, cell)

    def _end_column(
        self, index: int, info: ColumnInfo, status: Status, message: str | None
    ) -> None:
        """The column runs no more: a cell of it with no trial yet fails; one with trials
        keeps them, and says it has fewer than asked."""
        repeats = self.options.repeats
        for row in self._rows:
            previous = self._cells.get((index, row))
            if self._failed(index, row):
                continue
            if previous is None or not previous.trials:
                level = self.options.concurrency[row]
                self._record(index, Cell(info.label, row, level, status, message))
            elif len(previous.trials) < repeats:
                short = f"{len(previous.trials)} of {counted(repeats, 'trial')}, then: {message}"
                self._record(index, replace(previous, message=short))

    def _record(self, index: int, cell: Cell) -> None:
        self._cells[(index, cell.row)] = cell
        self.result.cells = [self._cells[key] for key in self._order if key in self._cells]
        self.observer.cell_finished(cell)
        self.checkpoint()
