"""Variants II, attack and defence mechanics (VARIANTS.md §3.5): second tries, stock leads,
poker swaps, self-throws, counter-throws, cunning and impudent fool (#39-45, #48-51, #83).

Every position is set up from position text and every expectation comes from the rule quoted
in the docstring: the catalogue id, its §3.5 resolution and the seed line (S0 =
seeds/000_*.txt). ``try`` draws for a second try, ``stock`` plays the top card of the stock,
``$7c+8d`` swaps with the stock, ``6h<Th`` lays a card covered by its own player, ``@Th>6h``
covers one's own card after a take and ``Th>9c+Ts`` covers with a counter-attack.
"""

from __future__ import annotations

import pytest

from bito.cards import cards_of
from bito.errors import IllegalActionError
from bito.games.durak import DurakView, parse_action
from bito.games.durak.bout_extras import Extras
from bito.notation import parse_position, position_text
from bito.rules import lookup, resolve
from conftest import C, P, assert_conserved, cards, hand, legal, play


def top_seen(view: DurakView) -> int:
    """#83: the card everyone saw go back on top of the stock (-1: none)."""
    extras = view.extension(Extras)
    return extras.shown if extras is not None else -1


def kinds(state) -> set[str]:
    return {a.kind_name for a in state.legal_actions()}


def roundtrip(state) -> None:
    """The position text holds every slot these rules add (a position is a whole state)."""
    text = position_text(state)
    again = parse_position(text)
    assert position_text(again) == text
    assert legal(again) == legal(state)


# --- #39 second try -------------------------------------------------------------------------

STUCK = ("podkidnoy+second_try players=2 trump=6h stock={stock} hands=7c8c9c/7d8s9d "
         "table={table} attacker=0 defender=1")


def test_second_try_offered_only_when_stuck() -> None:
    """#39; S0:29 "if the player has nothing to beat the card with, he must first take another
    card from the deck": P1 holds no club above the queen and no trump, so he may try; facing
    a seven of diamonds he can beat, he may not."""
    stuck = P(STUCK.format(stock="6hKc", table="Qc"))
    assert "try" in legal(stuck) and "take" in legal(stuck)
    able = P(STUCK.format(stock="6hKc", table="7d").replace("7d8s9d", "6d8s9d"))
    assert any(">" in m for m in legal(able)) and "try" not in legal(able)


def test_second_try_card_that_beats_may_cover() -> None:
    """#39 A2; S0:29 "If this card is suitable in order to beat the desired card, the player
    beats it": the top card (king of clubs) goes to P1's hand, hidden from P0, and covers."""
    s = play(P(STUCK.format(stock="6hKc", table="Qc")), "try")
    assert C("Kc") in hand(s, 1) and s.stock == [C("6h")]
    assert not s.view(0).known[1] >> C("Kc") & 1  # a face-down card, drawn unseen
    assert "Kc>Qc" in legal(s)
    s = play(s, "Kc>Qc")
    assert s.defence == [C("Kc")]
    assert_conserved(s)


def test_second_try_useless_card_stays_and_no_third_attempt() -> None:
    """#39 A1, A2; S0:29 "But if it does not fit, the player takes": the drawn seven of spades
    stays in P1's hand, and a second try for the same queen is not offered again."""
    s = play(P(STUCK.format(stock="6hKc7s", table="Qc")), "try")
    assert C("7s") in hand(s, 1)
    assert legal(s) == {"take"}
    roundtrip(s)
    s = play(s, "take", "pass")
    assert C("7s") in hand(s, 1) and C("Qc") in hand(s, 1)


def test_second_try_once_per_card_or_per_bout() -> None:
    """#39 A1: "at most once per uncovered attack card; option per_bout". Stuck on two queens
    and drawing nothing useful, P1 may try a second time under per_card, not under per_bout."""
    text = STUCK.format(stock="6hKc8d7s", table="Qc,Qs").replace("7d8s9d", "7d8s9d6c")
    per_card = play(P(text), "try")
    assert "try" in legal(per_card)
    per_bout = play(P(text.replace("second_try", "second_try=per_bout")), "try")
    assert "try" not in legal(per_bout)
    assert resolve("podkidnoy+second_try=per_bout").rules.defense_second_try == "per_bout"


