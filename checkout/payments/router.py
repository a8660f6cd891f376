"""Sends the payment simulator's ledger to its own database connection.

The ledger stands for an external provider's books: writing it through a separate connection
means no app transaction (or rollback) can ever touch it. The "payment_ledger" alias may name
its own database (SQLite: its own file; the test databases) or the same PostgreSQL database as
"default" (production): then the ledger tables are migrated with the default database, since
both aliases share one django_migrations table there.
"""

from django.db import connections

LEDGER_DB = "payment_ledger"
LEDGER_MODELS = frozenset(
    {"simulatedcharge", "simulatedrefund", "simulatedchargerequest", "simulatedcheckoutsession"}
)


def _is_ledger(app_label: str, model_name: str | None) -> bool:
    return app_label == "checkout" and model_name in LEDGER_MODELS


def ledger_shares_default_database() -> bool:
    default, ledger = connections["default"].settings_dict, connections[LEDGER_DB].settings_dict
    return all(default.get(k) == ledger.get(k) for k in ("ENGINE", "NAME", "HOST", "PORT"))


class PaymentLedgerRouter:
    def db_for_read(self, model, **hints):
        return LEDGER_DB if _is_ledger(model._meta.app_label, model._meta.model_name) else None

    def db_for_write(self, model, **hints):
        return LEDGER_DB if _is_ledger(model._meta.app_label, model._meta.model_name) else None

    def allow_relation(self, obj1, obj2, **hints):
        return None

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        if db == LEDGER_DB:
            return _is_ledger(app_label, model_name)
        if _is_ledger(app_label, model_name):
            return ledger_shares_default_database()
        return True
