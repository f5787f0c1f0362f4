"""The settings ``make loadtest`` serves with: production's, plus a bare endpoint to compare.

Production settings (``casino.settings``) with ``DEBUG`` off and fixed keys for the run (the
load test's throwaway database only ever holds this run's data, and its set-up and its
server processes must seal the audit chain with the same key), the test-only app
``loadtest_bare`` and a URL configuration that adds ``POST /bare/`` to the product's URLs: a
DRF view authenticated and role-checked exactly as the API is, that inserts one row. The
product never serves ``/bare/`` nor installs the app: only this module names them.

Differences from a production server, each because the load test runs on this machine over
plain http: no https redirect (nothing terminates TLS in front of gunicorn), static files
from the apps (no ``collectstatic``; the load test requests none), ``ALLOWED_HOSTS`` the
loopback address. These are set here whatever the environment says. Nothing throttles the
traffic measured: the only rate limits are on password logins, and the tablets never log in
(each holds its token already).
"""

import os
import tempfile

os.environ["DEBUG"] = "false"  # demo users refused, production code paths
os.environ["SECRET_KEY"] = "loadtest-only-not-secret-0123456789abcdefghijklmnopqrstuvwxyz"
os.environ["AUDIT_KEY"] = "loadtest-only-audit-key-0123456789abcdefghijklmnopqrstuvwxyz"
os.environ["STATIC_MANIFEST"] = "false"
# Checkpoints (the load test signs none itself) with a key of the run's own, made on first use.
os.environ.setdefault(
    "AUDIT_SIGNING_KEY_FILE",
    os.path.join(tempfile.gettempdir(), f"casino-loadtest-signing-key-{os.getuid()}.pem"),
)
os.environ.setdefault("AUDIT_SIGNING_KEY_AUTOCREATE", "true")
os.environ["SECURE_SSL_REDIRECT"] = "false"
os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost"

from casino.settings import *  # noqa: E402, F403
from casino.settings import INSTALLED_APPS  # noqa: E402

INSTALLED_APPS = [*INSTALLED_APPS, "loadtest_bare"]
ROOT_URLCONF = "loadtest_bare.urls"
