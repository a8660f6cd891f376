"""The health probes: /healthz answers while the process runs, /readyz while the database does,
and an unreachable database is a 503 that names nothing of it."""

from django.db.utils import OperationalError
from django.test import Client


def test_health_probes(db):
    client = Client(SERVER_NAME="127.0.0.1")
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ok", "database": "ok"}


def test_readyz_reports_an_unreachable_database(db, monkeypatch):
    class Unreachable:
        def cursor(self):
            raise OperationalError("connection refused to db.internal:5432")

    monkeypatch.setattr("giftgenius.operations.health.connections", {"default": Unreachable()})
    response = Client(SERVER_NAME="127.0.0.1").get("/readyz")
    assert response.status_code == 503
    assert "db.internal" not in response.content.decode()
