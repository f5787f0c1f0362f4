"""The token cache (casino/core/authentication.py): a cached token costs a request no query;
what is revoked through this process takes effect at once, what is revoked elsewhere within
``AUTH_CACHE_SECONDS``; an expired token and a demo user are refused at once whatever is
cached."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from casino.core import authentication
from tests.core.test_accounts import production_environment, run
from tests.tables.test_write_queries import Counting, hcf_routine

pytestmark = pytest.mark.django_db

ME = "/api/v1/auth/me/"
BOUND = 10.0


class Clock:
    """The cache's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch, settings):
    settings.AUTH_CACHE_SECONDS = BOUND
    authentication.forget_all()
    clock = Clock()
    monkeypatch.setattr(authentication, "_clock", clock)
    yield clock
    authentication.forget_all()


def client_with_token(user):
    _, token = AuthToken.objects.create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def queries(client, method="get", path=ME):
    with CaptureQueriesContext(connection) as captured:
        response = getattr(client, method)(path)
    return response, len(captured)


def test_a_cached_token_costs_a_request_no_query(clock, dealer):
    client = client_with_token(dealer)
    first, read = queries(client)
    assert first.status_code == 200 and first.json() == {"username": "dealer", "roles": ["dealer"]}
    assert read == 2  # the token with its user, then the user's groups
    again, cached = queries(client)
    assert again.status_code == 200 and again.json() == first.json()
    assert cached == 0
    clock.now += BOUND + 0.1  # stale: read again, then cached again
    assert queries(client)[1] == 2
    assert queries(client)[1] == 0


def test_with_the_cache_off_every_request_reads_the_token(clock, dealer, settings):
    settings.AUTH_CACHE_SECONDS = 0
    client = client_with_token(dealer)
    assert [queries(client)[1] for _ in range(3)] == [2, 2, 2]


def test_logout_through_this_process_takes_effect_at_once(clock, dealer):
    client, other = client_with_token(dealer), client_with_token(dealer)
    assert client.get(ME).status_code == 200 and other.get(ME).status_code == 200
    assert client.post("/api/v1/auth/logout/").status_code == 204
    refused = client.get(ME)
    assert refused.status_code == 401 and refused.json()["detail"] == "Invalid token."
    assert other.get(ME).status_code == 200
    assert other.post("/api/v1/auth/logout-all/").status_code == 204
    assert other.get(ME).status_code == 401


def test_a_user_deactivated_or_a_role_removed_here_takes_effect_at_once(clock, dealer, floor):
    client, floor_client = client_with_token(dealer), client_with_token(floor)
    assert client.get(ME).status_code == 200 and floor_client.get(ME).status_code == 200

    dealer.groups.remove(Group.objects.get(name="dealer"))
    refused = client.get(ME)
    assert refused.status_code == 403 and "casino role" in refused.json()["detail"]
    Group.objects.get(name="dealer").user_set.add(dealer)  # from the group's side
    assert client.get(ME).json()["roles"] == ["dealer"]

    Group.objects.get(name="floor_manager").user_set.remove(floor)
    assert floor_client.get(ME).status_code == 403

    dealer.is_active = False
    dealer.save()
    refused = client.get(ME)
    assert refused.status_code == 401 and refused.json()["detail"] == "User inactive or deleted."


def test_a_token_deleted_here_is_refused_at_once(clock, dealer):
    client = client_with_token(dealer)
    assert client.get(ME).status_code == 200
    AuthToken.objects.filter(user=dealer).delete()  # as the admin or a command would
    assert client.get(ME).status_code == 401


def test_what_another_process_revokes_takes_effect_within_the_bound(clock, dealer, floor):
    """Rows changed without this process's signals (as another server process or SQL
    would): served from the cache until ``AUTH_CACHE_SECONDS`` have passed, then refused."""
    user_model = type(dealer)
    token_client, active_client, role_client = (client_with_token(u) for u in (dealer,) * 3)
    floor_client = client_with_token(floor)
    for client in (token_client, active_client, role_client, floor_client):
        assert client.get(ME).status_code == 200

    with connection.cursor() as cursor:  # the first dealer token: deleted elsewhere
        token = token_client._credentials["HTTP_AUTHORIZATION"].split()[1]
        cursor.execute(
            "DELETE FROM knox_authtoken WHERE digest = %s", [authentication.hash_token(token)]
        )
    user_model.objects.filter(pk=floor.pk).update(is_active=False)
    user_model.groups.through.objects.filter(user_id=dealer.pk).delete()

    clock.now += BOUND - 0.5
    assert [c.get(ME).status_code for c in (token_client, role_client, floor_client)] == [200] * 3
    clock.now += 1.0
    assert token_client.get(ME).status_code == 401
    assert role_client.get(ME).status_code == 403
    assert floor_client.get(ME).status_code == 401


def test_an_expired_token_is_refused_at_once_though_cached(clock, dealer, monkeypatch):
    client = client_with_token(dealer)
    assert client.get(ME).status_code == 200
    later = timezone.now() + timedelta(hours=11)
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert client.get(ME).status_code == 401
    assert not AuthToken.objects.filter(user=dealer).exists()  # deleted as it was presented


def test_a_cached_demo_user_is_refused_once_debug_is_off(clock, dealer, settings):
    dealer.groups.add(Group.objects.get_or_create(name="demo")[0])
    settings.DEBUG = True
    client = client_with_token(dealer)
    assert client.get(ME).status_code == 200
    assert queries(client)[1] == 0
    settings.DEBUG = False
    refused = client.get(ME)
    assert refused.status_code == 401 and "Demo accounts are refused" in refused.json()["detail"]


def test_each_request_gets_its_own_user_and_token(clock, dealer):
    client = client_with_token(dealer)
    client.get(ME)
    token = client._credentials["HTTP_AUTHORIZATION"].split()[1]
    auth = authentication.TokenAuthentication()
    user, first = auth.authenticate_credentials(token.encode())
    user.first_name = "changed by a view"
    again_user, again = auth.authenticate_credentials(token.encode())
    assert again_user is not user and again is not first
    assert again_user.first_name != "changed by a view"
    assert again.user is again_user and again_user.pk == dealer.pk


def test_a_bad_cache_bound_stops_the_settings_naming_the_variable():
    for value in ("soon", "-1", "3601", "nan"):
        result = run(
            ["-c", "import casino.settings"], production_environment(AUTH_CACHE_SECONDS=value)
        )
        assert result.returncode != 0
        assert "AUTH_CACHE_SECONDS must be a number of seconds from 0" in result.stderr, value


def test_a_hand_with_a_cached_token_costs_two_queries_less_a_request(
    clock, open_table, dealer, settings
):
    """With the token cached, the open and the settle cost their own queries only."""
    log: dict[str, list[int]] = defaultdict(list)
    client = Counting(client_with_token(dealer), log)  # each request's queries, by kind

    def hand_queries() -> list[int]:
        hcf_routine(client, open_table)
        return [log["open"][-1], log["settle"][-1]]

    settings.AUTH_CACHE_SECONDS = 0
    uncached = hand_queries()
    settings.AUTH_CACHE_SECONDS = BOUND
    hand_queries()  # the open reads the token and caches it
    cached = hand_queries()
    assert [n + 2 for n in cached] == uncached
