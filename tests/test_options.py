import pytest

from layerbench.errors import ConfigError
from layerbench.lab.options import LadderOptions


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"concurrency": 0}, "concurrency must be at least 1"),
        ({"duration_s": 0}, "duration must be positive"),
        ({"warmup_s": -1}, "warm-up cannot be negative"),
        ({"workers": 0}, "workers must be at least 1"),
        ({"port": 70000}, "port must be between 1 and 65535"),
        ({"rungs": ("string", "nope")}, "unknown rung nope; the rungs are: static, string"),
        ({"rungs": ()}, "no rungs"),
    ],
)
def test_wrong_options_are_refused_with_a_reason(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        LadderOptions(**kwargs)  # type: ignore[arg-type]
