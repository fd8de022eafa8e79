"""The cache backend on memcached (pymemcache, a pool of connections shared by threads): one
server, or a pool of them (``memcached://H1:P1,H2:P2,…``).

A pool is pymemcache's ``HashClient``: each key goes to one server, the one its hasher picks,
``RendezvousHash`` (highest random weight: every server scores ``murmur3_32("HOST:PORT-KEY")``
and the highest wins), a consistent hashing scheme: a server that leaves takes only its own
keys with it, the others' stay where they are. A server that does not answer is a miss, not an
error (``ignore_exc``): its keys are missed (their pages built again) while the others' still
hit; after 2 more failed tries, 1 s apart, it is left out (its keys then go to the others'
servers) and tried again after 60 s (pymemcache's defaults). One server alone has nowhere
else to go: its failure is the request's error, as before."""

import hashlib
import math

from layerbench.services.memcached import memcached_nodes

MAX_KEY_BYTES = 250
POOL_SIZE = 64


def memcached_key(key: str) -> str:
    """memcached keys are at most 250 bytes with no spaces or control characters; other keys
    (long URLs, say) go by their SHA-256."""
    raw = key.encode()
    if len(raw) <= MAX_KEY_BYTES and all(0x20 < byte < 0x7F for byte in raw):
        return key
    return "sha256:" + hashlib.sha256(raw).hexdigest()


class MemcachedCache:
    def __init__(self, url: str, timeout_s: float = 2.0) -> None:
        # pymemcache is the databases extra's, imported where used.
        from pymemcache.client.base import PooledClient
        from pymemcache.client.hash import HashClient

        self.nodes = memcached_nodes(url)
        options = {
            "connect_timeout": timeout_s,
            "timeout": timeout_s,
            "max_pool_size": POOL_SIZE,
            "no_delay": True,
        }
        self._client: PooledClient | HashClient
        if len(self.nodes) == 1:
            self._client = PooledClient(self.nodes[0], **options)
        else:
            self._client = HashClient(self.nodes, use_pooling=True, ignore_exc=True, **options)

    def get(self, key: str) -> bytes | None:
        value: bytes | None = self._client.get(memcached_key(key))
        return value

    def get_many(self, keys: list[str]) -> list[bytes | None]:
        names = [memcached_key(key) for key in keys]
        found: dict[str, bytes] = self._client.get_many(names)
        return [found.get(name) for name in names]

    def set(self, key: str, value: bytes, ttl_s: float | None = None) -> None:
        # memcached counts whole seconds, 0 meaning never; a fraction rounds up, never to 0.
        expire = 0 if ttl_s is None else max(1, math.ceil(ttl_s))
        self._client.set(memcached_key(key), value, expire=expire, noreply=False)

    def delete(self, key: str) -> None:
        self._client.delete(memcached_key(key), noreply=False)

    def close(self) -> None:
        self._client.close()
