"""The store contract of ``tests/integration/test_store_*.py``, collected again here to run on PostgreSQL.

The test functions are the very same objects; ``tests/conftest.py`` drops their ``[postgresql]`` twins from
``tests/integration`` when both directories are collected, so each runs once per database.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

_INTEGRATION = Path(__file__).resolve().parents[1] / "integration"
CONTRACT_MODULES = (
    "test_store_api",
    "test_store_constraints",
    "test_store_compile",
    "test_store_migrations",
    "test_store_runs",
    "test_store_transitions",
)


def _load(name: str) -> ModuleType:
    """Import an integration test module the way pytest does (by basename), reusing pytest's copy."""
    if str(_INTEGRATION) not in sys.path:
        sys.path.insert(0, str(_INTEGRATION))
    return importlib.import_module(name)


for _module in map(_load, CONTRACT_MODULES):
    globals().update({name: value for name, value in vars(_module).items() if name.startswith("test_")})
