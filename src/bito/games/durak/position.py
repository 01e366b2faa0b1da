"""The position text form of a Durak state: full, and censored for one seat.

A *position* is one line of ``key=value`` fields after the rules spec, e.g.::

    podkidnoy players=2 trump=6h stock=6h9c hands=7c8c/TcJd table=7d<9d,Qs attacker=0

=============  ============================================================================
field          meaning
=============  ============================================================================
(first word)   the rules: a variant spec as for ``--variant`` (``perevodnoy+throw_in.by=…``)
``players``    number of seats
``trump``      the trump card (its suit is trump)
``stock``      the stock from the bottom (drawn last, the face-up trump card) to the top
``hands``      each seat's hand, seats separated by ``/`` (under #58's
               ``deal.owner_sees_hand=false`` in position order, ``#1`` first; a censored
               position shows the seat's own hand as ``??*n`` and every other hand in full)
``known``      per seat, cards of that hand everyone knows about (``/``-separated)
``table``      attack cards in play order, ``a<d`` when ``d`` covers ``a``, ``a<*`` when a
               transfer neutralised ``a`` (#11)
``discard``    the discard pile; omit it to put every card not listed elsewhere there
``attacker``   the main attacker (first to throw in); ``leader`` who opened the bout
``defender``   the defender (default: the next seat in play left of the attacker)
``phase``      ``lead``, ``defend``, ``throw``, ``over``, ``give`` (#24) or ``call`` (#59: the
               attacker believes or doubts face-down covers), inferred when omitted
``to_act``     whose move it is (inferred from the phase when omitted)
``taking``     ``1`` when the defender has declared he takes
``throwers``   throw-in order this round (``0.2.3``), ``t_idx`` current index, ``passes``
``bout``       bouts played in this deal (0 = first bout), ``game`` deal number in a match
``out``        seats that went out, in order (``2.0``)
``dealer``     the dealer; ``under_fool`` ``1`` if the deal was led at the previous fool
``seed``       the deal's seed (kept for records; not needed to play on)
``own``        personal trumps (#16), one suit letter per seat (``shc``)
``secret``     the secret card set aside under the trump card (#18); ``revealed`` ``1``
               once it has been turned and its suit is trump
``up``         stock cards lying face up, when more than the trump card (#16's turned cards)
``closed``     ``1`` when a cover has closed throw-ins for this bout (#22, #28)
``idle``       ``end.idle_bouts``: bouts in a row ended in a take since the stock ran out, and
               how many players were out then (``3.1``)
``dummy``      #56: the dummy's hand (``??*5`` in a censored position for a seat that may
               not see it); ``controller`` the seat that throws in from it; with #57's
               playing dummy (one of the seats, ``dummy.seat``) the seat that plays it
``plays``      ``team.proxy`` (#55): the seat the defender plays for, when it is a vacated
               partner's seat rather than his own
``gift``       a joker gift in progress (#24): ``giver.receiver.cards_left.resume_phase.``
               ``resume_to_act.block_allowed``, e.g. ``gift=0.1.2.defend.1.0``
``end``        an ended deal whose result the hands alone do not give (a draw by
               ``end.repetition`` or ``end.idle_bouts``, an instant loss, a team win with
               cards left): ``loser:order:reason``, e.g. ``end=-:0.2.1:repetition`` or
               ``end=3:0.4.2.1.5.3:instant_loss``
``tried`` ...  second tries, stock leads, poker swaps and post-take attacks (#39-51):
               ``tried``, ``swapped``, ``stock_plays``, ``shown``, ``owned``,
               ``own_covers``, ``self_throw`` (see :mod:`bito.games.durak.bout_extras`)
``reserve``    per seat, face-down cards nobody may see: #37's buy-in; ``locked`` #35's
``locked``     locked cards
``removed``    the stock set aside unseen after the deal (#32)
``points``     the stock group's tallies per seat, ``.``-separated: #61 points, #62
``figures``    figures, #63 ``sixes`` of the last attack at each seat
``sixes``
``passed``     per seat, the hand passed on at the last exchange (#31)
``bitos``      bouts ended in bito so far (#38); ``restocked`` ``1`` once the stock was
               rebuilt from a bito after running out
=============  ============================================================================

The writer puts the core's fields first and then each hook's own fields (#39-51's ``tried``
..., the stock group's ``reserve`` ..., #96's ``shown_trump``), in the order the hooks are
installed; the reader takes the fields in any order.

The *censored* form, for one seat, writes every card that seat may not see as ``??`` (``??*5``
for five): other hands (except their publicly known cards) and the stock (except the face-up
trump card while it lies there).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bito.cards import (
    HIDDEN,
    MAX_LINE,
    card_str,
    cards_of,
    check_length,
    parse_card,
    split_cards,
)
from bito.errors import InvalidNotationError, RulesError
from bito.games.durak.actions import Action, parse_action
from bito.games.durak.hooks import PlaceCards, PositionDefender, ReadFields
from bito.games.durak.installed import HOOKS
from bito.games.durak.phases import NEUTRAL, PHASE_NAMES
from bito.games.durak.position_text import position_text, rules_spec
from bito.games.durak.setup import Deal, MatchContext, check_game, rule_facts, trumps_of
from bito.games.durak.state import (
    CALL_PHASE,
    DEFEND_PHASE,
    GIVE_PHASE,
    LEAD,
    OVER,
    THROW,
    DurakState,
)
from bito.games.protocol import Outcome
from bito.rules import resolve

__all__ = [
    "Action", "CensoredPosition", "parse_action", "parse_card", "parse_position",
    "position_text", "rules_spec",
]


@dataclass(frozen=True)
class CensoredPosition:
    """A parsed censored position: what one seat knows. Hidden cards are :data:`HIDDEN`."""

    fields: dict[str, str]
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]


_KEYS = {"players", "seed", "dealer", "game", "bout", "trump", "stock", "hands", "known",
         "table", "discard", "phase", "attacker", "leader", "defender", "to_act", "taking",
         "throwers", "t_idx", "passes", "out", "under_fool", "closed", "own", "secret",
         "revealed", "up", "idle", "dummy", "controller", "end",
         *(key for hook in HOOKS for key in hook.position_keys)}


_LONG_NUMBER = re.compile(r"[0-9]{21}")


def _check_numbers(text: str) -> None:
    """Once for every field's number: a digit other than 0-9 (``str.isdigit`` accepts ``²``,
    which ``int`` refuses) or a run of digits longer than any count or seed in a position
    (``int`` refuses 4,300 of them) is bad text, so the fields' own checks never meet one."""
    if text.isascii():  # every position this software writes: only 0-9 are digits then
        found = _LONG_NUMBER.search(text)
        if found:
            raise InvalidNotationError("numbers are written with at most 20 digits 0-9",
                                       text, found.start() + 20)
        return
    run = 0
    for i, ch in enumerate(text):
        if not ch.isdigit():
            run = 0
            continue
        run += 1
        if not ch.isascii() or run > 20:
            raise InvalidNotationError("numbers are written with at most 20 digits 0-9",
                                       text, i)


