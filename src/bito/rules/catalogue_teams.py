"""Variants II: teams, dummies and hidden cards (#53-59).

Catalogue entries, as data, like :mod:`bito.rules.catalogue`.
"""

from __future__ import annotations
