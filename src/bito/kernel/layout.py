"""Where each fact of a position lives in the kernel's state array.

The kernel keeps a whole position in one flat ``int64`` array, so that copying a position is one
``memcpy`` and compiled code reads every field at a fixed index. The first block holds the rule
facts of the game (constant during a deal), the second the changing facts, then fixed-size
areas for the hands, the order players went out, the throwers, the table and the stock.

Card indices are the codes of :mod:`bito.cards` for a single deck without jokers (codes below
63); a deck whose codes go past that but holds at most 63 cards (#29's 54 cards with two
jokers) is numbered 0-62 in the same order (:func:`bito.kernel.convert.card_index`). Either
way a card set is an ``int64`` bitmask with the sign bit never used. Phases and action kinds
use the reference engine's numbers (:mod:`bito.games.durak.state`, :mod:`bito.games.durak.actions`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from bito.rules.options import DrawOrder, TrumpSource

MAX_PLAYERS: Final = 8
"""Seats the array has room for (a 52-card deck seats eight)."""
MAX_TABLE: Final = 64
"""Attack cards one bout can hold (more than a deck's worth of one defender's hand)."""
MAX_ACTIONS: Final = 8192
"""Room in the action buffers: Rozaliev's pair-plus-one leads from a huge hand are the most."""

# --- rule facts, set once per deal -------------------------------------------------------
PLAYERS: Final = 0
HAND_SIZE: Final = 1
CAP: Final = 2  # throw_in.cap
FIRST_CAP: Final = 3  # min(throw_in.first_bout_cap, cap), 0 when off (#75)
UNCAPPED: Final = 4  # throw_in.uncapped_after_stock (#76)
LEAD_MAX: Final = 5
LEAD_MOST: Final = 6  # most cards of one rank in a lead: 1, 2, or 0 for "up to the limit"
ROZALIEV: Final = 7  # lead.shape=rozaliev: a pair plus one more card is a lead too
THROW_IN: Final = 8
TRANSFER: Final = 9
NEIGHBOURS: Final = 10  # throw_in.by=neighbours
DRAW_RULE: Final = 11  # index into DRAW_RULES
NO_FIRST_TRANSFER: Final = 12  # transfer.first_bout forbids a transfer in this deal's bout 0
NO_TRUMP_TRANSFER: Final = 13  # transfer.forbid_if_trump_on_table
TRUMP: Final = 14  # the trump suit
TRUMP_CARD: Final = 15
DRAW_ALLOWED: Final = 16  # end.draw_allowed
# setup facts, read only by the kernel's own deal
TRUMP_SOURCE: Final = 17  # index into TRUMP_SOURCES
REJECT_ACE: Final = 18  # trump.reject_indicator holds A (#74)
REJECT_LOW: Final = 19  # ... holds L
LOW_RANK: Final = 20
LEFT_OF_DEALER: Final = 21  # first_attacker.rule=left_of_dealer
LOT_FALLBACK: Final = 22  # first_attacker.no_trump_fallback=lot
REPETITION: Final = 23  # end.repetition: the n-th time one opening recurs between draws (0: off)

# --- the changing facts ------------------------------------------------------------------
PHASE: Final = 24
TO_ACT: Final = 25
ATTACKER: Final = 26
LEADER: Final = 27
DEFENDER: Final = 28
TAKING: Final = 29
T_IDX: Final = 30
PASSES: Final = 31
BOUT: Final = 32
OUT_MASK: Final = 33
N_OUT: Final = 34
LOSER: Final = 35  # the fool's seat, -1 for a draw or while the game runs
RESULT: Final = 36  # 0 while the game runs, 1 a fool, 2 a draw
DISCARD: Final = 37
TABLE: Final = 38  # every card on the table
TABLE_RANKS: Final = 39  # every card of a rank on the table
UNCOVERED: Final = 40
N_ATTACK: Final = 41
N_STOCK: Final = 42
N_THROWERS: Final = 43
N_SEEN: Final = 44  # bout openings remembered for end.repetition
IDLE: Final = 45  # end.idle_bouts: takes in a row without progress (low 16 bits), outs above
IDLE_LIMIT: Final = 46  # end.idle_bouts (0: off)
FIXED_SUIT: Final = 47  # trump.fixed_suit, the trump of trump.source=fixed (read by the deal)

