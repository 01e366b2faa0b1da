"""#31 exchange with chosen cards (VARIANTS.md §3.4 #31 A1 option ``exchange.amount = k``).

S0:18: "after each 'beat' or capture, the players exchange cards with each other. If a lot of
players play, they change clockwise: 1-2 2-3 3-4 4-5 5-6 6-1". The catalogue's stated
alternative to passing whole hands: "each player passes k cards of his choice,
simultaneously" (built as ``exchange=choose`` with ``exchange.cards=k``). Expected hands are
worked out here from the rule text, never read off the engine.
"""

from __future__ import annotations

import random
import re
from itertools import combinations

import pytest

from bito.bots.base import RandomBot
from bito.bots.heuristic import HeuristicBot
from bito.bots.search import SearchBot
from bito.cards import cards_of
from bito.errors import IllegalActionError, InvalidNotationError, RulesError
from bito.games.durak import new_game
from bito.games.durak.actions import EXCHANGE, exchange, parse_action
from bito.games.durak.exchange import EXCHANGE_PHASE, Chosen
from bito.games.durak.position_stock import BOOKS
from bito.games.durak.state import LEAD
from bito.games.family import seen_by
from bito.games.protocol import Hidden
from bito.notation import parse_position, position_text
from bito.rules import rules_for
from conftest import P, assert_conserved, cards, play

SPEC = "podkidnoy+exchange=choose+exchange.cards=2"
#: Three players, the stock gone; seat 1 defends 7s. Seat 2's hand is public (he picked it up
#: earlier), so a choice by him would tell the others something if they could see it.
THREE = (f"{SPEC} players=3 trump=6h stock=- hands=9cKdAd/8s9dQc/JcJdAs7c "
         "known=-/-/JcJdAs7c table=7s attacker=0 defender=1")


def mask(text: str) -> int:
    return sum(1 << c for c in cards(text))


def to_exchange(text: str = THREE) -> object:
    """Play the bout of :data:`THREE` to its bito: 8s covers 7s, both throwers pass."""
    return play(P(text), "8s>7s", "pass", "pass")


def test_option_names_and_values() -> None:
    """#31 A1: the modifier takes the mode as its value; exchange.cards is 1 to 3 (default 1)
    and a bad value names the key."""
    rules = rules_for(SPEC)
    assert (rules.exchange_mode, rules.exchange_cards) == ("choose", 2)
    assert rules_for("podkidnoy+exchange").exchange_mode == "whole_hand"
    assert rules_for("podkidnoy+exchange=choose").exchange_cards == 1
    with pytest.raises(RulesError, match=r"exchange\.cards"):
        rules_for("podkidnoy+exchange=choose+exchange.cards=4")


def test_the_round_opens_after_the_bout_from_the_next_attacker_clockwise() -> None:
    """#31 A2 (after the draw) and S0:18: once the bout is beaten off the defender (seat 1)
    attacks next, so he chooses first, then seats 2 and 0; nothing has moved yet."""
    before = P(THREE)
    s = to_exchange()
    assert s.phase == EXCHANGE_PHASE and s.phase_name == "exchange"
    assert (s.attacker, s.defender, s.to_act) == (1, 2, 1)
    assert BOOKS.of(s) is not None and BOOKS.of(s).choosing == (1, 2, 0)
    assert s.hands[0] == before.hands[0] and s.hands[2] == before.hands[2]
    assert_conserved(s)


def test_choices_are_every_k_card_set_and_a_short_hand_passes_all() -> None:
    """#31 A1: k cards of his choice: every 2-card set of the hand; seat 1, left with 9d Qc
    after covering, passes both (exactly k, or all he holds if fewer: an engine decision)."""
    s = to_exchange()
    assert s.legal_actions() == [exchange(*cards("9dQc"))]
    s = play(s, "&9d+Qc")
    want = {exchange(*pair) for pair in combinations(cards_of(mask("JcJdAs7c")), 2)}
    assert set(s.legal_actions()) == want and len(want) == 6
    three = to_exchange(THREE.replace("exchange.cards=2", "exchange.cards=3"))
    assert three.legal_actions() == [exchange(*cards("9dQc"))]


def test_all_passes_happen_at_once_then_the_bout_starts() -> None:
    """#31 S0:18 "1-2 2-3 ... 6-1": each seat's chosen cards go to the next seat still in on
    his left, all together once the last seat has chosen; then seat 1 leads against seat 2
    as the bito decided."""
    s = play(to_exchange(), "&9d+Qc", "&Jc+As")
    assert s.phase == EXCHANGE_PHASE and s.hands[2] == mask("JcJdAs7c")  # nothing moved yet
    s = play(s, "&9c+Kd")
    assert s.phase == LEAD and (s.to_act, s.attacker, s.defender) == (1, 1, 2)
    assert s.hands[0] == mask("Ad") | mask("JcAs")  # kept Ad, got seat 2's Jc As
    assert s.hands[1] == mask("9cKd")  # passed everything, got seat 0's 9c Kd
    assert s.hands[2] == mask("Jd7c") | mask("9dQc")
    assert BOOKS.of(s) is not None and BOOKS.of(s).choosing == () and BOOKS.of(s).chosen == ()
    assert_conserved(s)


