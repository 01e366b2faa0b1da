"""The transfer family through the engine (issue 4): transfer with refusal, transferable 2
and 3, transfer without throw-in (VARIANTS.md §3.1 #9-12).

Each test names the id and the seed line it checks (S0 = seeds/000_*.txt, S1 = 001, S4 = 004);
the expected moves are written out from the rule text, never read back from the engine.
"""

from __future__ import annotations

from conftest import C, P, assert_conserved, cards, hand, legal, mask_of, play, rule_of


def m(text: str) -> int:
    """A set of cards written back to back, as a bitmask."""
    return mask_of(cards(text))


# --- #9 perevodnoy_refusal (S1:74; S4:5-6) -------------------------------------------------


def test_refusal_transfers_back_to_the_player_who_went_out() -> None:
    """#9, S4:6 «после последнего хода под единственного оставшегося противника, у игрока
    карт не осталось, противник имеет право «отказать», т. е. перевести карты назад.
    Переведенные таким образом карты берутся, и игра продолжается»."""
    s = P("perevodnoy_refusal players=2 trump=6h stock=- hands=7c/7d8c attacker=0")
    s = play(s, "7c")
    assert s.out == [0] and "=7d" in legal(s)
    s = play(s, "=7d")
    assert s.out == [] and s.defender == 0 and legal(s) == {"take"}
    s = play(s, "take")
    assert not s.is_over
    assert hand(s, 0) == cards("7c7d") and hand(s, 1) == cards("8c")
    assert s.attacker == 1 and s.defender == 0


def test_plain_transfer_fool_has_no_refusal() -> None:
    """#8 against #9: without the refusal the defender may only cover or take."""
    s = play(P("perevodnoy players=2 trump=6h stock=- hands=7c/7d8c attacker=0"), "7c")
    assert legal(s) == {"8c>7c", "take"}
    assert rule_of(s, "=7d") == "transfer"


def test_refusal_is_only_for_the_last_duel() -> None:
    """#9 A1 ("for the only remaining opponent", S1:74): with a third player in the game a
    transfer goes to him under the usual hand limit, never to the player who went out."""
    s = P("perevodnoy_refusal players=3 trump=6h stock=- hands=7c/7d8c/9c attacker=0")
    s = play(s, "7c")
    assert s.out == [0] and "=7d" not in legal(s)  # 9c alone cannot face two sevens


# --- #10 transfer_2 (S0:38-40, 225, 259) ---------------------------------------------------


def test_transfer_2_example_of_the_seed() -> None:
    """#10, S0:40: "the first player was like ten spades, the second beat the jack of spades,
    and the first threw the jack of clubs, but the second has a jack of diamonds, then he can
    transfer it and the first player will have to beat it"."""
    s = P("transfer_2 players=2 trump=6h stock=- hands=TsJcAcAdAs/JsJdKd attacker=0")
    s = play(s, "Ts", "Js>Ts", "Jc", "pass")
    assert "=Jd" in legal(s)
    s = play(s, "=Jd")
    assert s.defender == 0
    open_cards = {a for a, d in s.table_pairs() if d == -1}
    assert open_cards == cards("JcJd")


def test_transfer_2_match_option_needs_every_open_card_of_the_rank() -> None:
    """#10 A3 option ``transfer.match=all_uncovered``: a transfer needs every uncovered card
    to share the transfer card's rank (the default matches only the last one thrown)."""
    text = "players=2 trump=6h stock=- hands=AsAdAc/9c9dKd table=7c,9s attacker=0"
    assert "=9d" in legal(P(f"transfer_2 {text}"))
    strict = P(f"transfer_2+transfer.match=all_uncovered {text}")
    assert "=9d" not in legal(strict)
    assert rule_of(strict, "=9d") == "transfer rank"


# --- #11 transfer_3 (S0:42-44) -------------------------------------------------------------


def test_transfer_3_the_new_defender_beats_only_the_transfer_card() -> None:
    """#11, S0:44: "if player 2 has bet a seven of clubs, and player 1 has transferred with a
    seven of diamonds, then player 2 is obliged to beat only a seven of diamonds"."""
    s = P("transfer_3 players=2 trump=6h stock=- hands=7c9dAs/7dKc attacker=0")
    s = play(s, "7c", "=7d")
    assert s.defender == 0
    assert {str(a) for a in s.legal_actions() if a.kind_name == "defend"} == {"9d>7d"}
    before = s.discard
    s = play(s, "9d>7d", "pass")
    assert s.discard == before | m("7c7d9d")  # the neutralised 7c goes with the bout (A1)


def test_transfer_3_discard_option_clears_the_neutralised_card() -> None:
    """#11 A1 option ``transfer.neutralised=discard``: the neutralised card leaves the table
    for the discard pile at once."""
    s = P("transfer_3+transfer.neutralised=discard players=2 trump=6h stock=- "
          "hands=7c9dAs/7dKc attacker=0")
    before = s.discard
    s = play(s, "7c", "=7d")
    assert s.attack == [C("7d")] and s.discard == before | m("7c")
    assert_conserved(s)


# --- #12 transfer_no_throw (S0:144) --------------------------------------------------------


def test_transfer_no_throw_leads_the_whole_rank() -> None:
    """#12, S0:144: "If the player has a move and has a group of cards of the same value, he,
    as in a simple fool, must bet everything at once"; "you can't throw in it"."""
    s = P("transfer_no_throw players=2 trump=6h stock=6hAc hands=7c7d9s/8c8dJsQsKsAs "
          "attacker=0")
    assert legal(s) == {"7c+7d", "9s"}
    assert rule_of(s, "7c") == "lead whole rank"
    s = play(s, "7c+7d", "8c>7c", "8d>7d")
    assert s.phase_name == "lead" and s.attacker == 1  # no throw-in round: bito


def test_transfer_no_throw_transfer_of_the_whole_rank_is_an_option() -> None:
    """#12 A2: a transfer is one card by default; ``transfer.must_include_all_of_rank`` makes
    it every card of the rank the defender holds."""
    text = "players=3 trump=6h stock=- hands=7c/7d7s9c/8cJcQcKs table=7h attacker=0"
    assert {"=7d", "=7s"} <= legal(P(f"transfer_no_throw {text}"))
    whole = P(f"transfer_no_throw+transfer.must_include_all_of_rank=true {text}")
    assert {a for a in legal(whole) if a.startswith("=")} == {"=7d+7s"}
