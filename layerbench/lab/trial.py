"""One measurement: the load generator against a deployment's URL while the sampler follows
every process of the deployment and the client, from the end of the warm-up to the end."""

from dataclasses import dataclass, replace
from pathlib import Path

from layerbench.lab.loadgen import LoadSpec, run_load
from layerbench.lab.sampler import Sampler
from layerbench.results.load_result import LoadResult
from layerbench.results.usage import Usage
from layerbench.roles import CLIENT_ROLE
from layerbench.rungs.definitions import Rung
from layerbench.servers.deployment import Deployment


@dataclass(frozen=True)
class TrialRunner:
    load_binary: Path
    workdir: Path
    client_cpus: frozenset[int] | None

    def run(
        self,
        deployment: Deployment,
        url: str,
        spec: LoadSpec,
        label: str,
        services: dict[str, set[int]] | None = None,
    ) -> tuple[LoadResult, Usage]:
        """``services``: the sessions of the backing services, by role (database, cache)."""
        roles = {role: set(sessions) for role, sessions in deployment.roles().items()}
        for role, sessions in (services or {}).items():
            roles.setdefault(role, set()).update(sessions)
        sampler = Sampler(roles)

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
