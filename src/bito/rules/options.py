"""The rules object: one frozen set of orthogonal options.

Every option has a dotted public name taken from the catalogue's parameter space
(VARIANTS.md §4), e.g. ``throw_in.enabled``; the Python attribute is the same name with dots
turned into underscores (``Rules.throw_in_enabled``). A variant is a base plus a few option
values, so a house rule is nothing more than a different value here.

Options are orthogonal: each governs one decision point of the engine and no option reads
another's value to change its meaning.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeVar, get_args

from bito.cards import STANDARD_LOW_RANK, build_deck, parse_card
from bito.errors import InvalidNotationError, RulesError

T = TypeVar("T")

# --- option values ------------------------------------------------------------------------
# Each text-valued option's values, as a type: the field of ``Rules`` is annotated with it, so
# mypy refuses a comparison with a misspelt value (``rules.draw_order == "atacker_first"``),
# and its OptionSpec reads its choices from it (``get_args``), so the list is written once.
# The values stay plain strings: records, position text and ``+key=value`` specs are unchanged.
# The order of the values is the order of the spec's choices (the help and the kernel's
# tables list them so).

RulesFamily = Literal["durak"]
DeckOrder = Literal["shuffled", "descending"]
TrumpSource = Literal["stock_top", "last_card", "any_card", "bottom_card", "fixed", "none"]
TrumpFixedSuit = Literal["c", "d", "h", "s"]
TrumpPerPlayerAssign = Literal["turn_up", "fixed_by_seat"]
BeatsSuitMode = Literal["standard", "suitless"]
BeatsRestrictedSuit = Literal["", "c", "s"]
BeatsRoyalSuitScope = Literal["same_suit", "any_suit"]
BeatsBinding = Literal["none", "all_other_players", "attacker_suit_only"]
BeatsIdentical = Literal["forbidden", "allowed_blocks", "literal"]
BeatsDeuceScope = Literal["same_suit", "any_suit"]
SpecialsJoker = Literal["any", "double", "double_color_only", "single", "novosibirsk", "estonian"]
SpecialsWildJokers = Literal["both", "indicator_only"]
SpecialsGiftTrigger = Literal["attack", "any_play"]
SpecialsJokerTransferGiver = Literal["transferrer", "new_defender"]
FirstAttackerRule = Literal["lowest_trump", "left_of_dealer"]
FirstAttackerNoTrumpFallback = Literal["lowest_card", "lot"]
NextGameLeader = Literal["from_under_fool", "under_fool", "previous_winner", "left_of_dealer",
                         "lowest_trump"]
LeadShape = Literal["same_rank", "single", "same_rank_1or2", "rozaliev", "patterns", "same_suit"]
LeadStockTop = Literal["off", "once", "unlimited"]
ThrowInBy = Literal["all", "neighbours"]
ThrowInAfterTakeMode = Literal["normal", "cunning", "impudent"]
ThrowInImpudentMode = Literal["self_covered_pairs", "cover_own_first_then_throw"]
DefenseSecondTry = Literal["off", "per_card", "per_bout"]
DefenseExchangeMode = Literal["exactly", "up_to"]
DefenseExchangeReturn = Literal["shuffle", "to_bottom"]
TransferWindow = Literal["before_first_cover", "any_time"]
TransferNewDefenderBeats = Literal["all_uncovered", "transfer_cards_only"]
TransferMatch = Literal["last_uncovered", "all_uncovered"]
TransferNeutralised = Literal["stay", "discard"]
TransferCardsPerAction = Literal["one", "group"]
TransferFirstBout = Literal["allowed", "first_game", "under_fool"]
DrawOrder = Literal["attacker_first", "right_of_defender_first", "attacker_then_strict_clockwise",
                    "defender_first"]
DummyMode = Literal["none", "tossing", "playing"]
DummyVisibleTo = Literal["controller", "all"]
TeamLayout = Literal["none", "opposite", "alternating"]
TeamThrowIn = Literal["opponents", "all"]
TeamAttack = Literal["opponent", "next_seat"]
DrawWhen = Literal["every_bout", "hand_empty"]
DealAccess = Literal["all", "gradual"]
ExchangeMode = Literal["none", "whole_hand", "choose"]
ScorePoints = Literal["off", "covered", "discarded"]

Rejectable = Literal["A", "L", "spades", "joker", "mega"]
LeadPattern = Literal["single", "pair", "pair_plus_one", "two_pairs_plus_one", "trips", "quads",
                      "quads_plus_one", "three_any", "three_of_a_rank"]

REJECTABLE: Final[tuple[Rejectable, ...]] = get_args(Rejectable)
"""What ``trump.reject_indicator`` may name."""

LEAD_PATTERNS: Final[tuple[LeadPattern, ...]] = get_args(LeadPattern)
"""What ``lead.patterns`` may name (see :mod:`bito.games.durak.leads`)."""


@dataclass(frozen=True)
class OptionSpec:
    """What a user may set: the dotted key, its allowed values and a sentence of help."""

    key: str
    choices: tuple[Any, ...] | None
    help: str
    ref: str

    @property
    def attr(self) -> str:
        return self.key.replace(".", "_")

    @property
    def ready_choices(self) -> tuple[Any, ...] | None:
        """The choices the engine plays today (see :data:`PENDING`)."""
        if self.choices is None:
            return None
        waiting = PENDING.get(self.key, ())
        return tuple(c for c in self.choices if c not in waiting)


_SPECS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec("family", get_args(RulesFamily), "engine family", "§4.1"),
    OptionSpec("deck.size", (24, 32, 36, 52), "cards in the deck: 9-A, 7-A, 6-A or 2-A", "§1.1"),
    OptionSpec("deal.hand_size", None, "cards dealt to each player and refilled to (B1)",
               "§1.1 B1"),
    OptionSpec("players.min", None, "fewest players", "§1.1"),
    OptionSpec("players.max", None, "most players (0: as many as the deck allows, "
               "hand size x players <= deck)", "§1.1"),
    OptionSpec("deck.jokers", (0, 1, 2), "jokers added to the deck: none, one, or a red and "
               "a black one", "§4.3"),
    OptionSpec("deck.wild", (0, 4), "wild cards added to the deck (W1-W4)", "§4.3 #28"),
    OptionSpec("deck.mega", (False, True), "add the mega card (MC), beaten only by fours",
               "§4.3 #30"),
    OptionSpec("deck.copies", (1, 2), "two identical decks shuffled together (twins written "
               "6h')", "§4.3 #21"),
    OptionSpec("deck.order", get_args(DeckOrder), "the stock shuffled, or arranged from "
               "the aces down (each rank shuffled within itself)", "§4.3 #23"),
    OptionSpec("trump.source", get_args(TrumpSource),
               "which card of the stock is turned up as the trump card (B3); fixed: the suit "
               "trump.fixed_suit is always trump and no card is turned; none: no trumps",
               "§1.1 B3 #13 #15"),
    OptionSpec("trump.fixed_suit", get_args(TrumpFixedSuit), "the trump suit when trump.source is "
               "fixed", "#13"),
    OptionSpec("trump.search_indicator", (False, True), "with a fixed trump, turn cards before "
               "the deal until one of the trump suit shows and put it under the stock (#80)",
               "#80"),
    OptionSpec("trump.reject_indicator", None,
               "cards that may not be the turned-up trump card: a list of A (aces), L (lowest "
               "rank), spades, joker, mega; such a card is buried in the stock and another is "
               "turned (#74)", "#74 #14 #81"),
    OptionSpec("trump.per_player", (False, True), "every player has a personal trump suit, "
               "turned up for him after the deal; no common trump card is turned, so trump.source "
               "and the #80 indicator search do not apply (#16)", "#16"),
    OptionSpec("trump.per_player_assign", get_args(TrumpPerPlayerAssign), "how personal trumps "
               "are chosen (#16 A1): turned up from the stock, one per player, a taken suit "
               "refused while a free one remains; or clubs, diamonds, hearts, spades by seat",
               "#16"),
    OptionSpec("trump.secret_second", (False, True), "a second card lies face down under the "
               "trump card; when the stock runs out it is turned and its suit becomes trump "
               "(#18)", "#18"),
    OptionSpec("trump.secret_drawable", (False, True), "the turned secret card becomes the "
               "last card of the stock instead of staying out of play (#18 A1)", "#18"),
    OptionSpec("trump.swap_six", (False, True), "the player about to lead may exchange the "
               "six of trumps (the deck's lowest rank) for the trump card lying face up under "
               "the stock, while the stock holds more than that card; the six then lies face "
               "up in its place (#97)", "#97"),
    OptionSpec("beats.suit_mode", get_args(BeatsSuitMode), "standard: a higher card of the "
               "same suit or a trump beats; suitless: any higher card beats, trumps only by "
               "higher trumps (#17)", "§4.6 #17"),
    OptionSpec("beats.restricted_suit", get_args(BeatsRestrictedSuit),
               "a suit beaten only by a higher card of "
               "its own suit, never by a trump (Japanese: s)", "#13"),
    OptionSpec("beats.unbeatable", None, "cards that nothing covers, in card notation "
               "(Akulina's queen of spades: Qs); they still cover like any other card", "#73"),
    OptionSpec("beats.royal", (False, True), "the lowest rank beats the highest of its suit and "
               "is beaten only by it (#19)", "#19"),
    OptionSpec("beats.royal_suit_scope", get_args(BeatsRoyalSuitScope), "whether the royal pair "
               "must share a suit (#19 A2)", "#19"),
    OptionSpec("beats.ace_only_by_trump", (False, True), "cancel every 'low card beats ace' "
               "rule; a trump ace cannot be beaten (#20)", "#20"),
    OptionSpec("beats.binding", get_args(BeatsBinding),
               "with personal trumps: a card of another player's trump suit is beaten only by "
               "a higher card of that suit (#82)", "#82"),
    OptionSpec("beats.identical", get_args(BeatsIdentical), "with two "
               "decks: a card may not be covered by its twin; or may be, and then no more cards "
               "are thrown in (#22); literal: the seed's words taken as written, no cover by a "
               "card of the same suit at all, only by a trump (#21 A1)", "#21 #22"),
    OptionSpec("beats.deuce_beats_ace", (False, True), "a two beats the ace of its suit (a "
               "trump two any ace) (#29)", "#29"),
    OptionSpec("beats.deuce_scope", get_args(BeatsDeuceScope), "which two beats an ace under "
               "beats.deuce_beats_ace: the same suit's (or a trump two), or any two (#29 A1)",
               "#29"),
    OptionSpec("specials.joker", get_args(SpecialsJoker),
               "what the jokers beat and are beaten by: any (beat anything, beaten by "
               "anything), double (#25), double_color_only (#81), single (#26), novosibirsk "
               "(#27), estonian (beaten only by 2s and 3s, #29)", "§3.3"),
    OptionSpec("specials.joker_beaten_by_any", (False, True), "a led single joker may be "
               "covered by any card (#26 option)", "#26"),
    OptionSpec("specials.joker_unbeatable", (False, True), "with double_color_only jokers: "
               "nothing covers a joker (#81 A1)", "#81"),
    OptionSpec("specials.wild_jokers", get_args(SpecialsWildJokers), "Novosibirsk after a joker "
               "was turned up: both jokers cover any card, or only the turned one (#27 A1)",
               "#27"),
    OptionSpec("specials.cover_ends_throw_in", (False, True), "a cover with a wild card or "
               "joker closes throw-ins for the bout (#28)", "#28 §3.3"),
    OptionSpec("specials.cover_clears_table", (False, True), "a cover with a wild card or "
               "joker ends the bout at once: everything on the table, covered or not, is "
               "discarded (#28 A2)", "#28"),
    OptionSpec("specials.joker_gifts", (False, True), "attacking with a joker makes players "
               "hand over cards (#24)", "#24"),
    OptionSpec("specials.gift_block_combo", (False, True), "a player who must give may show "
               "three of a kind and two more cards to cancel the gift (#84)", "#84"),
    OptionSpec("specials.gift_trigger", get_args(SpecialsGiftTrigger),
               "which joker plays set off a "
               "gift (#24 A1): attack cards only (lead or throw-in), or covers as well (then "
               "between the defender and the main attacker)", "#24"),
    OptionSpec("specials.joker_transfer_giver", get_args(SpecialsJokerTransferGiver), "after a "
               "joker is passed on with the other joker, who gives five cards (#24 A3)",
               "#24"),
    OptionSpec("end.instant_loss_cards", None, "a player holding this many cards after a bout "
               "is the fool at once (0: off; 52 in Big fool)", "#21"),
    OptionSpec("first_attacker.rule", get_args(FirstAttackerRule),
               "who attacks first in the first deal", "§1.8"),
    OptionSpec("first_attacker.no_trump_fallback", get_args(FirstAttackerNoTrumpFallback),
               "first attacker when nobody holds a trump (B4)", "§1.8 B4"),
    OptionSpec("next_game_leader",
               get_args(NextGameLeader),
               "who attacks first in later deals of a match (B5, #79)", "§1.8 B5 #79"),
    OptionSpec("lead.shape", get_args(LeadShape),
               "what an opening attack may look like (B2): one or more cards of one rank; one "
               "card; one or two of a rank; a single, a pair, or a pair plus any card; the "
               "shapes listed in lead.patterns; or one or more cards of one suit (Akulina, #73)",
               "§1.4 B2 #73"),
    OptionSpec("lead.max", None, "most cards in an opening attack (also never more than the "
               "defender holds)", "§1.4"),
    OptionSpec("lead.patterns", None, "with lead.shape=patterns, the shapes a lead may take, "
               "comma-separated: " + ", ".join(LEAD_PATTERNS) + "; none listed: single cards "
               "(#4-6, #47)", "§4.7"),
    OptionSpec("lead.pass_if_no_legal", (False, True), "an attacker with no lead of an allowed "
               "shape passes the attack to the next player; when nobody in the circle has one, "
               "everyone draws a card, or single cards may be led once the stock is gone (#5)",
               "#5"),
    OptionSpec("lead.strongest_only", (False, True), "a bout may be opened only with the "
               "attacker's strongest card: a trump over any non-trump, then the higher rank "
               "(#46)", "#46"),
    OptionSpec("lead.must_include_all_of_rank", (False, True), "a lead of one rank holds every "
               "card of that rank in the attacker's hand, as far as the limits allow (#12)",
               "#12"),
    OptionSpec("defense.partial", (False, True), "the defender may cover some cards and take "
               "the rest: the covered pairs go to the discard, he picks up only the open "
               "cards (#3)", "#3"),
    OptionSpec("take.skip", (True, False), "a defender who takes loses his turn to attack; "
               "false: he attacks next (#52)", "#52"),
    OptionSpec("lead.stock_top", get_args(LeadStockTop), "the attacker may play the "
               "top card of the stock, turned face up as it is played, instead of a card from "
               "his hand: never, once per bout, or any number of times (Armenian fool #40, "
               "#83)", "#40 #83"),
    OptionSpec("lead.stock_top_throw_in", (False, True), "throw-ins may come from the top of "
               "the stock too; a card that matches no rank on the table goes back face up on "
               "top, seen by everyone (#40 A1, #83)", "#40 #83"),
    OptionSpec("throw_in.enabled", (True, False), "others may throw in cards of ranks on the "
               "table (podkidnoy) (B8)", "§1.5 B8"),
    OptionSpec("throw_in.by", get_args(ThrowInBy), "who may throw in: every player but the "
               "defender, or only the defender's two neighbours", "§1.5"),
    OptionSpec("throw_in.cap", None, "most attack cards in one bout", "§1.5 B6"),
    OptionSpec("throw_in.first_bout_cap", None, "most attack cards in the first bout of a deal "
               "(0: no special cap); a defender who takes may get one more, up to throw_in.cap "
               "(#75)", "#75"),
    OptionSpec("throw_in.uncapped_after_stock", (True, False), "once the stock is empty only the "
               "defender's hand limits a bout (#76)", "#76"),
    OptionSpec("throw_in.after_take_mode", get_args(ThrowInAfterTakeMode), "after the "
               "defender says he takes: plain throw-ins (normal); throwers may also cover "
               "their own uncovered cards, loading the taker (cunning, #50); or every "
               "throw-in must come covered by its thrower (impudent, #51)", "#50 #51"),
    OptionSpec("throw_in.impudent_mode", get_args(ThrowInImpudentMode),
               "impudent fool's throw-ins after a take: a card and its own cover laid "
               "together, or a plain card once none of the thrower's cards lies uncovered "
               "(#51 A2)", "#51"),
    OptionSpec("defense.second_try", get_args(DefenseSecondTry), "a defender who cannot "
               "beat a card may first draw the top card of the stock and try with it: never, "
               "once per card he is stuck on, or once per bout (#39)", "#39"),
    OptionSpec("defense.exchange", (0, 2), "before covering his first card the defender may "
               "swap this many cards of his hand for the top cards of the stock, once per "
               "bout (Poker fool #42)", "#42"),
    OptionSpec("defense.exchange_mode", get_args(DefenseExchangeMode), "the swap is exactly "
               "defense.exchange cards, or one card up to that many (#42 A2)", "#42"),
    OptionSpec("defense.exchange_return", get_args(DefenseExchangeReturn), "where the swapped-out "
               "cards go: shuffled into the face-down stock, or just above the trump card "
               "(#42 A1)", "#42"),
    OptionSpec("defense.counter", (False, True), "a defender who covers a card may add cards "
               "of his cover's rank as a counter-attack on the player of the covered card, "
               "who must beat the cover and the added cards or take them (#49)", "#49"),
    OptionSpec("defense.self_throw", (False, True), "once the throwers have all passed with "
               "everything covered, the defender may lay a card of a rank on the table and "
               "cover it himself, and the throw round opens again (#48)", "#48"),
    OptionSpec("transfer.enabled", (True, False), "the defender may pass the attack on with a "
               "card of the same rank (perevodnoy)", "§1.6"),
    OptionSpec("transfer.window", get_args(TransferWindow),
               "when a transfer is allowed (B9; any_time is transfer_2)", "§1.6 B9 #10"),
    OptionSpec("transfer.new_defender_beats", get_args(TransferNewDefenderBeats),
               "after a transfer the new defender beats every uncovered card, or only the "
               "transfer card, the others counting as covered by it (transfer_3)", "#11"),
    OptionSpec("throw_in.groups", (False, True), "several cards of one rank may be thrown in "
               "as one action (Estonian)", "#29"),
    OptionSpec("transfer.match", get_args(TransferMatch), "under "
               "transfer.window=any_time: the transfer card matches the rank of the last "
               "uncovered card thrown, or every uncovered card must share its rank (#10 A3)",
               "#10"),
    OptionSpec("transfer.neutralised", get_args(TransferNeutralised),
               "under transfer_cards_only: the "
               "neutralised cards stay on the table with the bout, or go to the discard at once "
               "(#11 A1)", "#11"),
    OptionSpec("transfer.refusal", (False, True), "in the last duel, a defender may transfer "
               "back to an attacker who has just gone out with his lead; that player, holding "
               "nothing, must take (#9)", "#9"),
    OptionSpec("transfer.must_include_all_of_rank", (False, True), "a transfer lays every card "
               "of the rank the defender holds, as far as the limits allow (#12 A2)", "#12"),
    OptionSpec("transfer.cards_per_action", get_args(TransferCardsPerAction),
               "a transfer lays one card, or "
               "any number of cards of the rank at once (#29 A5; an engine option)", "#29"),
    OptionSpec("transfer.forbid_if_trump_on_table", (True, False), "no transfer while a "
               "trump lies on the table (the literal reading of the rule, B12)", "§1.6 B12"),
    OptionSpec("transfer.first_bout", get_args(TransferFirstBout), "transfer in the "
               "first bout of a deal: allowed; banned in the first game of a match; banned when "
               "the deal is led under the fool (B10, #78)", "§1.6 B10 #78"),
    OptionSpec("transfer.show_trump", (False, True), "while no attack card is covered, the "
               "defender may show the trump of the attack rank instead of laying a card: the "
               "attack passes on as a transfer would, the trump stays in his hand, now known; "
               "once per player per bout (#96)", "#96"),
    OptionSpec("draw.order", get_args(DrawOrder),
               "who refills first after a bout (B7, #77)", "§1.7 B7 #77"),
    OptionSpec("defense.face_down", (False, True), "the defender lays his covers face down, "
               "any card on any attack card (he may bluff); the attacker who led then says "
               "believe or don't believe and the cards are turned (#59). Needs a game without "
               "throw-ins or transfers, whose ranks would give the covers away", "#59"),
    OptionSpec("deal.owner_sees_hand", (True, False), "false: every player holds his cards "
               "facing outward (#58): he sees every other hand but never his own, drawn cards "
               "included; he plays a card by its position in his hand, and a card that turns "
               "out not to fit (a wrong cover, transfer or throw-in) is penalised: the offender "
               "takes every card of the bout. Needs throw-in or transfer Durak without the "
               "dummy, face-down covers or the bout extras of #39-51", "§4.4 #58"),
    OptionSpec("dummy.mode", get_args(DummyMode), "a phantom hand (the dummy, "
               "'болван') dealt like a player's: tossing: its controller may throw in from it "
               "against whoever defends; it never attacks, defends or loses (#56); playing: the "
               "dummy is a full seat whose every move its controller makes, and it can go out "
               "or be the fool (#57)", "§3.6 #56 #57"),
    OptionSpec("dummy.defends", (True, False), "with a playing dummy: it is attacked and "
               "defends like any seat (#57 A3), or is passed over as a defender", "#57 A3"),
    OptionSpec("dummy.seat", None, "with a playing dummy: its seat (-1: the last seat, the "
               "one dealt to last, #57)", "#57"),
    OptionSpec("dummy.draws", (True, False), "the dummy refills after the players in every "
               "draw (#56 A1)", "#56"),
    OptionSpec("dummy.visible_to", get_args(DummyVisibleTo), "who sees the dummy's cards: its "
               "controller only, or everyone, the cards lying face up (#56 A4)", "#56"),
    OptionSpec("team.layout", get_args(TeamLayout), "partnerships: "
               "none; partners of two sitting opposite each other (4 players: two pairs, 6: "
               "three pairs; #53, #54); or two teams in alternating seats, every opponent "
               "between two partners (#55)", "§3.6 #53 #54 #55"),
    OptionSpec("team.throw_in", get_args(TeamThrowIn), "with teams: who may throw in at a "
               "defender: only his opponents (the catalogue's rule for #53-55), or everyone "
               "but the defender as in plain podkidnoy", "§3.6"),
    OptionSpec("team.attack", get_args(TeamAttack), "with teams: the attack goes to the "
               "next opponent still in play on the attacker's left, partners skipped (#54, "
               "#53 A2), or literally to the next seat in play", "§3.6 #53 #54"),
    OptionSpec("team.proxy", (False, True), "with teams: a player who goes out keeps his seat "
               "in the rotation and his nearest partner still in play counter-clockwise "
               "attacks and defends for it from his own hand (#55)", "#55"),
    OptionSpec("draw.when", get_args(DrawWhen), "who refills after a bout: every "
               "player below the hand size, or only players with no cards at all (#34)", "#34"),
    OptionSpec("draw.progressive", (False, True), "hands refill to one card more after each "
               "bout: 2 after the first, 3 after the second, ... (#36; deal.hand_size=1)",
               "#36"),
    OptionSpec("draw.target_cap", None, "with draw.progressive: the refill target never "
               "passes this many cards (0: no cap, the catalogue's default; 6 the "
               "alternative, #36 A1)", "#36"),
    OptionSpec("deal.remove_stock", (False, True), "after the deal and the trump card is "
               "turned, the rest of the pack, trump card included, is set aside unseen: "
               "nobody draws (#32)", "#32"),
    OptionSpec("deal.whole_pack", (False, True), "the whole pack is dealt out one card at a "
               "time; the first players clockwise from the dealer's left get one more when "
               "it does not divide; the last card dealt is shown and fixes the trump (#33)",
               "#33"),
    OptionSpec("deal.reserve", None, "cards dealt face down to each player before his hand, "
               "unseen even by him, picked up once when he would otherwise go out (the "
               "buy-in, #37); 0: none. Lowered automatically so that players x (hand size + "
               "reserve) + 1 fits the deck", "#37"),
    OptionSpec("deal.access", get_args(DealAccess), "gradual: of each packet a player receives "
               "from the stock only one card is usable at first, the others lie face down "
               "unseen; one more becomes usable after each bito, and all once the stock is "
               "empty (#35)", "#35"),
    OptionSpec("exchange.mode", get_args(ExchangeMode), "after every bout, once "
               "hands are refilled, every player still in passes cards to his left neighbour "
               "(#31): his whole hand, or (choose) exchange.cards cards of his choice, chosen "
               "one seat at a time and passed all at once", "#31"),
    OptionSpec("exchange.cards", (1, 2, 3), "with exchange.mode=choose, how many cards each "
               "player passes on (a player holding fewer passes all he has) (#31 A1)", "#31"),
    OptionSpec("discard.recycle_every", (0, 2), "every n-th bito goes back into the stock, "
               "shuffled under the top and above the trump card, instead of to the discard "
               "pile (#38); 0: never", "#38"),
    OptionSpec("score.points", get_args(ScorePoints), "a tally per player of cards "
               "beaten off in bouts he defended successfully: the attack cards he covered, or "
               "every card of those bouts (#61 A1); the top scorers win (#61)", "#61"),
    OptionSpec("score.figures", (False, True), "a tally per player of figure cards (10, J, Q, "
               "K, A) he covered in bouts he defended successfully (#62)", "#62"),
    OptionSpec("end.epaulettes", (False, True), "a fool whose last attack was made with "
               "non-trump sixes only wears them as epaulettes: one or two (#63)", "#63"),
    OptionSpec("end.draw_allowed", (True, False), "a game where the last players go out "
               "together ends without a fool (B11); otherwise the last to go out is the fool",
               "§1.8 B11"),
    OptionSpec("end.repetition", (3, 2, 0), "the deal is drawn (no fool) when the same "
               "position (every hand, the stock, attacker and defender) opens a bout for this "
               "many times with nobody drawing in between; 0: never. An engine rule, not in "
               "the seeds: without it a table where nobody can cover can pass the same cards "
               "round for ever", "engine"),
    OptionSpec("end.idle_bouts", (50, 20, 100), "the deal is drawn (no fool) after this "
               "many bouts in a row end in a take with nobody drawing a card or going out. "
               "An engine rule like chess's fifty-move rule, not in the seeds: it bounds "
               "games where covers are rare (royal, twin decks, the literal big fool). It "
               "cannot be turned off: without it some deals never end", "engine"),
)

OPTION_SPECS: Final[dict[str, OptionSpec]] = {s.key: s for s in _SPECS}

#: Most cards of one rank a lead may hold, by ``lead.shape`` (absent: up to ``lead.max``).
_LEAD_MOST: Final[dict[LeadShape, int]] = {"single": 1, "same_rank_1or2": 2, "rozaliev": 2}

#: Option values that the catalogue's "Variants I" needs and the rules object accepts, but
#: that the engine does not play yet (joker gifts). A game whose rules use one is refused by
#: :func:`pending_options` with the key at fault.
PENDING: Final[dict[str, tuple[Any, ...]]] = {
}


def pending_options(rules: Rules) -> list[str]:
    """The options of ``rules`` whose values the engine does not play yet, as ``key=value``."""
    out = [f"{key}={getattr(rules, key.replace('.', '_'))!r}" for key, values in PENDING.items()
           if getattr(rules, key.replace(".", "_")) in values]
    return out


@dataclass(frozen=True)
class Rules:
    """All the options of a Durak-family game. Immutable; derive changed copies with
    :meth:`with_options`. Defaults are the catalogue's base game, podkidnoy (§1)."""

    family: RulesFamily = "durak"
    deck_size: int = 36
    deal_hand_size: int = 6
    players_min: int = 2
    players_max: int = 0
    deck_jokers: int = 0
    deck_wild: int = 0
    deck_mega: bool = False
    deck_copies: int = 1
    deck_order: DeckOrder = "shuffled"
    trump_source: TrumpSource = "stock_top"
    trump_fixed_suit: TrumpFixedSuit = "d"
    trump_search_indicator: bool = False
    trump_reject_indicator: tuple[Rejectable, ...] = ()
    trump_per_player: bool = False
    trump_per_player_assign: TrumpPerPlayerAssign = "turn_up"
    trump_secret_second: bool = False
    trump_secret_drawable: bool = False
    trump_swap_six: bool = False
    beats_suit_mode: BeatsSuitMode = "standard"
    beats_restricted_suit: BeatsRestrictedSuit = ""
    beats_unbeatable: tuple[str, ...] = ()
    beats_royal: bool = False
    beats_royal_suit_scope: BeatsRoyalSuitScope = "same_suit"
    beats_ace_only_by_trump: bool = False
    beats_binding: BeatsBinding = "none"
    beats_identical: BeatsIdentical = "forbidden"
    beats_deuce_beats_ace: bool = False
    beats_deuce_scope: BeatsDeuceScope = "same_suit"
    specials_joker: SpecialsJoker = "any"
    specials_joker_beaten_by_any: bool = False
    specials_joker_unbeatable: bool = False
    specials_wild_jokers: SpecialsWildJokers = "both"
    specials_cover_ends_throw_in: bool = False
    specials_cover_clears_table: bool = False
    specials_joker_gifts: bool = False
    specials_gift_block_combo: bool = False
    specials_gift_trigger: SpecialsGiftTrigger = "attack"
    specials_joker_transfer_giver: SpecialsJokerTransferGiver = "transferrer"
    end_instant_loss_cards: int = 0
    first_attacker_rule: FirstAttackerRule = "lowest_trump"
    first_attacker_no_trump_fallback: FirstAttackerNoTrumpFallback = "lowest_card"
    next_game_leader: NextGameLeader = "from_under_fool"
    lead_shape: LeadShape = "same_rank"
    lead_max: int = 6
    lead_patterns: tuple[LeadPattern, ...] = ()
    lead_pass_if_no_legal: bool = False
    lead_strongest_only: bool = False
    lead_must_include_all_of_rank: bool = False
    defense_partial: bool = False
    take_skip: bool = True
    lead_stock_top: LeadStockTop = "off"
    lead_stock_top_throw_in: bool = False
    throw_in_enabled: bool = True
    throw_in_by: ThrowInBy = "all"
    throw_in_cap: int = 6
    throw_in_first_bout_cap: int = 0
    throw_in_uncapped_after_stock: bool = False
    throw_in_after_take_mode: ThrowInAfterTakeMode = "normal"
    throw_in_impudent_mode: ThrowInImpudentMode = "self_covered_pairs"
    defense_second_try: DefenseSecondTry = "off"
    defense_exchange: int = 0
    defense_exchange_mode: DefenseExchangeMode = "exactly"
    defense_exchange_return: DefenseExchangeReturn = "shuffle"
    defense_self_throw: bool = False
    defense_counter: bool = False
    transfer_enabled: bool = False
    transfer_window: TransferWindow = "before_first_cover"
    transfer_new_defender_beats: TransferNewDefenderBeats = "all_uncovered"
    throw_in_groups: bool = False
    transfer_match: TransferMatch = "last_uncovered"
    transfer_neutralised: TransferNeutralised = "stay"
    transfer_refusal: bool = False
    transfer_must_include_all_of_rank: bool = False
    transfer_cards_per_action: TransferCardsPerAction = "one"
    transfer_forbid_if_trump_on_table: bool = False
    transfer_first_bout: TransferFirstBout = "allowed"
    transfer_show_trump: bool = False
    draw_order: DrawOrder = "attacker_first"
    defense_face_down: bool = False
    deal_owner_sees_hand: bool = True
    dummy_mode: DummyMode = "none"
    dummy_draws: bool = True
    dummy_visible_to: DummyVisibleTo = "controller"
    dummy_defends: bool = True
    dummy_seat: int = -1
    team_layout: TeamLayout = "none"
    team_throw_in: TeamThrowIn = "opponents"
    team_attack: TeamAttack = "opponent"
    team_proxy: bool = False
    draw_when: DrawWhen = "every_bout"
    draw_progressive: bool = False
    draw_target_cap: int = 0
    deal_remove_stock: bool = False
    deal_whole_pack: bool = False
    deal_reserve: int = 0
    deal_access: DealAccess = "all"
    exchange_mode: ExchangeMode = "none"
    exchange_cards: int = 1
    discard_recycle_every: int = 0
    score_points: ScorePoints = "off"
    score_figures: bool = False
    end_epaulettes: bool = False
    end_draw_allowed: bool = True
    end_repetition: int = 3
    end_idle_bouts: int = 50

    def __post_init__(self) -> None:
        for spec in _SPECS:
            value = getattr(self, spec.attr)
            if spec.choices is not None and value not in spec.choices:
                allowed = ", ".join(str(c) for c in spec.choices)
                raise RulesError(spec.key, f"{value!r} is not one of: {allowed}")
        for rank in self.trump_reject_indicator:
            if rank not in REJECTABLE:
                raise RulesError("trump.reject_indicator",
                                 f"{rank!r}: use any of {', '.join(REJECTABLE)}")
        for pattern in self.lead_patterns:
            if pattern not in LEAD_PATTERNS:
                raise RulesError("lead.patterns",
                                 f"{pattern!r}: use any of {', '.join(LEAD_PATTERNS)}")
        for text in self.beats_unbeatable:
            try:
                parse_card(text)
            except InvalidNotationError as exc:
                raise RulesError("beats.unbeatable", f"{text!r}: {exc.reason}") from None
        if self.end_instant_loss_cards < 0:
            raise RulesError("end.instant_loss_cards", "must be 0 (off) or a card count")
        for key, value in (("deal.hand_size", self.deal_hand_size), ("lead.max", self.lead_max),
                           ("throw_in.cap", self.throw_in_cap)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise RulesError(key, f"must be a positive whole number, not {value!r}")
        for key, value in (("deal.reserve", self.deal_reserve),
                           ("draw.target_cap", self.draw_target_cap)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise RulesError(key, f"must be 0 (off) or a positive number, not {value!r}")
        if self.throw_in_first_bout_cap < 0:
            raise RulesError("throw_in.first_bout_cap", "must be 0 (off) or a positive number")
        if self.players_min < 2:
            raise RulesError("players.min", "a game needs at least 2 players")
        if self.max_players < self.players_min:
            raise RulesError("players.max", f"the deck of {self.deck_size} cards with "
                             f"{self.deal_hand_size}-card hands cannot seat {self.players_min}")

    # --- derived facts -------------------------------------------------------------------

    @property
    def card_count(self) -> int:
        """Cards in the pack, specials and second deck included."""
        per_deck = self.deck_size + self.deck_jokers + self.deck_wild + int(self.deck_mega)
        return per_deck * self.deck_copies

    def deck(self) -> tuple[int, ...]:
        """The card codes of the pack these rules play with."""
        return build_deck(self.deck_size, jokers=self.deck_jokers, wild=self.deck_wild,
                          mega=self.deck_mega, copies=self.deck_copies)

    @property
    def max_players(self) -> int:
        """Most players: the explicit cap, and never more hands than the deck can deal."""
        by_deck = self.card_count // self.deal_hand_size
        if self.dummy_mode == "tossing":
            by_deck -= 1  # #56: the dummy's hand is dealt from the same pack
        return min(self.players_max, by_deck) if self.players_max else by_deck

    @property
    def low_rank(self) -> int:
        return STANDARD_LOW_RANK[self.deck_size]

    # The facts below combine options the same way for the engine's deal flags
    # (``bito.games.durak.setup``), the kernel's rule facts and the RL codec; written once here
    # so the three cannot drift apart.

    @property
    def lead_most(self) -> int:
        """Most cards of one rank a lead may hold under ``lead.shape`` (0: as many as
        ``lead.max`` allows); Rozaliev's pair-plus-one counts as a pair here (§1.4 B2)."""
        return _LEAD_MOST.get(self.lead_shape, 0)

    @property
    def first_bout_cap(self) -> int:
        """The attack cards allowed in a deal's first bout (#75), never above ``throw_in.cap``;
        0 when the first bout has no cap of its own."""
        first = self.throw_in_first_bout_cap
        return min(first, self.throw_in_cap) if first else 0

    @property
    def bout_extras(self) -> bool:
        """Whether any extra bout move of #39-51 is played: a second try, a stock-top attack,
        a swap, a self-covered throw, cunning or impudent throw-ins after a take, or a
        counter-throw. Without them the engine skips ``bout_extras`` and the codec numbers
        none of their moves."""
        return (self.defense_second_try != "off" or self.lead_stock_top != "off"
                or bool(self.defense_exchange) or self.defense_self_throw
                or self.throw_in_after_take_mode != "normal" or self.defense_counter)

    def options(self) -> dict[str, Any]:
        """Every option by its dotted key."""
        return {s.key: getattr(self, s.attr) for s in _SPECS}

    def changed_options(self) -> dict[str, Any]:
        """Only the options that differ from the base game's defaults."""
        base = Rules()
        return {k: v for k, v in self.options().items() if getattr(base, k.replace(".", "_")) != v}

    def with_options(self, **changes: Any) -> Rules:
        """A copy with some options changed; keys may be dotted (``**{"throw_in.by": ...}``) or
        attribute names. Unknown keys raise :class:`RulesError` naming the key."""
        updates: dict[str, Any] = {}
        for key, value in changes.items():
            spec = OPTION_SPECS.get(key) or OPTION_SPECS.get(key.replace("_", ".", 1))
            attr = key.replace(".", "_")
            if spec is None and attr not in _ATTRS:
                raise RulesError(key, "unknown option (see `bito variants --options`)")
            if (attr in ("trump_reject_indicator", "lead_patterns", "beats_unbeatable")
                    and isinstance(value, (list, str))):
                value = tuple(v.strip() for v in value.split(",") if v.strip()
                              ) if isinstance(value, str) else tuple(value)
            updates[attr] = _coerce(key, getattr(self, attr), value)
        return dataclasses.replace(self, **updates)


_ATTRS: Final = {f.name for f in dataclasses.fields(Rules)}


def _coerce(key: str, current: Any, value: Any) -> Any:
    """Bring a value from text or TOML to the option's type, or explain why not."""
    if isinstance(current, bool):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "yes", "on", "1"):
            return True
        if isinstance(value, str) and value.lower() in ("false", "no", "off", "0"):
            return False
        raise RulesError(key, f"expected true or false, not {value!r}")
    if isinstance(current, int):
        if isinstance(value, bool):
            raise RulesError(key, f"expected a whole number, not {value!r}")
        if isinstance(value, int):
            return value
        digits = value.strip() if isinstance(value, str) else ""
        # ASCII only and bounded: isdigit() accepts '²', which int() refuses, and int()
        # refuses more than 4300 digits; no option counts beyond 18 of them.
        if digits.isascii() and digits.isdigit() and len(digits) <= 18:
            return int(digits)
        if digits[:1] == "-" and digits[1:].isascii() and digits[1:].isdigit():
            spec = OPTION_SPECS.get(key)
            allowed = (": one of " + ", ".join(str(c) for c in spec.choices)
                       if spec is not None and spec.choices else "")
            raise RulesError(key, f"cannot be negative (got {digits}){allowed}")
        raise RulesError(key, f"expected a whole number, not {value!r}")
    if isinstance(current, tuple):
        if isinstance(value, tuple):
            return value
        if isinstance(value, str):
            return tuple(v for v in value.replace(" ", "").split(",") if v)
        raise RulesError(key, f"expected a list, not {value!r}")
    if not isinstance(value, str):
        raise RulesError(key, f"expected text, not {value!r}")
    return value


def last_rules_memo(fn: Callable[[Rules], T]) -> Callable[[Rules], T]:
    """``fn`` answered again without a call when asked about the very same ``Rules`` object
    as last time. A run of games deals under one object, and hashing a ``Rules`` (about a
    hundred fields) for an ``lru_cache`` costs as much as a tenth of a deal; an identity check
    costs nothing. ``fn`` itself may keep a hashed cache for the other objects."""
    last: list[Any] = [None, None]

    def memo(rules: Rules) -> T:
        if last[0] is rules:
            return last[1]  # type: ignore[no-any-return]
        answer = fn(rules)
        last[0] = rules
        last[1] = answer
        return answer

    memo.__doc__ = fn.__doc__
    return memo
