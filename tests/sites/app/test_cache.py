import time

from layerbench_sites.app.cache import LocalCache, entry_bytes


def test_get_set_delete() -> None:
    cache = LocalCache()
    assert cache.get("k") is None
    cache.set("k", b"v")
    assert cache.get("k") == b"v"
    cache.delete("k")
    assert cache.get("k") is None
    cache.delete("k")  # deleting what is absent is fine


def test_entries_expire() -> None:
    cache = LocalCache()
    cache.set("k", b"v", ttl_s=0.01)
    time.sleep(0.02)
    assert cache.get("k") is None


def test_least_recently_used_entry_is_evicted_first() -> None:
    cache = LocalCache(max_bytes=2 * entry_bytes("a", b"1"))
    cache.set("a", b"1")
    cache.set("b", b"2")
    assert cache.get("a") == b"1"  # a is now more recent than b
    cache.set("c", b"3")
    assert cache.get("b") is None
    assert cache.get("a") == b"1"
    assert cache.get("c") == b"3"


def test_the_bound_is_in_bytes_and_never_exceeded() -> None:
    cache = LocalCache(max_bytes=10_000)
    for number in range(100):
        cache.set(f"k{number}", bytes(1_000))
        assert cache.size_bytes <= 10_000
    kept = [number for number in range(100) if cache.get(f"k{number}") is not None]
    assert kept == list(range(100 - len(kept), 100)) and 5 <= len(kept) <= 8
    cache.set("k99", b"small")  # replacing an entry counts its new size, not both
    assert cache.size_bytes == sum(
        entry_bytes(f"k{n}", bytes(1_000)) for n in kept[:-1]
    ) + entry_bytes("k99", b"small")


def test_a_value_over_the_bound_is_not_kept_and_drops_the_old_one() -> None:
    cache = LocalCache(max_bytes=1_000)
    cache.set("k", b"v")
    cache.set("k", bytes(1_000))
    assert cache.get("k") is None
    assert cache.size_bytes == 0