def test_second_try_needs_a_stock_and_may_take_the_trump_card() -> None:
    """#39 A3: "Stock empty -> no second try. The face-up trump card may be drawn as the last
    card." With only the six of hearts (trump) left, P1 draws it openly and it beats the
    queen of clubs; with no stock there is no try."""
    s = play(P(STUCK.format(stock="6h", table="Qc")), "try")
    assert s.view(0).known[1] >> C("6h") & 1  # the trump card lay face up
    assert "6h>Qc" in legal(s)
    empty = P(STUCK.format(stock="-", table="Qc"))
    assert "try" not in legal(empty)
    with pytest.raises(IllegalActionError, match="stock is empty"):
        empty.apply(parse_action("try"))


def test_second_try_on_simple_and_perevodnoy() -> None:
    """#39 applies_to [simple, podkidnoy, perevodnoy]."""
    assert lookup("second_try").applies_to == ("simple", "podkidnoy", "perevodnoy")
    for base in ("simple", "perevodnoy"):
        s = P(STUCK.format(stock="6hKc", table="Qc").replace("podkidnoy", base))
        assert "try" in legal(s)


# --- #40 Armenian fool, #83 unlimited -------------------------------------------------------

ARMENIAN = ("podkidnoy+armenian players=2 trump=6h stock={stock} hands=7c7dAs/8c8s9c9d "
            "attacker=0")


def test_armenian_lead_from_the_stock_top() -> None:
    """#40; S0:32 "the player can resemble not only his own card, but also take one card lying
    on top of the deck": the lead 'stock' turns up the top card (queen of clubs) as the attack
    card; the attacker's hand does not shrink (A2) and he never saw the card first (A4)."""
    s = P(ARMENIAN.format(stock="6hKdQc"))
    assert "stock" in legal(s)
    assert str(parse_action("stock")) == "stock"  # the action names no card: it is blind
    after = play(s, "stock")
    assert after.attack == [C("Qc")] and hand(after, 0) == hand(s, 0)
    assert after.stock == [C("6h"), C("Kd")] and after.to_act == 1
    assert_conserved(after)


def test_armenian_once_per_bout_lead_only() -> None:
    """#40: "once per bout" and A1 "the opening lead only": after a covered stock lead, the
    attacker may throw in from his hand but not from the stock."""
    s = play(P(ARMENIAN.format(stock="6hKd7s")), "stock", "8s>7s")
    assert s.phase_name == "throw" and "stock" not in legal(s)
    assert {"7c", "7d"} <= legal(s)


def test_armenian_trump_card_may_be_led_and_empty_stock_cannot() -> None:
    """#40 A3: "May the last stock card (the face-up trump card) be used? -> yes"."""
    s = play(P(ARMENIAN.format(stock="6h")), "stock")
    assert s.attack == [C("6h")] and not s.stock
    none = P(ARMENIAN.format(stock="-"))
    assert "stock" not in legal(none)


def test_armenian_unlimited_stock_throw_ins_and_the_put_back() -> None:
    """#83; S0:32 "by agreement of the players, this number can be increased to infinity";
    A1: throw-ins from the stock top, a card matching no rank on the table going back on top.
    P0 leads 7c, P1 covers with 8c. A stock throw of the seven of spades is added; the next
    card, the king of diamonds, matches nothing: it goes back, seen by both, P0 keeps his turn
    and may not turn it again; whoever draws it holds it openly."""
    text = ARMENIAN.format(stock="6hKd7s").replace("armenian", "armenian_unlimited")
    s = play(P(text), "7c", "8c>7c", "stock")  # the seven of spades
    assert s.attack == [C("7c"), C("7s")] and s.stock == [C("6h"), C("Kd")]
    s = play(s, "stock")
    assert s.stock == [C("6h"), C("Kd")] and s.attack == [C("7c"), C("7s")]
    assert top_seen(s.view(1)) == C("Kd") and s.to_act == 0
    assert "stock" not in legal(s)
    roundtrip(s)
    s = play(s, "pass", "8s>7s")
    assert "stock" not in legal(s)  # the seen king still matches nothing
    s = play(s, "pass")  # bito; P0 draws first: the seen king of diamonds, openly
    assert C("Kd") in hand(s, 0) and s.view(1).known[0] >> C("Kd") & 1
    assert top_seen(s.view(1)) == -1


