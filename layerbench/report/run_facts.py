"""What a run was measured under, in words, for every report that shows a stored run: its label,
its load (concurrency, duration, warm-up, repeats, keep-alive) and the conditions it recorded
(machine, pinning, versions, date). The terminal shows the load in its progress header; the
Markdown and HTML reports show these, and a docs page's table is captioned with them."""

from typing import Any

from layerbench.ladder.ladder_result import LadderResult
from layerbench.matrix.matrix_result import MatrixResult


def load_facts(result: LadderResult | MatrixResult) -> list[tuple[str, str]]:
    """The run's label and load, as (name, words)."""
    options = result.options
    facts = []
    label = options.get("label")
    if label:
        facts.append(("label", str(label)))
    if isinstance(result, MatrixResult):
        facts.append(("servers", ", ".join(column.label for column in result.columns)))
        facts.append(("rung", str(options.get("rung", ""))))
        levels = options.get("concurrency") or ()
        facts.append(("concurrency", ", ".join(str(level) for level in levels)))
    else:
        facts.append(("server", str(options.get("server", ""))))
        if len(result.apps) > 1 or result.apps != ["bare"]:
            facts.append(("applications", ", ".join(result.apps)))
        if options.get("full"):
            facts.append(("ladder", "full (--full)"))
        facts.append(("concurrency", str(options.get("concurrency", ""))))
    duration, warmup = options.get("duration_s"), options.get("warmup_s")
    if duration is not None:
        per = "cell" if isinstance(result, MatrixResult) else "trial"
        facts.append(("duration", f"{duration:g} s measured per {per}, after {warmup:g} s warm-up"))
    repeats = options.get("repeats")
    if repeats is not None:
        facts.append(("repeats", f"{repeats} (interleaved)"))
    if "keep_alive" in options:
        facts.append(("keep-alive", "on" if options["keep_alive"] else "off"))
    return facts


def condition_facts(result: LadderResult | MatrixResult) -> list[tuple[str, str]]:
    """The machine, pinning, versions and date the run recorded, as (name, words)."""
    conditions: dict[str, Any] = result.conditions or {}
    facts = []
    machine = conditions.get("machine") or {}
    if machine:
        cpus = machine.get("cpus_online")
        words = [str(machine.get("cpu_model") or "unknown CPU")]
        if cpus:
            words.append(f"{cpus} CPUs online")
        if machine.get("kernel"):
            words.append(f"Linux {machine['kernel']}")
        facts.append(("machine", ", ".join(words)))
    if conditions.get("pinning"):
        facts.append(("pinning", str(conditions["pinning"])))
    versions = []
    if conditions.get("layerbench_version"):
        versions.append(f"layerbench {conditions['layerbench_version']}")
    if conditions.get("python"):
        versions.append(f"Python {conditions['python']}")
    servers = dict(conditions.get("server_versions") or {})
    if isinstance(result, MatrixResult):  # a matrix records its versions per column
        for column in result.columns:
            servers.update(column.versions)
    versions += [f"{name} {version}" for name, version in servers.items()]
    if versions:
        facts.append(("versions", ", ".join(versions)))
    when = _date(result.started_at, result.finished_at)
    if when:
        facts.append(("date", when + (" (interrupted)" if result.interrupted else "")))
    return facts


def _date(started: str | None, finished: str | None) -> str:
    """``2026-11-27`` (or ``2026-11-27 to 2026-11-28``) from ISO timestamps: the day a run
    recorded, not its hour."""
    if not started:
        return ""
    day = started.partition("T")[0]
    end = (finished or started).partition("T")[0]
    return day if end == day else f"{day} to {end}"


def facts_sentence(facts: list[tuple[str, str]]) -> str:
    """``label rails-passenger; concurrency 10; …``: one line."""
    return "; ".join(f"{name} {words}" for name, words in facts)
