"""One game at one seat count, as every adapter needs it: the family's engine (through the
family seam :mod:`bito.games.family`), its action numbering and its observation encoder.

The Gymnasium, PettingZoo and OpenSpiel adapters each hold one :class:`GameKit` and ask it
to deal, to apply an action integer, and to write what a seat sees; they never ask which
family a game is of. The kit picks the numbering and the encoder once, by family:

==============================  ==============================================================
family                          numbering / observation
==============================  ==============================================================
durak                           :class:`~bito.env.codec.ActionCodec` /
                                :class:`~bito.env.observation.ObservationEncoder`
shedding, tricks, social        :class:`~bito.env.cardplay.CardPlayCodec` /
                                :class:`~bito.env.cardplay.CardPlayEncoder`
bouts                           :class:`~bito.env.bouts.BoutsCodec` /
                                :class:`~bito.env.bouts.BoutsEncoder`
==============================  ==============================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from bito.cards import cards_of, cards_str
from bito.env.payoff import best_return
from bito.games.durak.teams import Partnership
from bito.games.durak.view import extension_of
from bito.games.family import SomeFamily, family_for, seen_by

#: The families without the Durak codec that number their moves in a codec of their own
#: (the bout games: Durak moves plus their own), by family name; the rest play cards
#: (:mod:`bito.env.cardplay`).
_BOUT_MOVES: dict[str, bool] = {"bouts": True}
#: The card-play families, by name, with the least value their observation holds (their
#: scores go below 0); every other family's observation starts at 0.
_CARD_PLAY_LOW: dict[str, float] = {"shedding": -1.0, "tricks": -1.0, "social": -1.0}


class GameKit:
    """A game of any family at a seat count: deal, apply a numbered action, write a seat's
    view. Built by :func:`kit_for` (shared per spec and seat count)."""

    def __init__(self, spec: Any, players: int) -> None:
        self.spec = spec
        self.family: SomeFamily = family_for(spec)
        self.players = players
        name = self.family.name
        if self.family.codec:
            from bito.env.codec import codec_for, durak_rules
            from bito.env.observation import ObservationEncoder

            self.rules: Any = durak_rules(spec)
            self.start = self.family.new_game(self.rules, players, seed=0)  # checks the seats
            self.codec: Any = codec_for(self.rules)
            self.encoder: Any = ObservationEncoder(self.rules, players)
        elif _BOUT_MOVES.get(name, False):
            from bito.env.bouts import bouts_codec, bouts_encoder

            self.rules = self.family.rules_for(spec)
            self.start = self.family.new_game(self.rules, players, seed=0)
            self.codec = bouts_codec(self.rules)
            self.encoder = bouts_encoder(self.rules, players)
        else:
            from bito.env.cardplay import codec_for_cards, encoder_for_cards

            self.rules = self.family.rules_for(spec)
            self.codec = codec_for_cards(self.rules, players)  # deals once: checks the seats
            self.encoder = encoder_for_cards(self.rules, players)
            self.start = self.family.new_game(self.rules, players, seed=0)
        #: The least value an observation holds (the card-play encoder's scores go below 0).
        self.low = _CARD_PLAY_LOW.get(name, 0.0)
        #: What one episode is called in messages: a Durak deal, another family's game.
        self.episode = "deal" if self.family.match_of_deals else "game"
        #: The partnerships of the game (#53-55), empty without: they decide the payoff.
        partners = extension_of(self.start.view(0), Partnership)
        self.teams: tuple[tuple[int, ...], ...] = partners.teams if partners else ()
        #: The most a seat can score (:func:`bito.env.payoff.best_return`).
        self.best = best_return(self.teams, players)

    # --- the engine ----------------------------------------------------------------------------

    def deal(self, seed: int) -> Any:
        """The game dealt from ``seed`` (``bito play --seed`` gives the same)."""
        return self.family.new_game(self.rules, self.players, seed=seed)

    def play(self, state: Any, act: Any) -> Any:
        """The state after ``act``; an illegal one raises IllegalActionError naming the rule."""
        check = getattr(state, "is_legal", None)  # the Durak engine checks on request only
        if check is not None and not check(act):
            raise state.explain_illegal(act)
        return state.apply(act)

    # --- text ------------------------------------------------------------------------------------

    def seat_text(self, state: Any, seat: int, names: Sequence[str]) -> str:
        """What ``seat`` sees, drawn for a person: its own hand, never another's."""
        if self.family.codec:
            from bito.games.durak.render import render_view

            return str(render_view(state.view(seat), list(names)))
        return f"{names[seat]}\n{state.view(seat)}"

    def position_text(self, state: Any, seat: int | None) -> str:
        """What ``seat`` sees of ``state`` as one text (``None``: the whole position), as a
        censored record writes it."""
        return self.family.position_text(state, seat)

    def cards_text(self, mask: int) -> str:
        """Cards as the game writes them (*Fool!* has its own card names)."""
        if self.family.name in _CARD_PLAY_LOW:
            from bito.env.cardplay import play_of

            name = play_of(self.rules)
            return " ".join(str(name(c)) for c in cards_of(mask))
        return cards_str(cards_of(mask))

    def seen(self, state: Any, act: Any, seat: int) -> Any:
        """``act``, played from ``state``, as ``seat`` saw it (a card put down face down is
        hidden from the others)."""
        return seen_by(state, act, seat)

    def __repr__(self) -> str:
        return (f"GameKit({self.family.name}: {self.spec!r}, "
                f"players={self.players}, actions={self.codec.size}, "
                f"observation={self.encoder.size})")


@lru_cache(maxsize=128)
def kit_for(spec: Any, players: int) -> GameKit:
    """The shared kit of a spec (or rules object) and seat count. Raises a ValueError
    (:class:`~bito.errors.RulesError`) naming the part at fault: an unknown game, a seat
    count the game refuses, an option the environments do not cover."""
    return GameKit(spec, players)


__all__ = ["GameKit", "kit_for"]
