"""Variants II: second tries, stock leads, poker swaps and post-take attacks (#39-45, #48-51, #83).

Catalogue entries, as data, like :mod:`bito.rules.catalogue`.
"""

from __future__ import annotations