# --- #42 poker fool -------------------------------------------------------------------------

POKER = ("podkidnoy+poker players=2 trump=6h stock={stock} hands=8c9cTc/7d8s9dJs table=Qc "
         "attacker=0 defender=1")


def test_poker_swap_two_for_two_before_the_first_cover() -> None:
    """#42; S0:65 "before hitting the cards, the player has the right to exchange 2 cards for 2
    cards from the deck": every pair of P1's four cards may go, and he receives the top two
    stock cards (king and ace of clubs)."""
    s = P(POKER.format(stock="6h7h8hKcAc"))
    swaps = {m for m in legal(s) if m.startswith("$")}
    assert len(swaps) == 6  # 4 cards choose 2 (A2: exactly two)
    after = play(s, "$7d+8s")
    assert hand(after, 1) == cards("9dJsKcAc")
    assert len(after.stock) == 5 and set(after.stock) == cards("6h7h8h7d8s")
    assert after.stock[0] == C("6h")  # the trump card stays at the bottom (A1)
    assert not any(m.startswith("$") for m in legal(after))  # once per bout
    assert "Kc>Qc" in legal(after)
    assert_conserved(after)


def test_poker_no_swap_after_a_cover_nor_with_the_trump_card() -> None:
    """#42 "before D covers his first card in the bout"; A3 "Needs at least 2 face-down stock
    cards; the trump card can't be taken"; A4 attackers never swap."""
    s = P(POKER.format(stock="6h7h8h").replace("table=Qc", "table=7c,Qc")
          .replace("7d8s9dJs", "8d8s9cJs").replace("8c9cTc", "Tc9h7s"))
    after = play(s, "9c>7c")
    assert not any(m.startswith("$") for m in legal(after))
    short = P(POKER.format(stock="6h7h"))
    assert not any(m.startswith("$") for m in legal(short))
    lead = P(POKER.format(stock="6h7h8h").replace(" table=Qc", "").replace(
        " defender=1", ""))
    assert not any(m.startswith("$") for m in legal(lead))


def test_poker_options_up_to_and_to_bottom() -> None:
    """#42 A2 option up_to=2 (one card may be swapped); A1 option to_bottom (the returned
    cards lie just above the trump card)."""
    spec = "podkidnoy+poker+defense.exchange_mode=up_to+defense.exchange_return=to_bottom"
    s = P(POKER.format(stock="6h7h8hKcAc").replace("podkidnoy+poker", spec))
    swaps = {m for m in legal(s) if m.startswith("$")}
    assert len(swaps) == 4 + 6
    after = play(s, "$7d")
    assert after.stock[:2] == [C("6h"), C("7d")] and C("Ac") in hand(after, 1)


def test_poker_shuffle_is_fixed_by_the_seed() -> None:
    """#42 A1: returned cards are "shuffled into the face-down stock"; a game stays a function
    of its seed and actions, so the same swap from the same position lands the same way."""
    text = POKER.format(stock="6h7h8h9hThJhKcAc")
    a = play(P(text), "$7d+8s")
    b = play(P(text), "$7d+8s")
    assert a.stock == b.stock and a.stock[0] == C("6h")


# --- #41, #43-45 combinations -------------------------------------------------------------

@pytest.mark.parametrize(("vid", "parts"), [
    ("armenian_second_try", ("armenian", "second_try")),
    ("armenian_poker", ("armenian", "poker")),
    ("poker_second_try", ("poker", "second_try")),
    ("armenian_poker_second_try", ("armenian", "poker", "second_try")),
])
def test_combinations_are_their_modifiers_stacked(vid: str, parts: tuple[str, ...]) -> None:
    """#41 (S0:36), #43 (S0:69), #44 (S0:73), #45 (S0:77): "a combination of ...": the combined
    id gives exactly the rules of its parts stacked, on every base the parts accept."""
    combo = lookup(vid)
    assert combo.kind == "modifier" and combo.applies_to == ("simple", "podkidnoy",
                                                             "perevodnoy")
    for base in combo.applies_to:
        stacked = resolve("+".join((base, *parts))).rules
        assert resolve(f"{base}+{vid}").rules == stacked


