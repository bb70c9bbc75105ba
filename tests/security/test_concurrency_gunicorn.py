"""Fifty clients at once through gunicorn on PostgreSQL, logging on the same few tables: every
accepted entry is stored once, refusals are clean 400s, the state machine and the chain hold."""

import os
import random
import threading
import urllib.error
import urllib.request
from json import dumps, loads

import pytest
from django.conf import settings

from compliance.casinos.models import GamingTable, TableState
from inspections.logbook.chain import chain_verify
from inspections.logbook.models import Entry, TableStatus
from tests.conftest import database_url_for_tests
from tests.factories import PASSWORD, GamingTableFactory, configure_for_opening
from tests.servers import gunicorn_start
from tests.support.logbook import ALL_PASS

CLIENTS = 50
REQUESTS_EACH = 8
# The state each event leads to (docs/architecture.md: The table's state machine), to check the tables against their last entries.
LEADS_TO = {
    "unlock": {"unlocked"},
    "inspection": {"inspected", "open"},  # an inspection of an open table leaves it open
    "open": {"open"},
    "close": {"closed"},
    "cover": {"locked"},
}

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="needs PostgreSQL (DATABASE_URL), as in CI: SQLite serialises every writer anyway",
    ),
]


@pytest.fixture
def gunicorn(committed_db):
    """gunicorn with 4 workers on the test database, on a free local port."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url_for_tests(),
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DEBUG": "true",
    }
    server, port = gunicorn_start(env, workers=4)
    yield f"http://127.0.0.1:{port}"
    server.terminate()
    server.wait(timeout=20)


def post(base: str, path: str, body: dict, token: str) -> tuple[int, dict]:
    request = urllib.request.Request(
        base + path,
        data=dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, loads(error.read() or b"{}")


def test_fifty_clients_at_once_keep_every_entry_once_and_the_chain_whole(gunicorn, casino):
    from knox.models import AuthToken

    tables = [casino.table] + [
        configure_for_opening(
            GamingTableFactory(property=casino.property, number=f"R-0{n}"), created_by=casino.compliance
        )
        for n in (2, 3)
    ]
    TableStatus.objects.update(state=TableState.LOCKED)
    token = AuthToken.objects.create(user=casino.security)[1]
    signature = {"username": casino.security.username, "password": PASSWORD}
    accepted, refused, failures = [], [], []
    start = threading.Barrier(CLIENTS)

    def client(seed: int) -> None:
        rng = random.Random(seed)
        start.wait()
        for _ in range(REQUESTS_EACH):
            table = rng.choice(tables)
            action = rng.choice(["unlock", "inspection", "open", "close", "cover"])
            if action == "inspection":
                status, body = post(
                    gunicorn, "/api/inspections/", {"table": table.pk, "items": ALL_PASS, "signature": signature}, token
                )
            else:
                status, body = post(gunicorn, f"/api/tables/{table.pk}/{action}/", {"signature": signature}, token)
            if status == 201:
                accepted.append(body.get("entry", body)["id"])
            elif status == 400 and body["errors"][0]["citation"]:
                refused.append(body["errors"][0]["code"])
            else:
                failures.append((status, body))

    threads = [threading.Thread(target=client, args=(seed,)) for seed in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert failures == []
    assert len(accepted) + len(refused) == CLIENTS * REQUESTS_EACH
    assert len(accepted) == len(set(accepted)) == Entry.objects.count() > 0
    assert chain_verify(property_id=casino.property.pk).broken_seq is None
    for table in GamingTable.objects.filter(pk__in=[t.pk for t in tables]):
        last = Entry.objects.filter(table=table).order_by("-seq").first()
        if last is not None:
            assert table.state in LEADS_TO[last.kind], (table.number, last.kind, table.state)
    print(f"\n{CLIENTS} clients, {len(accepted)} entries accepted, {len(refused)} refused cleanly")
