"""Ratings per game family, with openskill's Plackett-Luce model, for accounts and bots.

Which games count: a finished game with at least one seat owned by an account (a game among
guests and bots changes no rating). Every seat of such a game takes part:

* an account's seat with the account's rating in that family (a seat a bot covered after
  time-outs is still its owner's: he let the clock run);
* a bot's seat with its level's rating (``bot:heuristic``), so bots sit on the same scale
  and a player sees where he stands; bots' ratings move only through games with accounts;
* a guest's seat with a fresh default rating that is not stored (he has no account to keep
  it), so his result still informs the others'.

Ranks follow the arena's convention (docs/bots.md): the fool last and everybody else tied;
a draw ties everybody.

Bots start from the arena's measured ladder rather than from scratch (docs/bots.md, the
ladder row: Elo random 0, easy 628, medium 838, strong 882 on two-player podkidnoy), turned
into openskill's scale by :func:`mu_from_elo` with the heuristic (``easy``'s level) at
openskill's default 25, i.e. where a new account starts. They get a smaller sigma than a
newcomer (they are measured), but not a tiny one: the figures are from one game and two
players, and the other families move them from their own games.
"""

from __future__ import annotations

import math
from typing import Any

from bito.server.accountdb import AccountDB, Rating

#: The arena ladder's Elo per bot level (docs/bots.md, "ladder random, easy, medium, strong");
#: the heuristic is the ladder's ``easy`` level.
LADDER_ELO = {"random": 0.0, "easy": 628.0, "heuristic": 628.0, "medium": 838.0,
              "strong": 882.0}
ANCHOR = "heuristic"  # the level put at openskill's default mu
BOT_SIGMA = 3.0
BOT_PREFIX = "bot:"
PEOPLE = ("human", "away")


def model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def mu_from_elo(elo: float, anchor_elo: float, mu0: float, beta: float) -> float:
    """Elo points as openskill mu. Elo's win chance is logistic in D/400 (base 10); openskill's
    is about normal in d/(sqrt(2) beta) for two well-known players, and the logistic is close
    to the normal with its argument scaled by 1.702. Equating the two:
    d = D * ln(10)/400 * sqrt(2) * beta / 1.702 (about 2 mu per 100 Elo at beta 25/6)."""
    return mu0 + (elo - anchor_elo) * math.log(10) / 400 * math.sqrt(2) * beta / 1.702


def bot_seed(level: str, family: str) -> Rating:
    """A bot level's starting rating: from the ladder where measured, else a newcomer's."""
    m = model()
    if level in LADDER_ELO:
        mu = mu_from_elo(LADDER_ELO[level], LADDER_ELO[ANCHOR], m.mu, m.beta)
        return Rating(BOT_PREFIX + level, family, mu, BOT_SIGMA, 0)
    return Rating(BOT_PREFIX + level, family, m.mu, m.sigma, 0)


def current(db: AccountDB, player: str, family: str) -> Rating:
    """The stored rating, or where this player starts."""
    stored = db.rating(player, family)
    if stored is not None:
        return stored
    if player.startswith(BOT_PREFIX):
        return bot_seed(player[len(BOT_PREFIX):], family)
    m = model()
    return Rating(player, family, m.mu, m.sigma, 0)


def ranks_of(outcome: dict[str, Any] | None, players: int) -> list[int] | None:
    """Openskill ranks per seat (1 best): the fool (or the losing team) last, the others
    tied; a draw ties all. None when the outcome names no fool and no draw (nothing to
    rate)."""
    if not outcome:
        return None
    if outcome.get("draw"):
        return [1] * players
    teams, losing = outcome.get("teams"), outcome.get("losing_team")
    if isinstance(teams, list) and isinstance(losing, int) and 0 <= losing < len(teams):
        fools = set(teams[losing])  # a team game: the losing pair are the fools together
        return [2 if seat in fools else 1 for seat in range(players)]
    loser = outcome.get("loser")
    if not isinstance(loser, int) or isinstance(loser, bool) or not 0 <= loser < players:
        return None
    return [2 if seat == loser else 1 for seat in range(players)]


def rate_game(db: AccountDB, table_id: str, family: str, seats: list[tuple[str, str]],
              owners: dict[int, str], outcome: dict[str, Any] | None) -> bool:
    """Rate one finished game; ``seats`` gives each seat's (kind, bot level). Returns whether
    ratings changed (False: no account at the table, nothing to rank, or rated already)."""
    people_owned = [s for s, (kind, _) in enumerate(seats) if s in owners and kind in PEOPLE]
    ranks = ranks_of(outcome, len(seats))
    if not people_owned or ranks is None or db.is_rated(table_id):
        return False
    m = model()
    who: list[str | None] = []  # the stored player of each seat (None: a guest)
    for seat, (kind, bot) in enumerate(seats):
        if seat in owners and kind in PEOPLE:
            who.append(owners[seat])
        elif kind == "bot":
            who.append(BOT_PREFIX + bot)
        else:
            who.append(None)
    before = [current(db, p, family) if p is not None
              else Rating("", family, m.mu, m.sigma, 0) for p in who]
    teams = [[m.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    rated = m.rate(teams, ranks=ranks)
    after: dict[str, Rating] = {}
    rows: list[tuple[int, str, str, float, float]] = []
    for seat, (player, old, team) in enumerate(zip(who, before, rated, strict=True)):
        if player is None:
            continue
        new = Rating(player, family, float(team[0].mu), float(team[0].sigma), old.games + 1)
        after[player] = new  # one account in two seats: its last seat's update wins
        result = "draw" if ranks == [1] * len(seats) else ("fool" if ranks[seat] == 2
                                                           else "won")
        rows.append((seat, player, result, old.mu, new.mu))
    db.store_game(table_id, family, list(after.values()), rows)
    return True


def leaderboard(db: AccountDB, family: str, bots: list[str]) -> list[Rating]:
    """The family's board: every account and bot with games, and the offered bot levels
    at their starting ratings until they have played, so the scale always has its marks."""
    board = db.leaderboard(family)
    present = {r.player for r in board}
    board += [bot_seed(level, family) for level in bots if BOT_PREFIX + level not in present]
    board.sort(key=lambda r: (-r.ordinal, r.player))
    return board
