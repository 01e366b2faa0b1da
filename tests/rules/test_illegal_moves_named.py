"""Every illegal move is refused by naming a rule (GUIDE §2 "errors: IllegalActionError (names
the rule)"), in every variant and phase, whatever kind of action the parser produced.

The explainer only runs on actions move generation refused, so the property checked is the
protocol's: ``apply`` succeeds exactly when the action is in ``legal_actions()``, and otherwise
raises :class:`IllegalActionError` with a non-empty rule; never an ``AssertionError``,
``KeyError`` or ``ValueError`` from inside the engine. Rule scenarios cite the catalogue id
(VARIANTS.md) and the seed line (S0 = seeds/000_*.txt).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bito.cards import card_str, cards_of, is_joker
from bito.errors import IllegalActionError, InvalidNotationError, RulesError
from bito.games.durak import ATTACK, DurakState, new_game, parse_action
from bito.games.durak.actions import HOOKED_KINDS, KIND_NAMES
from bito.rules import resolve
from conftest import P, game_specs, legal, start

#: Variant specs whose rules add action kinds or special cards: jokers and wild cards (#24-30,
#: #84), face-down covers (#59), transfers (#8-11), exchanges (#31), dummies (#56, #57), hands
#: held face out (#58), second tries, stock leads, swaps and post-take moves (#39-51), teams
#: (#53-55), lead patterns (#2-6, #73) and transfer by showing a trump (#96).
VARIANT_SPECS = (
    "believe_not_believe", "estonian", "capital", "big_fool+joker_gift",
    "podkidnoy+wild_58", "perevodnoy+wild_58", "perevodnoy+double_joker",
    "simple+novosibirsk_two_joker", "podkidnoy+joker_gift_block_combo",
    "perevodnoy+joker_gift", "perevodnoy+exchange", "podkidnoy+exchange.mode=choose",
    "podkidnoy+tossing_dummy", "perevodnoy+playing_dummy", "double_fool", "team_fool",
    "podkidnoy+blind_face_out", "perevodnoy+blind_face_out", "perevodnoy+poker_second_try",
    "podkidnoy+armenian_unlimited", "podkidnoy+counter_throw", "podkidnoy+cunning",
    "perevodnoy+impudent", "podkidnoy+self_throw", "transfer_2", "perevodnoy_refusal",
    "pairs_only", "akulina", "japanese", "big_fool", "perevodnoy+show_trump_transfer",
)

SPECIAL_CARDS = ("RJ", "BJ", "W1", "W4", "MC", "RJ'", "6h'")

#: One text form per action kind of ``actions.KIND_NAMES`` (docs/notation.md), each filled
#: with cards drawn by the caller. ``c`` draws one card's text, ``n`` a hand position.
TEXT_FORMS: dict[str, Callable[[Callable[[], str], Callable[[], int]], str]] = {
    "attack": lambda c, n: c() if n() % 2 else f"{c()}+{c()}",
    "defend": lambda c, n: f"{c()}>{c()}" if n() % 2 else f"{c()}/{c()}",
    "transfer": lambda c, n: f"={c()}" if n() % 3 else f"={c()}+{c()}",
    "take": lambda c, n: ("take", "t", "беру")[n() % 3],
    "pass": lambda c, n: ("pass", "bito", "done", "пас")[n() % 4],
    "give": lambda c, n: f"^{c()}",
    "block": lambda c, n: f"!{c()}+{c()}+{c()}",
    "believe": lambda c, n: ("believe", "верю")[n() % 2],
    "doubt": lambda c, n: ("doubt", "не верю", "don't believe")[n() % 3],
    "toss": lambda c, n: f"~{c()}",
    "blind": lambda c, n: f"#{n()}",
    "blind cover": lambda c, n: f"#{n()}>{c()}",
    "blind transfer": lambda c, n: f"=#{n()}",
    "try": lambda c, n: "try",
    "stock": lambda c, n: "stock",
    "swap": lambda c, n: f"${c()}+{c()}" if n() % 2 else f"${c()}",
    "pair": lambda c, n: f"{c()}<{c()}",
    "own": lambda c, n: f"@{c()}>{c()}",
    "counter": lambda c, n: f"{c()}>{c()}+{c()}",
    "exchange": lambda c, n: f"&{c()}" if n() % 2 else f"&{c()}+{c()}",
}
#: The kinds variant hooks register (``actions.register_kind``) read the same way, from their
#: notation: the prefix and the cards, or the typed word and the cards.
for _hooked in HOOKED_KINDS.values():
    TEXT_FORMS[_hooked.name] = (
        lambda c, n, h=_hooked: f"{h.prefix}{c()}" if n() % 2 else f"{h.word} {c()}")


def test_every_action_kind_has_a_text_form_here() -> None:
    """Every action kind joins the property below (a hook's registered kind by its notation,
    with nothing to add here): the forms cover every kind, and each form parses to it."""
    assert set(TEXT_FORMS) == set(KIND_NAMES.values())
    rng = random.Random(0)
    for name, form in TEXT_FORMS.items():
        for _ in range(5):
            text = form(lambda: rng.choice(("7h", "7c", "Ts", "RJ")), lambda: rng.randint(1, 6))
            assert parse_action(text).kind_name == name, text


def _random_text(state: DurakState, rng: random.Random) -> str:
    """A random action's text: the cards mostly from this game (hands, table, stock), some
    from anywhere, jokers and wild cards included."""
    pool = [c for h in state.hands for c in cards_of(h)] + list(state.attack) + list(state.stock)

    def card() -> str:
        roll = rng.random()
        if roll < 0.15:
            return rng.choice(SPECIAL_CARDS)
        if roll < 0.75 and pool:
            return card_str(rng.choice(pool))
        return rng.choice("23456789TJQKA") + rng.choice("cdhs")

    form = TEXT_FORMS[rng.choice(sorted(TEXT_FORMS))]
    return form(card, lambda: rng.randint(1, 14))


def check_random_actions(state: DurakState, rng: random.Random, tries: int) -> None:
    """``apply`` succeeds exactly for the legal actions; an illegal one names its rule."""
    legal = state.legal_actions()
    for _ in range(tries):
        text = _random_text(state, rng)
        try:
            action = parse_action(text)
        except InvalidNotationError:
            continue
        if action in legal:
            state.apply(action)
            continue
        with pytest.raises(IllegalActionError) as info:
            state.apply(action)
        assert info.value.rule, text
        assert info.value.detail, text


@st.composite
def variant_games(draw: st.DrawFn) -> tuple[str, int, int]:
    spec = draw(st.sampled_from(VARIANT_SPECS))
    rules = resolve(spec).rules
    players = draw(st.integers(rules.players_min, min(6, rules.max_players)))
    return spec, players, draw(st.integers(0, 2**32 - 1))


def _play_and_probe(state: DurakState, rng: random.Random) -> None:
    for _ in range(400):
        if state.is_over:
            check_random_actions(state, rng, 3)
            return
        if rng.random() < 0.3:
            check_random_actions(state, rng, 4)
        acts = state.legal_actions()
        state = state.apply(acts[rng.randrange(len(acts))])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant_games(), st.integers(0, 2**32 - 1))
def test_random_actions_in_variant_games_are_legal_or_name_a_rule(
        game: tuple[str, int, int], walk: int) -> None:
    """GUIDE §2: across the variants that add action kinds and special cards, at random
    moments of random games, random actions of every kind are played or refused by a rule."""
    spec, players, seed = game
    try:
        state = new_game(spec, players=players, seed=seed)
    except RulesError:
        assume(False)  # a seat count this rule mix cannot seat (refused at new_game)
        return
    _play_and_probe(state, random.Random(walk))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_specs(), st.integers(0, 2**32 - 1))
def test_random_actions_in_base_games_are_legal_or_name_a_rule(game, walk: int) -> None:
    """The same property on the base games with random house-rule stacks (conftest)."""
    _play_and_probe(start(game), random.Random(walk))


# --- #59: calls in games without face-down covers ------------------------------------------


@pytest.mark.parametrize("text", ["believe", "doubt", "верю", "не верю"])
def test_a_call_without_face_down_covers_names_the_call_rule(text: str) -> None:
    """#59; S4:16 "the player must guess whether the defence is right": a call exists only
    where covers lie face down, so in podkidnoy it is refused as the call rule, not crashed."""
    s = new_game("podkidnoy", players=2, seed=1)
    with pytest.raises(IllegalActionError) as info:
        s.apply(parse_action(text))
    assert info.value.rule == "call"


def test_bito_play_refuses_a_typed_call_without_a_traceback(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """#59: ``believe`` / ``не верю`` typed at ``bito play`` in podkidnoy are illegal moves
    the player is told about; the game goes on until he quits."""
    import io
    import sys

    from bito.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("believe\nне верю\nquit\n"))
    code = main(["play", "--seed", "1"])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert out.count("Not allowed: nothing to believe or doubt") == 2
    assert out.count("(call). Try again.") == 2
    assert code == 0


# --- §3.3 shared joker conventions: jokers thrown in or transferred ------------------------

JOKER_GAMES = (
    "estonian", "podkidnoy+double_joker", "perevodnoy+double_joker",
    "podkidnoy+novosibirsk_two_joker", "perevodnoy+novosibirsk_two_joker",
    "podkidnoy+wild_58", "perevodnoy+wild_58", "capital", "big_fool+joker_gift",
)


def _find(spec: str, wanted: Callable[[DurakState], str | None]) -> tuple[DurakState, str]:
    """The first position of seeded random games of ``spec`` where ``wanted`` names an
    action text (the search is deterministic: fixed seeds, fixed random moves)."""
    for seed in range(300):
        rng = random.Random(seed)
        state = new_game(spec, players=2 + seed % 3, seed=seed)
        for _ in range(300):
            if state.is_over:
                break
            text = wanted(state)
            if text is not None:
                return state, text
            acts = state.legal_actions()
            state = state.apply(acts[rng.randrange(len(acts))])
    raise AssertionError(f"no such position in {spec}")


def _joker_throw_in(state: DurakState) -> str | None:
    """A joker the thrower holds while no joker lies on the table, in a throw-in round."""
    if state.phase_name != "throw" or any(is_joker(c) for c in state.attack) \
            or any(is_joker(c) for c in state.defence if c >= 0):
        return None
    if not any(a.kind == ATTACK for a in state.legal_actions()):
        return None  # the bout must have room: the joker is refused for its rank alone
    jokers = [c for c in cards_of(state.hands[state.to_act]) if is_joker(c)]
    return card_str(jokers[0]) if jokers else None


@pytest.mark.parametrize("spec", JOKER_GAMES)
def test_a_joker_thrown_in_without_a_joker_on_the_table_breaks_the_rank_rule(spec: str) -> None:
    """§3.3 shared joker conventions (an engine default; the seeds give jokers no rank): "It
    may be thrown in only when another joker is already on the table". A joker thrown in
    while other cards could be, and no joker lies there, is refused by the throw-in rank
    rule, which names jokers."""
    state, text = _find(spec, _joker_throw_in)
    assert parse_action(text) not in state.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        state.apply(parse_action(text))
    assert info.value.rule == "throw-in rank"
    assert "joker" in info.value.detail


TRANSFER_JOKER_GAMES = ("estonian", "capital", "perevodnoy+double_joker",
                        "perevodnoy+novosibirsk_two_joker", "perevodnoy+wild_58")
ON_TABLE = ("{spec} players=2 trump=Qd stock=Qd hands=7c8c9cTs/{hand} bout=3 table={table} "
            "attacker=0")


@pytest.mark.parametrize("spec", TRANSFER_JOKER_GAMES)
def test_a_plain_card_transferred_onto_a_joker_breaks_the_transfer_rank_rule(spec: str) -> None:
    """§3.3 shared joker conventions: a joker has "no suit and no rank" and "can't be used to
    transfer unless the variant says so"; #8 (S0:257 via §1.6) a transfer card is "of the same
    rank as the attack cards". With a joker led, no plain card matches it: the transfer is
    refused by the transfer rank rule, which names the joker."""
    s = P(ON_TABLE.format(spec=spec, hand="TdJdAc", table="RJ"))
    for move in ("=Td", "=Ac"):
        with pytest.raises(IllegalActionError) as info:
            s.apply(parse_action(move))
        assert info.value.rule == "transfer rank"
        assert "joker" in info.value.detail


@pytest.mark.parametrize("spec", TRANSFER_JOKER_GAMES)
def test_a_joker_transferred_onto_a_plain_card_breaks_the_transfer_rank_rule(spec: str) -> None:
    """§3.3 as above: a joker never transfers, although a ten would pass the ten of hearts on
    (#8, S0:257): the joker is refused by the transfer rank rule."""
    s = P(ON_TABLE.format(spec=spec, hand="RJTcJd", table="Th"))
    assert "=Tc" in legal(s)
    with pytest.raises(IllegalActionError) as info:
        s.apply(parse_action("=RJ"))
    assert info.value.rule == "transfer rank"
    assert "joker" in info.value.detail


def test_a_lone_joker_passed_on_by_a_plain_card_names_the_pass_on_rule() -> None:
    """#24 A3 (S0:92-95): a lone joker may be passed on with the other joker, and only with
    it: a ten is refused by the transfer rank rule, which says so."""
    s = P(ON_TABLE.format(spec="perevodnoy+joker_gift", hand="BJTdJd", table="RJ"))
    assert "=BJ" in legal(s)
    with pytest.raises(IllegalActionError) as info:
        s.apply(parse_action("=Td"))
    assert info.value.rule == "transfer rank"
    assert "joker" in info.value.detail
