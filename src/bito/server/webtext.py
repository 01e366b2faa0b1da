"""The web app's words: every text its pages show and every error the server sends, by key.

The browser asks for its language's texts once (``GET /i18n/web.json``) and looks each one up
by key with ``t(key, fallback, params)`` (``static/js/i18n.js``); the English here is the
fallback and the catalogue's ``msgid``. The texts live in a gettext domain of their own,
``web`` (``locale/<lang>/LC_MESSAGES/web.po``), apart from the terminal's ``bito.po``: the
two change for different reasons and are edited by different people. ``tools/i18n.py
update`` reads this module's ``web_text("key", "English")`` calls (the key is the entry's
``msgctxt``, so one English word may be translated two ways).

The language of a request or a connection: the ``bito_lang`` cookie (the page's switch sets
it), else the best of the browser's ``Accept-Language`` that bito speaks, else English.

Errors: the server's refusals are English sentences written where they are raised (rooms,
engines, the notation). :func:`bito.server.refusals.error_words` gives each a stable ``code``
(for programs) and the sentence in the connection's language: a table of the server's own
sentences (a pattern per code, its fields carried over), the engines' refusals in a player's
words (:mod:`bito.server.refusals`; else the terminal's words for their rule,
:func:`bito.tui_words.refusal_words`), and anything else in English under a generic code.
"""

from __future__ import annotations

import gettext
import re
from functools import lru_cache
from typing import Any

from bito import i18n

DOMAIN = "web"
COOKIE = "bito_lang"
#: The languages the switch offers, each named in itself.
LANGUAGE_NAMES = {"en": "English", "ru": "Русский"}

TEXTS: dict[str, str] = {}


def web_text(key: str, english: str) -> str:
    """Registers one text (``tools/i18n.py`` reads these calls)."""
    TEXTS[key] = english
    return english


# --- every page --------------------------------------------------------------------------
web_text("page.tagline", "Durak and friends, in your browser")
web_text("page.language", "Language")
web_text("page.sound", "Sound")
web_text("page.sound_on", "Sound on")
web_text("page.sound_off", "Sound off")
web_text("page.main", "bito home")

# --- the lobby ---------------------------------------------------------------------------
web_text("lobby.title", "bito — play Durak with friends and bots")
web_text("lobby.new_table", "New table")
web_text("lobby.your_name", "Your name")
web_text("lobby.game", "Game")
web_text("lobby.house_rules", "House rules (optional)")
web_text("lobby.modifiers", "Extra rules for the chosen game, e.g.")
web_text("lobby.rules_file", "…or a house-rules file (TOML)")
web_text("lobby.rules_text", "House rules as TOML")
web_text("lobby.players", "Players")
web_text("lobby.deck", "Deck")
web_text("lobby.deck_own", "the game's own")
web_text("lobby.other_seats", "Other seats")
web_text("lobby.seat", "Seat {n}")
web_text("lobby.seat_open", "a friend (open seat)")
web_text("lobby.seat_bot", "bot: {bot}")
web_text("bot.easy", "easy")
web_text("bot.medium", "medium")
web_text("bot.strong", "strong")
web_text("bot.random", "random")
web_text("bot.heuristic", "heuristic")
web_text("bot.dmc", "search (DMC)")
web_text("bot.learned", "learned (neural network)")
web_text("bot.analysis", "analysis")
web_text("lobby.timer", "Move timer (seconds)")
web_text("lobby.public", "list it in the public lobby (otherwise only people with the link "
         "can join)")
web_text("lobby.create", "Create the table")
web_text("lobby.open_tables", "Open tables")
web_text("lobby.none", "none yet — create one")
web_text("lobby.table_line", "{game}, {players} players{deck}, {timer} s a move, host {host} — "
         "open seats: {open}")
web_text("lobby.table_deck", ", {n} cards")
web_text("lobby.none_fits", "none fits these filters")
web_text("lobby.no_house_rules", "no house rules")
# the plain toggles that write the house rules, the spectators' chat, quick match
web_text("lobby.options", "Table options")
web_text("lobby.opt_neighbours", "only the defender's neighbours may throw in")
web_text("lobby.opt_transfers", "Transfers")
web_text("lobby.opt_show_trump", "transfer by showing the trump of the attack rank")
web_text("lobby.opt_draws", "Draws")
web_text("lobby.as_game", "as the game has them")
web_text("lobby.on", "on")
web_text("lobby.off", "off")
web_text("lobby.allowed", "allowed")
web_text("lobby.not_allowed", "not allowed")
web_text("lobby.spec_preview", "These write the house rules for you:")
web_text("lobby.spec_none", "none (the game as the catalogue has it)")
web_text("lobby.spectator_chat", "Spectators' chat")
web_text("lobby.spectator_separate", "spectators talk among themselves")
web_text("lobby.quick_match", "Quick match: join a public table like this")
# the filters over the open tables
# "any" twice: Russian says it by the gender of what it qualifies (игра, колода, скорость:
# любая; игроки: сколько угодно)
web_text("filter.any", "any")
web_text("filter.any_players", "any")
web_text("filter.speed", "Speed")
web_text("filter.fast", "fast (15 s or less a move)")
web_text("filter.normal", "normal (16-45 s)")
web_text("filter.slow", "slow (over 45 s)")

# --- the table ---------------------------------------------------------------------------
web_text("table.title", "bito — table")
web_text("conn.connecting", "connecting…")
web_text("conn.connected", "connected")
web_text("conn.reconnecting", "reconnecting…")
web_text("join.join", "Join the table")
web_text("join.watch", "Just watch")
web_text("away.text", "A bot played for you after repeated timeouts.")
web_text("away.back", "I'm back")
web_text("table.hand", "your hand")
web_text("table.board", "the table")
web_text("table.actions", "your moves")
web_text("table.keys", "Click a card, or focus it and press Enter or Space, to play it (then "
         "the card to cover), or drag it to the table. Keys: arrows move in the hand, T take, "
         "P pass, Esc cancel.")
