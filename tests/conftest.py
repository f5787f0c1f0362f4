"""Shared fixtures: users in each role, API clients, an open High Card Flush table; Casino War
registered for the whole run."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from knox.models import AuthToken
from rest_framework.test import APIClient

from casino.celery import app as celery_app
from tables import services
from tests.factories import UserFactory

# No property test is timed: Hypothesis's per-example deadline (200 ms by default) and its
# "too slow" health check measure wall time, which a loaded machine stretches past any bound
# (speed is measured by the benchmarks, ``make bench``). Set before any test module is
# imported, so every ``@settings(...)`` of the suite starts from it.
hypothesis_settings.register_profile(
    "suite", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile("suite")

# Seven cards each, all distinct: a deck slice per seat.
DP_CARDS = ["As", "Ks", "9s", "5s", "2d", "3c", "4h"]  # 4-card flush A-K-9-5: qualifies
P2_CARDS = ["Ah", "Kh", "7h", "2h", "Qd", "9c", "4c"]  # 4-card flush A-K-7-2
P3_CARDS = ["Jd", "9d", "6d", "5d", "3d", "2c", "5c"]  # 5-card flush J-9-6-5-3


def pytest_configure(config: Any) -> None:
    """Casino War, the suite's sixth game (``tests/games/casino_war/``), is registered for the
    whole run, before any test module is collected: every test that covers "every game" takes
    the games from the registry and so covers it too, as it would a sixth built-in game."""
    _register_casino_war()


def _register_casino_war() -> None:
    from casino.rules.contract import register, registry
    from tests.games.casino_war.game import GAME

    registry()  # the built-in games first, in package order
    register(GAME)


@pytest.fixture(autouse=True)
def _casino_war_registered() -> None:
    """Still registered in every test, whatever an earlier test did with the registry."""
    _register_casino_war()


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    """Mark Postgres-only tests as skipped when the suite runs on SQLite."""
    on_postgres = os.environ.get("DATABASE_URL", "").startswith(("postgres", "pgsql"))
    skip = pytest.mark.skip(
        reason="needs PostgreSQL (set DATABASE_URL); SQLite has no row locks or triggers"
    )
    for item in items:
        if "postgres" in item.keywords and not on_postgres:
            item.add_marker(skip)


@pytest.fixture(scope="session", autouse=True)
def _engine_catalogs_compiled() -> None:
    """The rules engines' catalogs (``casino/locale``, the ``django`` domain) compiled before
    any test translates: ``make messages`` compiles them (``*.mo`` is not committed); a bare
    pytest run compiles a catalog whose ``.mo`` is missing or older than its ``.po``. Each is
    written to a temporary file and moved into place, so parallel workers never read half a
    file."""
    import subprocess
    import tempfile
    from pathlib import Path

    from django.utils.translation import trans_real

    locale = Path(__file__).resolve().parents[1] / "casino" / "locale"
    compiled = False
    for po in sorted(locale.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with tempfile.NamedTemporaryFile(dir=po.parent, suffix=".mo.tmp", delete=False) as out:
            temporary = Path(out.name)
        try:
            subprocess.run(["msgfmt", "--check", "-o", str(temporary), str(po)], check=True)
            os.replace(temporary, mo)
        finally:
            temporary.unlink(missing_ok=True)
        compiled = True
    if compiled:  # catalogs read before this point are read again
        trans_real._translations.clear()  # type: ignore[attr-defined]
        trans_real._default = None  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _eager_celery() -> Any:
    """Tasks run in-process unless a test starts a real worker (marked ``redis``)."""
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = True


@pytest.fixture(autouse=True)
def _short_theory_simulations(settings: Any) -> None:
    """A table created or a change requested simulates its rules version's theoretical hold
    once the request commits (inline where no worker runs, else in the worker): short runs
    in tests, whatever the test (a test that counts hands sets its own)."""
    settings.HOLD_THEORY_HANDS = 400
    settings.HOLD_THEORY_INLINE_HANDS = 200


@pytest.fixture(autouse=True)
def _clear_cache() -> Any:
    """Each test starts with no login attempts counted (the throttles count in the cache)."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def make_user(db: Any) -> Callable[..., Any]:
    def make(role: str | None = None, **kwargs: Any) -> Any:
        return UserFactory(role=role, **kwargs)

    return make


