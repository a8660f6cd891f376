"""The committed migrations match the models (a fresh clone migrates to exactly this schema)."""

from io import StringIO

from django.core.management import call_command


def test_no_model_change_is_missing_a_migration(db):
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()
