"""HdrHistogram's interchange encoding, read and written, and histograms added exactly.

The load generator writes its latency histogram (``latency_histogram_us``) in the form
HdrHistogram's Java, C and Rust libraries exchange: V2 compressed, in standard base64. The
bytes are a big-endian cookie ``0x1c849314`` and length, then a zlib stream of the V2 form:
cookie ``0x1c849313``, payload length, normalizing index offset (0), significant digits,
lowest discernible and highest trackable values (u64), the integer-to-double ratio (1.0),
then the counts array from index 0, each count a zigzag LEB128-64b9B number (at most 9
bytes, the ninth with 8 bits), a negative one standing for that many empty buckets.

References: HdrHistogram's ``AbstractHistogram.encodeIntoCompressedByteBuffer`` and
``ZigZagEncoding`` (Java), and the Rust crate's ``serialization`` module (``hdrhistogram``
7.6, the one load/ uses). The bucket arithmetic (``index_of``, ``value_of``,
``highest_equivalent``) follows that crate's ``lib.rs``, and a percentile is read by the load
generator's rule (:mod:`~layerbench.stats.percentile`): the nearest rank ⌈p x n / 1000⌉ with
p in per mille, in integers (no floating point quantile, where 99.9 / 100 is a hair above
0.999), and the highest value of the bucket that holds it. A percentile read here is the one
the load generator reports from the same histogram.

Adding histograms adds their counts, bucket by bucket: percentiles of several clients'
runs are those of all their requests together, never an average of percentiles.
"""

import base64
import binascii
import struct
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from layerbench.stats.percentile import nearest_rank

# The V2 cookies with the word size bits (0x10) the libraries set; a reader masks them off
# (Java's ``getCookieBase``).
COMPRESSED_COOKIE = 0x1C849314
V2_COOKIE = 0x1C849313
_WORD_SIZE_BITS = 0xF0
_HEADER = struct.Struct(">IIIIQQd")  # cookie, payload length, offset, digits, low, high, ratio
_OUTER = struct.Struct(">II")  # cookie, compressed length
# The load generator's percentiles, as its JSON names them (``latency_us``), in per mille.
PERCENTILES_PER_MILLE = {
    "p50": 500,
    "p66": 660,
    "p75": 750,
    "p80": 800,
    "p90": 900,
    "p95": 950,
    "p98": 980,
    "p99": 990,
    "p99_9": 999,
}


class HistogramEncodingError(ValueError):
    """The text is not a histogram in HdrHistogram's V2 compressed encoding."""


@dataclass(frozen=True)
class Layout:
    """Where a value is counted: HdrHistogram's buckets for these bounds and precision."""

    lowest_discernible_value: int
    highest_trackable_value: int
    significant_digits: int
    unit_magnitude: int = field(init=False)
    sub_bucket_half_count_magnitude: int = field(init=False)
    sub_bucket_mask: int = field(init=False)

    def __post_init__(self) -> None:
        if not 1 <= self.significant_digits <= 5 or self.lowest_discernible_value < 1:
            raise HistogramEncodingError(
                f"histogram bounds not HdrHistogram's: {self.significant_digits} digits, "
                f"lowest {self.lowest_discernible_value}"
            )
        unit = self.lowest_discernible_value.bit_length() - 1  # floor(log2)
        single_unit = 2 * 10**self.significant_digits
        sub_bucket_count_magnitude = (single_unit - 1).bit_length()  # ceil(log2)
        object.__setattr__(self, "unit_magnitude", unit)
        object.__setattr__(
            self, "sub_bucket_half_count_magnitude", max(sub_bucket_count_magnitude, 1) - 1
        )
        object.__setattr__(self, "sub_bucket_mask", ((1 << sub_bucket_count_magnitude) - 1) << unit)

    @property
    def _half_count(self) -> int:
        return 1 << self.sub_bucket_half_count_magnitude

    def _bucket_of(self, value: int) -> int:
        return (
            (value | self.sub_bucket_mask).bit_length()
            - 1
            - (self.unit_magnitude + self.sub_bucket_half_count_magnitude)
        )

    def index_of(self, value: int) -> int:
        """The counts array's index at which ``value`` is counted."""
        bucket = self._bucket_of(value)
        sub_bucket = value >> (bucket + self.unit_magnitude)
        return (
            ((bucket + 1) << self.sub_bucket_half_count_magnitude) + sub_bucket - self._half_count
        )

    def value_of(self, index: int) -> int:
        """The lowest value counted at ``index``."""
        bucket = (index >> self.sub_bucket_half_count_magnitude) - 1
        sub_bucket = (index & (self._half_count - 1)) + self._half_count
        if bucket < 0:
            sub_bucket -= self._half_count
            bucket = 0
        return sub_bucket << (bucket + self.unit_magnitude)

    def highest_equivalent(self, value: int) -> int:
        """The highest value counted in the same bucket as ``value``."""
        bucket = self._bucket_of(value)
        sub_bucket = value >> (bucket + self.unit_magnitude)
        lowest = sub_bucket << (bucket + self.unit_magnitude)
        return lowest + (1 << (self.unit_magnitude + bucket)) - 1


