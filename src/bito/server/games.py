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
from functools import lru_cache
from typing import Any

from bito.errors import BitoError, RulesError


@dataclass(frozen=True)
class Setup:
    """What fixes a game: the resolved variant spec, the seats and the seed."""

    spec: str
    players: int
    seed: int
    #: the deal's place in a match played at one table (a rematch): ``(game_number, dealer,
    #: previous_fool, previous_winner)`` as :func:`next_match` gives it; None for a first deal
    match: tuple[int, int | None, int | None, int | None] | None = None


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
        return new_game(setup.spec, players=setup.players, seed=setup.seed,
                        match=match_context(setup))
    except ValueError as e:  # seat counts outside what the deck allows
        raise RulesError("players", str(e)) from None


def match_context(setup: Setup) -> Any:
    """The engine's match context of a rematch deal (the fool deals, the first attacker follows
    ``next_game_leader``, VARIANTS.md §1.8), for families whose games are deals of a match;
    None for a first deal and for the families that play their rounds inside one game."""
    from bito.games import family_for

    if setup.match is None or not family_for(setup.spec).match_of_deals:
        return None
    from bito.games.durak import MatchContext

    game_number, dealer, fool, winner = setup.match
    return MatchContext(game_number=game_number, dealer=dealer, previous_fool=fool,
                        previous_winner=winner)


def next_match(state: Any) -> tuple[int, int | None, int | None, int | None] | None:
    """What the next deal of a match needs from the finished ``state`` (see
    :attr:`Setup.match`), or None where the family's games are not deals of a match."""
    from bito.games import family_for

    if not family_for(state).match_of_deals:
        return None
    from bito.games.durak import next_match_context

    m = next_match_context(state)
    return (m.game_number, m.dealer, m.previous_fool, m.previous_winner)


@lru_cache(maxsize=512)
@lru_cache(maxsize=512)
def seat_range(spec: str) -> tuple[int, int, bool]:
    """The seat counts a game accepts, ``(fewest, most, partners)`` (partners: even counts
    only), so the lobby offers nothing the game would refuse."""
    from bito.games import family_for

    family_of = family_for(spec)
    rules = family_of.rules_for(spec)
    return rules.players_min, rules.max_players, bool(family_of.seats_partners(rules))


def deck_size(spec: str) -> int | None:
    """The cards in a spec's deck (the lobby's deck filter), None for a game's own deck."""
    from bito.games import family_options

    try:
        size = family_options(spec).get("deck.size")
    except BitoError:
        return None
    return size if isinstance(size, int) else None


@lru_cache(maxsize=512)
def describe(spec: str) -> dict[str, Any]:
    """The game of a spec in words, for the table's header: the name a player knows and each
    house rule with its sentence of help (shown on hover instead of the raw spec)."""
    from bito.rules.options import OPTION_SPECS
    from bito.rules.registry import lookup

    base, *parts = spec.split("+")
    try:
        name = lookup(base).names[0]
    except BitoError:
        name = base
    rules = []
    # by id as well, so a page can show each house rule in its own language
    ids: list[dict[str, str | None]] = []
    for part in parts:
        key, _, value = part.partition("=")
        key, value = key.strip(), value.strip()
        option = OPTION_SPECS.get(key)
        if value and option is not None:
            rules.append(f"{key} = {value}: {option.help}")
            ids.append({"option": key, "value": value})
        elif not value:
            try:
                entry = lookup(key)
            except BitoError:
                rules.append(part)
                ids.append({})
            else:
                rules.append(entry.names[0])
                ids.append({"variant": entry.id})
        else:  # another family's option (``shed.rounds=3``): its key and value
            rules.append(f"{key} = {value}")
            ids.append({})
    return {"id": base, "name": name, "rules": rules, "rule_ids": ids}


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


def full_record(setup: Setup, actions: list[Any], names: list[str],
                people: list[int] | None = None) -> Any:
    """The full record (seed included) of a game, as :mod:`bito.record` writes it;
    ``people``: the seats people sat in (``bito review`` reviews those by default)."""
    from bito.games.game import Game
    from bito.record import record_from_game

    game = Game(new_state(setup))
    for action in actions:
        game.push(action)
    return record_from_game(game, names, spec=setup.spec, people=people)
