"""Calibration tests keep their profiles in a folder of their own, never the user's."""
from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The profile store of one test module (a module may narrow it to one test)."""
    return tmp_path_factory.mktemp("store")


@pytest.fixture(autouse=True)
def _profiles_in(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUZZLEPILOT_PROFILES", str(store))

