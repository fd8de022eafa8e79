"""A profile's layers as a text table: each layer's self share of the samples with its 95 %
interval, what that is in server CPU per request, and its inclusive share; a line above says
how many samples, and how much of the server's measured CPU they stand for."""

from layerbench.profile.rung_profile import RungProfile
from layerbench.render.text_table import format_table


def profile_heading(label: str, profile: RungProfile) -> str:
    covered = profile.sampled_cpu_fraction
    coverage = (
        f", standing for {100 * covered:.0f} % of the server's measured CPU"
        if covered is not None
        else ""
    )
    return (
        f"{label}: {profile.samples:,} samples of the workers holding the GIL "
        f"({profile.sampler}, {profile.rate_hz} Hz){coverage}"
    )


def layer_table(label: str, profile: RungProfile, colour: bool | None = None) -> list[str]:
    """The heading, then the table (a total row last); a profile without samples says so."""
    heading = profile_heading(label, profile)
    notes = [f"  py-spy: {failure}" for failure in profile.failures]
    breakdown = profile.breakdown()
    if not breakdown.samples:
        return [heading, "  no samples: the workers never held the GIL while sampled", *notes]
    rows = [["layer", "self %", "95 % interval", "CPU µs/req", "inclusive %"]]
    for share in breakdown.layers:
        own = share.self_share
        rows.append(
            [
                share.layer,
                f"{100 * own.value:.1f}",
                f"{100 * own.low:.1f} to {100 * own.high:.1f}",
                _us(share.cpu_us_per_request),
                f"{100 * share.inclusive_share.value:.1f}",
            ]
        )
    total = sum(share.self_share.count for share in breakdown.layers) / breakdown.samples
    rows.append(["total", f"{100 * total:.1f}", "", _us(breakdown.server_cpu_us_per_request), ""])
    lines = format_table(rows, 1, colour=colour)
    return [heading, *(f"  {line}" for line in lines), *notes]


def _us(value: float | None) -> str:
    return "—" if value is None else f"{value:,.1f}"
