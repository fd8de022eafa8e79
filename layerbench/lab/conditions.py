"""The conditions a result was measured under: machine, versions, pinning, command lines."""

import os
import platform
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from layerbench import __version__
from layerbench.lab.cpu_layout import CpuLayout
from layerbench.typed_documents import JsonObject

PYTHON_PACKAGES = ("gunicorn", "SQLAlchemy", "Jinja2")


def collect_conditions(layout: CpuLayout) -> JsonObject:
    """What every run records first (read back by results/measured_under.py); the run adds
    its services, server versions and load commands as it goes."""
    return {
        "layerbench_version": __version__,
        "machine": {
            "cpu_model": _cpu_model(),
            "cpus_online": os.cpu_count(),
            "cpus_usable": len(os.sched_getaffinity(0)),
            "kernel": platform.release(),
            "cpu_governor": _read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
        },
        "python": platform.python_version(),
        "packages": {name: _package_version(name) for name in PYTHON_PACKAGES},
        "pinning": layout.describe(),
        "server_versions": {},
        "load_commands": {},
    }


def _cpu_model() -> str | None:
    text = _read("/proc/cpuinfo") or ""
    for line in text.splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return None


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return None


def _package_version(name: str) -> str | None:
    try:
        return version(name)
    except PackageNotFoundError:
        return None