def _split_fields(text: str) -> tuple[str, dict[str, str], dict[str, int]]:
    check_length(text, MAX_LINE, "a position")
    _check_numbers(text)
    words = text.split()
    if not words:
        raise InvalidNotationError("empty position", text, 0)
    fields: dict[str, str] = {}
    where: dict[str, int] = {}
    pos = text.index(words[0]) + len(words[0])
    for w in words[1:]:
        at = text.index(w, pos)
        pos = at + len(w)
        key, eq, value = w.partition("=")
        if not eq:
            raise InvalidNotationError(f"expected key=value, got {w!r}", text, at)
        if key not in _KEYS:
            raise InvalidNotationError(f"unknown field {key!r}", text, at)
        if key in fields:
            raise InvalidNotationError(f"field {key!r} given twice", text, at)
        fields[key] = value
        where[key] = at + len(key) + 1
    return words[0], fields, where


def _int(fields: dict[str, str], where: dict[str, int], text: str, key: str, default: int,
         lo: int = 0, hi: int = 1 << 62) -> int:
    if key not in fields:
        return default
    raw = fields[key]
    digits = raw.removeprefix("-")
    if (not (digits.isascii() and digits.isdigit()) or len(digits) > 19
            or not lo <= int(raw) <= hi):
        raise InvalidNotationError(f"{key} must be a whole number from {lo} to {hi}", text,
                                   where[key])
    return int(raw)


