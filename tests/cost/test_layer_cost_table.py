"""cost --by-layer's table: per rung each layer's median instructions per request over the
repeats, its share of the rung, the spread; a layer with nothing of its own is left out."""

from layerbench.cost.cost_result import CostResult, RequestCost, read_cost
from layerbench.cost.layer_cost_table import layer_cost_lines


def result() -> CostResult:
    return CostResult(
        options={"requests": 100, "warmup": 20},
        conditions={},
        requests=[RequestCost("orm", [1000.0, 1000.0, 1010.0])],
        by_layer={
            "orm": [
                {"CPython": 900.0, "libc.so": 100.0, "libffi.so": 0.0},
                {"CPython": 900.0, "libc.so": 100.0, "libffi.so": 0.0},
                {"CPython": 910.0, "libc.so": 100.0, "libffi.so": 0.0},
            ]
        },
    )


def test_each_layer_with_its_median_share_and_spread() -> None:
    lines = layer_cost_lines(result())
    assert lines[0] == "orm: instructions per request by layer (shared object)"
    rows = {line.split()[0]: line.split()[1:] for line in lines[2:]}
    assert rows["CPython"] == ["900", "90.0", "0.64"]
    assert rows["libc.so"] == ["100", "10.0", "0.00"]
    assert "libffi.so" not in rows


def test_the_layers_read_back_from_the_document() -> None:
    again = read_cost(result().to_dict())
    assert again.by_layer == result().by_layer
    assert layer_cost_lines(again) == layer_cost_lines(result())
