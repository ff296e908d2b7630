"""The cache backend when Redis is configured: django-redis, carrying on when Redis is away.

The cache holds only the login throttle's counters (allauth). Were a Redis outage to raise,
every login, the right password too, would be a 500; and django-redis's own
IGNORE_EXCEPTIONS answers ``add`` with a failure, which allauth's throttle reads as
"locked" and refuses every login with a 429 instead. Here a read finds nothing and a
write is dropped, so the throttle counts nothing until Redis is back (logged each time).
"""

from __future__ import annotations

import logging

from django_redis.cache import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)


class CarryOnRedisCache(RedisCache):
    def _or(self, fallback, call, *args, **kwargs):
        try:
            return call(*args, **kwargs)
        except (RedisConnectionError, RedisTimeoutError) as error:
            log.warning("cache: Redis is away (%s); carrying on without it", error)
            return fallback

    def get(self, key, default=None, version=None, client=None):
        return self._or(default, super().get, key, default, version=version, client=client)

    def add(self, *args, **kwargs):
        return self._or(True, super().add, *args, **kwargs)

    def set(self, *args, **kwargs):
        return self._or(False, super().set, *args, **kwargs)

    def delete(self, *args, **kwargs):
        return self._or(False, super().delete, *args, **kwargs)
