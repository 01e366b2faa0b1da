"""Variants II: the playing dummy (VARIANTS.md §3.6 #57, S0:139-141).

S0:141: "the player who wins the toss has the right (or rather should) not only toss, but also
walk for him. The dummy can win and lose." The catalogue makes the dummy a full seat (A3: it is
attacked and defends; option ``dummy.defends=false``), seated last by default, played by the
lot winner; A1: when the dummy is the fool no person loses and the controller deals next.

In the positions below the dummy is seat 2 of three (the last seat) and seat 0 plays it.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bito.bots import RandomBot, make_bot
from bito.bots.levels import make_level
from bito.cards import card_str, cards_of
from bito.errors import RulesError
from bito.games.durak import DurakView, new_game, next_match_context
from bito.games.durak.dummy_seat import dummy_seat_of, seat_controller
from bito.games.protocol import decider, human_loser
from bito.notation import parse_position, position_text
from bito.rules import resolve
from bito.sim import play_game, run_sim
from conftest import P, assert_conserved, cards, legal, play, random_walk

SPEC = "podkidnoy+playing_dummy"
# Seat 1 leads 7s at the dummy (seat 2), which holds 8s Td; seat 0 plays it.
DEFENDS = f"{SPEC} players=3 trump=6h stock=- hands=Qd8c/7c9dKc/8sTd controller=0 table=7s " \
          "attacker=1 defender=2"


def test_the_dummy_is_a_seat_dealt_like_the_others() -> None:
    """#57 (S0:139 "this game is also played by the blockhead"; Rec. a seat in the rotation,
    the last one, dealt to like anyone): with three seats every seat gets six cards, the
    dummy's is seat 2; the lot gives its play to a person (never the dummy), who attacks
    first; over many deals both people win the lot."""
    controllers = set()
    for seed in range(30):
        s = new_game(SPEC, players=3, seed=seed)
        assert dummy_seat_of(s.deal) == 2 and [h.bit_count() for h in s.hands] == [6, 6, 6]
        assert seat_controller(s.deal) == s.attacker == s.to_act == s.decider
        controllers.add(seat_controller(s.deal))
        assert_conserved(s)
    assert controllers == {0, 1}
    moved = new_game(SPEC + "+dummy.seat=0", players=4, seed=3)
    assert dummy_seat_of(moved.deal) == 0 and seat_controller(moved.deal) != 0


def test_the_controller_leads_for_the_dummy() -> None:
    """#57 (S0:141 "not only toss, but also walk for him"): on the dummy's lead its
    controller decides, choosing among the dummy's own cards; the card leaves the dummy's
    hand and the attack goes to the seat on the dummy's left (here the controller himself:
    A2 accepts the conflict of interest)."""
    s = P(f"{SPEC} players=3 trump=6h stock=- hands=Qd8c/9dKc/7s7dTd controller=0 attacker=2")
    assert s.to_act == 2 and s.decider == 0 and decider(s) == 0
    assert legal(s) == {"7s", "7d", "Td", "7d+7s"}
    s = play(s, "7d")
    assert set(cards_of(s.hands[2])) == cards("7sTd") and s.defender == 0
    assert s.decider == 0 and s.to_act == 0


def test_the_controller_throws_in_for_the_dummy() -> None:
    """#57 (S0:141 "not only toss"): in a throw round the dummy is a thrower in its place in
    the order; its controller throws its cards for it."""
    s = P(f"{SPEC} players=3 trump=6h stock=- hands=Qd8c/8sKc/7dTd9c controller=0 table=7s "
          "attacker=0 defender=1")
    s = play(s, "8s>7s", "pass")
    assert s.to_act == 2 and s.decider == 0 and legal(s) == {"7d", "pass"}
    s = play(s, "7d")
    assert set(cards_of(s.hands[2])) == cards("Td9c")


def test_the_dummy_defends_and_takes() -> None:
    """#57 A3 (Rec. the dummy is attacked and defends, "the controller covers or takes for
    it"): attacked with 7s, the dummy's choices are its cover 8s and take; taking puts the
    table in the dummy's hand, not the controller's."""
    s = P(DEFENDS)
    assert s.to_act == 2 and s.decider == 0 and legal(s) == {"8s>7s", "take"}
    s = play(s, "take")
    while s.phase_name != "lead":
        s = play(s, "pass")
    assert set(cards_of(s.hands[2])) == cards("8sTd7s")
    assert set(cards_of(s.hands[0])) == cards("Qd8c")


def test_defends_false_passes_the_dummy_over() -> None:
    """#57 A3's option ``dummy.defends=false``: after seat 1 beats off, the next attack would
    go to the dummy on his left; it goes to the next seat in play, seat 0. With the option off
    the dummy is attacked. No deal opens with an attack on the dummy."""
    text = (f"{SPEC}{{extra}} players=3 trump=6h stock=- hands=Qd8c/8s9dKc/7hTd controller=0 "
            "table=7s attacker=0 defender=1")
    s = play(P(text.format(extra="+dummy.defends=false")), "8s>7s", "pass", "pass")
    assert (s.attacker, s.defender) == (1, 0)
    s = play(P(text.format(extra="")), "8s>7s", "pass", "pass")
    assert (s.attacker, s.defender) == (1, 2)
    for seed in range(20):
        assert new_game(SPEC + "+dummy.defends=false", players=3, seed=seed).defender != 2


def test_defends_false_with_one_player_left_the_dummy_leads() -> None:
    """``dummy.defends=false`` when only one player and the dummy hold cards: the player
    cannot attack the dummy, so the dummy leads every bout at him, its controller (out of
    cards himself) still deciding for it."""
    s = P(f"{SPEC}+dummy.defends=false players=3 trump=6h stock=- hands=-/8cKc/TdJd9h "
          "controller=0 table=7c attacker=2 defender=1 out=0")
    s = play(s, "8c>7c", "pass")
    assert (s.attacker, s.defender, s.to_act, s.decider) == (2, 1, 2, 0)


def test_the_dummy_goes_out() -> None:
    """#57 (S0:141 "the dummy can win"): the dummy leads its last card with the stock gone;
    once the bout is beaten off it is out, first in the finishing order, and play goes on."""
    s = P(f"{SPEC} players=3 trump=6h stock=- hands=Qd8c/9dKc/7d controller=0 attacker=2")
    s = play(s, "7d", "Qd>7d", "pass")
    assert s.out == [2] and not s.is_over and 2 not in (s.attacker, s.defender)


def test_the_dummy_can_be_the_fool_and_then_nobody_loses() -> None:
    """#57 (S0:141 "the dummy can ... lose"), A1 (Rec. no person loses; the controller deals
    next): the dummy is left holding cards; the outcome names it the fool and says no person
    lost; the next deal of the match is dealt by the controller with no previous fool."""
    s = P(f"{SPEC} players=3 trump=6h stock=- hands=-/8s/9sKc controller=0 table=7s "
          "attacker=2 defender=1 out=0")
    s = play(s, "8s>7s")  # seat 1 has nothing left to cover with: the bout ends at once
    out = s.outcome
    assert s.is_over and out.loser == 2 and out.order == (0, 1, 2)
    assert out.human_loser is None and human_loser(out) is None
    assert out.to_json()["dummy"] == 2 and out.to_json()["human_loser"] is None
    match = next_match_context(s)
    assert match.dealer == 0 and match.previous_fool is None
    person = play(P(f"{SPEC} players=3 trump=6h stock=- hands=-/9sKc/8s controller=0 "
                    "table=7s attacker=1 defender=2 out=0"), "8s>7s")
    assert person.outcome.loser == 1 == person.outcome.human_loser


def test_views_show_the_dummy_to_its_controller_only() -> None:
    """#56 A4 carried to #57: the controller's view knows the dummy's cards, the dummy's own
    view (the one its controller acts from) knows the controller's, and seat 1 knows neither;
    the censored position text agrees. ``dummy.visible_to=all`` shows the dummy to all."""
    s = P(DEFENDS)
    dummy, boss = s.hands[2], s.hands[0]
    assert s.view(0).known[2] == dummy
    assert s.view(2).hand == dummy and s.view(2).known[0] == boss and s.view(2).legal
    assert s.view(1).known[2] == 0 and s.view(1).known[0] == 0
    assert "hands=8cQd/??*3/Td8s" in position_text(s, 0)
    assert "hands=??*2/7cKc9d/??*2" in position_text(s, 1)
    shown = P(DEFENDS.replace(SPEC, SPEC + "+dummy.visible_to=all"))
    assert all(shown.view(seat).known[2] == dummy for seat in (0, 1))


def test_the_position_round_trips_the_dummy_and_its_controller() -> None:
    """Position text: the rules give the dummy's seat, ``controller=`` who plays it; both are
    read back, and the controller may not be the dummy itself."""
    for seed in range(4):
        s = new_game(SPEC + "+dummy.seat=1", players=4, seed=seed)
        text = position_text(s)
        back = parse_position(text)
        assert position_text(back) == text
        assert dummy_seat_of(back.deal) == 1
        assert seat_controller(back.deal) == seat_controller(s.deal)
    with pytest.raises(Exception, match="controller"):
        P(DEFENDS.replace("controller=0", "controller=2"))


def test_seat_counts_and_rule_mixes() -> None:
    """The dummy takes one seat of the pack's capacity: 36 cards seat six, the dummy one of
    them; two seats (a person and the dummy) are refused naming ``players``; a dummy seat off
    the table names ``dummy.seat``; passing the dummy over with transfers names
    ``dummy.defends``; partnerships name ``dummy.mode``."""
    assert resolve(SPEC).rules.max_players == 6
    assert dummy_seat_of(new_game(SPEC, players=6, seed=1).deal) == 5
    for spec, players, key in ((SPEC, 2, "players"), (SPEC + "+dummy.seat=3", 3, "dummy.seat"),
                               ("perevodnoy+playing_dummy+dummy.defends=false", 3,
                                "dummy.defends"),
                               ("double_fool+dummy.mode=playing", 4, "dummy.mode")):
        with pytest.raises(RulesError) as err:
            new_game(spec, players=players, seed=1)
        assert err.value.key == key


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), st.integers(3, 6),
       st.sampled_from((SPEC, "perevodnoy+playing_dummy", SPEC + "+dummy.defends=false",
                        SPEC + "+dummy.seat=1")))
def test_random_dummy_games_keep_the_invariants(seed: int, players: int, spec: str) -> None:
    """Random play with a playing dummy: cards are conserved, the game ends, the dummy never
    decides for itself (its controller does, on its turns only), with ``dummy.defends=false``
    no bout opens against it, and no seat's view but the controller's and the dummy's own
    knows a card of the dummy's beyond what everyone knows."""
    s = new_game(spec, players=players, seed=seed)
    dummy, boss = dummy_seat_of(s.deal), seat_controller(s.deal)
    skip = "defends=false" in spec
    end = s
    for _before, _action, after in random_walk(s, random.Random(seed)):
        assert_conserved(after)
        if not after.is_over:
            assert after.decider == (boss if after.to_act == dummy else after.to_act)
            assert after.decider != dummy
            if skip and after.phase_name == "lead":
                assert after.defender != dummy
        private = after.hands[dummy] & ~after.known[dummy]
        for seat in range(players):
            if seat not in (dummy, boss):
                v = after.view(seat)
                assert not any(k & private for k in v.known) and not v.hand & private
        end = after
    assert end.is_over and sorted(end.outcome.order) == list(range(players))


