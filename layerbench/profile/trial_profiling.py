"""``--profile`` for a command that measures trials (the matrix's cells; the ladder keeps its
own): py-spy on the server's workers during each measured trial, on the client's CPUs, off the
server's, and each trial's samples added to the profile of what it measured, with the server's
CPU and the requests the trial completed (:class:`~layerbench.profile.rung_profile.RungProfile`)."""

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from layerbench.errors import ConfigError
from layerbench.profile.frame_layers import LayerMap
from layerbench.profile.pyspy_record import (
    MAX_PROFILE_RATE_HZ,
    PySpyRecorder,
    find_py_spy,
    pyspy_version,
)
from layerbench.profile.rung_profile import GIL_MODE, RungProfile, empty_profile
from layerbench.results.load_result import LoadResult
from layerbench.results.usage import Usage
from layerbench.roles import SERVER_ROLE
from layerbench.rungs.applications import Application
from layerbench.sites import site_directories
from layerbench.typed_documents import JsonObject


def check_profiled(asked: bool, applications: Iterable[Application], rate_hz: int) -> None:
    """When ``asked``: the rate in bounds, and no Ruby application (py-spy samples Python)."""
    if not asked:
        return
    if not 1 <= rate_hz <= MAX_PROFILE_RATE_HZ:
        raise ConfigError(f"--profile-rate must be 1 to {MAX_PROFILE_RATE_HZ} Hz, not {rate_hz}")
    for app in applications:
        if app.interface == "rack":
            raise ConfigError(
                f"--profile samples Python workers with py-spy; {app.name} runs on Ruby, "
                "whose sampler (rbspy) is packaged neither for Debian nor for PyPI"
            )


@dataclass
class TrialProfiling:
    recorder: PySpyRecorder
    layers: LayerMap
    sampler: str

    @classmethod
    def start(cls, workdir: Path, rate_hz: int, cpus: frozenset[int] | None) -> "TrialProfiling":
        binary = find_py_spy()
        recorder = PySpyRecorder(binary, workdir, rate_hz=rate_hz, cpus=cpus)
        layers = LayerMap.of_this_python(site_directories())
        return cls(recorder, layers, pyspy_version(binary))

    def conditions(self) -> JsonObject:
        """What the run's conditions say of the sampling."""
        return {"sampler": self.sampler, "rate_hz": self.recorder.rate_hz, "mode": GIL_MODE}

    def added(self, before: RungProfile | None, load: LoadResult, usage: Usage) -> RungProfile:
        """``before`` (None: nothing yet) with the last trial's samples and server CPU."""
        if before is None:
            before = empty_profile(self.sampler, self.recorder.rate_hz)
        server = usage.roles.get(SERVER_ROLE)
        return before.with_trial(
            self.recorder.stacks,
            self.layers.layer_of,
            server_cpu_s=server.cpu_s if server is not None else 0.0,
            requests=load.requests_completed,
            failures=tuple(self.recorder.failures),
        )