def test_swap_then_second_try_in_one_bout() -> None:
    """#45 A1: "May D use both the exchange and a second try in one bout? -> yes; they happen
    at different moments": P1 swaps, is still stuck on the queen of clubs and tries."""
    text = POKER.format(stock="6h7h7c7s9s").replace(
        "poker", "armenian_poker_second_try+defense.exchange_return=to_bottom")
    s = play(P(text), "$7d+8s")
    assert hand(s, 1) == cards("9dJs7s9s") and "try" in legal(s)
    s = play(s, "try")
    assert C("7c") in hand(s, 1) and legal(s) == {"take"}


# --- #48 self-throw -------------------------------------------------------------------------

SELF = ("podkidnoy+self_throw players=2 trump=6h stock=- hands=7cJs/8c7d9d table=7s<Ks "
        "attacker=0 defender=1")


def test_self_throw_after_everyone_passed() -> None:
    """#48; S0:116 "when players can no longer throw cards to the beating player, he has the
    right to throw to himself and then beat": P0 passes; P1 may lay 7d (a rank on the table)
    covered by 9d at once (A2), or pass."""
    s = play(P(SELF), "pass")
    assert s.to_act == 1 and legal(s) == {"7d<9d", "pass"}
    roundtrip(s)
    after = play(s, "7d<9d")
    assert after.attack == [C("7s"), C("7d")] and after.defence == [C("Ks"), C("9d")]
    assert hand(after, 1) == cards("8c")
    # A3: the throw round opens again, and the nine is now a rank P0 could match.
    assert after.to_act == 0 and after.phase_name == "throw"
    assert_conserved(after)


def test_self_throw_declined_ends_in_bito_and_counts_to_the_cap() -> None:
    """#48: passing ends the bout in bito; A1 "self-thrown cards count toward the 6-card ...
    caps": with six attack cards on the table P1 is not asked."""
    s = play(P(SELF), "pass", "pass")
    assert s.phase_name == "lead" and s.discard >> C("7s") & 1
    full = ("podkidnoy+self_throw players=2 trump=6h stock=- hands=7c/7h7d9dTd "
            "table=6c<8c,6d<8d,6s<Qs,8s<Ks,9c<Tc,9s<As attacker=0 defender=1 phase=throw "
            "throwers=0")
    s = play(P(full), "pass")
    assert s.phase_name == "lead" and hand(s, 1) == cards("7h7d9dTd")


def test_self_throw_only_on_throw_in_games() -> None:
    """#48 applies_to [podkidnoy, perevodnoy]: it is a kind of throw-in."""
    assert lookup("self_throw").applies_to == ("podkidnoy", "perevodnoy")
    with pytest.raises(Exception, match="applies to"):
        resolve("simple+self_throw")


# --- #49 counter-throw ----------------------------------------------------------------------

COUNTER = ("podkidnoy+counter_throw players=2 trump=6d stock=- hands=6c7cJsQh/TcTsAh "
           "table=9c attacker=0 defender=1 owned=9c/-")


def test_counter_throw_seed_example() -> None:
    """#49; S0:191 "player "2" looked like player "1" with a nine of clubs, and player "1" beat
    with a ten of clubs, but he also has a ten of spades, he can also put it and then player
    "2" should beat it, he needs beat both tens": here seat 0 is "2" and seat 1 is "1"."""
    s = P(COUNTER)
    assert {"Tc>9c+Ts", "Tc>9c", "take"} == legal(s)
    after = play(s, "Tc>9c+Ts")
    assert after.to_act == 0
    assert (after.view(0).extension(Extras) or Extras()).counter == (C("Tc"), C("Ts"))
    # P0 must beat both tens: the jack of spades beats the ten of spades only.
    assert legal(after) == {"Js>Ts", "take"}
    roundtrip(after)
    assert_conserved(after)


