"""The optional extras (Ray, PyTorch, FastAPI): imported when a command needs one, with an
error that says how to install it instead of an ImportError's traceback."""
from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["extra"]


def extra(module: str, error: type[Exception], install: str) -> ModuleType:
    """The module `module` of an optional extra; `error(install)` if it is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise error(install) from None
