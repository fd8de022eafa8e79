"""One measurement: the load generator against a deployment's URL while the sampler follows
every process of the deployment and the client, from the end of the warm-up to the end."""

from dataclasses import dataclass
from pathlib import Path

from layerbench.lab.loadgen import LoadResult, LoadSpec, run_load
from layerbench.lab.sampler import Sampler, Usage
from layerbench.roles import CLIENT_ROLE
from layerbench.servers.deployment import Deployment


@dataclass(frozen=True)
class TrialRunner:
    load_binary: Path
    workdir: Path
    client_cpus: frozenset[int] | None

    def run(
        self, deployment: Deployment, url: str, spec: LoadSpec, label: str
    ) -> tuple[LoadResult, Usage]:
        sampler = Sampler(deployment.roles())

        def client_started(session: int) -> None:
            sampler.watch(CLIENT_ROLE, session)
            sampler.start(delay_s=spec.warmup_s)

        try:
            load = run_load(
                binary=self.load_binary,
                url=url,
                spec=spec,
                workdir=self.workdir,
                label=label,
                cpus=self.client_cpus,
                started=client_started,
            )
        finally:
            usage = sampler.stop()
        return load, usage
