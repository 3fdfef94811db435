"""A least-recently-used cache with hit statistics and optional expiry."""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable

logger = logging.getLogger("minipkg.cache")

_MISSING = object()


class CacheStats:
    """Counters kept by :class:`LRUCache`."""

    def __init__(self) -> None:
        self.hits = 0
        self.misses = 0
        self.evictions = 0

    @property
    def hit_ratio(self) -> float:
        total = self.hits + self.misses
        return self.hits / total if total else 0.0

    def __repr__(self) -> str:
        return (
            f"CacheStats(hits={self.hits}, misses={self.misses}, "
            f"evictions={self.evictions})"
        )


class LRUCache:
    """Keep at most ``capacity`` entries, dropping the least recently used.

    Entries may carry a time-to-live in seconds; an expired entry counts as
    a miss and is removed when it is next looked up.
    """

    def __init__(
        self,
        capacity: int = 128,
        ttl: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if capacity <= 0:
            raise ValueError("capacity must be positive")
        self.capacity = capacity
        self.ttl = ttl
        self._clock = clock
        self._data: OrderedDict[Hashable, tuple[object, float | None]] = OrderedDict()
        self.stats = CacheStats()

    def __len__(self) -> int:
        return len(self._data)

    def _expired(self, deadline: float | None) -> bool:
        return deadline is not None and self._clock() >= deadline

    def get(self, key: Hashable, default: object = None) -> object:
        """Return the cached value for ``key`` and mark it as recently used."""
        entry = self._data.get(key, _MISSING)
        if entry is _MISSING or self._expired(entry[1]):  # type: ignore[index]
            if entry is not _MISSING:
                del self._data[key]
            self.stats.misses += 1
            return default
        self._data.move_to_end(key)
        self.stats.hits += 1
        return entry[0]  # type: ignore[index]

    def put(self, key: Hashable, value: object, ttl: float | None = None) -> None:
        """Store ``value``, evicting the oldest entry when the cache is full."""
        ttl = self.ttl if ttl is None else ttl
        deadline = self._clock() + ttl if ttl is not None else None
        if key in self._data:
            self._data.move_to_end(key)
        self._data[key] = (value, deadline)
        while len(self._data) > self.capacity:
            evicted, _ = self._data.popitem(last=False)
            self.stats.evictions += 1
            logger.debug("evicted %r", evicted)

    def clear(self) -> None:
        self._data.clear()


def memoize(capacity: int = 64) -> Callable[[Callable[..., object]], Callable[..., object]]:
    """Decorate a function so that its results are kept in an :class:`LRUCache`."""

    def decorate(func: Callable[..., object]) -> Callable[..., object]:
        cache = LRUCache(capacity=capacity)

        def wrapper(*args: Hashable) -> object:
            result = cache.get(args, _MISSING)
            if result is _MISSING:
                result = func(*args)
                cache.put(args, result)
            return result

        wrapper.cache = cache  # type: ignore[attr-defined]
        wrapper.__name__ = getattr(func, "__name__", "memoized")
        return wrapper

    return decorate
