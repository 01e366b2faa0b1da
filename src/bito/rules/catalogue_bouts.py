"""Variants II: Durak games with a different bout structure (#65-73).

Catalogue entries, as data, like :mod:`bito.rules.catalogue`.
"""

from __future__ import annotations
