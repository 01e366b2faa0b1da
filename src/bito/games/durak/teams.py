"""Partnerships (VARIANTS.md §3.6, #53-55): who sits with whom, whom an attack goes to, who
may throw in, who plays a seat whose owner has gone out, and how a team loses.

The state machine calls in here from three places only, each on a branch a game without teams
never takes: the choice of the next attacker and defender when a bout ends, the throw-in order
(computed once per seat configuration and memoised), and the outcome. Nothing here runs on the
move-by-move hot path.

Seats are numbered clockwise. ``team.layout=opposite`` seats partners of two opposite each
other (seat ``s`` and ``s + n/2``: two pairs at four players, three at six);
``team.layout=alternating`` makes two teams of even and odd seats, so every player sits
between two opponents (Rozaliev's "two on two" / "three on three", S1:65).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final, cast

from bito.errors import InvalidNotationError, RulesError
from bito.games.durak.facts import DealFact
from bito.games.durak.hooks import (
    Answer,
    Event,
    Hook,
    Memory,
    NextBout,
    PositionDefender,
    PositionRequest,
    Question,
    Stage,
    ThrowInOrder,
    answered,
)
from bito.games.durak.view import ViewExtension
from bito.rules import Rules

if TYPE_CHECKING:
    from bito.games.durak.setup import Deal
    from bito.games.durak.state import DurakState
    from bito.games.durak.view import DurakView
    from bito.games.protocol import Outcome


@dataclass(frozen=True, slots=True)
class Teams(DealFact):
    """Who sits with whom, fixed by the rules and the seat count for the whole deal: the deal
    holds it (``deal.fact(Teams)``) in games with partnerships."""

    #: Each seat's team number.
    team_of: tuple[int, ...]
    #: The members of each team, by team number.
    teams: tuple[tuple[int, ...], ...]
    #: ``team.proxy`` (#55): a partner plays a vacated seat.
    proxy: bool
    #: ``team.throw_in``: who may throw in at a defender (part of the throw-in order's key).
    throw_in: str

    def settle(self, outcome: Outcome) -> Outcome:
        """The fool's team loses (a drawn deal has no losing team)."""
        loser = outcome.loser
        return replace(outcome, teams=self.teams,
                       losing_team=None if loser is None else self.team_of[loser])


def teams_in(deal: Deal) -> Teams:
    """The partnerships of a deal that plays them (the hook's points run only then)."""
    teams = deal.fact(Teams)
    assert teams is not None, "a partnership rule asked of a deal without teams"
    return teams


@dataclass(frozen=True, slots=True)
class Partnership(ViewExtension):
    """What partnerships add to a seat's view, all public: everyone knows who sits with whom,
    and under ``team.proxy`` (#55) which vacated seat the defender plays for."""

    #: The members of each team, by team number.
    teams: tuple[tuple[int, ...], ...]
    #: The seat the defender defends (#55: a partner's vacated seat; -1: no proxies).
    played: int = -1

    def partners(self, seat: int) -> tuple[int, ...]:
        """The other members of ``seat``'s team."""
        for members in self.teams:
            if seat in members:
                return tuple(m for m in members if m != seat)
        return ()

    def seat_words(self, view: DurakView, seat: int, names: Sequence[str]) -> str:
        return " [partner]" if seat in self.partners(view.seat) else " [opponent]"

    def lines(self, view: DurakView, names: Sequence[str]) -> list[str]:
        if self.played < 0 or self.played == view.defender:
            return []
        return [f"  {names[view.defender]} defends in the seat of {names[self.played]}, "
                "who is out"]


#: ``team.proxy`` (#55): the seat in the rotation the defender plays, his own or a vacated
#: partner's (None in games without proxies).
PLAYED: Final[Memory[int]] = Memory("played")


def played_seat(state: DurakState) -> int:
    """The seat the defender plays under ``team.proxy`` (#55); -1 without proxies."""
    played = PLAYED.of(state)
    return -1 if played is None else played


def team_of_seats(layout: str, players: int) -> tuple[int, ...]:
    """Each seat's team number (empty without teams)."""
    if layout == "none":
        return ()
    if layout == "opposite":
        half = players // 2
        return tuple(s % half for s in range(players))
    return tuple(s % 2 for s in range(players))