class Recording:
    """A random bot that notes the seat of every view it is asked to act from."""

    name = "recording"

    def __init__(self, seed: int) -> None:
        self.inner = RandomBot(seed)
        self.seats: list[int] = []

    def choose(self, view: DurakView) -> object:
        self.seats.append(view.seat)
        return self.inner.choose(view)


def test_sim_asks_the_controller_and_never_charges_him_with_the_dummy() -> None:
    """Issue 4 ("played by the player the rules name, through the same action protocol"):
    ``play_game`` asks the controller's bot on the dummy's turns, with the dummy's view, and
    never the bot placed at the dummy's seat; ``run_sim`` counts a dummy's loss as nobody's
    and gives the dummy's seat to no bot."""
    s = new_game(SPEC, players=3, seed=11)
    bots = [Recording(k) for k in range(3)]
    play_game(s, bots)  # type: ignore[arg-type]
    boss = seat_controller(s.deal)
    assert not bots[2].seats and 2 in bots[boss].seats
    assert set(bots[boss].seats) == {boss, 2}
    stats = run_sim(SPEC, players=3, games=24, bot_names=["random", "heuristic", "random"],
                    seed=5)
    assert stats.errors == 0
    assert sum(stats.losses_by_bot.values()) + stats.dummy_losses + stats.draws == 24
    assert sum(stats.seat_games_by_bot.values()) == 24 * 2
    assert stats.losses_by_seat[2] == stats.dummy_losses > 0