web_text("table.skip", "Skip to your hand")
web_text("lobby.play_now", "Play now")
web_text("lobby.play_bots", "Play against bots")
web_text("lobby.play_friends", "Play with friends (a link to share)")
web_text("lobby.quick_match_short", "Quick match")
web_text("board.last", "just played")
web_text("reaction.good", "good")
web_text("reaction.bad", "bad")
web_text("reaction.funny", "funny")
web_text("reaction.wow", "wow")
web_text("reaction.sad", "sad")
web_text("reaction.hot", "on fire")
web_text("reaction.well_played", "well played")
web_text("reaction.fool", "what a fool")
web_text("table.log", "Recent moves")
web_text("msg.not_connected", "Not connected — reconnecting…")
web_text("msg.choose_cover", "Now choose the card to cover (or transfer).")
web_text("msg.choose_cover_blind", "Now choose the card to cover.")
web_text("msg.cannot_take", "You cannot take now.")
web_text("msg.cannot_pass", "You cannot pass now.")
web_text("waiting.share", "Share this link with your friends:")
web_text("waiting.seat", "Seat {n}:")
web_text("waiting.open", "open")
web_text("waiting.ready_mark", "✔ ready")
web_text("waiting.not_ready", "… not ready")
web_text("waiting.bot_for", "bot for seat {n}")
web_text("waiting.open_for_friend", "open for a friend")
web_text("waiting.free", "Free this seat")
web_text("waiting.wait_others", "Waiting for the others…")
web_text("waiting.ready", "Ready")
web_text("status.waiting", "Waiting for every seat to be filled and ready.")
web_text("status.your_turn", "Your turn: {doing}.")
web_text("status.your_turn_for", "Your turn for {who}, whose hand is shown: {doing}.")
web_text("status.to_act", "{who} to act: {doing}.")
web_text("you.are", "You are {name} (seat {seat})")
web_text("you.watching", "You are watching")
web_text("download.full", "Download the full record")
web_text("download.mine", "Download my record")
web_text("download.replay", "Replay")
web_text("timer.left", "time left: {s} s")
web_text("log.timeout", "(time ran out)")
web_text("cover.target", "cover {card}")
# the clearer table: one's own seat, play order, taking, the game in words
web_text("table.you", "You")
web_text("table.your_turn", "your turn")
web_text("table.to_act", "to act")
web_text("table.order", "seats in order of play")
web_text("table.direction", "play goes round →")
web_text("table.takes", "{name} takes")
web_text("table.defender_takes", "the defender takes")
web_text("table.house_rules", "House rules")
web_text("table.no_house_rules", "No house rules: the game as the catalogue describes it.")
web_text("table.house_rule_value", "house rule: {value}")
web_text("pile.stock_empty", "stock: empty")
web_text("pile.discard_empty", "discard: empty")
web_text("pile.won", "played: {n}")
web_text("pile.won_empty", "played: none yet")
# a bot's display name (rooms.bot_name makes "Bot Vera (strong)"), said in the page's language
web_text("bot.display", "Bot {name} ({level})")
web_text("botname.Boris", "Boris")
web_text("botname.Vera", "Vera")
web_text("botname.Gleb", "Gleb")
web_text("botname.Nina", "Nina")
web_text("botname.Oleg", "Oleg")
web_text("botname.Lida", "Lida")
web_text("botname.Yuri", "Yuri")
web_text("botname.Zoya", "Zoya")
web_text("botname.Ilya", "Ilya")
web_text("botname.Masha", "Masha")
web_text("botname.Pasha", "Pasha")
web_text("botname.Dasha", "Dasha")
# the chat panel
web_text("chat.title", "Chat")
web_text("chat.log", "chat messages")
web_text("chat.input", "message to the table")
web_text("chat.placeholder", "Say something…")
web_text("chat.send", "Send")
web_text("chat.react", "react {emoji}")
web_text("chat.mute", "mute")
web_text("chat.unmute", "unmute")
web_text("chat.mute_who", "mute or unmute {name}")
web_text("chat.spectator", "spectator")
web_text("chat.spectators_off", "The host switched the spectators' chat off.")
web_text("chat.spectators_separate", "Spectators talk among themselves; the players do not "
         "see it.")
# between the deals: the end screen, the match score; the offline overlay
web_text("end.over", "Game over.")
web_text("end.you_won", "You won!")
web_text("end.you_lost", "You lost.")
web_text("end.you_fool", "You lost: you are the fool.")
web_text("end.team_lost", "The team of {names} lost.")
web_text("end.rematch", "Rematch")
web_text("end.waiting", "Waiting for the others…")
web_text("end.leave", "Leave the table")
web_text("end.agreed", "agreed: {names}")
web_text("end.waiting_for", "waiting for: {names}")
web_text("end.declined", "left: {names}")
web_text("end.no_rematch", "No rematch: somebody left. Start a new table from the lobby.")
web_text("end.replay", "Replay this game")
web_text("end.lobby", "Back to the lobby")
web_text("match.score", "Deal {deal} · times the fool: {fools}")
web_text("match.draws", "draws {n}")
web_text("offline.title", "Connection lost — reconnecting…")
web_text("offline.seat", "Your seat is kept; the table comes back as soon as the connection "
         "does.")
web_text("offline.clock", "The move clock keeps running on the server. If your time runs out, "
         "the server moves for you: a defender takes, a thrower passes, an attacker gets a "
         "bot's move.")

# --- the board (board.js, cards.js) ----------------------------------------------------
web_text("action.cover", "cover {target} with {cards}")
web_text("action.transfer", "transfer with {cards}")
web_text("action.take", "take the cards")
web_text("action.pass", "pass (bito)")
web_text("action.play", "play {cards}")
web_text("action.blind_cover", "cover {target} with #{position}")
web_text("action.blind_transfer", "transfer with #{position}")
web_text("action.blind_play", "play #{position}")
web_text("action.blind_illegal", "illegal, takes the bout")
web_text("action.blind_position", "play the card at position {n}")
web_text("presence.away", "bot playing")
web_text("presence.offline", "offline")
web_text("seat.default", "seat {n}")
web_text("outcome.draw", "A draw: nobody is the fool.")
web_text("outcome.over", "Game over.")
web_text("outcome.fool", "{name} is the fool (дурак).")
# A count's forms, chosen in the browser by Intl.PluralRules (English: one, other; Russian:
# one, few, many): every form is listed in every language.
web_text("board.count.one", "{n} card")
web_text("board.count.few", "{n} cards")
web_text("board.count.many", "{n} cards")
web_text("board.count.other", "{n} cards")
web_text("board.known", "known to all")

