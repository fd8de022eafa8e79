"""``smoke --profile``'s profiles kept with the baseline, and what a change added: each URL's
profile now against the baseline's (or the reference's, with ``--against``), as a difference
flame graph written to ``--profile-diff`` and a short text of what grew most
(:mod:`layerbench.profile.profile_change`).

A baseline saved with ``--profile`` holds each URL's profile under ``profiles``, as a ladder's
rung holds its own (:mod:`layerbench.profile.rung_profile`)."""

import re
from collections.abc import Mapping
from pathlib import Path

from layerbench.errors import ConfigError
from layerbench.lab.baseline_file import read_document
from layerbench.profile.flame_svg import difference_graph_svg
from layerbench.profile.profile_change import change_lines, profile_change
from layerbench.profile.rung_profile import RungProfile
from layerbench.store.document_file import check_writable
from layerbench.typed_documents import JsonObject

PROFILES_FIELD = "profiles"


def with_profiles(document: JsonObject, profiles: Mapping[str, RungProfile]) -> JsonObject:
    """The baseline's document with each URL's profile (none without ``--profile``)."""
    if not profiles:
        return document
    return {**document, PROFILES_FIELD: {url: p.to_dict() for url, p in profiles.items()}}


def baseline_profiles(path: Path) -> dict[str, RungProfile]:
    """The profiles a baseline holds (none in one saved without ``--profile``); a malformed
    one is refused in one line naming its URL."""
    document = read_document(path)
    stored = document.get(PROFILES_FIELD) if isinstance(document, dict) else None
    if stored is None:
        return {}
    if not isinstance(stored, dict):
        raise ConfigError(f"{path}: {PROFILES_FIELD} is not an object of URLs")
    return {
        url: RungProfile.from_dict(profile, f"{path}: {PROFILES_FIELD}[{url}]")
        for url, profile in stored.items()
    }


def check_profile_diff(
    diff_path: Path | None,
    profiling: bool,
    before: Mapping[str, RungProfile] | None,
    *,
    saving: bool = False,
) -> None:
    """``--profile-diff`` refused before anything runs when it cannot be drawn: without
    ``--profile``, when saving a baseline, or against a baseline saved without a profile
    (``before`` None: the reference is measured in this run)."""
    if diff_path is None:
        return
    if saving:
        raise ConfigError("--profile-diff compares with a baseline: not with --save")
    if not profiling:
        raise ConfigError("--profile-diff draws the profiles' difference: give --profile")
    if before is not None and not before:
        raise ConfigError(
            "--profile-diff: the baseline holds no profile; save it with --save --profile"
        )
    check_writable(diff_path, "the difference graph")


def profile_changes(
    before: Mapping[str, RungProfile],
    now: Mapping[str, RungProfile],
    diff_path: Path | None,
    reference: str = "baseline",
) -> list[str]:
    """Per URL profiled on both sides, the text of what grew most; with ``diff_path``, its
    difference graph written there (one URL), or beside it with the URL in its name."""
    urls = [url for url in now if url in before]
    paths = graph_paths(diff_path, urls) if diff_path is not None else {}
    lines: list[str] = []
    for url in urls:
        change = profile_change(before[url], now[url])
        lines += ["", *change_lines(url, change)]
        if url in paths:
            path = paths[url]
            svg = difference_graph_svg(
                before[url].stacks,
                now[url].stacks,
                title=f"{url}: now against the {reference}",
                base_name=reference,
                new_name="now",
            )
            path.write_text(svg)
            lines.append(f"  difference graph: {path}")
    return lines


def graph_paths(path: Path, urls: list[str]) -> dict[str, Path]:
    """Each URL's difference graph's file: ``path`` for one URL; for several, beside it with
    the URL in its name (``diff-api-items.svg``), numbered where two URLs would share a name
    (``/a/b`` and ``/a-b``)."""
    if len(urls) == 1:
        return {urls[0]: path}
    paths: dict[str, Path] = {}
    taken: set[str] = set()
    for url in urls:
        slug = re.sub(r"[^A-Za-z0-9]+", "-", url).strip("-") or "root"
        name, number = slug, 1
        while name in taken:
            number += 1
            name = f"{slug}-{number}"
        taken.add(name)
        paths[url] = path.with_name(f"{path.stem}-{name}{path.suffix or '.svg'}")
    return paths
