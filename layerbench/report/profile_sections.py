"""The HTML report's profiles (``ladder --profile``, ``matrix --profile``): per profiled rung or
cell its layer table, its flame graph and its samples as collapsed-stack text (in a
``<details>``, for other tools); per profiled rung whose reference rung (the one its ``vs
above`` is against) was profiled too, the difference graph of the two: what the rung's layer
adds (``orm`` against ``db-raw``); per profiled cell, the difference graph against its row's
first column's cell."""

from html import escape

from layerbench.ladder.ladder_result import LadderResult
from layerbench.matrix.matrix_result import Cell, MatrixResult
from layerbench.profile.collapsed_stacks import to_collapsed
from layerbench.profile.flame_svg import difference_graph_svg, flame_graph_svg
from layerbench.profile.rung_profile import RungProfile

STYLE = """
div.flame { overflow-x: auto; margin: 1em 0 } div.flame svg { display: block }
details pre { max-height: 20em; overflow: auto; font-size: 11px }
"""


def profile_sections(result: LadderResult) -> list[str]:
    """``ladder --profile``: a rung's difference graph is against its reference rung. Nothing
    for a run without profiles."""
    profiled = [(result.label(rung), rung.profile) for rung in result.rungs if rung.profile]
    differences = [
        (result.label(above), above.profile, result.label(rung), rung.profile)
        for rung, above in zip(result.rungs, result.references(), strict=True)
        if rung.profile is not None and above is not None and above.profile is not None
    ]
    return profiles_html(profiled, differences)


def matrix_profile_sections(result: MatrixResult) -> list[str]:
    """``matrix --profile``: a cell's difference graph is against its row's first column's
    cell (what that configuration adds to, or saves from, the first). Nothing for a run
    without profiles."""
    profiled = [(_cell_label(cell), cell.profile) for cell in result.cells if cell.profile]
    differences = []
    first = result.first_column
    for cell in result.cells:
        reference = result.cell(first, cell.row) if first is not None else None
        if cell.profile is None or reference is None or reference is cell:
            continue
        if reference.profile is not None:
            differences.append(
                (_cell_label(reference), reference.profile, _cell_label(cell), cell.profile)
            )
    return profiles_html(profiled, differences)


def _cell_label(cell: Cell) -> str:
    return f"{cell.column} c={cell.concurrency}"


def profiles_html(
    profiled: list[tuple[str, RungProfile]],
    differences: list[tuple[str, RungProfile, str, RungProfile]],
) -> list[str]:
    """Per profile (its label first) its layer table, flame graph and collapsed stacks; per
    difference (the older's label and profile, then the newer's) the newer's graph coloured
    by what it spends more or less of than the older."""
    if not profiled:
        return []
    order = _layer_order([profile for _, profile in profiled])
    parts = [
        "<h2>Where the CPU goes (profiles)</h2>"
        "<p>Samples of the server's workers holding the GIL, taken by py-spy during the "
        "measured trials; each charged to the layer of its running frame.</p>"
    ]
    for label, profile in profiled:
        anchor = f"profile-{label.replace(' ', '-')}"
        parts.append(f'<h3 id="{escape(anchor)}">{escape(label)}</h3>')
        parts.append(_layer_table(profile))
        title = f"{label}: {profile.samples:,} samples"
        parts.append(
            '<div class="flame">'
            + flame_graph_svg(
                profile.stacks, title=title, layer_of=profile.layer_of, layer_order=order
            )
            + "</div>"
        )
        parts.append(
            f"<details><summary>{escape(label)}: collapsed stacks</summary>"
            f"<pre>{escape(to_collapsed(profile.stacks))}</pre></details>"
        )
    for old, before, new, after in differences:
        parts.append(f"<h3>{escape(new)} against {escape(old)}: what {escape(new)} adds</h3>")
        parts.append(
            '<div class="flame diff">'
            + difference_graph_svg(
                before.stacks,
                after.stacks,
                title=f"{new} against {old}",
                base_name=old,
                new_name=new,
            )
            + "</div>"
        )
    return [f"<style>{STYLE}</style>", *parts]


def _layer_order(profiles: list[RungProfile]) -> list[str]:
    """Every layer of the run, those with the most samples over all rungs first: each keeps
    its colour from one graph to the next."""
    totals: dict[str, int] = {}
    for profile in profiles:
        for share in profile.breakdown().layers:
            totals[share.layer] = totals.get(share.layer, 0) + share.self_share.count
    return sorted(totals, key=lambda layer: (-totals[layer], layer))


def _layer_table(profile: RungProfile) -> str:
    breakdown = profile.breakdown()
    covered = profile.sampled_cpu_fraction
    heading = f"{profile.samples:,} samples ({profile.sampler}, {profile.rate_hz} Hz)"
    if covered is not None:
        heading += f", standing for {100 * covered:.0f} % of the server's measured CPU"
    head = "".join(
        f"<th>{name}</th>"
        for name in ("layer", "self %", "95 % interval", "CPU µs/req", "inclusive %")
    )
    rows = []
    for share in breakdown.layers:
        own = share.self_share
        cpu = share.cpu_us_per_request
        cells = [
            f"{100 * own.value:.1f}",
            f"{100 * own.low:.1f} to {100 * own.high:.1f}",
            "" if cpu is None else f"{cpu:,.1f}",
            f"{100 * share.inclusive_share.value:.1f}",
        ]
        rows.append(
            f"<tr><td>{escape(share.layer)}</td>"
            + "".join(f'<td class="n">{cell}</td>' for cell in cells)
            + "</tr>"
        )
    return f'<p>{escape(heading)}</p><table class="layers"><tr>{head}</tr>{"".join(rows)}</table>'
