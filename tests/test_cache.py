import time

from layerbench.app.cache import LocalCache


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
    cache = LocalCache(max_entries=2)
    cache.set("a", b"1")
    cache.set("b", b"2")
    assert cache.get("a") == b"1"  # a is now more recent than b
    cache.set("c", b"3")
    assert cache.get("b") is None
    assert cache.get("a") == b"1"
    assert cache.get("c") == b"3"
