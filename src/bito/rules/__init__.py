"""Rules: the options object, the variant registry and house-rule files."""

from bito.rules import catalogue as _catalogue  # noqa: F401  (registers the variants)
from bito.rules import catalogue_attack as _catalogue_attack  # noqa: F401  (#39-45, #48-51, #83)
from bito.rules import catalogue_bouts as _catalogue_bouts  # noqa: F401  (#65-73)
from bito.rules import catalogue_games as _catalogue_games  # noqa: F401  (#60, #85-#95)
from bito.rules import catalogue_lead as _catalogue_lead  # noqa: F401  (#2-6, #9-12, #46, #47, #52)
from bito.rules import catalogue_stock as _catalogue_stock  # noqa: F401  (#31-38, #61-64)
from bito.rules import catalogue_teams as _catalogue_teams  # noqa: F401  (#53-59)
from bito.rules.kernel_rules import KERNEL_OPTIONS, KernelOption, kernel_refuses
from bito.rules.options import OPTION_SPECS, OptionSpec, Rules
from bito.rules.registry import Resolved, Variant, all_variants, lookup, resolve, rules_for

__all__ = [
    "KERNEL_OPTIONS", "OPTION_SPECS", "KernelOption", "OptionSpec", "Resolved", "Rules",
    "Variant", "all_variants", "kernel_refuses", "lookup", "resolve", "rules_for",
]