# --- more rule facts (issue 20 item 4) ----------------------------------------------------
ANY_TIME: Final = 48  # transfer.window=any_time (#10): a transfer while some cards are covered
MATCH_ALL: Final = 49  # transfer.match=all_uncovered (#10 A3): every uncovered card of its rank
STOCK_LEAD: Final = 50  # lead.stock_top on (#40 Armenian, #83): a bout may open with the stock top
SECOND_TRY: Final = 51  # defense.second_try (#39): 0 off, 1 per_card, 2 per_bout
TRIED: Final = 52  # changing: the attack cards the defender has made a second try against
# Partnerships (#53-55, ``games.durak.teams``): the hook's rules, as facts
TEAMS: Final = 53  # team.layout is not none
TEAM_OF: Final = 54  # each seat's team number, four bits per seat (seat 0 lowest)
TEAM_THROW: Final = 55  # team.throw_in=opponents: only the defender's opponents throw in
TEAM_ATTACK: Final = 56  # team.attack=opponent: the next bout passes partners over
TEAM_PROXY: Final = 57  # team.proxy (#55): a seat out is played by a partner
PLAYED: Final = 58  # changing: #55's seat the defender plays (``DurakState.played``), else -1
# Cards other than one plain deck (#29 Estonian's jokers, #11's transfer, #29's group throw-ins)
SUITED: Final = 59  # the cards that have a suit: only these may be transferred (§3.3)
ONLY_NEW: Final = 60  # transfer.new_defender_beats=transfer_cards_only (#11)
THROW_GROUPS: Final = 61  # throw_in.groups (#29): several cards of one rank as one throw-in
TRUMP_SET: Final = 62  # every trump card of this deal (set by the deal, like TRUMP)
INSTANT_LOSS: Final = 63  # end.instant_loss_cards (#21): taking up to this many loses at once

# --- transfer by showing a trump (#96) ---------------------------------------------------
SHOW_TRUMP: Final = 64  # transfer.show_trump: the defender may pass the attack on by showing
SHOWN: Final = 65  # changing: the seats that have shown a trump this bout (a bitmask)

# --- issue 35 item 2: more of the Durak family's rules ------------------------------------
CLOSES: Final = 66  # the cards whose cover closes the bout to throw-ins (#28's wild and jokers)
CLOSED: Final = 67  # changing: a cover has closed this bout to throw-ins (``DurakState.closed``)
TAKE_SKIP: Final = 68  # take.skip (#52 off): a taker is passed over as the next attacker
WHOLE_RANK: Final = 69  # lead.must_include_all_of_rank (#12): a lead of one rank holds all of it
STRONGEST: Final = 70  # lead.strongest_only (#46): a lead holds the attacker's strongest card
WHOLE_PACK: Final = 71  # deal.whole_pack (#33): every card is dealt, nothing is left to draw
REMOVE_STOCK: Final = 72  # deal.remove_stock (#32): the stock goes aside once the trump is seen
DESCENDING: Final = 73  # deck.order=descending (#23): the shuffled pack is stacked by rank
SEARCH_INDICATOR: Final = 74  # trump.search_indicator (#80): the fixed suit's first card lies under
REFUSAL: Final = 75  # transfer.refusal (#9): the last duel's transfer back to the attacker gone out
DRAW_EMPTY: Final = 76  # draw.when=hand_empty (#34): only an empty hand draws
PROGRESSIVE: Final = 77  # draw.progressive (#36): hands fill to bout + 2 cards
PROGRESSIVE_CAP: Final = 78  # draw.target_cap (#36 A1): the most a progressive refill fills to
EXCHANGE: Final = 79  # exchange.mode=whole_hand (#31): after each refill hands pass to the left
# Joker gifts (#24, #84, ``games.durak.joker_gifts``): the rule's facts, then the gift in
# progress (the reference's ``gift`` memory: giver, receiver, cards still to give, the phase
# and seat the bout resumes with, whether a block is still allowed)
GIFTS: Final = 80  # specials.joker_gifts
GIFT_BLOCK: Final = 81  # specials.gift_block_combo (#84)
GIFT_ON_COVER: Final = 82  # specials.gift_trigger=any_play (#24 A1): a joker cover gives too
GIVER_TRANSFERRER: Final = 83  # specials.joker_transfer_giver=transferrer (#24 A3)
JOKERS: Final = 84  # the jokers (data: their kernel indices)
RED_JOKERS: Final = 85
GIVER: Final = 86  # changing, from here on
RECEIVER: Final = 87
GIFT_LEFT: Final = 88
RESUME_PHASE: Final = 89  # -1: the bout goes on as after its last cover (``RESUME_COVERED``)
RESUME_TO_ACT: Final = 90
BLOCK_OK: Final = 91
# The stock group's books (``games.durak.stock``): #61-63's tallies, #37's buy-in
SCORE_POINTS: Final = 92  # score.points (#61): 0 off, 1 covered, 2 discarded
SCORE_FIGURES: Final = 93  # score.figures (#62)
EPAULETTES: Final = 94  # end.epaulettes (#63)
RESERVE_SIZE: Final = 95  # #37: the buy-in each seat is dealt first (``setup.reserve_size``)
FIGURE_CARDS: Final = 96  # #62: the cards a covered figure counts for (data, card indices)
SIX_CARDS: Final = 97  # #63: the plain sixes (data)
PATTERN_LEADS: Final = 98  # lead.shape=patterns: PATTERNS_ON and a bit per pattern (PATTERN_BITS)
STOCK_THROW: Final = 99  # lead.stock_top_throw_in (#83): throwers may play the stock's top too
STOCK_ONCE: Final = 100  # lead.stock_top=once (#40): one stock card a bout (else unlimited, #83)
STOCK_PLAYS: Final = 101  # changing: stock cards played this bout
STOCK_SEEN: Final = 102  # changing: the stock's top card turned and put back (#83), or -1
SECRET_SECOND: Final = 103  # trump.secret_second (#18): the next card lies aside, face down
SECRET_DRAWABLE: Final = 104  # trump.secret_drawable (#18 A1): once turned it is drawn last
SECRET: Final = 105  # the deal's secret card (#18), or -1
REVEALED: Final = 106  # changing: the secret card is turned; its suit is trump
STOCK_REFILL: Final = 107  # the stock group's refill (``stock.plays_stock_rules``: #31, #34-38,
# #61-63) replaces the base one: a secret card turned there is not drawn in the same refill
SWAP_SIX: Final = 108  # trump.swap_six (#97): the leader may swap the lowest trump for the
# trump card under the stock
SUIT_LEADS: Final = 109  # lead.shape=same_suit (#73): leads of one suit, whatever the ranks
CLOSING: Final = 110  # specials.cover_ends_throw_in (#28): some cover closes a bout (CLOSES)
BOOKS: Final = 111  # the books behind the head are kept (#37's buy-in, #61-63's tallies)
PARTIAL: Final = 112  # defense.partial (#3): a taker's covered pairs go to the discard
PASS_LEAD: Final = 113  # lead.pass_if_no_legal (#5): without an allowed lead the attack passes on
TWIN_BLOCK: Final = 114  # beats.identical=allowed_blocks (#22): a twin's cover closes the bout