def test_players_who_are_out_are_skipped() -> None:
    """#31 A3: seat 0 is out; the others pass between themselves (two players swap)."""
    text = (f"{SPEC} players=3 trump=6h stock=- hands=-/8s9dQc/JcJdAs7c table=7s attacker=2 "
            "defender=1 out=0")
    s = play(P(text), "8s>7s", "pass")
    assert BOOKS.of(s) is not None and BOOKS.of(s).choosing == (1, 2)
    s = play(s, "&9d+Qc", "&Jd+7c")
    assert s.hands[0] == 0
    assert s.hands[1] == mask("Jd7c") and s.hands[2] == mask("JcAs9dQc")


def test_simultaneous_no_seat_sees_another_choice_before_the_passes() -> None:
    """#31 A1 "simultaneously": during the round a seat's view, its censored position and the
    log show no other seat's chosen cards (only that it chose); the chooser sees his own."""
    s = play(to_exchange(), "&9d+Qc")
    choice = parse_action("&Jc+As")
    assert seen_by(s, choice, 2) is choice
    for seat in (0, 1, None):
        seen = seen_by(s, choice, seat)
        assert isinstance(seen, Hidden) and str(seen) == "&?+?"
    s = play(s, "&Jc+As")
    for seat in (0, 1):
        v = s.view(seat)
        assert v.extension(Chosen) == Chosen(mask("9dQc") if seat == 1 else 0)
        assert v.known[2] == mask("JcJdAs7c")  # still all public: nothing says which went
        fields = dict(f.split("=", 1) for f in position_text(s, seat).split()[1:])
        assert fields["chosen"].split("/")[2] == "-"
    assert s.view(2).extension(Chosen) == Chosen(mask("JcAs"))


def test_afterwards_each_seat_knows_what_it_passed_and_nothing_else() -> None:
    """#31: the receiver learns the cards he got (they are in his hand); the giver knows where
    his cards went; a third seat only knows those of seat 2's public cards that stayed."""
    s = play(to_exchange(), "&9d+Qc", "&Jc+As", "&9c+Kd")
    assert s.view(2).known[0] & mask("JcAs") == mask("JcAs")  # he passed them
    assert s.view(1).known[0] == 0  # seat 1 never saw which cards went from 2 to 0
    assert s.view(1).known[2] == mask("Jd7c") | mask("9dQc")  # public and stayed; his own
    assert s.view(0).known[2] == mask("Jd7c")  # only the public cards that stayed
    assert s.view(0).known[1] == mask("9cKd")  # seat 0 passed these to seat 1
    assert s.view(2).known[1] == 0


def test_illegal_choices_name_the_rule() -> None:
    """#31: a choice of the wrong size, a card not held, another move during the round or a
    choice outside it is refused with the rule it breaks."""
    s = play(to_exchange(), "&9d+Qc")
    with pytest.raises(IllegalActionError, match="exactly 2"):
        s.apply(parse_action("&Jc"))
    with pytest.raises(IllegalActionError, match="does not hold"):
        s.apply(parse_action("&9c+Jc"))
    with pytest.raises(IllegalActionError, match="exchange"):
        s.apply(parse_action("Jc"))
    with pytest.raises(IllegalActionError, match="exchange"):
        P(THREE).apply(parse_action("&9c+Kd"))


def test_notation_round_trip() -> None:
    """The choice is written ``&`` and the cards (``exchange 9c+Kd`` is accepted too)."""
    a = exchange(*cards("Kd9c"))
    assert str(a) == "&9c+Kd" and a.kind == EXCHANGE
    assert parse_action("&9c+Kd") == a == parse_action("exchange 9c+Kd")
    assert "pass" in a.pretty()


def fields_of(text: str) -> dict[str, str]:
    return dict(f.split("=", 1) for f in text.split()[1:])


def test_positions_round_trip_during_the_round() -> None:
    """The full position text of a half-made round (who still chooses, what was chosen) parses
    back to the same state with the same moves; a censored one shows only the seat's own."""
    s = play(to_exchange(), "&9d+Qc")
    text = position_text(s)
    f = fields_of(text)
    assert f["phase"] == "exchange" and f["choosing"] == "2.0"
    assert [mask(c) if c != "-" else 0 for c in f["chosen"].split("/")] == [0, mask("9dQc"), 0]
    back = parse_position(text)
    assert position_text(back) == text and back.legal_actions() == s.legal_actions()
    assert position_text(play(back, "&Jc+As", "&9c+Kd")) == position_text(
        play(s, "&Jc+As", "&9c+Kd"))
    assert fields_of(position_text(s, 0))["chosen"] == "-/-/-"
    assert fields_of(position_text(s, 1))["chosen"] == f["chosen"]


