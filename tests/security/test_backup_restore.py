"""A backup restored: `pg_dump` of the logbook, `pg_restore` into a new database, and
`verify_logbook` there says every chain is intact — and names the row if one was changed."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tests import append_only as triggers
from tests.support.logbook import adjust, event, inspect

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"] or not shutil.which("pg_restore"),
        reason="needs PostgreSQL and its pg_dump/pg_restore, as in CI",
    ),
]


def pg(db: dict, *command: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PGPASSWORD": db["PASSWORD"] or ""}
    where = ["-h", db["HOST"] or "127.0.0.1", "-p", str(db["PORT"] or 5432), "-U", db["USER"]]
    return subprocess.run([command[0], *where, *command[1:]], env=env, capture_output=True, text=True, check=True)


@pytest.fixture
def restored(committed_db, casino, tmp_path):
    """The test database as it is now, dumped and restored into a fresh database."""
    db = connection.settings_dict
    target = f"{db['NAME']}_restored"
    dump = tmp_path / "logbook.dump"
    pg(db, "pg_dump", "--format=custom", "--file", str(dump), db["NAME"])
    pg(db, "dropdb", "--if-exists", target)
    pg(db, "createdb", target)
    pg(db, "pg_restore", "--no-owner", "-d", target, str(dump))
    who = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    yield f"postgres://{who}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{target}"
    pg(db, "dropdb", "--if-exists", target)


def verify(database_url: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "true"}
    return subprocess.run(
        [sys.executable, "manage.py", "verify_logbook"], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )


@pytest.fixture
def history(committed_db, casino):
    event(casino, "cover")
    event(casino, "unlock")
    adjust(casino)
    inspect(casino)
    event(casino, "open")
    return casino


def test_a_restored_backup_verifies_intact(history, restored):
    result = verify(restored)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "intact" in result.stdout and "5 entries" in result.stdout


def test_a_restored_backup_with_a_changed_row_is_named(history, restored):
    import psycopg

    with psycopg.connect(restored.replace("postgres://", "postgresql://"), autocommit=True) as conn:
        for sql in _drop_sql():  # as an attacker with the database's owner rights would
            conn.execute(sql)
        conn.execute("UPDATE logbook_entry SET description = 'nothing was adjusted' WHERE kind = 'adjustment'")
    result = verify(restored)
    assert result.returncode == 1 and "#3" in result.stderr, result.stdout + result.stderr


def _drop_sql() -> list[str]:
    from config import append_only

    return append_only.drop_statements("postgresql", triggers.ALL_TABLES)


@pytest.fixture
def signed_history(history):
    from inspections.logbook import services

    services.checkpoint_sign(property_id=history.property.pk)
    return history


def test_a_restored_backup_older_than_the_last_checkpoint_says_how_much_is_missing(signed_history, restored):
    """Issue 32: the restore's verify_logbook compares the database with the signer's ledger (beside the
    key ring): a backup older than what was signed since reads "history is missing", with counts."""
    from inspections.logbook import services

    event(signed_history, "close")
    event(signed_history, "cover")
    services.checkpoint_sign(property_id=signed_history.property.pk)
    result = verify(restored)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "history is missing" in result.stderr and "2 entries and 1 checkpoints are missing" in result.stderr