def _seat_list(fields: dict[str, str], where: dict[str, int], text: str, key: str,
               n: int) -> list[int]:
    raw = fields.get(key, "-")
    if raw in ("", "-"):
        return []
    out = []
    for part in raw.split("."):
        if not (part.isascii() and part.isdigit()) or len(part) > 2 or int(part) >= n:
            raise InvalidNotationError(f"{key}: {part!r} is not a seat (0..{n - 1})", text,
                                       where[key])
        out.append(int(part))
    return out


def _card_field(fields: dict[str, str], where: dict[str, int], text: str, key: str,
                hidden: bool = False) -> list[int]:
    try:
        return split_cards(fields.get(key, "-"), allow_hidden=hidden)
    except InvalidNotationError as e:
        raise InvalidNotationError(f"{key}: {e.reason}", text, where[key] + e.position) from None


def parse_position(text: str) -> DurakState:
    """Set up a full position from text (see the module docstring).

    Raises :class:`InvalidNotationError` pointing at the field at fault, including for
    impossible positions (a card twice, a hand bigger than the deck allows, ...).
    """
    spec, f, where = _split_fields(text)
    try:
        rules = resolve(spec).rules
    except RulesError as e:
        raise InvalidNotationError(f"rules: {e}", text, 0) from None
    n = _int(f, where, text, "players", 2, 2, rules.max_players)
    try:
        check_game(rules, n)  # exactly new_game's checks: a position is a game like any other
    except RulesError as e:
        at = where.get("players", 0) if e.key == "players" else 0
        raise InvalidNotationError(f"rules: {e}", text, at) from None
    no_card = rules.trump_source in ("fixed", "none") or rules.trump_per_player
    if "trump" not in f and not no_card:
        raise InvalidNotationError("a position needs trump=<card>", text, len(text))
    trump_card = -1
    if f.get("trump", "-") != "-":
        try:
            trump_card = parse_card(f["trump"])
        except InvalidNotationError as e:
            raise InvalidNotationError(f"trump: {e.reason}", text, where["trump"]) from None
    elif not no_card:
        raise InvalidNotationError("trump: these rules turn up a trump card", text,
                                   where.get("trump", 0))
    stock = _card_field(f, where, text, "stock")
    own = _own_field(f, where, text, n, rules.trump_per_player)
    secret = -1
    if f.get("secret", "-") != "-":
        if not rules.trump_secret_second:
            raise InvalidNotationError("secret: these rules have no secret card (#18)", text,
                                       where["secret"])
        secret = _card_field(f, where, text, "secret")[0]
    revealed = bool(_int(f, where, text, "revealed", 0, 0, 1))
    if revealed and secret < 0:
        raise InvalidNotationError("revealed: there is no secret card", text, where["revealed"])
    up = _mask_unique(_card_field(f, where, text, "up"), text, where.get("up", 0))
    hand_parts = f.get("hands", "").split("/") if "hands" in f else []
    if len(hand_parts) != n:
        raise InvalidNotationError(f"hands: expected {n} hands separated by '/'", text,
                                   where.get("hands", len(text)))
    hands: list[int] = []
    in_order: list[tuple[int, ...]] = []  # #58: a hand held face out is listed by position
    offset = where["hands"]
    for part in hand_parts:
        try:
            cards = split_cards(part)
        except InvalidNotationError as e:
            raise InvalidNotationError(f"hands: {e.reason}", text, offset + e.position) from None
        in_order.append(tuple(cards))
        hands.append(_mask_unique(cards, text, offset))
        offset += len(part) + 1
    known = [0] * n
    if "known" in f:
        parts = f["known"].split("/")
        if len(parts) != n:
            raise InvalidNotationError(f"known: expected {n} entries separated by '/'", text,
                                       where["known"])
        for seat, part in enumerate(parts):
            known[seat] = _mask_unique(split_cards(part), text, where["known"])
            if known[seat] & ~hands[seat]:
                raise InvalidNotationError(f"known: seat {seat} does not hold those cards",
                                           text, where["known"])
    attack: list[int] = []
    defence: list[int] = []
    raw_table = f.get("table", "-")
    if raw_table not in ("", "-"):
        pos = where["table"]
        for entry in raw_table.split(","):
            a_txt, _, d_txt = entry.partition("<")
            try:
                attack.append(parse_card(a_txt))
                defence.append(NEUTRAL if d_txt == "*" else parse_card(d_txt) if d_txt else -1)
            except InvalidNotationError as e:
                raise InvalidNotationError(f"table: {e.reason}", text, pos) from None
            pos += len(entry) + 1
    deck = set(rules.deck())
    listed: list[tuple[str, int, int]] = [("stock", c, where.get("stock", 0)) for c in stock]
    controller = -1  # who plays for a seat nobody sits in (a dummy's)
    if rules.dummy_mode == "playing":
        # #57: the dummy is one of the seats; its controller is another seat.
        dummy = n - 1 if rules.dummy_seat < 0 else rules.dummy_seat
        if dummy >= n:
            raise InvalidNotationError(f"players: dummy.seat={dummy} is not at a {n}-seat "
                                       "table", text, where.get("players", 0))
        controller = _int(f, where, text, "controller",
                          _int(f, where, text, "attacker", 0, 0, n - 1), 0, n - 1)
        if controller == dummy:
            raise InvalidNotationError(f"controller: seat {dummy} is the dummy itself (#57)",
                                       text, where.get("controller", 0))
        if "dummy" in f:
            raise InvalidNotationError("dummy: the playing dummy's cards are its seat's hand "
                                       "in hands= (#57)", text, where["dummy"])
    elif rules.dummy_mode != "none":
        # #56: the dummy's hand follows the players' hands; its controller is a seat.
        hands.append(_mask_unique(_card_field(f, where, text, "dummy"), text,
                                  where.get("dummy", 0)))
        known.append(0)
        controller = _int(f, where, text, "controller",
                          _int(f, where, text, "attacker", 0, 0, n - 1), 0, n - 1)
    elif "dummy" in f or "controller" in f:
        raise InvalidNotationError("dummy: these rules have no dummy (#56)", text,
                                   where.get("dummy", where.get("controller", 0)))
    for seat, h in enumerate(hands):
        listed += [(f"hand {seat}", c, where["hands"]) for c in cards_of(h)]
    listed += [("table", c, where.get("table", 0)) for c in attack]
    listed += [("table", c, where.get("table", 0)) for c in defence if c >= 0]
    drawable = rules.trump_secret_drawable
    if secret >= 0 and not (revealed and drawable):
        listed.append(("secret", secret, where["secret"]))
    placed = [hook.position(PlaceCards(f, where, text)) for hook in HOOKS]
    for by_hook in placed:
        listed += by_hook.cards
    if "discard" in f:
        listed += [("discard", c, where["discard"])
                   for c in _card_field(f, where, text, "discard")]
    seen: dict[int, str] = {}
    for place, c, at in listed:
        if c not in deck:
            raise InvalidNotationError(f"{place}: {card_str(c)} is not in a "
                                       f"{rules.deck_size}-card deck", text, at)
        if c in seen:
            raise InvalidNotationError(f"{card_str(c)} appears twice ({seen[c]} and {place})",
                                       text, at)
        seen[c] = place
    if "discard" in f:
        discard = sum(1 << c for p, c, _ in listed if p == "discard")
        missing = deck - set(seen)
        if missing:
            raise InvalidNotationError(
                "cards missing (omit discard= to put the rest there): "
                + "".join(card_str(c) for c in sorted(missing)), text, where["discard"])
    else:
        discard = sum(1 << c for c in deck - set(seen))
    if stock and trump_card >= 0 and stock[0] != trump_card and not (
            revealed and stock == [secret]) and not any(
                by_hook.trump_card_moved for by_hook in placed):
        raise InvalidNotationError("stock: the bottom card must be the trump card while it "
                                   "lies under the stock", text, where["stock"])
    attacker = _int(f, where, text, "attacker", 0, 0, n - 1)
    out = _seat_list(f, where, text, "out", n)
    out_mask = sum(1 << s for s in out)
    dealer = _int(f, where, text, "dealer", (attacker - 1) % n, 0, n - 1)
    game = _int(f, where, text, "game", 0)
    match = MatchContext(game_number=game, dealer=dealer)
    trump = trumps_of(rules, trump_card, own, secret, up)
    trumps = trump.suits
    deal = Deal(rules=rules, players=n, seed=_int(f, where, text, "seed", 0), match=match,
                dealer=dealer, trump_suit=min(trumps) if trumps else -1, trump_card=trump_card,
                hands=tuple(hands), stock=tuple(stock), first_attacker=attacker,
                first_defender=(attacker + 1) % n, shown=tuple(known),
                facts=tuple(fact.played_by(controller).dealt(tuple(in_order))
                            for fact in rule_facts(rules, n)),
                under_fool=bool(_int(f, where, text, "under_fool", 0, 0, 1)), trump=trump)
    s = DurakState.placed(
        deal, discard=discard, attack=attack, defence=defence, out=out, attacker=attacker,
        leader=_int(f, where, text, "leader", attacker, 0, n - 1), revealed=revealed,
        aside=1 << secret if secret >= 0 and not (revealed and drawable) else 0)
    if "defender" in f:
        defender = _int(f, where, text, "defender", 0, 0, n - 1)
    else:
        defender = _default_defender(s, attacker)
    taking = bool(_int(f, where, text, "taking", 0, 0, 1))
    bout = _int(f, where, text, "bout", 0)
    closed = bool(_int(f, where, text, "closed", 0, 0, 1))
    phases = {name: i for i, name in enumerate(PHASE_NAMES)}
    if "phase" in f:
        if f["phase"] not in phases:
            raise InvalidNotationError("phase must be one of " + ", ".join(PHASE_NAMES), text,
                                       where["phase"])
        phase = phases[f["phase"]]
    elif not attack:
        phase = LEAD
    elif s.uncovered and not taking:
        phase = DEFEND_PHASE
    elif rules.defense_face_down and not taking:
        phase = CALL_PHASE  # #59: all covered face down: the attacker calls
    else:
        phase = THROW
    s.place_bout(defender=defender, taking=taking, bout=bout, closed=closed, phase=phase)
    if "to_act" in f:  # the hooks read their fields knowing the seat to act, when given
        s.set_turn(_int(f, where, text, "to_act", 0, -1, n - 1))
    acts: list[int] = []  # the seats the hooks' fields say act now
    for hook in HOOKS:
        vouched = hook.position(ReadFields(s, f, where, text))
        if vouched is not None:
            acts.append(vouched)
    if s.phase == THROW and "throwers" not in f:
        s.start_throw_round()
        if s.phase != THROW:
            raise InvalidNotationError("phase=throw but nobody can throw in here", text, 0)
    else:
        s.place_round(tuple(_seat_list(f, where, text, "throwers", n)),
                      _int(f, where, text, "t_idx", 0), _int(f, where, text, "passes", 0))
    if "idle" in f:
        bouts, _, outs = f["idle"].partition(".")
        if not (bouts.isdigit() and outs.isdigit() and int(bouts) < 1 << 16):
            raise InvalidNotationError("idle: expected bouts.players_out (e.g. 3.1)", text,
                                       where["idle"])
        s.place_counts(idle=int(bouts) | int(outs) << 16)
    in_range = 0 <= s.t_idx < len(s.throwers)
    acting: dict[int, int] = {LEAD: s.attacker, DEFEND_PHASE: s.defender, OVER: -1,
                              CALL_PHASE: s.leader, GIVE_PHASE: acts[0] if acts else -1}
    default_to_act = acting.get(s.phase, s.throwers[s.t_idx] if in_range else s.attacker)
    s.set_turn(_int(f, where, text, "to_act", default_to_act, -1, n - 1))
    if "end" in f:
        if s.phase != OVER:
            raise InvalidNotationError("end: only with phase=over", text, where["end"])
        s.place_outcome(_end_outcome(s, f["end"], text, where["end"]))
    elif s.phase == OVER:
        s.finish([x for x in range(n) if not out_mask >> x & 1])
    _check_consistent(s, text, where, acts)
    return s