# --- areas -------------------------------------------------------------------------------
HANDS: Final = 120
OUT: Final = HANDS + MAX_PLAYERS  # seats in the order they went out
THROWERS: Final = OUT + MAX_PLAYERS  # throw-in priority order of the current round
ATTACK: Final = THROWERS + MAX_PLAYERS  # attack cards in play order
DEFENCE: Final = ATTACK + MAX_TABLE  # the card covering each, -1 while uncovered
STOCK: Final = DEFENCE + MAX_TABLE  # index 0 is drawn last (the trump card); the top is last
SEQ: Final = STOCK + 64  # scratch: the refill order of the bout being ended
POINTS: Final = SEQ + MAX_PLAYERS
"""#61: each seat's points (the cards of his beaten bouts)."""
FIGURES: Final = POINTS + MAX_PLAYERS
"""#62: each seat's figures beaten."""
SIXES: Final = FIGURES + MAX_PLAYERS
"""#63: each seat's epaulettes from his last bout as defender (0-2)."""
RESERVE: Final = SIXES + MAX_PLAYERS
"""#37: each seat's buy-in, picked up once instead of going out."""
BEATS: Final = RESERVE + MAX_PLAYERS
"""What beats what in this deal: ``s[BEATS + a]`` is the set of cards that cover card ``a``,
the reference engine's beat table (``DurakState.beats``) copied as data, so a variant that
changes the relation (no trump, a fixed trump, a restricted suit, royal, deuces over aces)
is a different table and not a different branch of the compiled code."""
RANK_SETS: Final = BEATS + 64
"""``s[RANK_SETS + c]`` is every card that counts as the rank of card ``c`` for leads, throw-ins
and transfers (``cards.MATCH_MASKS`` in the kernel's card indices): read as data, so that a
joker matches the other joker and nothing else, whatever index it has (:mod:`bito.kernel.convert`
maps a deck with jokers onto indices 0-62 in the reference engine's card order)."""
HEAD: Final = RANK_SETS + 64
"""A position's facts end here: a playout or a solver node copies ``[0, HEAD)`` (and the
bout openings in use), never the trump rows behind it."""
TRUMP_ROWS: Final = HEAD
"""The beat table for each card the deal may turn up, 64 entries a row: a card of each suit
(rows 0-3, by suit), no trump (row 4), the red and the black joker (rows 5 and 6, for the
joker systems that give a turned joker a meaning: #25's two trump suits and high joker,
#27's wild jokers). Rule facts, read only by the kernel's own deal, which copies the row of
the card it turns to :data:`BEATS` and the row's trumps (:data:`ROW_TRUMPS`) to
``TRUMP_SET``."""
NO_TRUMP_ROW: Final = 4
JOKER_ROWS: Final = 5
"""Row of a turned joker: ``JOKER_ROWS + rank - 1`` (``cards.rank_of``: 1 red, 2 black)."""
ROWS: Final = 7
ROW_TRUMPS: Final = TRUMP_ROWS + ROWS * 64
"""The trump cards under each row of :data:`TRUMP_ROWS` (8 entries, 7 used)."""
RANK_OF: Final = ROW_TRUMPS + 8
"""The reference rank of each card index (``cards.rank_of``: 1 and 2 for the jokers), read by
the kernel's own deal for the lowest card."""
SUIT_OF: Final = RANK_OF + 64
"""The suit of each card index (4 for a joker), read by the kernel's own deal for the trump."""
REJECTED: Final = SUIT_OF + 64
"""The cards that may not be the turned-up trump card (#74's aces and low cards, §3.3's
special cards): a rule fact read by the kernel's own deal."""
SEEN: Final = REJECTED + 8  # each bout opening since the last draw: hands, roles, stock
MAX_SEEN: Final = 512
SEEN_WIDTH: Final = MAX_PLAYERS + 3  # room per opening; PLAYERS + 3 entries are used
SIZE: Final = SEEN + MAX_SEEN * SEEN_WIDTH
"""Playouts copy only the head of a position (:data:`HEAD`) and its openings in use."""

