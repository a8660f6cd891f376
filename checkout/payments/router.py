"""Sends the payment simulator's ledger to its own database connection.

The ledger stands for an external provider's books: writing it through a separate connection
means no app transaction (or rollback) can ever touch it.
"""

LEDGER_DB = "payment_ledger"
LEDGER_MODELS = frozenset({"simulatedcharge", "simulatedrefund", "simulatedchargerequest"})


def _is_ledger(app_label: str, model_name: str | None) -> bool:
    return app_label == "checkout" and model_name in LEDGER_MODELS


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
        return not _is_ledger(app_label, model_name)