def _default_defender(s: DurakState, attacker: int) -> int:
    """The defender that ``attacker`` would face had the engine opened this bout: the rule
    it applies when a bout ends, partners passed over (the partnerships hook) and, under
    ``dummy.defends=false``, the playing dummy too (the playing dummy's hook), at their
    ``query`` point (:class:`~bito.games.durak.hooks.PositionDefender`). Without teams or a
    dummy that is simply the next seat in play."""
    defender = s.next_active(attacker)
    for query in s.deal.hooks.query_at.get(PositionDefender, ()):
        defender = query(s, PositionDefender(attacker), defender)
    return defender


def _end_outcome(s: DurakState, raw: str, text: str, at: int) -> Outcome:
    """The outcome written ``loser:order:reason`` (see ``end`` in the module docstring)."""
    n = s.deal.players
    parts = raw.split(":")
    ok = len(parts) == 3
    loser: int | None = None
    order: tuple[int, ...] = ()
    if ok:
        if parts[0] != "-":
            ok = parts[0].isdigit() and int(parts[0]) < n
            loser = int(parts[0]) if ok else None
        digits = parts[1].split(".") if parts[1] not in ("", "-") else []
        ok = ok and all(x.isdigit() for x in digits)
        order = tuple(int(x) for x in digits) if ok else ()
        ok = ok and sorted(order) == list(range(n))
    if not ok:
        raise InvalidNotationError("end: expected loser:order:reason, e.g. -:0.2.1:repetition "
                                   f"(every seat 0..{n - 1} once in the order)", text, at)
    reason = "" if parts[2] == "-" else parts[2].replace("_", " ")
    outcome = Outcome(loser=loser, order=order, draw=loser is None, reason=reason)
    for fact in s.deal.facts:  # the rules' sides (the teams, the dummy's seat), as the state
        outcome = fact.settle(outcome)  # counts them
    return outcome


