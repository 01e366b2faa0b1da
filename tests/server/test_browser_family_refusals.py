"""Issue 34: a refused move in words at every table. A throw-in of a rank not on the table
names the ranks that are (so the player knows what he may throw); a game without an
explainer of its own says plainly that the move is not possible now, in both languages, and
never lists the legal moves in notation."""

from __future__ import annotations

import random
import re

import pytest

from bito.cards import RANK_CHARS, card_str, cards_of, rank_of
from bito.errors import BitoError, IllegalActionError, InvalidNotationError
from bito.games import new_game
from bito.server import games, webtext
from bito.server.refusals import NOTATION, error_words

CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def _refused_throw_in(seed: int) -> tuple[IllegalActionError, set[int]]:
    """A throw-in refused for its rank in a podkidnoy game (the VARIANTS.md catalogue's
    throw-in rule: only ranks already on the table), with the ranks that were on the table."""
    state = new_game("podkidnoy", players=3, seed=seed)
    rng = random.Random(seed)
    for _ in range(300):
        if state.is_over:
            break
        on_table = [c for c in (*state.attack, *state.defence) if c >= 0]
        if on_table and state.to_act != state.defender:
            ranks = {rank_of(c) for c in on_table}
            off = [c for c in cards_of(state.hands[state.to_act]) if rank_of(c) not in ranks]
            for card in off:
                try:
                    games.find_action(state, card_str(card))
                except IllegalActionError as e:
                    if e.rule == "throw-in rank":
                        return e, ranks
        state = state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no throw-in was refused for its rank")


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_throw_in_refusal_names_the_ranks_on_the_table(lang: str, seed: int) -> None:
    error, ranks = _refused_throw_in(seed)
    code, said = error_words(error, lang)
    assert code == "illegal.throw-in rank"
    for r in ranks:  # every rank on the table, as a player names it
        char = RANK_CHARS[r - 2]
        word = webtext.text(lang, f"said.rank.{'10' if char == 'T' else char}")
        assert word in said, (said, word)
    assert not NOTATION.search(said), said
    if lang == "ru":
        assert CYRILLIC.search(said) and not re.search(r"[a-z]{3,}", said), said


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("spec,players", [("czech_fool", 2), ("friese_fool", 4),
                                          ("believe_not_believe_2", 3), ("chinese", 2),
                                          ("animal_sounds", 2)])
def test_a_game_without_an_explainer_says_the_move_is_not_possible(
        spec: str, players: int, lang: str) -> None:
    """A card of the seat's own hand it may not play now (or a move of another kind) is
    refused in plain words; the legal moves are not listed in notation."""
    state = games.new_state(games.Setup(spec, players, 5))
    legal = {str(a) for a in state.legal_actions()}
    # the simple moves, then every card of either deck (a card not in the hand, or one that
    # may not be played now); a text the family cannot read at all is not a refusal
    tries = (["draw", "pass", "doubt", "laugh", "sound", "take"]
             + [f"{c}{n}" for c in "gryb" for n in range(2, 15)]
             + [r + s for r in RANK_CHARS for s in "cdhs"])
    refused = None
    for text in tries:
        if text in legal:
            continue
        try:
            games.find_action(state, text)
        except InvalidNotationError:
            continue
        except BitoError as e:
            refused = e
            break
    assert refused is not None, (spec, legal)
    code, said = error_words(refused, lang)
    assert said == webtext.text(lang, "error.not_legal") or \
        said == webtext.text(lang, "refuse.not_possible"), (code, said)
    assert not NOTATION.search(said) and "legal:" not in said, said
    if lang == "ru":
        assert CYRILLIC.search(said), said
