"""The layers hold: imports (import-linter's contracts in pyproject.toml) and every other arrow
between apps, model references and migration dependencies, run from the top layer down."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db.migrations.loader import MigrationLoader
from importlinter.api import read_configuration
from importlinter.application.use_cases import lint_imports

from tests import REPO_ROOT

# Top to bottom, as pyproject.toml's layers contract names them.
LAYERS = ["giftgenius", "widget", "checkout", "gifts", "tool_runtime"]


def rank(app_label: str) -> int | None:
    """Lower is higher up; None for apps outside the project (Django's, libraries')."""
    return LAYERS.index(app_label) if app_label in LAYERS else None


def test_the_contract_names_the_layers_this_test_checks():
    configuration = read_configuration(str(REPO_ROOT / "pyproject.toml"))
    contracts = {c["id"]: c for c in configuration["contracts_options"]}
    assert contracts["layers"]["layers"] == LAYERS


def test_imports_keep_the_layer_and_no_cycle_contracts(monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    kept = lint_imports(config_filename=str(REPO_ROOT / "pyproject.toml"), cache_dir=None)
    assert kept is True, "lint-imports: a contract is broken (run .venv/bin/lint-imports)"


def test_model_references_point_down_or_sideways():
    upward = []
    for model in apps.get_models(include_auto_created=True):
        own = rank(model._meta.app_label)
        if own is None:
            continue
        for field in model._meta.get_fields():
            target = getattr(field, "related_model", None)
            if target is None or field.auto_created:  # reverse accessors are the other side's
                continue
            other = rank(target._meta.app_label)
            if other is not None and other < own:
                upward.append(f"{model._meta.label}.{field.name} -> {target._meta.label}")
    assert upward == []


def test_migrations_depend_only_on_their_own_layer_or_lower():
    upward = []
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    for app_label, name in graph.nodes:
        own = rank(app_label)
        if own is None:
            continue
        for dependency in graph.node_map[(app_label, name)].parents:
            other = rank(dependency.key[0])
            if other is not None and other < own:
                upward.append(f"{app_label}.{name} -> {dependency.key}")
    assert upward == []


@pytest.mark.parametrize("layer", LAYERS)
def test_each_layer_is_an_installed_app(layer):
    assert apps.is_installed(layer)