# --- the table model's words: any family's zones, seats, moves and rules of play ----------
# A model's fixed phrase is found by its first five words (static/js/board.js, modelKey).
web_text("status.your_turn_plain", "Your turn.")
web_text("status.to_act_plain", "{who} to act.")
web_text("status.doing", "{who} {doing}.")
web_text("msg.choose_move", "Now choose how to play it: {moves}.")
web_text("action.pass_turn", "pass")
web_text("action.draw", "draw a card")
web_text("action.doubt", "doubt the claim")
web_text("action.believe", "believe the claim")
web_text("action.put_down_hidden.one", "put down {n} card face down")
web_text("action.put_down_hidden.few", "put down {n} cards face down")
web_text("action.put_down_hidden.many", "put down {n} cards face down")
web_text("action.put_down_hidden.other", "put down {n} cards face down")
web_text("action.claim", "end your claim")
web_text("action.sound", "make your animal's sound")
web_text("action.laugh", "laugh")
web_text("action.turn", "turn up the top card of the stock")
web_text("action.play_call", "play {cards} and call {suit}")
web_text("action.put_down", "put down {cards}")
# the kinds of move Durak's house rules add
web_text("action.show_trump", "transfer by showing {cards}")
web_text("action.trump_swap", "swap the trump card under the stock for {cards}")
web_text("action.give", "give {cards} for the joker")
web_text("action.block", "cancel the gift showing {cards}")
web_text("action.believe_covers", "believe the covers")
web_text("action.toss", "throw in {cards} from the dummy")
web_text("action.try", "second try: draw the top card of the stock")
web_text("action.stock", "attack with the top card of the stock")
web_text("action.swap", "swap {cards} with the stock")
web_text("action.exchange", "pass {cards} to the left")
web_text("action.pair", "lay {target} and cover it yourself with {cards}")
web_text("action.own_cover", "cover your own {target} with {cards} (the taker gets both)")
web_text("action.counter", "cover {target} with {first} and counter-attack with {rest}")
web_text("role.claims", "claims")
web_text("role.sits_out", "sits out")
web_text("board.score", "score {n}")
web_text("board.called_suit", "called suit: {suit}")
web_text("board.rules", "How this game is played")
web_text("card.wild_one", "wild 1")
web_text("colour.green", "green {n}")
web_text("colour.red", "red {n}")
web_text("colour.yellow", "yellow {n}")
web_text("colour.blue", "blue {n}")
web_text("colour_name.green", "green")
web_text("colour_name.red", "red")
web_text("colour_name.yellow", "yellow")
web_text("colour_name.blue", "blue")
web_text("zone.pile", "pile")
web_text("zone.claim", "claim")
web_text("zone.trick", "trick")
web_text("zone.centre", "centre")
web_text("zone.won", "played")
web_text("zone.dummy", "dummy's hand")
web_text("zone.table", "table")
web_text("zone.count.one", "{zone}: {n} card")
web_text("zone.count.few", "{zone}: {n} cards")
web_text("zone.count.many", "{zone}: {n} cards")
web_text("zone.count.other", "{zone}: {n} cards")
web_text("zone.claims", "claims {n} × {rank}")
web_text("zone.due", "{rank} due")
web_text("zone.led", "{colour} was led")
web_text("doing.follow_colour", "follows {colour} if he can")
web_text("doing.animal_due", "plays a {rank} or makes the animal's sound")
web_text("doing.cheat_claim", "puts down 1 to 4 cards face down, claiming {rank}")
web_text("seat.animal", "the {animal} ({sound})")
web_text("seat.plus_tens", "+10 rounds: {n}")
web_text("model.dummy", "dummy")
web_text("model.face_down", "face down")
web_text("model.a_new_sequence", "a new sequence")
web_text("model.plays_the_card_just_drawn", "plays the card just drawn or passes")
web_text("model.follows_the_ace", "follows the ace")
web_text("model.plays_a_card_of_the", "plays a card of the top card's suit or rank, or draws")
web_text("model.plays_any_card_the_pile", "plays any card (the pile calls for no rank)")
web_text("model.plays_a_card_one_rank",
         "plays a card one rank above or below the top card, or draws")
web_text("model.laughs_or_keeps_a_straight", "laughs or keeps a straight face")
web_text("model.starts_a_new_sequence", "starts a new sequence")
web_text("model.doubts_the_claim_or_believes", "doubts the claim or believes it")
web_text("model.leads_a_card", "leads a card")
web_text("model.leads_an_attack", "leads an attack")
web_text("model.covers_or_takes", "covers or takes")
web_text("model.throws_in_or_passes", "throws in or passes")
web_text("model.covers_the_card_led_or", "covers the card led or takes")
web_text("model.beats_the_top_card_or", "beats the top card or turns the stock")
web_text("model.turns_the_next_card_of", "turns the next card of the stock")
web_text("model.plays", "plays")
web_text("model.an_ace_makes_the_next", "an ace makes the next player miss a turn")
web_text("model.cards_left_in_hand_at",
         "cards left in hand at the end of a round are penalty points: the highest total after the "
         "last round is the fool")
web_text("model.keep_playing_while_a_card",
         "keep playing while a card fits; the last player holding cards is the fool")
web_text("model.each_player_must_put_down",
         "each player must put down the next rank, 6 to ace and round again; without it he makes "
         "his animal's sound")
web_text("model.the_claim_is_always_the",
         "the claim is always the rank due; the cards may be any: a liar, or a wrong doubter, takes"
         " the pile")
web_text("model.the_highest_card_of_the", "the highest card of the lead colour wins the trick")
web_text("model.the_lowest_card_played_takes",
         "the lowest card played takes the Fool disc: its holder sits out the next trick")
web_text("model.a_defender_who_gives_up",
         "a defender who gives up takes only the first card played at him; the rest of the table is"
         " discarded and he misses his turn to attack")