def test_search_bot_plays_the_dummy() -> None:
    """The search levels determinize from the acting seat's view; on the dummy's turn that is
    the dummy's, which knows the controller's cards. A medium bot plays a whole game."""
    s = new_game(SPEC, players=3, seed=4)
    bots = [make_level("medium", seed=k, playouts=40) for k in range(3)]
    assert play_game(s, bots).outcome is not None


def test_terminal_lets_the_controller_play_the_dummy() -> None:
    """``bito play``: when the human controls the dummy he is asked for its moves, shown the
    dummy's hand; a bot never plays the dummy's seat."""
    from bito.tui import Seat, TerminalGame

    seed = next(k for k in range(50)
                if seat_controller(new_game(SPEC, players=3, seed=k).deal) == 0)
    state = new_game(SPEC, players=3, seed=seed)
    seats = [Seat("You"), Seat("Anna", make_bot("heuristic", 1), "heuristic"), Seat("Dummy")]
    lines: list[str] = []
    result = TerminalGame(state, seats, 0, input_fn=lambda _: "1", output=lines.append).run()
    assert result.finished
    assert any("The dummy's hand, yours to play" in line for line in lines)
    shown = "\n".join(lines).splitlines()
    assert any(line.lstrip().startswith("Dummy") and "played by You" in line
               for line in shown)


