"""The arena: bots against bots on duplicate deals, with scores, ratings and intervals.

``bito arena`` is the command line; :func:`run_arena` is the library entry point.
"""

from bito.arena.run import MODES, ArenaResult, run_arena, tables_for

__all__ = ["MODES", "ArenaResult", "run_arena", "tables_for"]
