"""One measurement: the load generator against a deployment's URL while the sampler follows
every process of the deployment and the client, from the end of the warm-up to the end."""

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypedDict

from layerbench.hosts.lab_network import LabNetwork
from layerbench.lab.host_sampler import host_namespaces
from layerbench.lab.load_from_hosts import load_from_clients
from layerbench.lab.loadgen import LoadSpec, run_load
from layerbench.lab.sampler import Sampler
from layerbench.profile.pyspy_record import PySpyRecorder
from layerbench.results.load_result import LoadResult
from layerbench.results.usage import Usage
from layerbench.roles import CLIENT_ROLE, SERVER_ROLE
from layerbench.rungs.definitions import Rung
from layerbench.servers.deployment import Deployment


@dataclass(frozen=True)
class TrialRunner:
    load_binary: Path
    workdir: Path
    client_cpus: frozenset[int] | None
    # On a topology: the load from every client host at once, each process sampled with its
    # host; None: one client on this machine.
    network: LabNetwork | None = None

    def run(
        self,
        deployment: Deployment,
        url: str,
        spec: LoadSpec,
        label: str,
        services: dict[str, set[int]] | None = None,
        *,
        profiler: PySpyRecorder | None = None,
    ) -> tuple[LoadResult, Usage]:
        """``services``: the sessions of the backing services, by role (database, cache).
        ``profiler`` (``--profile``) samples the server's workers over the sampler's interval;
        its ``stacks`` are the trial's samples once this returns."""
        roles = {role: set(sessions) for role, sessions in deployment.roles().items()}
        for role, sessions in (services or {}).items():
            roles.setdefault(role, set()).update(sessions)
        hosts = host_namespaces(self.network) if self.network else {}
        sampler = Sampler(roles, hosts=hosts)
        starting = threading.Lock()
        clients: list[int] = []

        def client_started(session: int) -> None:
            # Several client hosts tell their sessions from threads of their own: the interval
            # starts with the first.
            with starting:
                sampler.watch(CLIENT_ROLE, session)
                clients.append(session)
                if len(clients) == 1:
                    sampler.start(delay_s=spec.warmup_s)
                    if profiler is not None:
                        server = deployment.roles().get(SERVER_ROLE, set())
                        profiler.start(server, delay_s=spec.warmup_s, label=label)

        try:
            load = self._load(url, spec, label, client_started)
        finally:
            try:
                usage = sampler.stop()
            finally:
                if profiler is not None:
                    profiler.stop()
        return load, usage

    def _load(
        self, url: str, spec: LoadSpec, label: str, started: Callable[[int], None]
    ) -> LoadResult:
        """One client on this machine, or every client host at once, merged."""
        arguments = LoadArguments(
            binary=self.load_binary,
            url=url,
            spec=spec,
            workdir=self.workdir,
            label=label,
            cpus=self.client_cpus,
            started=started,
        )
        if self.network is None:
            return run_load(**arguments)
        merged, _ = load_from_clients(self.network, **arguments)
        return merged


class LoadArguments(TypedDict):
    """What a trial's load is run with, from this machine or from every client host."""

    binary: Path
    url: str
    spec: LoadSpec
    workdir: Path
    label: str
    cpus: frozenset[int] | None
    started: Callable[[int], None]


def load_spec_for(spec: LoadSpec, rung: Rung, workdir: Path, base_url: str) -> LoadSpec:
    """``spec`` for ``rung``'s request: its body, if it has one, from a file in ``workdir``; a
    mixed rung's weighted URLs on ``base_url``, from a list in ``workdir``."""
    if rung.mix:
        urls_file = workdir / f"urls-{rung.name}"
        urls_file.write_text("".join(f"{w} {base_url}{part.path}\n" for w, part in rung.mix))
        return replace(spec, urls_file=urls_file)
    if rung.body is None:
        return spec
    body_file = workdir / f"body-{rung.name}"
    body_file.write_bytes(rung.body)
    return replace(spec, body_file=body_file, content_type=rung.content_type)
