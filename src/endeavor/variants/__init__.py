"""Variants: rule modules a ruleset's options switch on (the Silent Fleet, R21). Like
the Exploits, each is one module on the public API (:mod:`endeavor.api`); importing
this package registers every module in it."""

from __future__ import annotations

import importlib
import pkgutil


def _load() -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        importlib.import_module(f"{__name__}.{info.name}")


_load()