web_text("model.once_a_card_is_covered",
         "once a card is covered with the 9♦, nobody may throw in any more this bout")
web_text("model.nobody_draws_an_empty_hand",
         "nobody draws: an empty hand at the end of a bout is out")
web_text("model.cover_the_card_led_at",
         "cover the card led at you, then lead one of your own to your left neighbour; covered "
         "cards pile up in the centre, and a player who cannot cover takes the heap")
web_text("model.cover_the_top_card_of",
         "cover the top card of the chain; a player who fails takes the chain's bottom card")
web_text("model.beat_the_top_card_of",
         "beat the top card of the centre from your hand or by turning the top card of the stock")
web_text("model.the_first_phase_is_played",
         "the first phase is played trick by trick; its cards make the hands of the Durak game that"
         " follows")
# Durak's table as its model words it: what the seat to act does, the seats' and zones' notes
web_text("model.covers_transfers_or_takes", "covers, transfers or takes")
web_text("model.hands_over_a_card_for", "hands over a card for the joker")
web_text("model.believes_or_doubts_the_face", "believes or doubts the face-down covers")
web_text("model.chooses_the_cards_to_pass", "chooses the cards to pass on")
web_text("model.held_face_out", "held face out")
web_text("model.its_controller_throws_in_from", "its controller throws in from it")
web_text("model.partners_do_not_attack_each",
         "partners do not attack each other; a team loses when one of its players is the fool")
web_text("seat.figures", "figures {n}")
web_text("seat.reserve", "+ {n} face down")
web_text("board.played_by", "played by {name}")
web_text("seat.dummy_name", "Dummy")
web_text("board.face_down_cover", "covered face down")
web_text("zone.counter", "counter-attack")
# rules of play whose words carry a value of the game's options (Mau-Mau's wild and draw ranks)
web_text("model.wild_rank", "{ranks} are wild: play one on anything and call a suit")
web_text("model.draw_ranks", "a {ranks} makes the next player draw")
web_text("word.or", "or")
web_text("ranks.J", "jacks")
web_text("ranks.Q", "queens")
web_text("ranks.K", "kings")
web_text("ranks.A", "aces")
web_text("ranks.n", "{n}s")
web_text("animal.cat", "cat")
web_text("sound.cat", "Miaow!")
web_text("animal.donkey", "donkey")
web_text("sound.donkey", "Hee-haw!")
web_text("animal.wolf", "wolf")
web_text("sound.wolf", "Aooo!")
web_text("animal.horse", "horse")
web_text("sound.horse", "Neigh!")
web_text("animal.goat", "goat")
web_text("sound.goat", "Meh-eh-eh!")
web_text("animal.cow", "cow")
web_text("sound.cow", "Moo!")
web_text("animal.rooster", "rooster")
web_text("sound.rooster", "Cock-a-doodle-doo!")
web_text("animal.dog", "dog")
web_text("sound.dog", "Woof!")
web_text("animal.pig", "pig")
web_text("sound.pig", "Oink!")
web_text("animal.duck", "duck")
web_text("sound.duck", "Quack!")
web_text("animal.frog", "frog")
web_text("sound.frog", "Ribbit!")
web_text("animal.sheep", "sheep")
web_text("sound.sheep", "Baa!")
web_text("animal.owl", "owl")
web_text("sound.owl", "Hoo-hoo!")
web_text("board.trump_card", "trump card")
web_text("board.trump", "trump")
web_text("board.empty_table", "table")
web_text("pile.stock", "stock: {n}")
web_text("pile.discard", "discard: {n}")
web_text("role.attacker", "attacker")
web_text("role.defender", "defender")
web_text("role.out", "out")
web_text("doing.lead", "lead an attack")
web_text("doing.defend", "cover, transfer or take")
web_text("doing.throw", "throw in or pass")
web_text("doing.cover_or_take", "cover or take")
web_text("card.name", "{rank} of {suit}")
web_text("card.trump", "{card}, trump")
web_text("card.hidden", "a hidden card")
web_text("rank.2", "2")
web_text("rank.3", "3")
web_text("rank.4", "4")
web_text("rank.5", "5")
web_text("rank.6", "6")
web_text("rank.7", "7")
web_text("rank.8", "8")
web_text("rank.9", "9")
web_text("rank.10", "10")
web_text("rank.J", "jack")
web_text("rank.Q", "queen")
web_text("rank.K", "king")
web_text("rank.A", "ace")
web_text("suit.c", "clubs")
web_text("suit.d", "diamonds")
web_text("suit.h", "hearts")
web_text("suit.s", "spades")
web_text("card.RJ", "red joker")
web_text("card.BJ", "black joker")
web_text("card.W", "wild card {n}")
web_text("card.MC", "mega card")

# --- the replay --------------------------------------------------------------------------
web_text("replay.title", "bito — replay")
web_text("replay.word", "replay")
web_text("replay.first", "first move")
web_text("replay.previous", "previous move")
web_text("replay.next", "next move")
web_text("replay.last", "last move")
web_text("replay.step", "move")
web_text("replay.deal", "the deal")

# the game review on the replay page (review.js, issue 36)
web_text("review.open", "Review this game")
web_text("review.making", "Making the review… (a few seconds)")
web_text("review.graph", "Your chance of not being the fool over the game")
web_text("review.accuracy", "{name}: accuracy {accuracy}%")
web_text("review.turning", "turning point: move {n}")
web_text("review.no_turning", "no mistake or blunder")
web_text("review.not_reviewed", "Not one of your decisions (or a forced move): not reviewed.")
web_text("review.better", "Better: {move}")
web_text("review.cat.best", "best")
web_text("review.cat.good", "good")
web_text("review.cat.inaccuracy", "inaccuracy")
web_text("review.cat.mistake", "mistake")
web_text("review.cat.blunder", "blunder")
web_text("review.why.choice", "the analysis level's choice ({chance} not the fool)")
web_text("review.why.as_good", "as good as {best} ({chance} not the fool)")
web_text("review.why.noise", "{best} scores a little more, within the sample's noise")
web_text("review.why.gives_up", "{best} does as well in the sample, and {why}")
web_text("review.why.kept_won", "keeps the won ending (proven)")
web_text("review.why.kept_draw", "keeps the drawn ending (proven)")
web_text("review.why.lost", "the ending is lost against best play whatever is played (proven)")
web_text("review.why.won_thrown", "a won ending thrown away: {best} wins by force")
web_text("review.why.draw_thrown", "a drawn ending thrown away: {best} draws by force")
web_text("review.why.worse", "{best}: {best_chance} not the fool; {played}: {played_chance}")
web_text("review.gives.no_need_to_take", "there is no need to take")
web_text("review.gives.the_bout_ends_in_a_take_anyway_so_covering_first_would_only_show_a_card",
         "the bout ends in a take anyway, so covering first only shows a card")
