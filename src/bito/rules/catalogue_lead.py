"""Variants II: leads, the simple family and transfers (#2-6, #9-12, #46, #47, #52).

Catalogue entries, as data, like :mod:`bito.rules.catalogue`.
"""

from __future__ import annotations
