"""Every child of a cost pass imports the same compiled modules: the native child that runs
first compiles them into the pass's own bytecode cache, the counted children only read it,
whatever the caller's environment says of writing bytecode."""

import pytest

from layerbench.cost.cost_run import HASH_SEED, child_environment


@pytest.mark.parametrize("caller_writes", [True, False])
def test_the_compiling_child_writes_the_cache_and_the_counted_ones_only_read_it(
    monkeypatch: pytest.MonkeyPatch, caller_writes: bool
) -> None:
    if caller_writes:
        monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    else:
        monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    cache = "../bytecode"
    compiling = child_environment({"APP": "x"}, bytecode=cache, compiles=True)
    counted = child_environment({"APP": "x"}, bytecode=cache)
    for environment in (compiling, counted):
        assert environment["PYTHONPYCACHEPREFIX"] == cache
        assert environment["PYTHONHASHSEED"] == HASH_SEED
        assert environment["APP"] == "x"
    assert "PYTHONDONTWRITEBYTECODE" not in compiling
    assert counted["PYTHONDONTWRITEBYTECODE"] == "1"
