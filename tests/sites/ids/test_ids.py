"""The short id codec (version 0), the generator and ``layerbench ids``."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from layerbench.proc.work_dirs import MARKER, boot_id, make_work_directory
from layerbench_sites.ids.codec import (
    ID_PATTERN,
    MAX_NUMBER,
    InvalidIdError,
    decode,
    encode,
    scheme_version,
)
from layerbench_sites.ids.generate import new_number
from tests.cli_lines import said

SEED_VALUES = [(0, "0000000000000"), (35, "000000000000z"), (2**64 - 1, "3w5e11264sgsf")]


@pytest.mark.parametrize(("number", "identifier"), SEED_VALUES)
def test_the_seeds_values(number: int, identifier: str) -> None:
    assert encode(number) == identifier
    assert decode(identifier) == number


@given(st.integers(min_value=0, max_value=MAX_NUMBER))
def test_round_trip(number: int) -> None:
    identifier = encode(number)
    assert len(identifier) == 13
    assert ID_PATTERN.fullmatch(identifier)
    assert scheme_version(identifier) == 0
    assert decode(identifier) == number


@given(st.text(alphabet="0123456789abcdefghijklmnopqrstuvwxyz", min_size=13, max_size=13))
def test_every_13_character_string_decodes_to_its_only_encoding_or_is_refused(text: str) -> None:
    try:
        number = decode(text)
    except InvalidIdError as error:
        assert "beyond the largest id" in str(error)
        assert int(text, 36) > MAX_NUMBER
    else:
        assert encode(number) == text


def test_the_pattern_is_the_seeds() -> None:
    assert ID_PATTERN.fullmatch("0" * 13)
    assert ID_PATTERN.fullmatch("550e8400e29b41d4a716446655440000")  # a UUID's 32 hex digits
    assert ID_PATTERN.fullmatch("a-b-c-d-e-f-g")
    for bad in ("0" * 12, "0" * 33, "-000000000000", "000000000000-", "000000000000Z"):
        assert not ID_PATTERN.fullmatch(bad), bad
    assert not ID_PATTERN.fullmatch("0" * 13 + "\n")


@pytest.mark.parametrize("number", [-1, 2**64, 2**70, 1.0, True, "5", None])
def test_encode_refuses_what_is_not_a_64_bit_number(number: object) -> None:
    with pytest.raises(InvalidIdError):
        encode(number)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("identifier", "reason"),
    [
        ("000000000000Z", "outside 0-9, a-z"),
        ("00000000000_0", "outside 0-9, a-z"),
        ("0000000000000\n", "outside 0-9, a-z"),
        (" 000000000000", "outside 0-9, a-z"),
        ("000000000000", "12 characters"),
        ("", "0 characters"),
        ("-00000000000-", "starts or ends with '-'"),
        ("00000-0000000", "no '-'"),
        ("zzzzzzzzzzzzz", "beyond the largest id"),
        ("3w5e11264sgsg", "beyond the largest id"),
        ("00000000000000", "no known id scheme has that length"),
    ],
)
def test_decode_refuses_with_a_reason(identifier: str, reason: str) -> None:
    with pytest.raises(InvalidIdError, match=re.escape(reason)):
        decode(identifier)


def test_generated_numbers_cover_the_whole_64_bit_range() -> None:
    """The seed's generator only reached the first 1 % of the range. Of 2,000 draws from the
    whole range, the chance that none lies in the top half, or none below 1 %, or that the
    largest is under 2**63, is below 2**-1000: a generator confined to part of the space
    fails here."""
    numbers = [new_number() for _ in range(2000)]
    assert all(0 <= n <= MAX_NUMBER for n in numbers)
    assert max(numbers) >= 2**63
    assert sum(n >= 2**63 for n in numbers) > 800
    assert any(n < MAX_NUMBER // 100 for n in numbers)
    assert any(n.bit_length() == 64 for n in numbers)
    assert len(set(numbers)) == len(numbers)


def layerbench_ids(
    *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "layerbench.cli", "ids", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
    )


@pytest.mark.parametrize(
    ("args", "stdout"),
    [
        (["encode", "35"], "000000000000z\n"),
        (["encode", str(2**64 - 1)], "3w5e11264sgsf\n"),
        (["decode", "3w5e11264sgsf"], f"{2**64 - 1}\n"),
    ],
)
def test_cli_encodes_and_decodes(args: list[str], stdout: str) -> None:
    completed = layerbench_ids(*args)
    assert (completed.returncode, completed.stdout, completed.stderr) == (0, stdout, "")


def test_cli_generates_well_formed_distinct_ids() -> None:
    completed = layerbench_ids("gen", "-n", "5000")
    assert completed.returncode == 0
    lines = completed.stdout.splitlines()
    assert len(lines) == 5000 == len(set(lines))
    assert all(len(line) == 13 and decode(line) >= 0 for line in lines)


def test_cli_check() -> None:
    assert layerbench_ids("check", "000000000000z").returncode == 0
    completed = layerbench_ids("check", "000000000000Z")
    assert completed.returncode == 1
    assert said(completed.stderr).startswith("layerbench: error: ")
    assert "outside 0-9, a-z" in completed.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["encode", "-1"], "out of range"),
        (["encode", str(2**64)], "out of range"),
        (["encode", "12x"], "not a decimal number"),
        (["decode", "zzzzzzzzzzzzz"], "beyond the largest id"),
        (["decode", "abc"], "3 characters"),
        (["gen", "-n", "0"], "count must be"),
        (["gen", "-n", "many"], "not a decimal number"),
    ],
)
def test_cli_bad_input_is_one_line(args: list[str], message: str) -> None:
    completed = layerbench_ids(*args)
    assert completed.returncode == 2  # a usage error
    assert completed.stdout == ""
    assert len(said(completed.stderr).splitlines()) == 1
    assert message in completed.stderr
    assert "Traceback" not in completed.stderr


def test_cli_bad_input_after_a_killed_run_is_still_its_one_line(tmp_path: Path) -> None:
    # On a busy machine another run was killed: the command sweeps what it left and says so
    # first; its own error is still one line, the last.
    left = make_work_directory("layerbench-test-", tmp_path)
    (left / MARKER).write_text(f"{os.getpid()} 1 {boot_id()}\n")  # an owner long gone
    completed = layerbench_ids("encode", "-1", env={**os.environ, "TMPDIR": str(tmp_path)})
    assert completed.returncode == 2
    assert completed.stderr.startswith("layerbench: removed 1 work directory left in ")
    assert said(completed.stderr) == completed.stderr.splitlines(keepends=True)[-1]
    assert said(completed.stderr).startswith("layerbench: error: ")
    assert "out of range" in said(completed.stderr)
