"""The server's only door into the game engines.

Everything the web app does with a game goes through these few functions: deal, replay the
persisted action texts, read an action a client sent, pick the move the inactivity rules make
for a silent player, and the views a bot rebuilt mid-game replays (bots themselves run in
:mod:`bito.server.botpool`). They speak the protocol every family shares (``to_act``,
``legal_actions()``, ``apply()``, ``view(seat)``, ``is_over``, ``outcome``), so a family added
later plays here without changes; only how its view is drawn may need a small renderer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from bito.errors import BitoError, RulesError


@dataclass(frozen=True)
class Setup:
    """What fixes a game: the resolved variant spec, the seats and the seed."""

    spec: str
    players: int
    seed: int


def resolve_spec(variant: str, rules_text: str | None = None, deck: int | None = None) -> str:
    """The canonical spec of a table's game: a registry variant (with ``+`` house rules) or a
    house-rules TOML text. Raises :class:`BitoError` naming the field, key or line at fault."""
    from bito.games import family_for
    from bito.rules.house import parse_house_rules

    if rules_text and rules_text.strip():
        spec = parse_house_rules(rules_text, "house rules").spec
    else:
        spec = variant.strip()
        if not spec:
            raise RulesError("variant", "choose a variant")
    game = family_for(spec)
    if deck is not None:
        if game.deck_option is None:
            raise RulesError("deck", "this game plays with its own deck")
        spec = f"{spec}+{game.deck_option}={deck}"
    game.resolve(spec)
    return spec


def family(spec: str) -> str:
    from bito.games import family_for

    return family_for(spec).name


def new_state(setup: Setup) -> Any:
    """Deal the game. Errors (bad seat count for the deck...) name the rule at fault."""
    from bito.games import new_game

    try:
        return new_game(setup.spec, players=setup.players, seed=setup.seed)
    except ValueError as e:  # seat counts outside what the deck allows
        raise RulesError("players", str(e)) from None


def dummy_seat(spec: str, players: int) -> int:
    """The seat of a playing dummy (#57) in this game, which no person or bot takes; -1 for
    none (and for every game outside the Durak family)."""
    from bito.games import family_for

    game = family_for(spec)
    return game.dummy_seat(game.rules_for(spec), players)


def fresh_seed() -> int:
    """The server's own randomness: the seed never leaves the server before the game ends."""
    return random.SystemRandom().randrange(1 << 62)


def find_action(state: Any, text: str) -> Any:
    """The legal action written ``text``, or :class:`BitoError` saying why not."""
    legal = state.legal_actions()
    wanted = text.strip()
    for action in legal:
        if str(action) == wanted:
            return action
    parse = getattr(state, "parse_action", None)
    if parse is None:
        from bito.games import family_for

        parse = family_for(state).parse_action
    action = parse(wanted)  # raises InvalidNotationError pointing at the bad character
    for candidate in legal:
        if candidate == action:
            return candidate
    explain = getattr(state, "explain_illegal", None)
    if explain is not None:
        error = explain(action)
        if isinstance(error, BitoError):
            raise error
    choices = ", ".join(str(a) for a in legal)
    raise BitoError(f"{wanted!r} is not a legal move now (legal: {choices})")


def replay_states(setup: Setup, texts: list[str]) -> tuple[list[Any], list[Any]]:
    """Deal and apply the persisted action texts; returns every state (the deal first) and
    the actions."""
    state = new_state(setup)
    states, actions = [state], []
    for text in texts:
        action = find_action(state, text)
        actions.append(action)
        state = state.apply(action)
        states.append(state)
    return states, actions


def replay(setup: Setup, texts: list[str]) -> tuple[Any, list[Any]]:
    """Deal and apply the persisted action texts; returns the final state and the actions."""
    state = new_state(setup)
    actions = []
    for text in texts:
        action = find_action(state, text)
        actions.append(action)
        state = state.apply(action)
    return state, actions


def silent_action(state: Any) -> Any | None:
    """The move the inactivity rules make for a player whose clock ran out: a defender takes,
    a thrower passes (a Mau-Mau player draws). None means "let a bot choose" (a silent
    attacker, who must lead something)."""
    legal = state.legal_actions()
    for word in ("take", "pass", "draw"):
        for action in legal:
            if str(action) == word:
                return action
    return None


def seat_views(setup: Setup, actions: list[Any], seat: int) -> list[Any]:
    """The views ``seat`` had at each of its turns in the game so far (the deal, then
    ``actions``), before the current one: what a bot built again mid-game replays into its
    memory. Only that seat's views, never a state."""
    state = new_state(setup)
    views = []
    for action in actions:
        if state.to_act == seat:
            views.append(state.view(seat))
        state = state.apply(action)
    return views


def outcome_json(state: Any) -> dict[str, Any] | None:
    outcome = state.outcome
    if outcome is None:
        return None
    to_json = getattr(outcome, "to_json", None)
    return dict(to_json()) if to_json else {"text": str(outcome)}


def full_record(setup: Setup, actions: list[Any], names: list[str]) -> Any:
    """The full record (seed included) of a game, as :mod:`bito.record` writes it."""
    from bito.games.game import Game
    from bito.record import record_from_game

    game = Game(new_state(setup))
    for action in actions:
        game.push(action)
    return record_from_game(game, names, spec=setup.spec)