def test_web_server_asks_the_controller_and_hides_the_dummy(tmp_path: Path) -> None:
    """The web server: the dummy's seat is nobody's (named Dummy, never open to join); on
    its turn the controller's frame is the dummy's view with its moves, the other seat's and
    a spectator's frames show none of its cards, and another seat may not move for it."""
    from bito.server.rooms import Lobby, RoomError
    from bito.server.storage import Storage

    lobby = Lobby(Storage(str(tmp_path / "bito.db")))
    room, _ = asyncio.run(lobby.create(variant=SPEC, rules_text=None, deck=None, players=3,
                                       name="Ann", seats=["open", "open"], public=False,
                                       timer=None))
    assert room.table.seats[2].name == "Dummy" and room.table.seats[2].kind != "open"
    room.state = P(DEFENDS)
    room.table.status = "playing"
    mine = lobby.frame(room, 0)
    assert mine["playing_for"] == 2 and {a["text"] for a in mine["view"]["legal"]} == \
        {"8s>7s", "take"}
    dummy = {card_str(c) for c in cards_of(room.state.hands[2])}
    for frame in (lobby.frame(room, 1), lobby.frame(room, None)):
        view = frame["view"]
        shown = {c["c"] for seat in view["seats"] for c in seat["known"]}
        shown |= {c["c"] for c in view.get("hand") or []}
        assert not shown & dummy and "playing_for" not in frame
    with pytest.raises(RoomError, match="not your turn"):
        asyncio.run(lobby.act(room, 1, "take"))


def test_rl_environments_refuse_the_playing_dummy() -> None:
    """The RL adapters give each seat its own agent; the playing dummy is refused by name."""
    from bito.env.codec import ActionCodec

    with pytest.raises(RulesError) as err:
        ActionCodec(SPEC)
    assert err.value.key == "dummy.mode"


def test_records_replay_and_censor_the_dummy() -> None:
    """A full record of a playing-dummy game replays to the same end; the record censored
    for the person who does not play the dummy carries, at every step, the dummy's hand as
    hidden cards except those everyone knows."""
    from bito.games.game import Game
    from bito.record import load_record, record_from_game

    game = Game(new_game(SPEC, players=3, seed=8))
    rng = random.Random(8)
    while not game.state.is_over:
        acts = game.state.legal_actions()
        game.push(acts[rng.randrange(len(acts))])
    record = record_from_game(game)
    states = load_record(record.to_jsonl()).replay()
    assert states[-1].outcome == game.state.outcome
    other = 1 - seat_controller(game.state.deal)  # the person who is not the controller
    text = record.censored(other).to_jsonl()
    for state in states:
        seen = position_text(state, other)
        assert seen in text
        field = seen.split("hands=")[1].split()[0].split("/")[2]
        public = state.known[2] & state.hands[2]
        shown = "" if field == "-" else field.split("??")[0]
        assert shown == "".join(card_str(c) for c in cards_of(public))