# --- codes -------------------------------------------------------------------------------
LEAD_PHASE, DEFEND_PHASE, THROW_PHASE, OVER_PHASE = 0, 1, 2, 3
GIVE_PHASE: Final = 4
"""A joker's gift being handed over (#24; ``Phase.GIVE``)."""
FOOL, DRAW, FAILED = 1, 2, 3  # RESULT once the game is over; FAILED: MAX_SEEN ran out
ATTACK_KIND, DEFEND_KIND, TRANSFER_KIND, TAKE_KIND, PASS_KIND = 0, 1, 2, 3, 4
STOCK_KIND: Final = 5
"""The kernel's number for the reference engine's ``Kind.STOCK`` (#40's lead from the stock,
21 there): an action's kind fits in three bits of ``meta``."""
TRY_KIND: Final = 6
"""The kernel's number for ``Kind.TRY`` (#39's second try, 20 there)."""
SHOW_KIND: Final = 7
"""The kernel's number for #96's show of a trump (31 in ``bito.games.durak.show_trump``)."""
GIVE_META: Final = TAKE_KIND | (64 + 1) << 3
"""A card handed over in a joker's gift (#24, ``Kind.GIVE``). The three bits of a kind are
all taken, so the gift's two moves borrow the take's number with a target no card has (card
indices stop at 62): they only ever occur in :data:`GIVE_PHASE`, where nothing is taken, and
the compiled code tells them apart by the phase, the conversion by this whole number."""
BLOCK_META: Final = TAKE_KIND | (65 + 1) << 3
"""Three of a kind shown to call a gift off (#84, ``Kind.BLOCK``); see :data:`GIVE_META`."""
SWAP_META: Final = TAKE_KIND | (66 + 1) << 3
"""The lowest trump swapped for the trump card under the stock (#97, ``trump_swap.SWAP_SIX``):
a lead-phase move, where nothing is taken either; see :data:`GIVE_META`."""
SECOND_TRIES: Final = ("off", "per_card", "per_bout")
# The kernel's own numbering of option values (its compiled code compares these indices);
# typed by the option's values, and tests/engine/test_option_types.py checks them against the spec.
DRAW_RULES: Final[tuple[DrawOrder, ...]] = ("attacker_first", "right_of_defender_first",
                                            "attacker_then_strict_clockwise", "defender_first")
TRUMP_SOURCES: Final[tuple[TrumpSource, ...]] = ("stock_top", "last_card", "bottom_card",
                                                 "any_card", "fixed", "none")
PATTERNS_ON: Final = 1
"""``PATTERN_LEADS`` holds this bit under ``lead.shape=patterns``; each pattern the rules list
adds its bit of :data:`PATTERN_BITS`."""
SINGLE_BIT, PAIR_BIT, PAIR_ONE_BIT, TWO_PAIRS_BIT = 2, 4, 8, 16
TRIPS_BIT, QUADS_BIT, QUADS_ONE_BIT, THREE_ANY_BIT = 32, 64, 128, 256
PATTERN_BITS: Final[dict[str, int]] = {
    "single": SINGLE_BIT, "pair": PAIR_BIT, "pair_plus_one": PAIR_ONE_BIT,
    "two_pairs_plus_one": TWO_PAIRS_BIT, "trips": TRIPS_BIT, "quads": QUADS_BIT,
    "quads_plus_one": QUADS_ONE_BIT, "three_any": THREE_ANY_BIT}
"""The kernel's bit for each lead pattern it plays (``leads.pattern_leads``)."""
FIXED_SOURCE, NONE_SOURCE = 4, 5  # no card is turned: trump.fixed_suit is trump, or none is
