"""Accounts and security as a tablet, a browser or an operator sees them: throttled logins,
expiring and revocable tokens, demo users refused in production, secure settings."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
TOKEN_URL = "/api/v1/auth/token/"
LOGIN_PAGE = "/accounts/login/"
PASSWORD = "pw-secret-1"  # tests/factories.py


def token_login(username, password, *, address="127.0.0.1"):
    return APIClient().post(
        TOKEN_URL, {"username": username, "password": password}, format="json", REMOTE_ADDR=address
    )


def api(token):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def tables_status(token):
    return api(token).get("/api/v1/tables/").status_code


def assert_throttled(response):
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    body = response.json()
    assert "Too many login attempts" in body["detail"]
    assert body["errors"] == [{"path": "", "message": body["detail"]}]


@pytest.fixture(autouse=True)
def documented_defaults(settings):
    """The defaults README documents, whatever the environment running the tests sets."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"login_user": "5/min", "login_ip": "30/min"},
        "NUM_PROXIES": 0,
    }
    settings.REST_KNOX = {**settings.REST_KNOX, "TOKEN_TTL": timedelta(hours=10)}
    settings.SESSION_COOKIE_AGE = 10 * 3600


class Clock:
    """Stands in for the throttles' ``timer`` (a callable object, so it is not bound)."""

    def __init__(self, start):
        self.now = start

    def __call__(self):
        return self.now


# ---- throttling


def test_thirty_wrong_passwords_then_the_right_one_is_refused_by_the_token_endpoint(dealer):
    statuses = [token_login("dealer", f"guess-{n}").status_code for n in range(30)]
    assert statuses == [400] * 5 + [429] * 25  # LOGIN_RATE_USER: 5/min
    assert_throttled(token_login("dealer", PASSWORD))


def test_thirty_wrong_passwords_then_the_right_one_is_refused_by_the_login_page(dealer, client):
    for n in range(30):
        client.post(LOGIN_PAGE, {"username": "dealer", "password": f"guess-{n}"})
    response = client.post(LOGIN_PAGE, {"username": "dealer", "password": PASSWORD})
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    page = response.content.decode()
    assert "Too many login attempts" in page and "<form" in page
    assert client.get("/").status_code == 302  # not logged in


def test_a_wrong_password_on_the_login_page_is_said_once_as_an_alert(dealer, client):
    response = client.post(LOGIN_PAGE, {"username": "dealer", "password": "nope"})
    assert response.status_code == 200
    page = response.content.decode()
    assert page.count("Please enter a correct username and password") == 1
    assert '<p role="alert">Please enter a correct username' in page


def test_the_username_limit_holds_across_addresses_and_letter_case(dealer):
    for n in range(5):
        assert token_login("dealer", "wrong", address=f"10.0.0.{n + 1}").status_code == 400
    assert_throttled(token_login("DEALER", PASSWORD, address="10.0.0.99"))


def test_other_users_from_the_same_address_are_throttled_at_the_address_rate(make_user):
    names = [f"clerk{n}" for n in range(7)]
    for name in names:
        make_user("dealer", username=name)
    for name in names[:6]:  # 6 users x 5 attempts: each within its own limit
        for _ in range(5):
            assert token_login(name, "wrong", address="10.1.1.1").status_code == 400
    # the 31st attempt from that address (LOGIN_RATE_IP: 30/min), by a user with no failures
    assert_throttled(token_login(names[6], PASSWORD, address="10.1.1.1"))
    assert token_login(names[6], PASSWORD, address="10.1.1.2").status_code == 200


def test_a_throttled_user_can_log_in_again_after_the_window(dealer, monkeypatch):
    clock = Clock(1_000_000.0)
    monkeypatch.setattr(SimpleRateThrottle, "timer", clock)
    for _ in range(5):
        token_login("dealer", "wrong")
    assert_throttled(token_login("dealer", PASSWORD))
    clock.now += 59
    assert_throttled(token_login("dealer", PASSWORD))
    clock.now += 2  # a minute after the first attempt
    assert token_login("dealer", PASSWORD).status_code == 200