web_text("review.gives.keeps_the_card", "it keeps the card")
web_text("review.gives.keeps_a_trump", "it keeps a trump")
web_text("review.gives.sheds_more_cards_at_once", "it sheds more cards at once")
web_text("review.gives.keeps_the_higher_trump", "it keeps the higher trump")
web_text("review.gives.keeps_the_higher_card", "it keeps the higher card")

# --- accounts, the leaderboard and profiles (static/people.html, js/account.js) ----------
web_text("account.page_title", "bito — your account")
web_text("account.title", "Your account")
web_text("account.hello", "Logged in as {name}")
web_text("account.profile", "Your ratings and games")
web_text("account.seats", "Tables you sit at while logged in follow you: open the table's "
         "link on any device where you are logged in.")
web_text("account.logout", "Log out")
web_text("account.username", "Username")
web_text("account.password", "Password")
web_text("account.login", "Log in")
web_text("account.register", "Sign up")
web_text("account.optional", "Optional: guests play with one click. An account keeps your "
         "seat on every device and gives you a rating.")
web_text("account.rules", "Username: 3 to 20 letters, digits, _ or -. Password: at least 8 "
         "characters.")
web_text("account.leaderboard", "Leaderboard")
web_text("account.change_title", "Change your password")
web_text("account.current", "Current password")
web_text("account.new", "New password (at least 8 characters)")
web_text("account.change", "Change password")
web_text("account.password_changed", "Password changed. Every other device is signed out.")
web_text("account.everywhere_title", "Signed in elsewhere?")
web_text("account.everywhere_explain", "Sign out on every device, this one too. Your seats "
         "stay yours: log in again to take them.")
web_text("account.everywhere", "Sign out everywhere")
web_text("account.delete_title", "Delete your account")
web_text("account.delete_explain", "Your ratings and profile are deleted and your name is "
         "free for others. Seats you hold become guest seats on the devices that have them. "
         "Past games keep your name as it was played: their records and replays are what "
         "happened at those tables.")
web_text("account.delete_password", "Your password, to confirm")
web_text("account.delete", "Delete account {name}")
web_text("leaders.shown", "{family}: {n} rated")
web_text("people.title", "bito — players")
web_text("account.corner", "Account")
web_text("leaders.page_title", "bito — leaderboard")
web_text("leaders.title", "Leaderboard")
web_text("leaders.player", "Player")
web_text("leaders.place", "Place")
web_text("leaders.family", "Game family")
web_text("leaders.rating", "Rating")
web_text("leaders.mu_sigma", "μ ± σ")
web_text("leaders.games", "Games")
web_text("leaders.bot", "Bot ({level})")
web_text("leaders.explain", "Rating = μ − 3σ (openskill): it grows as you win and as the "
         "system grows sure of you. Bots sit on the same scale.")
web_text("family.durak", "Durak")
web_text("family.shedding", "shedding games")
web_text("family.tricks", "trick games")
web_text("family.social", "party games")
web_text("family.bouts", "bout games")
web_text("profile.page_title", "bito — {name}")
web_text("profile.ratings", "Ratings of {name}")
web_text("profile.fool", "the fool")
web_text("profile.draw", "a draw")
web_text("profile.won", "not the fool")
web_text("profile.change", "{change} μ")
web_text("profile.none", "No rated games yet.")
web_text("profile.recent", "Recent games")
web_text("profile.nogames", "None yet.")
web_text("move.button", "Continue on another device")
web_text("move.region", "Your seat on another device")
web_text("move.explain", "Open this on your other device within {s} s. It works once, for "
         "your seat only; this page then only watches.")
web_text("move.link", "your personal link")
web_text("move.qr", "QR code of the link")
web_text("move.invalid", "This link does not work any more.")

# --- errors the server sends (code -> text; the fields come from the English sentence) ---
web_text("error.generic", "{message}")
web_text("error.illegal", "{message}")
web_text("error.notation", "that is not a move bito can read: {text}")
web_text("error.not_your_turn", "it is not your turn: {who} is to move")
web_text("error.not_started", "the game has not started yet: press Ready")
web_text("error.game_over", "the game is over")
web_text("error.spectator", "spectators can only watch: join the table to play")
web_text("error.no_table", "no table {table}")
web_text("error.started_watch", "this game has started; you can watch it")
web_text("error.table_full", "the table is full; you can watch it")
web_text("error.already_started", "the game has already started")
web_text("error.host_only", "only the host (seat 0) may do that")
web_text("error.name", "name: give 1 to 24 printable characters")
web_text("error.players", "players: {players} is not between 2 and {most}")
web_text("error.timer", "timer: choose between 5 and 600 seconds")
web_text("error.token", "this seat token is not valid at this table")
web_text("error.flood", "more than {n} messages a second; reconnect to go on")
web_text("error.too_many_tables", "too many new tables from this address: at most {limit} "
         "an hour; try again in {wait} s")
web_text("error.not_legal", "that move is not possible now")
web_text("error.body", "the request body must be a JSON object")
web_text("error.server", "server error: {kind}")
web_text("error.kicked", "the host freed your seat: you did not press Ready in time; you are "
         "watching now")
# several processes on one database (issue 18): another process was quicker, or the
# database is not answering for now
web_text("error.moved_on", "the table moved on meanwhile: look again and choose")
web_text("error.filled_up", "the table filled up meanwhile; you can watch it")
web_text("error.db_unavailable", "the database is not answering for now; nothing was lost: "
         "try again in a moment")
