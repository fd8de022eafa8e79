"""A replication counted over Apache's one-thread children keeps the same children from its start
to its end: Apache starts every child it may run with it (StartServers children of
ThreadsPerChild threads make MaxRequestWorkers) and ends none (MaxSpareThreads at least as many).
With fewer, Apache forked another child now and then while a count's one connection kept a child
busy, and under callgrind that child's import of the application lasted several windows: no two
agreed (django-pylons' mod_python column)."""

import math
import shlex

from layerbench.replicate.published import MATRIX, published
from layerbench.replicate.seed_figures import SeedExperiment
from layerbench.servers.apache import ApacheSettings
from layerbench.servers.server_settings import add_assignments, read_section


def apache_settings(command: str) -> ApacheSettings | None:
    """The Apache settings a matrix command gives every column (``--set apache.KEY=VALUE``), or
    None if it gives none."""
    words = shlex.split(command)
    assignments = [words[at + 1] for at, word in enumerate(words[:-1]) if word == "--set"]
    book = add_assignments({}, assignments)
    if "apache" not in book:
        return None
    return read_section(ApacheSettings, book, "apache")


def test_counted_one_thread_children_are_all_started_and_kept() -> None:
    checked = []
    for experiment in published():
        seed = experiment.experiment
        if experiment.kind != MATRIX or not isinstance(seed, SeedExperiment) or not seed.counted:
            continue
        settings = apache_settings(experiment.command)
        if settings is None or settings.threads_per_child != 1:
            continue
        most = math.ceil(settings.max_request_workers / settings.threads_per_child)
        assert settings.children_at_start() == most, experiment.name
        assert settings.max_spare_threads >= settings.max_request_workers, experiment.name
        checked.append(experiment.name)
    # The post's two experiments counted this way: a test that found none would prove nothing.
    assert {"django-preload", "django-pylons"} <= set(checked)


def test_a_child_short_of_the_most_is_found() -> None:
    """What the check above refuses: StartServers 1 grows as the load comes (the setting
    django-pylons had when its mod_python column could not be counted)."""
    settings = apache_settings(
        "matrix --set apache.threads_per_child=1 --set apache.max_request_workers=20 "
        "--set apache.start_servers=1 --set apache.min_spare_threads=1 "
        "--set apache.max_spare_threads=10"
    )
    assert settings is not None
    assert settings.children_at_start() < settings.max_request_workers
