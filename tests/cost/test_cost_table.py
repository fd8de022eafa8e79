"""``layerbench cost``'s table and ``ladder --instructions``' beside req/s: "layer adds" and
"vs above" compare each rung with the first of its chain counted above it (Rung.chain, the
ladder's own rule: results/chain_references.py), not with the row printed above it; a cost
document keeps each rung's chain and reads it back."""

import json

from layerbench.cost.cost_result import CostResult, read_cost
from layerbench.cost.cost_table import cost_lines
from layerbench.ladder.ladder_instructions import ladder_instructions_lines
from layerbench.rungs.definitions import FULL_LADDER
from tests.report_documents import full_ladder

CHAINS = {rung.name: list(rung.chain) for rung in FULL_LADDER}
# Instructions per request of a few of the full ladder's rungs: memcached and Redis each add a
# layer to the string (beside each other), MySQLdb to _mysql.
COUNTS = {
    "string": 5_000.0,
    "memcached": 40_000.0,
    "redis": 60_000.0,
    "mariadb-raw": 30_000.0,
    "mariadb": 45_000.0,
}


def cost_document() -> dict[str, object]:
    return {
        "version": 1,
        "kind": "cost",
        "options": {"requests": 100, "warmup": 20, "repeats": 1, "profile": None},
        "conditions": {"hash_seed": "0"},
        "requests": [
            {"label": name, "app": "bare", "chain": CHAINS[name], "instructions_per_request": [n]}
            for name, n in COUNTS.items()
        ],
        "harness_instructions_per_request": [6_900.0],
        "elapsed_s": 10.0,
        "profile": None,
    }


def table_rows(lines: list[str]) -> dict[str, list[str]]:
    return {line.split()[0]: line.split() for line in lines[1 : 1 + len(COUNTS)]}


def test_a_rung_is_against_the_first_of_its_chain_counted() -> None:
    rows = table_rows(cost_lines(read_cost(cost_document())))
    # Redis against the string (its chain), not memcached, the row above it.
    assert rows["redis"][1:4] == ["60,000", "+55,000", "12.00x"]
    assert rows["mariadb-raw"][1:4] == ["30,000", "+25,000", "6.00x"]
    # MySQLdb against _mysql, the row above it and the first of its chain.
    assert rows["mariadb"][1:4] == ["45,000", "+15,000", "1.50x"]
    # The rung each is against is named when it is not the row above.
    assert rows["redis"][-1] == "string"
    assert rows["string"][1:3] == ["5,000", "1"]  # the top: nothing to compare with


def test_the_chain_is_kept_and_read_back() -> None:
    document = cost_document()
    result = read_cost(document)
    assert [request.chain for request in result.requests] == [
        tuple(CHAINS[name]) for name in COUNTS
    ]
    again = read_cost(json.loads(json.dumps(result.to_dict())))
    assert again.to_dict() == result.to_dict()


def test_one_chain_names_no_reference() -> None:
    """The default ladder's rungs are one chain: its table stays as it was, no column added."""
    document = cost_document()
    document["requests"] = [
        {"label": "string", "chain": ["static"], "instructions_per_request": [5_000.0]},
        {"label": "cache", "chain": ["string", "static"], "instructions_per_request": [8_000.0]},
    ]
    lines = cost_lines(read_cost(document))
    assert lines[0].split() == ["rung", "instr/req", "layer", "adds", "vs", "above", "vs",
                                "top", "CV", "%", "repeats"]  # fmt: skip
    assert lines[2].split()[:4] == ["cache", "8,000", "+3,000", "1.60x"]


def test_beside_req_s_against_the_first_of_its_chain_counted() -> None:
    """``ladder --instructions``: the ORM (on PostgreSQL, against psycopg, then the string)
    against the string when psycopg was not counted, not memcached, the row counted above."""
    result = full_ladder()
    document = cost_document()
    document["requests"] = [
        {"label": name, "chain": CHAINS[name], "instructions_per_request": [n]}
        for name, n in (("string", 5_000.0), ("memcached", 40_000.0), ("orm", 670_000.0))
    ]
    result.instructions = read_cost(document)
    rows = {line.split()[0]: line.split() for line in ladder_instructions_lines(result)[1:-1]}
    assert rows["orm"][2:4] == ["670,000", "+665,000"]
    assert rows["memcached"][2:4] == ["40,000", "+35,000"]


def test_a_cost_result_without_chains_compares_the_rows() -> None:
    """A document from before chains (and smoke's URLs): each row against the one above."""
    document = cost_document()
    for row in document["requests"]:  # type: ignore[attr-defined]
        del row["chain"]
    result: CostResult = read_cost(document)
    rows = table_rows(cost_lines(result))
    assert rows["redis"][1:4] == ["60,000", "+20,000", "1.50x"]