web_text("error.shutting_down", "the server is shutting down: reconnect in a moment")
web_text("error.no_table_fits", "no table fits and too many new tables from this address: try "
         "again in {wait} s")
# chat refusals (chat.ChatError; the frame's code is "chat", these name the sentence)
web_text("error.chat_reaction", "reaction: one of {reactions}")
web_text("error.chat_text_missing", "\"chat\" needs \"text\" (up to {most} characters) or "
         "\"reaction\"")
web_text("error.chat_empty", "text: the message is empty")
web_text("error.chat_too_long", "text: at most {most} characters ({sent} sent)")
web_text("error.chat_control", "text: control characters are not allowed")
web_text("error.chat_rate", "chat: at most {count} messages in {window} seconds; wait {wait} s")
web_text("error.chat_spectators_off", "the host switched the spectators' chat off at this table")
# rematch refusals (rematch.answer)
web_text("error.rematch_not_over", "a rematch can be agreed only once the game is over")
web_text("error.rematch_started", "the rematch has started: {link}")
web_text("error.rematch_not_person", "seat {seat} is not a person's")

# the accounts' refusals (bito.server.accounts.AccountError; HTTP answers name the field)
web_text("error.username_text", "username: expected a text")
web_text("error.username_shape", "username: 3 to 20 characters, letters, digits, _ or -")
web_text("error.username_taken", "username: {name} is taken")
web_text("error.password_text", "password: expected a text")
web_text("error.password_short", "password: at least {n} characters")
web_text("error.password_long", "password: at most {n} characters")
web_text("error.password_easy", "password: too easy to guess (not the username, a common "
         "password or one repeated character)")
web_text("error.login_texts", "username and password: expected texts")
web_text("error.login_wrong", "wrong username or password")
web_text("error.login_limit_username", "too many failed logins for this username; try again "
         "in {wait} s")
web_text("error.login_limit_address", "too many failed logins from this address; try again "
         "in {wait} s")
web_text("error.too_many_accounts", "too many new accounts from this address; try again in "
         "{wait} s")
web_text("error.too_many_probes", "too many names looked up from this address; try again in "
         "{wait} s")
web_text("error.password_wrong", "{field}: wrong password")
web_text("error.field_text", "{field}: expected a text")
web_text("error.claim_login", "log in to take your seat on this device")
web_text("error.claim_no_seat", "your account has no seat at this table")
web_text("error.own_login", "log in first")
web_text("error.seat_token_header", "send your seat's token in the {header} header")
web_text("error.too_many_links", "too many links waiting; try again in a minute")
web_text("error.ticket_missing", "ticket: expected the text after #continue= in the link")
web_text("error.ticket_invalid", "this link is not valid (used already, expired, or for "
         "another table)")
web_text("error.ticket_moved", "this link is not valid any more: the seat has moved since")
web_text("error.family", "family: not a game family (one of {families})")
web_text("error.no_player", "no player {name}")
web_text("error.moved", "your seat now continues on another device; this page watches from "
         "here on (open the table there, or log in here again to take it back)")

# malformed messages (the frame's code stays "message"; these name the field and the problem)
web_text("message.binary", "send JSON text frames, not binary ones")
web_text("message.too_long", "message too long ({sent} characters; at most {most})")
web_text("message.whole", "the message")
web_text("message.deep", "{path}: nested too deeply (a message is a flat JSON object)")
web_text("message.json", "not valid JSON at column {column}")
web_text("message.surrogate", "{path}: not valid text (a lone surrogate)")
web_text("message.key", "{path}: a key is not valid text (a lone surrogate)")
web_text("message.object", "a message is a JSON object with a \"type\"")
web_text("message.type_text", "field \"type\": expected a text (one of {known})")
web_text("message.type_unknown", "unknown message type {shown} (known: {known})")
web_text("message.action", "field \"action\": \"act\" needs the move in notation, e.g. \"7d\"")
web_text("message.seat", "field \"seat\": \"{kind}\" needs a seat number")
web_text("message.bot", "field \"bot\": a bot name, or null to open the seat")
web_text("message.agree", "field \"agree\": true (play the next deal) or false (leave)")

# an engine's refusal in a player's words (refusals.py): what is wrong and, where it helps,
# what to do instead; {card} and {target} are cards in words ("jack of clubs", "валет треф"),
# {target} in the form a sentence's object takes (Russian: семёрку, валета)
web_text("refuse.beat", "the {card} does not beat the {target}: play a higher {suit} or a "
         "trump")
web_text("refuse.beat_no_trumps", "the {card} does not beat the {target}: play a higher "
         "{suit}")
web_text("refuse.beat_trump", "the {card} does not beat the {target}: only a higher trump "
         "beats a trump")
web_text("refuse.beat_plain", "the {card} does not beat the {target}")
web_text("refuse.beat_need_trump", "the {card} does not beat the {target}: only a trump beats "
         "it")
web_text("refuse.not_in_hand", "the {card} is not in your hand")
web_text("refuse.not_in_hand_plain", "that card is not in your hand")
web_text("refuse.game_over", "the game is over")
web_text("refuse.take_not_now", "you cannot take now: the defender takes, and only while "
         "cards lie uncovered")
web_text("refuse.nothing_to_take", "there is nothing to take")
web_text("refuse.pass_lead", "you open the bout: play a card, you cannot pass")
web_text("refuse.pass_defend", "you are defending: cover the cards or take them; only the "
         "attackers say bito")
web_text("refuse.nothing_to_cover", "there is nothing to cover now")
web_text("refuse.target_gone", "that card is not on the table: the {target}")
web_text("refuse.target_covered", "the {target} is already covered: choose an uncovered card")
web_text("refuse.wait_defender", "wait: the defender covers or takes before anyone throws in "
         "more")
web_text("refuse.throw_rank", "the {card} cannot be thrown in: only cards of a rank already "
         "on the table can")
web_text("refuse.throw_rank_named", "the {card} cannot be thrown in: you may throw in only a rank "
         "already on the table: {ranks}")
