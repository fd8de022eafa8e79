"""What a run was measured under, in words, for every report that shows a stored run: its label,
its load (concurrency, duration, warm-up, repeats, keep-alive) and the conditions it recorded
(machine, pinning, versions, date). The terminal shows the load in its progress header; the
Markdown and HTML reports show these, and a docs page's table is captioned with them."""

from layerbench.ladder.ladder_result import LadderResult
from layerbench.matrix.matrix_result import MatrixResult
from layerbench.results.measured_under import Machine


def load_facts(result: LadderResult | MatrixResult) -> list[tuple[str, str]]:
    """The run's label and load, as (name, words)."""
    asked = result.asked
    facts = []
    if asked.label:
        facts.append(("label", asked.label))
    if isinstance(result, MatrixResult):
        facts.append(("servers", ", ".join(column.label for column in result.columns)))
        facts.append(("rung", result.asked.rung or ""))
        levels = result.asked.concurrency or ()
        facts.append(("concurrency", ", ".join(str(level) for level in levels)))
    else:
        facts.append(("server", result.asked.server or ""))
        if len(result.apps) > 1 or result.apps != ["bare"]:
            facts.append(("applications", ", ".join(result.apps)))
        if result.asked.full:
            facts.append(("ladder", "full (--full)"))
        concurrency = result.asked.concurrency
        facts.append(("concurrency", "" if concurrency is None else str(concurrency)))
    duration, warmup = asked.duration_s, asked.warmup_s
    if duration is not None:
        per = "cell" if isinstance(result, MatrixResult) else "trial"
        after = "" if warmup is None else f", after {warmup:g} s warm-up"
        rerun = result.asked.rerun_warmup_s if isinstance(result, MatrixResult) else None
        if rerun is not None:
            after += f" ({rerun:g} s before a level measured again on the same start)"
        facts.append(("duration", f"{duration:g} s measured per {per}{after}"))
    if asked.repeats is not None:
        facts.append(("repeats", f"{asked.repeats} (interleaved)"))
    if asked.keep_alive is not None:
        facts.append(("keep-alive", "on" if asked.keep_alive else "off"))
    return facts


def condition_facts(result: LadderResult | MatrixResult) -> list[tuple[str, str]]:
    """The machine, pinning, versions and date the run recorded, as (name, words)."""
    conditions = result.measured_under
    facts = []
    machine = conditions.machine
    if machine is not None and machine != Machine():
        words = [machine.cpu_model or "unknown CPU"]
        if machine.cpus_online:
            words.append(f"{machine.cpus_online} CPUs online")
        if machine.kernel:
            words.append(f"Linux {machine.kernel}")
        facts.append(("machine", ", ".join(words)))
    if conditions.pinning:
        facts.append(("pinning", conditions.pinning))
    versions = []
    if conditions.layerbench_version:
        versions.append(f"layerbench {conditions.layerbench_version}")
    if conditions.python:
        versions.append(f"Python {conditions.python}")
    servers = dict(conditions.server_versions or {})
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