def _own_field(f: dict[str, str], where: dict[str, int], text: str, n: int,
               wanted: bool) -> tuple[int, ...]:
    """Personal trump suits (#16): one suit letter per seat."""
    raw = f.get("own", "-")
    if raw == "-":
        if wanted:
            raise InvalidNotationError("own: these rules give every player a trump suit "
                                       "(own=<one suit letter per seat>)", text, len(text))
        return ()
    if not wanted:
        raise InvalidNotationError("own: these rules have no personal trumps", text,
                                   where["own"])
    if len(raw) != n or any(ch not in "cdhs" for ch in raw):
        raise InvalidNotationError(f"own: expected {n} suit letters (c, d, h, s)", text,
                                   where["own"])
    return tuple("cdhs".index(ch) for ch in raw)


def _mask_unique(cards: list[int], text: str, pos: int) -> int:
    m = 0
    for c in cards:
        if m >> c & 1:
            raise InvalidNotationError(f"{card_str(c)} listed twice", text, pos)
        m |= 1 << c
    return m


def _check_consistent(s: DurakState, text: str, where: dict[str, int], acts: list[int]
                      ) -> None:
    """Refuse a position the engine could not reach; ``acts``: the seats the rules' own
    fields say act now (a gift's giver, a counter-attack's target, a defender asked to throw
    in to himself), whom the base game's turn order would not name."""
    n = s.deal.players
    if s.deal.trump_card >= 0 and s.deal.trump_card not in s.deal.rules.deck():
        raise InvalidNotationError(f"trump: {card_str(s.deal.trump_card)} is not in a "
                                   f"{s.deal.rules.deck_size}-card deck", text,
                                   where.get("trump", 0))
    for a, d in zip(s.attack, s.defence, strict=True):
        # #59: a face-down cover may be a bluff until the call turns it up.
        if d >= 0 and not s.beats[a] >> d & 1 and not s.deal.rules.defense_face_down:
            raise InvalidNotationError(f"table: {card_str(d)} does not beat {card_str(a)}",
                                       text, where.get("table", 0))
    if s.phase == OVER:
        holding = [x for x in range(n) if s.hands[x]]
        if len(holding) > 1 and s.outcome is not None and (
                s.outcome.reason or s.outcome.teams):
            return  # ended by a rule the hands do not show (end=...)
        if len(holding) > 1:
            raise InvalidNotationError("phase=over but more than one player holds cards", text,
                                       where.get("phase", 0))
        return
    if s.phase == GIVE_PHASE:
        if s.to_act not in acts:
            raise InvalidNotationError("phase=give: the giver must be the one to act", text,
                                       where.get("to_act", 0))
        return
    if s.phase == DEFEND_PHASE and s.to_act != s.defender and s.to_act not in acts:
        raise InvalidNotationError("phase=defend: the defender must be the one to act", text,
                                   where.get("to_act", 0))
    if s.phase == LEAD and s.to_act != s.attacker:
        raise InvalidNotationError("phase=lead: the attacker must be the one to act", text,
                                   where.get("to_act", 0))
    if s.phase == THROW:
        if not s.throwers or not 0 <= s.t_idx < len(s.throwers):
            raise InvalidNotationError("phase=throw: t_idx must index the throwers", text,
                                       where.get("t_idx", 0))
        asked = s.defender in acts  # (#48: the defender is asked to throw in to himself)
        if (s.to_act == s.defender and not asked) or s.to_act != s.throwers[s.t_idx]:
            raise InvalidNotationError("phase=throw: the thrower at t_idx must act, never the "
                                       "defender", text, where.get("to_act", 0))
        if s.defender in s.throwers and not asked:
            raise InvalidNotationError("throwers: the defender cannot throw in", text,
                                       where.get("throwers", 0))
    if s.out_mask >> s.defender & 1 and s.phase not in (OVER, LEAD) and s.uncovered:
        raise InvalidNotationError(f"seat {s.defender} is out but defends", text, 0)
    if s.attacker == s.defender and s.phase != OVER:
        raise InvalidNotationError("attacker and defender are the same seat", text,
                                   where.get("defender", 0))
    if s.phase != OVER and not 0 <= s.to_act < n:
        raise InvalidNotationError("to_act must name a seat", text, where.get("to_act", 0))
    if s.phase == LEAD and s.attack:
        raise InvalidNotationError("phase=lead needs an empty table", text,
                                   where.get("phase", 0))
    if s.phase == DEFEND_PHASE and not s.uncovered and s.to_act not in acts:
        raise InvalidNotationError("phase=defend needs an uncovered card", text,
                                   where.get("phase", 0))
    if (s.uncovered > s.hands[s.defender].bit_count() and not s.taking
            and not s.deal.rules.specials_joker_gifts  # a joker gift (#24) can leave him short
            and not s.deal.rules.transfer_refusal):  # so can a refusal (#9)
        raise InvalidNotationError("more uncovered cards than the defender holds", text,
                                   where.get("table", 0))


def parse_censored(text: str) -> CensoredPosition:
    """Parse a censored position (``??`` for hidden cards) without building a state."""
    _, f, where = _split_fields(text)
    hands = tuple(tuple(split_cards(p, allow_hidden=True)) for p in f.get("hands", "").split("/"))
    stock = tuple(_card_field(f, where, text, "stock", hidden=True))
    return CensoredPosition(fields=f, hands=hands, stock=stock)


HIDDEN_CARD = HIDDEN
