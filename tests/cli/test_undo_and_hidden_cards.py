"""``undo`` against bots takes back the player's last move, but never to before a moment he
has since seen hidden cards: replaying a move knowing the stock's next cards would turn undo
into a way to peek."""

from __future__ import annotations

from bito.bots import make_bot
from bito.games import new_game
from bito.tui import Seat, TerminalGame


def _game(lines: list[str], answer: object, seed: int = 11, auto: bool = True
          ) -> TerminalGame:
    seats = [Seat("You"), Seat("Anna", make_bot("random", seed=3), "random")]
    return TerminalGame(new_game("podkidnoy", players=2, seed=seed), seats, 0,
                        input_fn=answer, output=lines.append,  # type: ignore[arg-type]
                        auto=auto)


def test_undo_is_refused_once_the_stock_has_been_drawn_from_since_your_move() -> None:
    """Choose the first move until the stock has shrunk since the player's last own move
    (a bout ended and hands were refilled), then ``undo``: refused, the game unchanged."""
    lines: list[str] = []
    asked: dict[str, int] = {}

    def answer(_prompt: str) -> str:
        state = game.game.state
        if "undo" in asked:
            return "quit"
        chosen_at = asked.get("stock")
        if chosen_at is not None and len(state.stock) < chosen_at:
            asked["undo"] = len(game.game.actions)
            return "undo"
        asked["stock"] = len(state.stock)
        return "1"

    game = _game(lines, answer)
    game.run()
    text = "\n".join(lines)
    assert "undo" in asked, "the stock was never drawn from in this game: pick another seed"
    assert "Can't undo that far" in text
    assert "Took back your move" not in text
    assert len(game.game.actions) == asked["undo"]  # nothing was taken back


def test_undo_within_a_bout_still_takes_the_move_back() -> None:
    """The barrier is only where hidden cards were seen: the player's opening attack, with
    the bot's answer and no draw since (forced moves asked for, so the bout is still open at
    the next prompt), is taken back."""
    seed = next(s for s in range(100) if new_game("podkidnoy", players=2, seed=s).to_act == 0)
    lines: list[str] = []
    script = iter(["1", "undo", "quit"])
    game = _game(lines, lambda _prompt: next(script, "quit"), seed=seed, auto=False)
    game.run()
    text = "\n".join(lines)
    assert "Took back your move" in text
    assert "Can't undo that far" not in text
    assert game.game.actions == []  # back to the opening position
