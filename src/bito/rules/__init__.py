"""Rules: the options object, the variant registry and house-rule files."""

from bito.rules import catalogue as _catalogue  # noqa: F401  (registers the variants)
from bito.rules import catalogue_games as _catalogue_games  # noqa: F401  (#60, #85-#95)
from bito.rules.options import OPTION_SPECS, OptionSpec, Rules
from bito.rules.registry import Resolved, Variant, all_variants, lookup, resolve, rules_for

__all__ = [
    "OPTION_SPECS", "OptionSpec", "Resolved", "Rules", "Variant", "all_variants", "lookup",
    "resolve", "rules_for",
]
