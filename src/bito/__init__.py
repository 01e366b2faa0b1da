"""bito: Durak and its family of card games: engine, bots, arena, terminal and web play."""

__version__ = "0.1.0"