@pytest.fixture
def void_hand(client_for: Callable[[Any], APIClient]) -> Callable[..., Any]:
    """Void an open hand the way the floor does: one person asks, another floor manager
    approves. Returns the approval's answer."""

    def void(hand_id: int, asks: Any, approves: Any, reason: str = "misdeal") -> Any:
        request = client_for(asks).post(
            f"/api/v1/hands/{hand_id}/void/", {"reason": reason}, format="json"
        )
        assert request.status_code == 202, request.json()
        decided = client_for(approves).post(
            f"/api/v1/approvals/{request.json()['id']}/approve/", {}, format="json"
        )
        assert decided.status_code == 200, decided.json()
        return decided.json()

    return void


@pytest.fixture
def dealer(make_user: Callable[..., Any]) -> Any:
    return make_user("dealer", username="dealer")


@pytest.fixture
def other_dealer(make_user: Callable[..., Any]) -> Any:
    return make_user("dealer", username="other_dealer")


@pytest.fixture
def floor(make_user: Callable[..., Any]) -> Any:
    return make_user("floor_manager", username="floor")


@pytest.fixture
def floor2(make_user: Callable[..., Any]) -> Any:
    return make_user("floor_manager", username="floor2")


@pytest.fixture
def compliance(make_user: Callable[..., Any]) -> Any:
    return make_user("compliance", username="compliance")


# ---------------------------------------------------------------- chip custody


@pytest.fixture
def chips(db: Any) -> Any:
    from custody.services import chip_set_setup

    return chip_set_setup()


@pytest.fixture
def cage(make_user: Callable[..., Any]) -> Any:
    return make_user("cage", username="cage")


@pytest.fixture
def counter(make_user: Callable[..., Any]) -> Any:
    return make_user("count_team", username="counter")


@pytest.fixture
def counter2(make_user: Callable[..., Any]) -> Any:
    return make_user("count_team", username="counter2")


@pytest.fixture
def client_for() -> Callable[[Any], APIClient]:
    """An API client authenticated with a token of its own for the user, as a tablet would
    be."""

    def make(user: Any | None) -> APIClient:
        client = APIClient()
        if user is not None:
            _, token = AuthToken.objects.create(user=user)
            client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        return client

    return make


def seat_and_open(floor: Any, table: Any, players: dict[int, str]) -> Any:
    """Seat ``players`` (seat number: name) at ``table`` and open it."""
    for number, name in players.items():
        services.seat_update(
            user=floor, table_id=table.pk, number=number, player=name, sitting_out=False
        )
    return services.table_set_status(user=floor, table_id=table.pk, status="open")


def open_hcf_table(floor: Any, dealer: Any, name: str = "HCF-T") -> Any:
    """An open HCF table ``name`` dealt by ``dealer``: players in seats 1-4, seat 1 offered
    the position. Rake 100 per player."""
    table = services.table_create(
        user=floor,
        name=name,
        game="high-card-flush",
        seat_count=7,
        dealer=dealer,
        limits={"ante_min": 100, "ante_max": 10_000, "bank_min": 5_000, "bank_max": 1_000_000},
        rules={"rake": {"scheme": "per_player", "amount": 100}},
    )
    return seat_and_open(floor, table, {1: "Ana", 2: "Bela", 3: "Csilla", 4: "Dani"})


@pytest.fixture
def open_table(db: Any, floor: Any, dealer: Any) -> Any:
    """:func:`open_hcf_table` named HCF-T."""
    return open_hcf_table(floor, dealer)


DRAW_PLAYERS = {1: "Ana", 2: "Bela", 3: "Csilla"}
DRAW_HANDS = {  # distinct cards from the 32-card deck
    1: ["As", "Ad", "Ac", "Kh", "Kd"],  # full house, the best hand
    2: ["7s", "8d", "9c", "Jh", "Qd"],
    3: ["7h", "8c", "9d", "Js", "Qc"],
    4: ["Th", "Tc", "8s", "9s", "Jd"],  # a pair of tens
}


