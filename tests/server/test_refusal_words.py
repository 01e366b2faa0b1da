"""Issue 34 item 5: every refusal a player reads at the table says what is wrong in a player's
words, in English and in Russian: cards named in words, never in notation (``Jc``, ``7d``), no
engine note (``(trump s)``), no rule name, no option key, no seed or paragraph citation.

The refusals are real ones: random games of several Durak variants are played, and at every
position every card of the hand (and take, pass, a cover of each table card, a transfer) is
tried; each move the engine refuses is said through :func:`refusals.error_words`, the function
the server answers a refused move with.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

pytest.importorskip("fastapi")

from bito.cards import card_str, parse_card
from bito.errors import IllegalActionError
from bito.games import family_for, new_game
from bito.games.durak.reasons import Refused
from bito.server.refusals import NOTATION, error_words

CYRILLIC = re.compile(r"[А-Яа-яЁё]")
#: The engines' rule names a refusal used to open with ("beat relation: ...").
RULE_NAMES = re.compile(r"beat relation|throw-in rank|throw-in limit|not in hand|bout limit"
                        r"|transfer (?:rank|window|limit)|lead (?:limit|shape)")
SPECS = ("podkidnoy", "perevodnoy", "perevodnoy+no_transfer_first_bout", "podkidnoy+self_throw",
         "podkidnoy+joker_gift")


def _tries(state: Any) -> list[str]:
    hand = [card_str(c) for c in range(200) if state.hands[state.to_act] >> c & 1]
    table = [card_str(c) for c in state.attack]
    return (["take", "pass"] + hand + [f"{h}>{a}" for h in hand for a in table]
            + ["=" + h for h in hand] + [f"{c}" for c in ("As", "Ah", "6c")])


def _refusals() -> dict[str, IllegalActionError]:
    """One refusal per (rule, detail's first words) met in a few seeded random games."""
    found: dict[str, IllegalActionError] = {}
    for spec in SPECS:
        for seed in range(6):
            state = new_game(spec, players=3, seed=seed)
            parse = family_for(state).parse_action
            rng = random.Random(seed)
            for _ in range(120):
                if state.is_over:
                    break
                legal = state.legal_actions()
                for text in _tries(state):
                    try:
                        action = parse(text)
                    except ValueError:
                        continue
                    if action in legal:
                        continue
                    error = state.explain_illegal(action)
                    found.setdefault(f"{error.rule}|{' '.join(error.detail.split()[:3])}",
                                     error)
                state = state.apply(rng.choice(legal))
    return found


@pytest.fixture(scope="module")
def refusals() -> dict[str, IllegalActionError]:
    return _refusals()


def test_the_refusals_the_issue_names_are_all_met(refusals: dict[str, IllegalActionError]
                                                  ) -> None:
    """The sweep really reaches every kind of refusal the issue lists (else the test below
    would pass on too little)."""
    rules = {error.rule for error in refusals.values()}
    wanted = {"beat relation", "not in hand", "throw-in rank", "take", "pass", "defend"}
    assert wanted <= rules, wanted - rules
    assert rules & {"throw-in limit", "bout limit"}  # the table is full
    assert any("transfer" in rule for rule in rules)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_refusal_is_said_in_a_players_words(refusals: dict[str, IllegalActionError],
                                                  lang: str) -> None:
    for key, error in refusals.items():
        code, said = error_words(error, lang)
        assert code == f"illegal.{error.rule}"  # the stable code is kept for programs
        assert said and not NOTATION.search(said), (key, said)
        assert not RULE_NAMES.search(said), (key, said)
        assert "(trump" not in said and "§" not in said and "#" not in said, (key, said)
        if lang == "ru":
            assert CYRILLIC.search(said) and not re.search(r"[a-z]{3,}", said), (key, said)
        else:
            assert not CYRILLIC.search(said), (key, said)


def test_notation_is_caught_by_the_guard() -> None:
    """The guard the test above relies on does see the notation it must keep out."""
    for raw in ("Jc does not beat 7d (trump s)", "seat 0 does not hold As", "10h", "RJ",
                "first bout (#78)", "rules §3.3", "lead.max = 3"):
        assert NOTATION.search(raw), raw
    for plain in ("the jack of clubs", "валет треф не бьёт семёрку бубен", "as long as"):
        assert not NOTATION.search(plain), plain


@pytest.mark.parametrize("lang, said", [
    ("en", "the jack of clubs does not beat the seven of diamonds: play a higher diamond or "
           "a trump"),
    ("ru", "валет треф не бьёт семёрку бубен: положите бубну старше или козырь"),
])
def test_the_issues_example_reads_as_the_issue_asks(lang: str, said: str) -> None:
    jack, seven = parse_card("Jc"), parse_card("7d")
    error = IllegalActionError(Refused.BEAT, "Jc does not beat 7d (trump s)",
                               {"card": jack, "target": seven, "trumps": (3,)})
    assert error_words(error, lang) == ("illegal.beat relation", said)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_not_your_turn_names_the_player_in_words(lang: str) -> None:
    """The table's own refusal: no seat number, a bot's name said in the page's language."""
    from bito.server.rooms import RoomError

    code, said = error_words(
        RoomError("not your turn: Bot Boris (strong) (seat 1) is to act"), lang)
    assert code == "not_your_turn"
    assert "seat" not in said and "1" not in said
    assert ("Бот Борис (сильный)" in said) == (lang == "ru")
    assert ("Bot Boris (strong)" in said) == (lang == "en")
    code, said = error_words("'7d' is not a legal move now (legal: 6c, take)", lang)
    assert code == "not_legal" and not NOTATION.search(said) and "take" not in said


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_transfer_bar_has_its_own_sentence(lang: str) -> None:
    """Each reason a transfer is barred (#9, #78 and the transfer windows) is said in its own
    sentence, never the general "you cannot transfer now": a barred transfer with no sentence of
    its own would leave the player guessing which rule stopped him."""
    from bito.games.durak.reasons import TransferBar

    general = error_words(IllegalActionError(Refused.TRANSFER_NOT_HERE, "x"), lang)[1]
    for bar in TransferBar:
        said = error_words(IllegalActionError(bar, "x"), lang)[1]
        assert said and said != general and not NOTATION.search(said), (bar, said)
