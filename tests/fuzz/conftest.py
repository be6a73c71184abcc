"""The fuzzing suite's settings: a short run by default (the whole suite well under a
minute, every push), a long one with ``pytest -m fuzz`` (the ``fuzz`` hypothesis profile:
many more examples per test, no example database shortcut)."""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

LONG_EXAMPLES = 1000
settings.register_profile("fuzz", parent=settings.get_profile("ci") if os.environ.get("CI") else None,
                          max_examples=LONG_EXAMPLES, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                 HealthCheck.filter_too_much])


def pytest_configure(config: pytest.Config) -> None:
    if "fuzz" in (config.option.markexpr or "") and "not fuzz" not in config.option.markexpr:
        settings.load_profile("fuzz")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/fuzz/" in item.nodeid:
            item.add_marker(pytest.mark.fuzz)