def test_counter_taken_and_the_bout_goes_on() -> None:
    """#49 A1 "9c counts as beaten"; A2 "he takes the counter cards only (10c, 10s) plus his
    covers; the original defender is treated as having defended successfully"."""
    s = play(P(COUNTER), "Tc>9c+Ts", "Js>Ts", "take")
    assert hand(s, 0) >= cards("TcTsJs") and s.view(1).known[0] >= sum(
        1 << c for c in cards("TcTsJs"))
    assert s.attack == [C("9c")] and s.defence[0] < -1  # beaten, needing no cover
    assert s.phase_name == "throw" and s.to_act == 0  # the bout goes on: P0 may throw in
    s = play(s, "pass")
    assert s.discard >> C("9c") & 1 and s.attacker == 1  # bito: P1 attacks next
    assert_conserved(s)


def test_counter_beaten_is_discarded_and_no_counter_of_a_counter() -> None:
    """#49 A5 "May the counter also be countered? -> no (one level deep)": P0's answers hold
    no counter-throw even when he holds more of his cover's rank; covering both counter cards
    sends them to the discard."""
    text = COUNTER.replace("6c7cJsQh", "JcJsQsQc").replace("TcTsAh", "TcTsAhAs")
    s = play(P(text), "Tc>9c+Ts")
    assert all((">" in m and "+" not in m) or m == "take" for m in legal(s))
    s = play(s, "Jc>Tc", "Js>Ts")
    assert s.discard & sum(1 << c for c in cards("TcTsJcJs")) == sum(
        1 << c for c in cards("TcTsJcJs"))
    assert (s.view(1).extension(Extras) or Extras()).counter == ()


def test_counter_faces_the_player_of_the_covered_card() -> None:
    """#49 A4: "With >2 players, who faces the counter? -> the owner of the attack card that was
    covered": seat 2 threw in the seven of clubs; covering it with a counter turns on seat 2."""
    text = ("podkidnoy+counter_throw players=3 trump=6d stock=- hands=8h8s/9c9sAh/Kh7dJs "
            "table=7h<9h,7c attacker=0 defender=1 owned=7h/-/7c")
    s = P(text)
    assert "9c>7c+9s" in legal(s)
    after = play(s, "9c>7c+9s")
    counter = after.view(2).extension(Extras)
    assert after.to_act == 2 and counter is not None and counter.counter_target == 2


def test_counter_limited_by_the_target_hand() -> None:
    """#49 decision (as the base cap): a counter-attack never holds more cards than its target
    could cover, so with one card left P0 cannot be counter-attacked at all."""
    s = P(COUNTER.replace("6c7cJsQh", "Qh"))
    assert not any("+" in m for m in legal(s))


# --- #50 cunning, #51 impudent -------------------------------------------------------------

CUNNING = ("podkidnoy+cunning players=2 trump=6d stock=- hands=QcKcJh8h/7s7h9d "
           "table=Tc attacker=0 defender=1 owned=Tc/-")


def test_cunning_cover_own_card_after_take() -> None:
    """#50; S0:150 "the player, because of whose card the first participant of the game could
    not fight off, has the right to beat his own card himself. And thus add cards in the hands
    of the taking player": after P1 takes, P0 may cover his ten of clubs (queen or king)."""
    s = play(P(CUNNING), "take")
    assert {"@Qc>Tc", "@Kc>Tc"} <= legal(s)
    s = play(s, "@Qc>Tc")
    assert s.defence == [C("Qc")]
    roundtrip(s)
    s = play(s, "pass")
    assert hand(s, 1) >= cards("TcQc")


def test_cunning_own_cover_opens_no_rank() -> None:
    """#50 step 3; S0:150 "the cards with which one player has beaten his own cannot be thrown,
    unless the cards of this value were encountered in the game when the player who was playing
    was fought back": after covering with the queen, P0 may not throw the other queen, but a
    rank of the genuine table (the ten) is still open."""
    text = CUNNING.replace("QcKcJh8h", "QcQhTh8h")
    s = play(P(text), "take", "@Qc>Tc")
    assert "Qh" not in legal(s) and "Th" in legal(s)