@dataclass(frozen=True)
class Histogram:
    """Counts by bucket index (only the non-empty ones), with the layout they index."""

    layout: Layout
    counts: Mapping[int, int]

    @property
    def total_count(self) -> int:
        return sum(self.counts.values())

    def value_at_per_mille(self, per_mille: int) -> int:
        """The ``per_mille`` ‰ percentile (0..1000): the highest value of the bucket that holds
        the nearest rank, counted from the lowest; 0 for an empty histogram."""
        if not 0 <= per_mille <= 1000:
            raise ValueError(f"{per_mille} per mille is outside 0..1000")
        total = self.total_count
        if total == 0:
            return 0
        wanted = nearest_rank(per_mille, total)
        seen = 0
        for index in sorted(self.counts):
            seen += self.counts[index]
            if seen >= wanted:
                return self.layout.highest_equivalent(self.layout.value_of(index))
        raise AssertionError("the counts add up to their total")

    def percentiles(self, max_value: int) -> dict[str, int]:
        """The load generator's percentiles (``latency_us``'s p50 … p99_9), each capped at the
        largest value recorded as it caps them (a bucket's top can exceed it)."""
        return {
            name: min(self.value_at_per_mille(per_mille), max_value)
            for name, per_mille in PERCENTILES_PER_MILLE.items()
        }


def record(layout: Layout, values: Iterable[int]) -> Histogram:
    """A histogram of ``values`` (each at least 0, at most the layout's highest value)."""
    counts: dict[int, int] = {}
    for value in values:
        if not 0 <= value <= layout.highest_trackable_value:
            raise ValueError(
                f"{value} is outside the histogram's 0..{layout.highest_trackable_value}"
            )
        index = layout.index_of(value)
        counts[index] = counts.get(index, 0) + 1
    return Histogram(layout, counts)


def add(histograms: Iterable[Histogram]) -> Histogram:
    """The histograms' counts added bucket by bucket; they must share one layout."""
    histograms = list(histograms)
    if not histograms:
        raise ValueError("no histogram to add")
    layout = histograms[0].layout
    counts: dict[int, int] = {}
    for histogram in histograms:
        if histogram.layout != layout:
            raise HistogramEncodingError(
                f"histograms of different layouts cannot be added: {layout} and {histogram.layout}"
            )
        for index, count in histogram.counts.items():
            counts[index] = counts.get(index, 0) + count
    return Histogram(layout, counts)


def _read_varint(payload: bytes, at: int) -> tuple[int, int]:
    """LEB128-64b9B: seven bits a byte, the ninth byte's eight; (value, next position)."""
    value = 0
    for shift in range(0, 56, 7):
        byte = payload[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, at
    return value | (payload[at] << 56), at + 1


def _write_varint(value: int) -> bytes:
    out = bytearray()
    for _ in range(8):
        if value < 0x80:
            out.append(value)
            return bytes(out)
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value & 0xFF)
    return bytes(out)


def _zigzag(number: int) -> int:
    return (number << 1) if number >= 0 else ((-number) << 1) - 1


def _unzigzag(number: int) -> int:
    return (number >> 1) ^ -(number & 1)


def decode(text: str) -> Histogram:
    """A histogram from its V2 compressed base64 text (``latency_histogram_us``)."""
    try:
        raw = base64.b64decode(text, validate=True)
        cookie, length = _OUTER.unpack_from(raw)
        if cookie & ~_WORD_SIZE_BITS != COMPRESSED_COOKIE & ~_WORD_SIZE_BITS:
            raise HistogramEncodingError(f"not a V2 compressed histogram (cookie {cookie:#x})")
        inner = zlib.decompress(raw[_OUTER.size : _OUTER.size + length])
        cookie, payload_length, offset, digits, low, high, ratio = _HEADER.unpack_from(inner)
    except (binascii.Error, struct.error, zlib.error) as error:
        raise HistogramEncodingError(f"not a histogram in V2 compressed base64: {error}") from None
    if cookie & ~_WORD_SIZE_BITS != V2_COOKIE & ~_WORD_SIZE_BITS or offset != 0 or ratio != 1.0:
        raise HistogramEncodingError(
            f"unsupported V2 histogram (cookie {cookie:#x}, offset {offset}, ratio {ratio})"
        )
    payload = inner[_HEADER.size : _HEADER.size + payload_length]
    counts: dict[int, int] = {}
    index = at = 0
    try:
        while at < len(payload):
            encoded, at = _read_varint(payload, at)
            number = _unzigzag(encoded)
            if number < 0:
                index -= number
            else:
                if number:
                    counts[index] = number
                index += 1
    except IndexError:
        raise HistogramEncodingError("a histogram's counts end inside a number") from None
    return Histogram(Layout(low, high, digits), counts)


def encode(histogram: Histogram) -> str:
    """``histogram`` in the V2 compressed base64 text, as HdrHistogram's libraries write it
    (the counts from index 0 to the last non-empty one, runs of empty buckets as one number)."""
    payload = bytearray()
    index = 0
    for occupied in sorted(histogram.counts):
        count = histogram.counts[occupied]
        if not count:
            continue
        gap = occupied - index
        if gap == 1:
            payload += _write_varint(_zigzag(0))
        elif gap > 1:
            payload += _write_varint(_zigzag(-gap))
        payload += _write_varint(_zigzag(count))
        index = occupied + 1
    layout = histogram.layout
    header = _HEADER.pack(
        V2_COOKIE,
        len(payload),
        0,
        layout.significant_digits,
        layout.lowest_discernible_value,
        layout.highest_trackable_value,
        1.0,
    )
    compressed = zlib.compress(header + bytes(payload))
    return base64.b64encode(_OUTER.pack(COMPRESSED_COOKIE, len(compressed)) + compressed).decode()