def test_bad_round_fields_name_the_field() -> None:
    text = position_text(play(to_exchange(), "&9d+Qc"))
    chosen = fields_of(text)["chosen"]
    with pytest.raises(InvalidNotationError, match="choosing"):
        parse_position(text.replace("choosing=2.0", "choosing=0.2"))
    with pytest.raises(InvalidNotationError, match="chosen"):
        parse_position(text.replace(f"chosen={chosen}", "chosen=-/-/" + chosen.split("/")[1]))


def test_bots_choose_legal_cards() -> None:
    """Random picks a legal choice; heuristic too; a search bot, which the kernel declines for
    this option, plays the engine's general playouts and still answers legally."""
    s = play(to_exchange(), "&9d+Qc")
    legal = s.legal_actions()
    assert RandomBot(1).choose(s.view(2)) in legal
    assert HeuristicBot(1).choose(s.view(2)) in legal
    search = SearchBot(3, think_ms=0, playouts=40, min_worlds=2)
    assert search.choose(s.view(2)) in legal


def test_heuristic_keeps_trumps() -> None:
    """Heuristic (documented in docs/bots.md): with a plain card to spare it never passes a
    trump."""
    s = P(f"{SPEC} players=2 trump=6h stock=- hands=6h7hAsKc/8s9c table=7s attacker=0 "
          "defender=1")
    s = play(s, "8s>7s", "pass")
    assert s.phase == EXCHANGE_PHASE and s.to_act == 1
    s = play(s, "&9c")  # seat 1's only card
    pick = HeuristicBot(1).choose(s.view(0))
    assert pick == exchange(*cards("KcAs"))


def test_the_rl_env_refuses_the_option_by_name() -> None:
    from bito.env.codec import ActionCodec

    with pytest.raises(ValueError, match=r"exchange\.mode=choose"):
        ActionCodec(SPEC)
    ActionCodec("podkidnoy+exchange")  # the whole-hand exchange stays supported


def test_a_seeded_game_runs_through_rounds_with_random_moves() -> None:
    """A small smoke run: rounds occur, every state conserves the pack, the game ends."""
    rounds = 0
    for players in (2, 4):
        s = new_game(SPEC, players=players, seed=players)
        rng = random.Random(players)
        while not s.is_over:
            rounds += s.phase == EXCHANGE_PHASE
            acts = s.legal_actions()
            s = s.apply(acts[rng.randrange(len(acts))])
        assert_conserved(s)
    assert rounds > 0


def test_records_and_the_terminal_hide_other_seats_choices() -> None:
    """#31 "simultaneously", through the protocol's ``seen_by`` hook: a censored record
    writes every other seat's choice as ``&?+?`` (one ``?`` per card); at the terminal the
    human reads that a bot chose two cards, never which."""
    from bito.bots import make_bot
    from bito.server import games as server_games
    from bito.tui import Seat, TerminalGame

    state = new_game(SPEC, players=3, seed=5)
    bots = [make_bot("random", seed=k) for k in range(3)]
    moves = []
    while not state.is_over:
        action = bots[state.to_act].choose(state.view(state.to_act))
        moves.append(action)
        state = state.apply(action)
    record = server_games.full_record(server_games.Setup(SPEC, 3, 5), moves, ["a", "b", "c"])
    censored = record.censored(0)
    others = [(a, true) for (mover, a), (_, true) in zip(censored.actions, record.actions,
                                                          strict=True)
              if true.kind == EXCHANGE and mover != 0]
    assert others and all(isinstance(a, Hidden) and str(a) == "&" + "+".join("?" * len(t.cards))
                          for a, t in others)
    lines: list[str] = []
    seats = [Seat("You"), Seat("B", make_bot("random", seed=1), "random"),
             Seat("C", make_bot("random", seed=2), "random")]
    game = TerminalGame(new_game(SPEC, players=3, seed=5), seats, 0,
                        input_fn=lambda _: "1", output=lines.append)
    game.run()
    text = "\n".join(lines)
    assert re.search(r"\b[BC] chooses 2 cards to pass left", text), text
    assert "C: pass" not in text and "B: pass" not in text


def test_hands_held_face_out_refuse_the_chosen_exchange() -> None:
    """A choice names cards, which a player holding his hand face out (#58) cannot see: the
    combination is refused naming the option (the whole-hand exchange stays allowed)."""
    with pytest.raises(RulesError, match=r"exchange\.mode"):
        new_game(f"{SPEC}+deal.owner_sees_hand=false", players=2, seed=1)
    new_game("podkidnoy+exchange+deal.owner_sees_hand=false", players=2, seed=1)