def test_the_admin_password_form_sends_to_the_throttled_login_page(make_user, client):
    make_user(None, username="boss", is_staff=True, is_superuser=True)
    response = client.post("/admin/login/", {"username": "boss", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/admin/login/"
    assert client.get("/admin/").status_code == 302  # the password was not checked
    login = client.post(
        "/accounts/login/?next=/admin/login/", {"username": "boss", "password": PASSWORD}
    )
    assert login["Location"] == "/admin/login/"
    assert client.get("/admin/").status_code == 200


def test_an_overlong_username_or_password_is_a_400_naming_the_field(dealer):
    response = token_login("d" * 151, "x" * 257)
    assert response.status_code == 400
    assert {e["path"] for e in response.json()["errors"]} == {"username", "password"}


# ---- tokens


def test_a_token_stops_working_after_its_expiry(dealer, monkeypatch):
    before = timezone.now()
    response = token_login("dealer", PASSWORD)
    assert response.status_code == 200
    token, expiry = response.json()["token"], parse_datetime(response.json()["expiry"])
    assert timedelta(hours=10) <= expiry - before < timedelta(hours=10, minutes=1)
    assert tables_status(token) == 200

    later = expiry + timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    response = api(token).get("/api/v1/tables/")
    assert response.status_code == 401
    assert response.json()["detail"] == "Invalid token."


def test_logout_revokes_only_the_token_used(dealer):
    first, second = (token_login("dealer", PASSWORD).json()["token"] for _ in range(2))
    assert api(first).post("/api/v1/auth/logout/").status_code == 204
    assert tables_status(first) == 401
    assert tables_status(second) == 200
    assert api(first).post("/api/v1/auth/logout/").status_code == 401


def test_logout_all_revokes_every_token_of_the_user(dealer, floor):
    first, second = (token_login("dealer", PASSWORD).json()["token"] for _ in range(2))
    floor_token = token_login("floor", PASSWORD).json()["token"]
    assert api(first).post("/api/v1/auth/logout-all/").status_code == 204
    assert tables_status(first) == 401
    assert tables_status(second) == 401
    assert tables_status(floor_token) == 200


def test_logout_without_a_token_is_a_401_in_the_common_format():
    response = APIClient().post("/api/v1/auth/logout/")
    assert response.status_code == 401
    assert response.json()["errors"][0]["message"]


def test_the_schema_documents_login_and_logout_with_the_error_shape():
    paths = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()["paths"]
    login = paths["/api/v1/auth/token/"]["post"]
    assert set(login["responses"]) == {"200", "400", "429"}
    assert login["responses"]["429"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ErrorResponse"
    }
    for path in ["/api/v1/auth/logout/", "/api/v1/auth/logout-all/"]:
        assert set(paths[path]["post"]["responses"]) == {"204", "401"}


# ---- demo users


@pytest.fixture
def demo_dealer(make_user):
    user = make_user("dealer", username="demo-dealer")
    user.groups.add(Group.objects.get_or_create(name="demo")[0])
    return user


def test_demo_users_are_refused_when_debug_is_off_and_allowed_when_on(
    demo_dealer, client, settings
):
    settings.DEBUG = True
    old_token = token_login("demo-dealer", PASSWORD).json()["token"]
    assert tables_status(old_token) == 200
    assert (
        client.post(LOGIN_PAGE, {"username": "demo-dealer", "password": PASSWORD}).status_code
        == 302
    )
    assert client.get("/").status_code == 200

    settings.DEBUG = False
    refused = token_login("demo-dealer", PASSWORD)
    assert refused.status_code == 400 and "Unable to log in" in refused.json()["detail"]
    response = api(old_token).get("/api/v1/tables/")
    assert response.status_code == 401
    assert "Demo accounts are refused" in response.json()["detail"]
    assert client.get("/").status_code == 302  # the open session is logged out
    page = client.post(LOGIN_PAGE, {"username": "demo-dealer", "password": PASSWORD})
    assert page.status_code == 200
    assert "Please enter a correct username and password" in page.content.decode()

    settings.DEBUG = True
    assert tables_status(old_token) == 200


def test_non_demo_users_are_unaffected_when_debug_is_off(dealer, client, settings):
    settings.DEBUG = False
    response = token_login("dealer", PASSWORD)
    assert response.status_code == 200
    assert tables_status(response.json()["token"]) == 200
    assert client.post(LOGIN_PAGE, {"username": "dealer", "password": PASSWORD}).status_code == 302
    assert client.get("/").status_code == 200


# ---- settings


def production_environment(**overrides):
    """The production environment README "Accounts and security" documents."""
    environment = {
        name: os.environ[name]
        for name in ("PATH", "HOME", "LANG", "SYSTEMROOT")
        if name in os.environ
    }
    environment.update(
        DJANGO_SETTINGS_MODULE="casino.settings",
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        AUDIT_KEY=secrets.token_urlsafe(32),
        AUDIT_SIGNING_KEY_FILE="/etc/casino/audit-signing-key.pem",
        ALLOWED_HOSTS="casino.lan",
        DATABASE_URL="postgres://casino@db.casino.lan:5432/casino",
        REDIS_URL="redis://127.0.0.1:6379/0",
        CACHE_URL="redis://127.0.0.1:6379/1",
        CSRF_TRUSTED_ORIGINS="https://casino.lan",
    )
    environment.update(overrides)
    return {name: value for name, value in environment.items() if value is not None}


def run(args, environment):
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_the_production_environment():
    result = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], production_environment()
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "WARNINGS" not in output
    assert not re.search(r"^\?:", output, re.MULTILINE), output


@pytest.mark.parametrize(
    ("missing", "named"),
    [
        ({"SECRET_KEY": None}, "SECRET_KEY"),
        ({"AUDIT_KEY": None}, "AUDIT_KEY"),
        ({"AUDIT_SIGNING_KEY_FILE": None}, "AUDIT_SIGNING_KEY_FILE"),
    ],
)
def test_settings_refuse_to_load_without_a_key_when_debug_is_off(missing, named):
    result = run(["-c", "import casino.settings"], production_environment(**missing))
    assert result.returncode != 0
    assert f"{named} must be set when DEBUG is off" in result.stderr


def test_a_malformed_login_rate_stops_the_settings_naming_the_variable():
    result = run(
        ["-c", "import casino.settings"], production_environment(LOGIN_RATE_USER="5/fortnight")
    )
    assert result.returncode != 0
    assert "LOGIN_RATE_USER must look like 5/min" in result.stderr


def test_https_responses_carry_hsts_secure_cookies_and_a_content_security_policy(dealer, client):
    page = client.get(LOGIN_PAGE, secure=True)
    assert page.status_code == 200
    assert page["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert page["X-Frame-Options"] == "DENY"
    assert page["Referrer-Policy"] == "same-origin"
    policy = page["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    nonce = re.search(r"style-src 'self' 'nonce-([^']+)'", policy).group(1)
    assert f'<style nonce="{nonce}">' in page.content.decode()  # the page's own style applies
    assert page.cookies["csrftoken"]["secure"]

    login = client.post(LOGIN_PAGE, {"username": "dealer", "password": PASSWORD}, secure=True)
    assert login.status_code == 302
    session = login.cookies["sessionid"]
    assert session["secure"] and session["httponly"]
    assert int(session["max-age"]) == 10 * 3600  # one shift, like a token


def test_plain_http_is_redirected_to_https_when_ssl_redirect_is_on(client, settings):
    settings.SECURE_SSL_REDIRECT = True  # the default with DEBUG off (tests turn it off)
    response = client.get(LOGIN_PAGE)
    assert response.status_code == 301
    assert response["Location"] == "https://testserver/accounts/login/"


def test_the_api_docs_page_still_answers_under_the_policy():
    response = APIClient().get("/api/docs/")
    assert response.status_code == 200
    assert "default-src 'self'" in response["Content-Security-Policy"]
