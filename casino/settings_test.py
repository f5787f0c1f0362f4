"""The settings the test suite runs with: the real settings, with fixed keys.

Tests run with ``DEBUG`` off (as pytest-django does anyway), so the keys a production
server must be given are given here. Everything else comes from the environment as usual
(``DATABASE_URL``, ``REDIS_URL``).
"""

import os
import tempfile

os.environ.setdefault("SECRET_KEY", "test-suite-only-not-secret")
os.environ.setdefault("AUDIT_KEY", "test-suite-only-audit-key")
# Each test process signs audit checkpoints with a key of its own, made on first use.
os.environ.setdefault(
    "AUDIT_SIGNING_KEY_FILE",
    os.path.join(tempfile.gettempdir(), f"casino-test-signing-key-{os.getpid()}.pem"),
)
os.environ.setdefault("AUDIT_SIGNING_KEY_AUTOCREATE", "true")
# Static files from the apps, as they are (production serves the hashed, collected ones).
os.environ.setdefault("STATIC_MANIFEST", "false")
# Tokens read from the database at every request, so the tests that count a request's
# queries count its authentication (2) whatever the clock does; the token cache's own tests
# (tests/core/test_token_cache.py) turn it on.
os.environ.setdefault("AUTH_CACHE_SECONDS", "0")

from casino.settings import *  # noqa: E402, F403

# The test client speaks plain http; the other secure defaults of DEBUG off stay on, and
# tests that need https pass ``secure=True``.
SECURE_SSL_REDIRECT = False
# Login tests check many passwords; a fast hasher keeps them quick (never outside tests).
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
