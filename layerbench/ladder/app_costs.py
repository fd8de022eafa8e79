"""What each application costs, rung by rung (``ladder --apps``): its req/s, the server's CPU
seconds per 1,000 requests, the PSS of one worker (the mean of the server's processes that ran
during the measurement), and its cost over the bare application: its server CPU per request
divided by bare's (1.0x: as cheap; 3.0x: three times the CPU for the same answer)."""

from layerbench.ladder.ladder_result import LadderResult, RungResult
from layerbench.render.text_table import format_table
from layerbench.roles import SERVER_ROLE

MIB = 1024 * 1024
BARE = "bare"


TITLE = "what each application costs (server CPU per request over bare's):"
HEADER = ["app", "req/s", "server CPU s/1k", "PSS MiB/worker", "cost vs bare"]


def format_app_costs(result: LadderResult, *, colour: bool | None = None) -> str:
    """One table per rung, a row per application; empty when the run had one application."""
    tables = [
        "\n".join([f"{rung_name}:", *format_table(rows, 1, colour=colour)])
        for rung_name, rows in app_cost_rows(result)
    ]
    return f"{TITLE}\n\n" + "\n\n".join(tables) if tables else ""


def app_cost_rows(result: LadderResult) -> list[tuple[str, list[list[str]]]]:
    """Per rung, its table's rows (the header first); none when the run had one application."""
    apps = result.apps
    if len(apps) < 2:
        return []
    by_place = {(rung.app, rung.rung): rung for rung in result.rungs}
    rung_names = list(dict.fromkeys(rung.rung for rung in result.rungs))
    tables = []
    for rung_name in rung_names:
        bare = by_place.get((BARE, rung_name))
        rows = [list(HEADER)]
        for app in apps:
            rung = by_place.get((app, rung_name))
            rows.append([app, *_figures(rung, bare)])
        tables.append((rung_name, rows))
    return tables


def _figures(rung: RungResult | None, bare: RungResult | None) -> list[str]:
    if rung is None or rung.load is None:
        return [rung.status.value if rung else "", "", "", ""]
    cpu = _cpu_per_1000(rung)
    bare_cpu = _cpu_per_1000(bare) if bare is not None and bare.load is not None else None
    ratio = f"{cpu / bare_cpu:.1f}x" if cpu is not None and bare_cpu else ""
    pss = _pss_per_worker(rung)
    return [
        f"{rung.requests_per_s or 0:,.0f}",
        "" if cpu is None else f"{cpu:.3f}",
        "" if pss is None else f"{pss / MIB:.1f}",
        ratio,
    ]


def _cpu_per_1000(rung: RungResult) -> float | None:
    server = rung.usage.roles.get(SERVER_ROLE) if rung.usage else None
    if server is None or rung.load is None:
        return None
    return server.cpu_s_per_1000(rung.load.requests_completed)


def _pss_per_worker(rung: RungResult) -> float | None:
    server = rung.usage.roles.get(SERVER_ROLE) if rung.usage else None
    if server is None or not server.processes:
        return None
    workers = [p for p in server.processes if p.cpu_s > 0] or list(server.processes)
    return sum(p.pss_bytes for p in workers) / len(workers)
