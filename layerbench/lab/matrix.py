"""Run the matrix: every column's server is built first (a wrong setting or name stops the run
before anything starts; a missing package skips its column), then, column by column, started,
its rung verified, and measured at every concurrency level. Every cell is recorded as soon as
it is known; a server that dies ends its column, not the run."""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from layerbench.errors import LayerbenchError, MissingPackageError
from layerbench.lab.app_data import prepare_app_data
from layerbench.lab.cpu_layout import CpuLayout
from layerbench.lab.loadgen import LoadSpec
from layerbench.lab.matrix_options import Column, MatrixOptions
from layerbench.lab.matrix_results import Cell, CellStatus, ColumnInfo, MatrixResult
from layerbench.lab.rungs import STATIC_BODY, STATIC_FILE, Rung
from layerbench.lab.trial import TrialRunner, load_spec_for
from layerbench.lab.verify import verify_rung
from layerbench.servers.adapters import ServerPlan, find_adapter
from layerbench.servers.deployment import Deployment
from layerbench.servers.ports import free_port
from layerbench.servers.settings import check_sections


class MatrixObserver(Protocol):
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
    ) -> None:
        self.options = options
        self.layout = layout
        self.workdir = workdir
        self.result = result
        self.observer = observer
        self.checkpoint = checkpoint
        self.trials = TrialRunner(load_binary, workdir, layout.client_cpus)

    def plan(self) -> list[PlannedColumn]:
        return [
            self._plan_column(index, column) for index, column in enumerate(self.options.columns)
        ]

    def run(self, planned: list[PlannedColumn]) -> None:
        for column in planned:
            self.result.columns.append(column.info)
            self._run_column(column)

    def _plan_column(self, index: int, column: Column) -> PlannedColumn:
        root = self.workdir / f"column-{index}"
        data = prepare_app_data(root / "data")
        plan = ServerPlan(
            workdir=root / "server",
            port=free_port(),
            db_path=data.db_path,
            static_files={STATIC_FILE: STATIC_BODY},
            book=column.book,
            cpus=self.layout.server_cpus,
            app_environment=data.environment,
        )
        rung = self.options.rung_for(column)
        try:
            deployment = find_adapter(column.adapter).build(plan)
        except MissingPackageError as error:
            info = ColumnInfo(column.label, column.adapter, rung.name)
            return PlannedColumn(info, rung, None, skipped=str(error))
        check_sections(column.book, plan.used)
        info = ColumnInfo(column.label, column.adapter, rung.name, settings=plan.used)
        return PlannedColumn(info, rung, deployment)

    def _run_column(self, column: PlannedColumn) -> None:
        self.observer.column_starting(column.info)
        pending = list(enumerate(self.options.concurrency))
        if column.deployment is None:
            self._fail(column.info, pending, CellStatus.SKIPPED, column.skipped)
            return
        deployment = column.deployment
        try:
            with deployment:
                column.info.versions.update(deployment.versions())
                column.info.url = deployment.base_url + column.rung.path
                verify_rung(deployment.base_url, column.rung)
                while pending:
                    self._record(self._measure(column, deployment, pending[0]))
                    pending.pop(0)
        except LayerbenchError as error:
            self._fail(column.info, pending, CellStatus.ERROR, str(error))

    def _measure(
        self, column: PlannedColumn, deployment: Deployment, level: tuple[int, int]
    ) -> Cell:
        row, concurrency = level
        self.observer.cell_starting(column.info, concurrency)
        spec = LoadSpec(
            concurrency=concurrency,
            duration_s=self.options.duration_s,
            warmup_s=self.options.warmup_s,
            keep_alive=self.options.keep_alive,
        )
        spec = load_spec_for(spec, column.rung, self.workdir, deployment.base_url)
        url = deployment.base_url + column.rung.path
        label = f"{column.info.server}-{len(self.result.cells)}-c{concurrency}"
        try:
            load, usage = self.trials.run(deployment, url, spec, label)
        except LayerbenchError as error:
            deployment.check_alive()  # a dead server ends the column
            return Cell(column.info.label, row, concurrency, CellStatus.ERROR, str(error))
        deployment.check_alive()
        return Cell(column.info.label, row, concurrency, CellStatus.OK, load=load, usage=usage)

    def _fail(
        self,
        info: ColumnInfo,
        levels: list[tuple[int, int]],
        status: CellStatus,
        message: str | None,
    ) -> None:
        for row, concurrency in levels:
            self._record(Cell(info.label, row, concurrency, status, message))

    def _record(self, cell: Cell) -> None:
        self.result.cells.append(cell)
        self.observer.cell_finished(cell)
        self.checkpoint()