web_text("refuse.throw_full", "no more cards can be thrown in: the defender has no cards left "
         "to cover them")
web_text("refuse.bout_full", "the table is full: no more cards go into this bout")
web_text("refuse.lead_too_many", "too many cards at once: the defender could not cover them "
         "all, lead fewer")
web_text("refuse.lead_shape", "this game does not allow that lead")
web_text("refuse.no_throw_in", "this game has no throw-ins")
web_text("refuse.one_at_a_time", "throw in one card at a time")
web_text("refuse.transfer_none", "this game has no transfers")
web_text("refuse.transfer_late", "you can transfer only before you cover anything")
web_text("refuse.transfer_nothing", "there is nothing to transfer: every card on the table is "
         "covered")
web_text("refuse.transfer_rank", "to transfer, play a card of the same rank as the cards on "
         "the table")
web_text("refuse.transfer_mixed", "the cards on the table are not all of one rank, so they "
         "cannot be transferred")
web_text("refuse.transfer_first", "no transfers in the first bout of the first game")
web_text("refuse.transfer_trump_on_table", "you cannot transfer while a trump lies on the "
         "table")
web_text("refuse.transfer_nobody", "you cannot transfer: nobody else is left in play to take "
         "the attack")
web_text("refuse.transfer_under_fool", "no transfers in the first bout when it is led at the "
         "last game's fool")
web_text("refuse.transfer_special", "that card cannot be used to transfer")
web_text("refuse.transfer_not_now", "you cannot transfer now")
web_text("refuse.transfer_limit", "you cannot transfer: the next defender would not have "
         "cards enough to cover them all")
web_text("refuse.not_possible", "that move is not possible now")
# cards in words for those sentences: the rank as a word, the rank as a sentence's object,
# and one card of a suit as an object ("a higher diamond", "бубну старше")
web_text("said.rank.2", "two")
web_text("said.rank.3", "three")
web_text("said.rank.4", "four")
web_text("said.rank.5", "five")
web_text("said.rank.6", "six")
web_text("said.rank.7", "seven")
web_text("said.rank.8", "eight")
web_text("said.rank.9", "nine")
web_text("said.rank.10", "ten")
web_text("said.rank.J", "jack")
web_text("said.rank.Q", "queen")
web_text("said.rank.K", "king")
web_text("said.rank.A", "ace")
web_text("said.rank_object.2", "two")
web_text("said.rank_object.3", "three")
web_text("said.rank_object.4", "four")
web_text("said.rank_object.5", "five")
web_text("said.rank_object.6", "six")
web_text("said.rank_object.7", "seven")
web_text("said.rank_object.8", "eight")
web_text("said.rank_object.9", "nine")
web_text("said.rank_object.10", "ten")
web_text("said.rank_object.J", "jack")
web_text("said.rank_object.Q", "queen")
web_text("said.rank_object.K", "king")
web_text("said.rank_object.A", "ace")
web_text("said.suit_one.c", "club")
web_text("said.suit_one.d", "diamond")
web_text("said.suit_one.h", "heart")
web_text("said.suit_one.s", "spade")

#: The server's own sentences: (code, pattern); the code's text is ``error.<code>``, filled
#: with the pattern's named groups. The first match wins; none: ``generic``, in English.
ERRORS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (code, re.compile(pattern)) for code, pattern in (
        ("not_your_turn", r"not your turn: (?P<who>.*) \(seat (?P<seat>\d+)\) is to act"),
        ("not_started", r"the game has not started( yet)?"),
        ("game_over", r"the game is over"),
        ("spectator", r"spectators can only watch"),
        ("no_table_fits", r"no table fits and too many new tables from this address: try again "
                          r"in (?P<wait>\d+) s"),
        ("no_table", r"no table (?P<table>.*)"),
        ("started_watch", r"this game has started; you can watch it"),
        ("table_full", r"the table is full"),
        ("already_started", r"the game has already started"),
        ("host_only", r"only the host \(seat 0\) may"),
        ("name", r"name: give 1 to 24 printable characters"),
        ("players", r"players: (?P<players>\d+) is not between 2 and (?P<most>\d+)"),
        ("timer", r"timer: choose between 5 and 600 seconds"),
        ("token", r"this seat token is not valid"),
        ("flood", r"more than (?P<n>\d+) messages a second"),
        ("too_many_tables", r"too many new tables from this address: at most (?P<limit>\d+) "
                            r"an hour; try again in (?P<wait>\d+) s"),
        ("not_legal", r"(?P<move>'[^']*') is not a legal move now"),
        ("body", r"the request body must be a JSON object"),
        ("server", r"server error: (?P<kind>\w+)"),
        ("kicked", r"the host freed your seat"),
        ("moved_on", r"the table moved on meanwhile"),
        ("filled_up", r"the table filled up meanwhile"),
        ("db_unavailable", r"the database is not answering"),
        ("shutting_down", r"the server is shutting down"),
        ("chat_reaction", r"reaction: one of (?P<reactions>.*)"),
        ("chat_text_missing", r'"chat" needs "text" \(up to (?P<most>\d+) characters\) or '
                              r'"reaction"'),
        ("chat_empty", r"text: the message is empty"),
        ("chat_too_long", r"text: at most (?P<most>\d+) characters \((?P<sent>\d+) sent\)"),
        ("chat_control", r"text: control characters are not allowed"),
        ("chat_rate", r"chat: at most (?P<count>\d+) messages in (?P<window>\d+) seconds; "
                      r"wait (?P<wait>\d+) s"),
        ("chat_spectators_off", r"the host switched the spectators' chat off"),
        ("username_text", r"username: expected a text"),
        ("username_shape", r"username: 3 to 20 characters"),
        ("username_taken", r"username: (?P<name>.*) is taken"),
        ("password_text", r"password: expected a text"),
        ("password_short", r"password: at least (?P<n>\d+) characters"),
        ("password_long", r"password: at most (?P<n>\d+) characters"),
        ("password_easy", r"password: too easy to guess"),
        ("login_texts", r"username and password: expected texts"),
        ("login_wrong", r"wrong username or password"),
        ("login_limit_username", r"too many failed logins for this username; try again in "
                                 r"(?P<wait>\d+) s"),
        ("login_limit_address", r"too many failed logins (for|from) this address; try again "
                                r"in (?P<wait>\d+) s"),
        ("too_many_accounts", r"too many new accounts from this address; try again in "
                              r"(?P<wait>\d+) s"),
        ("too_many_probes", r"too many names looked up from this address; try again in "
                            r"(?P<wait>\d+) s"),
        ("password_wrong", r"(?P<field>current|password): wrong password"),
        ("field_text", r"(?P<field>current): expected a text"),
        ("claim_login", r"log in to take your seat on this device"),
        ("claim_no_seat", r"your account has no seat at this table"),
        ("own_login", r"log in first"),
        ("seat_token_header", r"send your seat's token in the (?P<header>\S+) header"),
        ("too_many_links", r"too many links waiting"),
        ("ticket_missing", r"ticket: expected the text after #continue="),
        ("ticket_moved", r"this link is not valid any more: the seat has moved since"),
        ("ticket_invalid", r"this link is not valid"),
        ("family", r"family: not a game family \(one of (?P<families>[^)]*)\)"),
        ("no_player", r"no player (?P<name>.*)"),
        ("moved", r"your seat now continues on another device"),
        ("rematch_not_over", r"a rematch can be agreed only once the game is over"),
        ("rematch_started", r"the rematch has started: (?P<link>\S+)"),
        ("rematch_not_person", r"seat (?P<seat>\d+) is not a person's"),
    ))