def test_cunning_cap_counts_attack_cards_against_the_taker() -> None:
    """#50 A1: "the usual cap counts attack cards only (<= 6 and <= D's hand at bout start);
    self-cover cards don't count": P1 takes holding two cards, so the bout holds two attack
    cards at most; after P0 covers his ten himself he may still throw exactly one more card.
    Covering one's own card adds no attack card, so it is allowed even in a full bout."""
    text = CUNNING.replace("7s7h9d", "7s7h").replace("QcKcJh8h", "QcTsTh8h")
    s = play(P(text), "take", "@Qc>Tc")
    assert {"Ts", "Th"} <= legal(s)
    s = play(s, "Ts")
    assert s.phase_name == "lead"  # the bout is full: P1 picked everything up
    assert hand(s, 1) == cards("7s7hTcQcTs")
    full = play(P(CUNNING.replace("7s7h9d", "7s").replace("QcKcJh8h", "QcTsTh8h")), "take")
    assert legal(full) == {"@Qc>Tc", "pass"}


def test_cunning_only_own_cards_with_three_players() -> None:
    """#50 step 1: "each player who owns an attack card left uncovered may cover it himself":
    seat 2 cannot cover seat 0's card."""
    text = ("podkidnoy+cunning players=3 trump=6d stock=- hands=QcKc/7s7h9d/AcTh "
            "table=Tc,Td attacker=0 defender=1 owned=Tc/-/Td")
    s = play(P(text), "take")
    assert "@Qc>Tc" in legal(s) and not any(m.startswith("@") and "Td" in m for m in legal(s))
    s = play(s, "pass")
    assert s.to_act == 2 and "@Ac>Tc" not in legal(s)


def test_impudent_throw_ins_come_covered() -> None:
    """#51; S0:153 "in order to throw a player must first beat his own card, and only then toss
    it": after the take, P0's plain throw of the ten of spades is refused with the rule's name,
    the pair 'Ts<As' is offered, and both cards go to the taker; covering his own leftover card
    is still allowed (A1)."""
    text = CUNNING.replace("cunning", "impudent").replace("QcKcJh8h", "QcTsAs8h")
    s = play(P(text), "take")
    assert "Ts" not in legal(s) and {"Ts<As", "@Qc>Tc"} <= legal(s)
    with pytest.raises(IllegalActionError, match="impudent"):
        s.apply(parse_action("Ts"))
    s = play(s, "Ts<As")
    assert s.attack == [C("Tc"), C("Ts")] and s.defence == [-1, C("As")]
    roundtrip(s)
    s = play(s, "pass")
    assert hand(s, 1) >= cards("TcTsAs")


def test_impudent_cover_own_first_then_throw() -> None:
    """#51 A2 option: "after the take a player may throw in only once he has covered his own
    card left uncovered on the table (the thrown card itself needs no self-cover)"."""
    text = CUNNING.replace("cunning", "impudent=cover_own_first_then_throw").replace(
        "QcKcJh8h", "QcTs8h")
    s = play(P(text), "take")
    assert "Ts" not in legal(s) and "@Qc>Tc" in legal(s)
    s = play(s, "@Qc>Tc")
    assert "Ts" in legal(s)


# --- the new actions in general -------------------------------------------------------------

@pytest.mark.parametrize("text", ["try", "stock", "$7c+8d", "6h<Th", "@Th>6h", "Th>9c+Ts"])
def test_new_actions_round_trip_as_text(text: str) -> None:
    """docs/notation.md: every action has one text form that parses back to it."""
    assert str(parse_action(text)) == text


def test_bad_action_text_points_at_the_card() -> None:
    with pytest.raises(Exception) as err:
        parse_action("$7c+8x")
    assert getattr(err.value, "position", None) == 5


def test_views_hide_a_second_try_and_a_swap() -> None:
    """VARIANTS §4.14: a card drawn for a second try or taken in a swap is the defender's
    secret; the attacker's view counts it but does not hold it."""
    s = play(P(STUCK.format(stock="6hKc", table="Qc")), "try")
    v = s.view(0)
    assert v.hand_counts[1] == 4 and not v.known[1] and not v.hand & s.hands[1]
    swapped = play(P(POKER.format(stock="6h7h8hKcAc")), "$7d+8s")
    assert not swapped.view(0).known[1]
    assert cards_of(swapped.view(1).hand) == sorted(cards("9dJsKcAc"))
