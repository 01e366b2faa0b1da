"""Rule scenarios of the social games: animal sounds (#60, VARIANTS §3.7, S0:169-171) and
Cheat, bito's rules for "believe it or not (2)" (#85; the seeds only name it at S4:15, so
these tests cite the rules chosen in docs/games.md)."""

from __future__ import annotations

import pytest

from bito.cards import cards_of, mask_of, parse_card, split_cards
from bito.errors import IllegalActionError
from bito.games import new_game
from bito.games.social import AnimalState, CheatState


def C(text: str) -> int:
    return parse_card(text)


def legal(s: object) -> set[str]:
    return {str(a) for a in s.legal_actions()}  # type: ignore[attr-defined]


def act(s, *texts: str):
    for t in texts:
        s = s.apply(s.parse_action(t))
    return s


def animal(hands: tuple[str, ...], pile: str = "", to_act: int = 0,
           spec: str = "animal_sounds") -> AnimalState:
    s = new_game(spec, len(hands), seed=0).copy()
    s.hands = [mask_of(split_cards(h)) for h in hands]
    s.pile, s.to_act, s.phase, s.out, s.sounds_in_row = split_cards(pile), to_act, "play", [], 0
    return s


def test_60_whole_pack_dealt_and_a_six_opens():
    """#60, S0:169: the deck is dealt equally; the first to go holds a six and plays it."""
    s = new_game("animal_sounds", 4, seed=11)
    assert s.cards_total() == 36 and sorted(h.bit_count() for h in s.hands) == [9, 9, 9, 9]
    assert legal(s) and all(a.startswith("6") for a in legal(s))


def test_60_ranks_follow_the_cycle_and_the_ace_is_covered_by_a_six():
    """#60, S0:171: seven on six, then eight, ... up to the ace, and a six covers the ace."""
    s = animal(("7h 8c", "7s 6d"), pile="6c")
    assert legal(s) == {"7h"}
    s = animal(("6h 7c", "Ad"), pile="Ks Ac")
    assert legal(s) == {"6h"}


def test_60_no_card_means_a_sound_and_the_pile_goes_to_him_if_nobody_laughs():
    """#60, S0:171: a player without the rank makes his animal's sound; if nobody laughed he
    takes the played cards (A1, the literal reading)."""
    s = animal(("9h Kc", "8s", "Td"), pile="6c 7c")
    assert legal(s) == {"sound"}
    s = act(s, "sound")
    assert s.phase == "judge" and s.to_act == 1 and legal(s) == {"laugh", "pass"}
    s = act(s, "pass", "pass")
    assert s.hands[0] == mask_of(split_cards("9h Kc 6c 7c")) and s.pile == []
    assert s.to_act == 1


def test_60_a_laugh_leaves_the_pile():
    """#60 A1: when somebody laughs the pile stays and the next player goes on with it."""
    s = animal(("9h Kc", "8s", "Td"), pile="6c 7c")
    s = act(s, "sound", "laugh")
    assert s.pile == [C("6c"), C("7c")] and s.to_act == 1 and legal(s) == {"8s"}


def test_60_the_inverse_option():
    """#60 A1 option: the skipper takes the pile only if somebody laughed."""
    s = animal(("9h Kc", "8s", "Td"), pile="6c 7c", spec="animal_sounds+animal.takes_pile="
               "somebody_laughed")
    s = act(s, "sound", "pass", "pass")
    assert s.pile == [C("6c"), C("7c")]


def test_60_first_out_wins_last_holding_cards_is_the_fool():
    """#60, S0:171 and A4: the winner runs out first; the last player with cards is the
    fool."""
    s = animal(("7h", "8s 9s"), pile="6c")
    s = act(s, "7h")
    assert s.is_over and s.outcome.order == (0, 1) and s.outcome.loser == 1


def cheat(hands: tuple[str, ...], due: str = "6", to_act: int = 0) -> CheatState:
    s = new_game("believe_not_believe_2", len(hands), seed=0).copy()
    s.hands = [mask_of(split_cards(h)) for h in hands]
    s.pile, s.claim, s.due, s.to_act, s.phase = 0, [], "23456789TJQKA".index(due) + 2, to_act, \
        "put"
    s.known, s.put_by, s.out = [0] * len(hands), [0] * len(hands), []
    return s


def test_85_a_claim_is_one_to_four_cards_put_face_down():
    """#85 (bito's Cheat rules): cards go down one per action, then 'claim'; at most four."""
    s = cheat(("6h 6c 7d 8s 9s Ts", "Jc", "Qc"))
    assert "claim" not in legal(s)
    s = act(s, "6h", "6c", "7d", "8s")
    assert legal(s) == {"claim"}
    with pytest.raises(IllegalActionError) as e:
        act(s, "9s")
    assert e.value.rule == "claim size"


def test_85_other_players_see_only_the_count_of_a_claim():
    s = act(cheat(("6h 7d 8s", "Jc", "Qc")), "6h", "7d", "claim")
    view = s.view(1)
    assert view.claim_count == 2 and view.claim_cards == 0
    assert s.view(0).claim_cards == mask_of([C("6h"), C("7d")])


def test_85_doubting_a_lie_gives_the_pile_to_the_liar():
    s = act(cheat(("6h 7d 8s", "Jc", "Qc")), "6h", "7d", "claim", "doubt")
    assert s.hands[0] == mask_of(split_cards("6h 7d 8s"))
    assert s.view(2).known[0] == mask_of([C("6h"), C("7d")])  # everybody saw them
    assert s.due == 7 and s.to_act == 1


def test_85_doubting_the_truth_gives_the_pile_to_the_doubter():
    s = act(cheat(("6h 6d 8s", "Jc", "Qc")), "6h", "6d", "claim", "pass", "doubt")
    assert s.hands[2] == mask_of(split_cards("Qc 6h 6d"))
    assert s.hands[0] == mask_of([C("8s")])


def test_85_unchallenged_claims_stay_in_the_pile_and_the_rank_moves_on():
    s = act(cheat(("6h 8s", "7c Jc", "Qc")), "6h", "claim", "pass", "pass")
    assert s.pile == mask_of([C("6h")]) and s.due == 7 and s.to_act == 1
    assert s.view(0).mine_in_pile == mask_of([C("6h")]) and s.view(1).mine_in_pile == 0


def test_85_empty_hand_after_a_surviving_claim_is_out():
    s = act(cheat(("6h", "7c Jc", "Qc 9d")), "6h", "claim", "pass", "pass")
    assert s.out == [0] and not s.is_over
    s = act(cheat(("6h", "7c Jc")), "6h", "claim", "pass")
    assert s.is_over and s.outcome.loser == 1


def test_85_a_caught_last_claim_brings_the_player_back():
    s = act(cheat(("7h", "7c Jc", "Qc")), "7h", "claim", "doubt")
    assert s.out == [] and cards_of(s.hands[0]) == [C("7h")]