#: The sentences of a malformed message's refusal (app's ``MessageError``): (key, pattern);
#: the frame's code stays ``message`` (the shape is the client program's fault), but the
#: person reading the page still gets the field and the problem in his language.
MESSAGE_ERRORS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (key, re.compile(pattern)) for key, pattern in (
        ("binary", r"send JSON text frames"),
        ("too_long", r"message too long \((?P<sent>\d+) characters; at most (?P<most>\d+)\)"),
        ("deep", r"(?P<path>.*): nested too deeply"),
        ("json", r"not valid JSON: .* at column (?P<column>\d+)"),
        ("key", r"(?P<path>.*): a key is not valid text"),
        ("surrogate", r"(?P<path>.*): not valid text"),
        ("object", r'a message is a JSON object with a "type"'),
        ("type_text", r'"type": expected a text \(one of (?P<known>[^)]*)\)'),
        ("type_unknown", r"unknown message type (?P<shown>.*) \(known: (?P<known>[^)]*)\)"),
        ("action", r'"act" needs "action"'),
        ("seat", r'"(?P<kind>\w+)" needs "seat"'),
        ("bot", r'"bot" needs "bot"'),
        ("agree", r'"rematch" needs "agree"'),
    ))


def message_words(sentence: str, lang: str) -> str:
    """A malformed message's refusal in ``lang``: English word for word (it may say more,
    such as the JSON parser's own words); otherwise the catalogue's sentence when the
    pattern is known, else the English one."""
    if lang == i18n.DEFAULT:
        return sentence
    for key, pattern in MESSAGE_ERRORS:
        match = pattern.match(sentence)
        if match:
            fields = match.groupdict()
            if fields.get("path") in ("the message", "a message"):
                fields["path"] = text(lang, "message.whole")
            return text(lang, f"message.{key}", **fields)
    return sentence


@lru_cache(maxsize=len(i18n.LANGUAGES) + 1)
def _translations(lang: str) -> gettext.NullTranslations:
    if lang == i18n.DEFAULT:
        return gettext.NullTranslations()
    try:
        return gettext.translation(DOMAIN, i18n.LOCALE_DIR, languages=[lang])
    except (OSError, ValueError):  # a missing or damaged catalogue: the English
        return gettext.NullTranslations()


def text(lang: str, key: str, **fields: Any) -> str:
    """The text ``key`` in ``lang``, its ``{fields}`` filled (a field a translation lacks is
    left out, never an error)."""
    said = _translations(lang).pgettext(key, TEXTS[key])
    try:
        return said.format(**fields)
    except (KeyError, IndexError, ValueError):
        return TEXTS[key].format(**fields)


@lru_cache(maxsize=len(i18n.LANGUAGES) + 1)
def bundle(lang: str) -> dict[str, Any]:
    """What the browser needs to speak ``lang``: every web text by key, the names and
    one-line summaries of the games and house rules and the rules options' help (the
    terminal's catalogue, so both speak alike), the languages offered."""
    translations = _translations(lang)
    texts = {key: translations.pgettext(key, english) for key, english in TEXTS.items()}
    terminal = i18n.catalogue(lang)
    return {"language": lang, "languages": LANGUAGE_NAMES, "texts": texts,
            "variants": terminal["variants"], "summaries": terminal["summaries"],
            "options": _option_help(lang)}


def _option_help(lang: str) -> dict[str, str]:
    """Each rules option's sentence of help in ``lang`` (the house rules on hover), by its
    key; switched and restored with no await between, like :func:`_engine_words`."""
    from bito.rules.options import OPTION_SPECS

    saved = i18n.language()
    i18n.set_language(lang)
    try:
        return {key: i18n.option_help(spec.help) for key, spec in OPTION_SPECS.items()}
    finally:
        i18n.set_language(saved)


def choose_language(cookie: str | None, accept: str | None) -> str:
    """The cookie's language if bito speaks it, else the first of ``Accept-Language`` (by
    its ``q``) that it speaks, else English."""
    if cookie and cookie.strip().lower() in LANGUAGE_NAMES:
        return cookie.strip().lower()
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept or "").split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        match = re.search(r"q=([0-9.]+)", params)
        if match:
            try:
                q = float(match.group(1))
            except ValueError:
                q = 0.0
        base = tag.strip().lower().split("-")[0]
        if base in LANGUAGE_NAMES and q > 0:
            ranked.append((-q, i, base))
    return min(ranked)[2] if ranked else i18n.DEFAULT


def language_of(headers: Any) -> str:
    """The language of a request or a websocket handshake, from its headers."""
    cookie = None
    for part in (headers.get("cookie") or "").split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE:
            cookie = value
    return choose_language(cookie, headers.get("accept-language"))