@pytest.fixture
def draw_table(db: Any, floor: Any, dealer: Any) -> Any:
    """An open Five Card Draw 7-A table (limit, blinds 100/200, rake 50) dealt by
    ``dealer``, with players in seats 1-3."""
    table = services.table_create(
        user=floor,
        name="7A-1",
        game="five-card-draw-7a",
        seat_count=5,
        dealer=dealer,
        limits={"structure": "limit", "small_blind": 100, "big_blind": 200, "big_bet": 400},
        rules={"rake": {"fixed": 50}},
    )
    return seat_and_open(floor, table, DRAW_PLAYERS)


def draw_seats(dealt_in: list[int], stack: int = 10_000) -> list[dict[str, Any]]:
    """The body's ``seats`` opening a 7-A hand for the dealt-in seats."""
    return [{"seat": seat, "stack": stack, "cards": DRAW_HANDS[seat]} for seat in dealt_in]


@pytest.fixture
def dp_table(open_table: Any, dealer: Any) -> Any:
    """``open_table`` with seat 1 holding the position and a bank of 50,000."""
    services.game_act(
        user=dealer, table_id=open_table.pk, action={"type": "accept", "seat": 1, "bank": 50_000}
    )
    open_table.refresh_from_db()
    return open_table


def record(**overrides: Any) -> dict[str, Any]:
    """A valid HCF record for ``dp_table``: DP seat 1, players 2 and 3."""
    data: dict[str, Any] = {
        "designated_player": {"seat": 1, "bank": 50_000, "cards": list(DP_CARDS)},
        "players": [
            {
                "seat": 2,
                "cards": list(P2_CARDS),
                "ante": 1000,
                "raise": 1000,
                "flush_bonus": 500,
                "straight_flush_bonus": 0,
            },
            {
                "seat": 3,
                "cards": list(P3_CARDS),
                "ante": 1000,
                "raise": 2000,
                "flush_bonus": 0,
                "straight_flush_bonus": 0,
            },
        ],
    }
    data.update(overrides)
    return data


@pytest.fixture(autouse=True)
def _anchor_file(settings: Any, tmp_path: Any) -> None:
    """Each test anchors the audit chain in a file of its own."""
    settings.AUDIT_ANCHOR_FILE = str(tmp_path / "audit-anchors.jsonl")