def teams_of(team_of: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The members of each team, by team number."""
    if not team_of:
        return ()
    return tuple(tuple(s for s, t in enumerate(team_of) if t == k)
                 for k in range(max(team_of) + 1))


def check_players(rules: Rules, players: int) -> None:
    """Refuse a seat count (or a rule mix) the partnership layout cannot seat."""
    if rules.team_layout == "none":
        return
    if players < 4 or players % 2:
        raise RulesError("players", f"team.layout={rules.team_layout} seats an even number of "
                         f"players, at least 4, not {players}")
    if rules.transfer_enabled:
        raise RulesError("team.layout", "partnerships are played on throw-in (or simple) "
                         "fool; a transfer could pass the attack to the transferrer's partner, "
                         "which the catalogue never describes")


def throwers(team_of: tuple[int, ...], rules: Rules, order: tuple[int, ...],
             defender: int) -> tuple[int, ...]:
    """``team.throw_in=opponents``: only the defender's opponents throw in at him (#53's
    "only the attacking pair", #54 and #55's "opponents of the defender")."""
    if rules.team_throw_in != "opponents":
        return order
    mine = team_of[defender]
    return tuple(s for s in order if team_of[s] != mine)


def proxy_of(state: DurakState, seat: int) -> int:
    """Who plays ``seat`` (#55): its owner while he is in; once he is out, his nearest
    partner still in play counter-clockwise, the one who "sat before" it (A1); -1 when his
    whole team is out."""
    out = state.out_mask
    if not out >> seat & 1:
        return seat
    team_of = teams_in(state.deal).team_of
    n = state.deal.players
    mine = team_of[seat]
    for i in range(1, n):
        s = (seat - i) % n
        if team_of[s] == mine and not out >> s & 1:
            return s
    return -1


def next_bout(state: DurakState, defender: int, taken: bool) -> int:
    """Choose the next attacker (returned) and defender (set on ``state``) after a bout that
    ``defender`` beat off or took; or finish the game and return -1 once every player still
    holding cards is on one team (that team loses; nobody left is a draw)."""
    deal = state.deal
    n = deal.players
    teams = teams_in(deal)
    team_of = teams.team_of
    out = state.out_mask
    active = [s for s in range(n) if not out >> s & 1]
    if len({team_of[s] for s in active}) <= 1:
        # Partners cannot attack each other: the team still holding cards is the fool's. The
        # member holding most cards is named the fool (ties: the lower seat).
        hands = state.hands
        state.finish(sorted(active, key=lambda s: (-hands[s].bit_count(), s)))
        return -1
    if teams.proxy:
        # #55: the rotation runs over every seat; a vacated seat is played by a partner.
        seat = played_seat(state)
        first = (seat + 1) % n if taken else seat
        while proxy_of(state, first) < 0:
            first = (first + 1) % n
        target = attacked_seat(state, first)
        state.defend_as(proxy_of(state, target))
        PLAYED.keep(state, target)
        return proxy_of(state, first)
    attacker = state.next_active(defender) if taken or out >> defender & 1 else defender
    state.defend_as(attacked_seat(state, attacker))
    return attacker


def attacked_seat(state: DurakState, first: int) -> int:
    """The seat an attack from seat ``first`` is made at, with partnerships: under #55's
    proxies the next seat of the other team that someone still plays (A1), else the next seat
    in play, passing over partners under ``team.attack=opponent`` (#54, #53 A2). The caller
    makes sure an opponent is still in play. Positions read without ``defender=`` use this
    too, so they open the bout the engine would."""
    deal = state.deal
    teams = teams_in(deal)
    team_of = teams.team_of
    if teams.proxy:
        n = deal.players
        target = (first + 1) % n
        while team_of[target] == team_of[first] or proxy_of(state, target) < 0:
            target = (target + 1) % n
        return target
    target = state.next_active(first)
    if deal.rules.team_attack == "opponent":
        while team_of[target] == team_of[first]:
            target = state.next_active(target)
    return target


class _Partnerships(Hook):
    """#53-55 at the core's points: who throws in at whom, and who attacks whom next."""

    name = "#53-55 partnerships"
    position_keys = frozenset({"plays"})
    events = frozenset({Stage.DEALT})
    questions = frozenset({ThrowInOrder, PositionDefender, NextBout})

    def applies(self, rules: Rules, players: int) -> bool:
        return bool(team_of_seats(rules.team_layout, players))

    def check(self, rules: Rules, players: int) -> None:
        check_players(rules, players)

    def deal_facts(self, rules: Rules, players: int) -> Teams:
        team_of = team_of_seats(rules.team_layout, players)
        return Teams(team_of, teams_of(team_of), rules.team_proxy, rules.team_throw_in)

    def on(self, state: DurakState, event: Event) -> None:
        if event == Stage.DEALT and teams_in(state.deal).proxy:
            PLAYED.keep(state, state.deal.first_defender)

    def query(self, state: DurakState, question: Question[Answer], answer: Answer) -> Answer:
        if isinstance(question, ThrowInOrder):  # only the defender's opponents throw in
            order = cast("tuple[int, ...]", answer)
            deal = state.deal
            return cast(Answer, throwers(teams_in(deal).team_of, deal.rules, order,
                                         state.defender))
        if isinstance(question, PositionDefender):
            return cast(Answer, self._defender(state, question.attacker, cast(int, answer)))
        if isinstance(question, NextBout):  # partners are never attacked
            return cast(Answer, next_bout(state, question.defender, question.skip))
        return answer

    def _defender(self, state: DurakState, attacker: int, defender: int) -> int:
        # the bout the engine would open: partners passed over while an opponent is in play
        teams = teams_in(state.deal)
        team_of = teams.team_of
        played = defender
        if any(team_of[x] != team_of[attacker] and not state.out_mask >> x & 1
               for x in range(state.deal.players)):
            played = attacked_seat(state, attacker)
            defender = proxy_of(state, played) if teams.proxy else played
        if teams.proxy:
            PLAYED.keep(state, played)
        return defender

    def position(self, request: PositionRequest[Answer]) -> Answer:
        return answered(request, self._write, self._read)

    def _write(self, state: DurakState, seat: int | None) -> list[str]:
        played = played_seat(state)
        return [f"plays={played}"] if played >= 0 and played != state.defender else []

    def _read(self, state: DurakState, fields: dict[str, str], where: dict[str, int],
              text: str) -> None:
        # #55: the seat the defender plays (his own unless the text says otherwise)
        teams = state.deal.fact(Teams)  # asked of every installed hook
        if teams is None or not teams.proxy:
            return
        raw = fields.get("plays")
        if raw is None:
            if "defender" in fields:
                PLAYED.keep(state, state.defender)
            return
        n = state.deal.players
        if not (raw.isascii() and raw.isdigit() and int(raw) < n):
            raise InvalidNotationError(f"plays must be a whole number from 0 to {n - 1}", text,
                                       where["plays"])
        PLAYED.keep(state, int(raw))

    def view(self, state: DurakState, seat: int, view: DurakView) -> DurakView:
        return view.extended(Partnership(teams_in(state.deal).teams, played_seat(state)))


HOOK: Final = _Partnerships()
