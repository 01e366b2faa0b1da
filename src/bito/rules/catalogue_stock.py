"""Variants II: dealing, drawing, the stock, scoring and tournaments (#31-38, #61-64).

Catalogue entries, as data, like :mod:`bito.rules.catalogue`.
"""

from __future__ import annotations