@pytest.fixture(scope="session", autouse=True)
def _flush_past_append_only_triggers() -> Any:
    """Transactional tests are cleaned up with TRUNCATE, which the append-only triggers
    refuse. Only that clean-up runs with triggers off (``session_replication_role =
    replica`` for its own transaction, which needs a superuser, as the test database
    connection is); every test itself runs with them on."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.execute_sql_flush

    def flush(self: Any, sql_list: list[str]) -> None:
        original(self, ["SET LOCAL session_replication_role = replica", *sql_list])

    DatabaseOperations.execute_sql_flush = flush  # type: ignore[method-assign]
    yield
    DatabaseOperations.execute_sql_flush = original  # type: ignore[method-assign]


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None, request: Any
) -> Any:
    """Under xdist on PostgreSQL, the workers' test databases are copies of one migrated
    template rather than each migrated afresh (the 34 migrations, their triggers and
    grants, are a worker's largest fixed cost: about 6 s of the worker's CPU and more of
    PostgreSQL's). The first worker to take the lock migrates ``<test name>_template`` for
    this run (xdist's run id, kept beside the lock, tells a template of an earlier run,
    which is made again); each worker then creates its database with ``CREATE DATABASE ...
    TEMPLATE``, under the lock, as nothing may be connected to a template while it is
    copied. What a worker's database holds is what migrating it gives: the same
    migrations, run by the same code, into a database that is then copied whole. Without
    xdist, on SQLite, or with ``--reuse-db``, databases are made as before."""
    import fcntl
    import re
    import tempfile
    from pathlib import Path

    from django.conf import settings as django_settings
    from django.db.backends.base.creation import BaseDatabaseCreation

    workerinput = getattr(request.config, "workerinput", None)
    original = BaseDatabaseCreation.create_test_db

    def create_test_db(
        self: Any,
        verbosity: int = 1,
        autoclobber: bool = False,
        serialize: bool = True,
        keepdb: bool = False,
    ) -> str:
        if keepdb or workerinput is None or self.connection.vendor != "postgresql":
            return original(self, verbosity, autoclobber, serialize, keepdb)
        name = self._get_test_db_name()
        template = re.sub(r"_gw\d+$", "", name) + "_template"
        quote = self.connection.ops.quote_name
        lock_path = Path(tempfile.gettempdir()) / f"casino-{template}.lock"
        with open(lock_path, "a+") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            lock.seek(0)
            if lock.read().strip() != workerinput["testrunuid"]:
                test = self.connection.settings_dict["TEST"]
                was = test.get("NAME")
                test["NAME"] = template
                try:
                    original(self, verbosity, True, False, False)
                finally:
                    test["NAME"] = was
                self.connection.close()
                lock.seek(0)
                lock.truncate()
                lock.write(workerinput["testrunuid"])
                lock.flush()
            with self._nodb_cursor() as cursor:
                cursor.execute(f"DROP DATABASE IF EXISTS {quote(name)}")
                cursor.execute(f"CREATE DATABASE {quote(name)} TEMPLATE {quote(template)}")
        # As Django's create_test_db goes on once its database is migrated.
        self.connection.close()
        django_settings.DATABASES[self.connection.alias]["NAME"] = name
        self.connection.settings_dict["NAME"] = name
        if serialize:
            self.connection._test_serialized_contents = self.serialize_db_to_string()
        self.connection.ensure_connection()
        return name

    BaseDatabaseCreation.create_test_db = create_test_db  # type: ignore[method-assign]
    yield
    BaseDatabaseCreation.create_test_db = original  # type: ignore[method-assign]


@pytest.fixture(scope="session", autouse=True)
def _static_files_listed_once_per_process() -> Any:
    """The app's static files listed for WhiteNoise once per test process, not once per test
    client. A server loads its middleware once; the test client loads it again for every
    client (``client``, each ``client_for`` call), and WhiteNoise, serving from the apps'
    folders here (``WHITENOISE_USE_FINDERS``), then lists, stats and reads the headers of
    every static file (about 20 ms of CPU a client, a few thousand clients a run). The
    listing is kept per setting that shapes it (prefix, max age, origins, charset, headers
    hook, index file, immutable test, media types); the files do not change during a run,
    and each middleware still serves them from its own dictionary with WhiteNoise's code."""
    from django.conf import settings as django_settings
    from whitenoise.middleware import WhiteNoiseMiddleware

    original = WhiteNoiseMiddleware.add_files_from_finders
    listed: dict[tuple[Any, ...], dict[str, Any]] = {}

    def add_files_from_finders(self: Any) -> None:
        key = (
            self.static_prefix,
            self.max_age,
            self.allow_all_origins,
            self.charset,
            self.add_headers_function,
            self.index_file,
            self.__dict__.get("immutable_file_test"),  # set only when the setting is
            repr(getattr(django_settings, "WHITENOISE_MIMETYPES", None)),
            tuple(self.files),  # what STATIC_ROOT and WHITENOISE_ROOT added before
        )
        if key not in listed:
            before = dict(self.files)
            original(self)
            listed[key] = {
                url: found for url, found in self.files.items() if before.get(url) is not found
            }
        self.files.update(listed[key])

    WhiteNoiseMiddleware.add_files_from_finders = add_files_from_finders  # type: ignore[method-assign]
    yield
    WhiteNoiseMiddleware.add_files_from_finders = original  # type: ignore[method-assign]


@pytest.fixture
def redis_worker() -> Any:
    """A real Celery worker on the real Redis broker (``REDIS_URL``), taking the tasks of a
    queue of this test run's own: a worker of a deployment on the same Redis (``make run``'s,
    say) never takes the test's tasks to its own database. Yields the queue's name."""
    from celery.contrib.testing.worker import start_worker

    redis_url = os.environ["REDIS_URL"]
    queue, was = f"test-{os.getpid()}", celery_app.conf.task_default_queue
    celery_app.conf.update(
        task_always_eager=False,
        broker_url=redis_url,
        result_backend=redis_url,
        task_default_queue=queue,
    )
    with start_worker(
        celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=10, queues=[queue]
    ):
        yield queue
    celery_app.conf.update(task_always_eager=True, task_default_queue=was)
