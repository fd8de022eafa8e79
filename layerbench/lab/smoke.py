"""Performance smoke test of a user's WSGI application: run it under a server adapter, measure
each URL with interleaved repeats, and judge against a stored baseline.

A URL has regressed when it is significantly slower (the bootstrap 95 % interval of the ratio
of medians, now over baseline, lies below 1) and slower by more than the tolerance: noise alone
does not fail a build, and neither does a real but tolerated slowdown."""

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from layerbench.app.user_app import USER_APP_PATH_VARIABLE, USER_APP_VARIABLE, parse_spec
from layerbench.errors import ConfigError, LayerbenchError
from layerbench.lab.cpu_layout import CpuLayout
from layerbench.lab.loadgen import LoadSpec
from layerbench.lab.trial import TrialRunner
from layerbench.servers.adapters import ServerPlan, Serves, find_adapter
from layerbench.servers.http_probe import http_get
from layerbench.servers.ports import free_port
from layerbench.servers.settings import SettingsBook, check_sections
from layerbench.services.sqlite import create_seeded_database
from layerbench.store.compare import RungComparison, compare_rates

BASELINE_VERSION = 1


@dataclass(frozen=True)
class SmokeOptions:
    app: str
    urls: tuple[str, ...] = ("/",)
    server: str = "gunicorn"
    settings: SettingsBook = field(default_factory=dict)
    repeats: int = 5
    duration_s: float = 2.0
    warmup_s: float = 0.5
    concurrency: int = 10
    tolerance: float = 0.10
    app_path: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        parse_spec(self.app)
        if find_adapter(self.server).serves is not Serves.APPLICATION:
            raise ConfigError(f"{self.server} cannot run an application")
        bad = [url for url in self.urls if not url.startswith("/")]
        if bad or not self.urls:
            raise ConfigError(
                f"a URL is a path that starts with '/', not {bad[0] if bad else ''!r}"
            )
        if not 2 <= self.repeats <= 100:
            raise ConfigError(f"repeats must be 2 to 100 (a spread needs two), not {self.repeats}")
        if not 0 <= self.tolerance < 1:
            raise ConfigError(f"the tolerance is a fraction from 0 to 1, not {self.tolerance:g}")


@dataclass(frozen=True)
class Verdict:
    url: str
    comparison: RungComparison
    regressed: bool


def measure(
    options: SmokeOptions, layout: CpuLayout, load_binary: Path, workdir: Path
) -> dict[str, list[float]]:
    """req/s of each URL, one per repeat (the URLs interleaved)."""
    (workdir / "data").mkdir(parents=True)
    paths = os.pathsep.join(str(Path(p).resolve()) for p in options.app_path)
    plan = ServerPlan(
        workdir=workdir / "server",
        port=free_port(),
        db_path=create_seeded_database(workdir / "data"),
        static_files={},
        book=options.settings,
        cpus=layout.server_cpus,
        app_environment={USER_APP_VARIABLE: options.app, USER_APP_PATH_VARIABLE: paths},
    )
    deployment = find_adapter(options.server).build(plan)
    check_sections(options.settings, plan.used)
    spec = LoadSpec(options.concurrency, options.duration_s, options.warmup_s)
    trials = TrialRunner(load_binary, workdir, layout.client_cpus)
    rates: dict[str, list[float]] = {url: [] for url in options.urls}
    with deployment:
        for url in options.urls:
            _verify(deployment.base_url + url)
        for repeat in range(options.repeats):
            for number, url in enumerate(options.urls):
                label = f"smoke-url{number}-{repeat}"
                load, _ = trials.run(deployment, deployment.base_url + url, spec, label)
                deployment.check_alive()
                if load.errors:
                    raise LayerbenchError(
                        f"{url}: {load.errors:,} of {load.requests_completed:,} requests failed "
                        "or were not 2xx"
                    )
                rates[url].append(load.requests_per_s)
    return rates


def _verify(url: str) -> None:
    try:
        response = http_get(url, timeout_s=10.0)
    except OSError as error:
        raise LayerbenchError(f"no answer from {url}: {error}") from None
    if not 200 <= response.status < 300:
        raise LayerbenchError(f"{url} answered {response.status}; it is not measured")


def judge(
    baseline: dict[str, list[float]], current: dict[str, list[float]], tolerance: float
) -> list[Verdict]:
    missing = [url for url in current if url not in baseline]
    if missing:
        raise ConfigError(f"the baseline has no {missing[0]}: measure it with --save")
    verdicts = []
    for url, rates in current.items():
        comparison = compare_rates(url, baseline[url], rates)
        slower = comparison.ci_high is not None and comparison.ci_high < 1.0
        verdicts.append(Verdict(url, comparison, slower and comparison.ratio < 1 - tolerance))
    return verdicts


def baseline_document(options: SmokeOptions, rates: dict[str, list[float]]) -> dict[str, Any]:
    return {
        "version": BASELINE_VERSION,
        "app": options.app,
        "server": options.server,
        "concurrency": options.concurrency,
        "urls": {url: {"requests_per_s": values} for url, values in rates.items()},
    }


def read_baseline(path: Path) -> dict[str, list[float]]:
    try:
        document = json.loads(path.read_text())
    except FileNotFoundError:
        raise ConfigError(f"no baseline at {path}: make one with --save") from None
    except OSError as error:
        raise ConfigError(f"cannot read {path}: {error.strerror}") from None
    except ValueError as error:
        raise ConfigError(f"{path} is not JSON: {error}") from None
    if not isinstance(document, dict) or document.get("version") != BASELINE_VERSION:
        raise ConfigError(f"{path} is not a layerbench smoke baseline (version {BASELINE_VERSION})")
    try:
        return {
            url: [float(v) for v in entry["requests_per_s"]]
            for url, entry in document["urls"].items()
        }
    except (KeyError, TypeError, ValueError, AttributeError):
        raise ConfigError(f"{path}: its urls are not what a baseline holds") from None
