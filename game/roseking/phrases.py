"""Player-visible sentences built from game data, in the current language.

The screens call these instead of assembling text themselves, so every language
gets whole sentences with ``{fields}`` (never glued fragments) and the same
wording appears on the game screen, the result panel, the replay list and the
LAN screens. No pygame here.

``names`` arguments are the two players' display names indexed by colour
(``names[Color.RED]``); ``None`` means the colour names "Red"/"White".
"""

from __future__ import annotations

from typing import Sequence

from game.roseking.engine import HEROES_PER_PLAYER, TOTAL_STONES, Card, Color, Kind, Move, Outcome, State, Termination
from game.roseking.engine.cards import square_name
from game.i18n import N_, _, ngettext
from game.stop_words import stop_text as layer_stop_text

_COLOR_NAMES = (N_("Red"), N_("White"))
#: Computer levels (keys of ``game.roseking.ai.LEVELS``) -> the name a player sees. Unknown keys show as themselves.
LEVEL_NAMES = {
    "random": N_("Beginner"),
    "greedy": N_("Casual"),
    "easy": N_("Easy"),
    "medium": N_("Medium"),
    "hard": N_("Hard"),
    "expert": N_("Expert"),
}
#: Card directions (``Card.direction``) -> compass abbreviation (German "NO", French "NE", Dutch "NO").
_DIRECTIONS = {
    "N": N_("N"), "NE": N_("NE"), "E": N_("E"), "SE": N_("SE"),
    "S": N_("S"), "SW": N_("SW"), "W": N_("W"), "NW": N_("NW"),
}
_NUMERALS = ("I", "II", "III")


def color_name(color: Color) -> str:
    """"Red" or "White" in the current language."""
    return _(_COLOR_NAMES[color])


def player_names(red: str = "", white: str = "") -> tuple[str, str]:
    """Display names indexed by colour: a blank name falls back to the colour's name."""
    return (red.strip() or color_name(Color.RED), white.strip() or color_name(Color.WHITE))


def level_name(level: str) -> str:
    """The name shown for a computer level key (``"hard"`` -> "Hard"/"Schwer"...)."""
    return _(LEVEL_NAMES[level]) if level in LEVEL_NAMES else level


def card_label(card: Card) -> str:
    """A power card as printed: compass direction and Roman numeral, e.g. "NE II" (German "NO II")."""
    return f"{_(_DIRECTIONS[card.direction])} {_NUMERALS[card.distance - 1]}"


def _names(names: Sequence[str] | None) -> Sequence[str]:
    return player_names() if names is None else names


def turn_text(color: Color, names: Sequence[str] | None = None) -> str:
    """Status line: "{name} to move"."""
    return _("{name} to move").format(name=_names(names)[color])


def pass_text(color: Color, names: Sequence[str] | None = None) -> str:
    """The pass banner (ruling 6) for the player ``color`` who cannot move."""
    return _("{name} cannot move and passes").format(name=_names(names)[color])


def stones_text(placed: int) -> str:
    """The stone counter: "Stones 17/52"."""
    return _("Stones {placed}/{total}").format(placed=placed, total=TOTAL_STONES)


def cards_text(count: int) -> str:
    """A pile or hand size: "1 card", "14 cards"."""
    return ngettext("{count} card", "{count} cards", count).format(count=count)


def heroes_text(count: int) -> str:
    """Hero cards left: "3 hero cards left"."""
    return ngettext("{count} hero card left", "{count} hero cards left", count).format(count=count)


def points_text(points: int) -> str:
    """A score: "1 point", "69 points"."""
    return ngettext("{points} point", "{points} points", points).format(points=points)


def territory_text(size: int) -> str:
    """The hover label of a territory of ``size`` stones: its size and value (size squared, ruling 8).

    For every supported language the plural form of ``size`` and of ``size**2`` agree,
    so one ngettext on ``size`` covers both numbers.
    """
    return ngettext("Territory: {size} stone, {points} point", "Territory: {size} stones, {points} points",
                    size).format(size=size, points=size * size)


def square_sum_text(size: int) -> str:
    """One line of a score breakdown: "8 × 8 = 64"."""
    return _("{size} × {size} = {points}").format(size=size, points=size * size)


def termination_text(termination: Termination) -> str:
    """Why the game ended (ruling 7)."""
    if termination is Termination.STONES:
        return _("All 52 stones are on the board.")
    return _("Neither player can move.")


def result_title(outcome: Outcome, names: Sequence[str] | None = None) -> str:
    """The result panel's headline: "{name} wins" or "A draw"."""
    if outcome.winner is None:
        return _("A draw")
    return _("{name} wins").format(name=_names(names)[outcome.winner])


def result_text(outcome: Outcome, names: Sequence[str] | None = None) -> str:
    """The result panel's explanation with the scores and, when the scores tie, the tie-break (ruling 8)."""
    n = _names(names)
    scores = (outcome.red_score, outcome.white_score)
    if outcome.winner is None:
        return _("{red} {red_score}, {white} {white_score}: a draw").format(
            red=n[Color.RED], white=n[Color.WHITE], red_score=scores[0], white_score=scores[1])
    fields = dict(winner=n[outcome.winner], loser=n[outcome.winner.other],
                  winner_score=scores[outcome.winner], loser_score=scores[outcome.winner.other])
    if outcome.decided_by == "largest territory":
        return _("{winner} and {loser} both score {winner_score}: decided by the larger single territory"
                 ).format(**fields)
    if outcome.decided_by == "stones":
        return _("{winner} and {loser} both score {winner_score} and have equal largest territories: "
                 "decided by more stones on the board").format(**fields)
    return _("{winner} wins {winner_score} to {loser_score}").format(**fields)


def tie_break_text(outcome: Outcome) -> str | None:
    """The short tie-break note for a result, or None when the scores decided (ruling 8)."""
    return {
        "largest territory": _("decided by the larger single territory"),
        "stones": _("decided by more stones on the board"),
        "draw": _("a draw"),
    }.get(outcome.decided_by)


def hero_prompt(card: Card, square: int) -> str:
    """Asked before a hero action (it costs one of the four hero cards)."""
    return _("Play a hero card with {card} and flip the stone on {square}? Click again to confirm.").format(
        card=card_label(card), square=square_name(square))


def move_text(state: State, move: Move, names: Sequence[str] | None = None) -> str:
    """A move as a sentence, for the move list and the replay (``state``: the position before it)."""
    name = _names(names)[move.player]
    if move.kind is Kind.DRAW:
        return _("{name} draws a card").format(name=name)
    target = state.target(move.card) if move.card is not None else None
    fields = dict(name=name, card=card_label(move.card) if move.card else "?",
                  square=square_name(target) if target is not None else "?")
    if move.kind is Kind.HERO:
        return _("{name} plays a hero card with {card} and flips {square}").format(**fields)
    return _("{name} plays {card} to {square}").format(**fields)


def illegal_text(state: State, move: Move, names: Sequence[str] | None = None) -> str | None:
    """Why a click's move is not allowed, for the player; None if it is legal.

    Worded from the code of :meth:`State.illegal_reason`'s :class:`game.errors.Reason` (the
    engine decides; no English is read), for the person clicking and with hints (an opponent's stone
    can be taken with a hero card). A reason the engine adds later shows as a
    generic sentence rather than untranslated English. A draw decision
    (``Move(color, DRAW, None)``, a click on the draw pile) counts as legal when
    the player may draw.
    """
    reason = state.illegal_reason(move)
    if reason is None or (move.kind is Kind.DRAW and move.card is None and reason.code == "draw_needs_card"):
        return None  # a click on the draw pile is a decision; chance supplies the card afterwards
    card = card_label(move.card) if move.card is not None else ""
    target = state.target(move.card) if move.card is not None else None
    square = square_name(target) if target is not None else ""
    if reason.code == "over":
        return _("The game is over.")
    if reason.code == "wrong_player":
        return _("It is {name}'s turn.").format(name=_names(names)[state.turn])
    if reason.code == "hand_full":
        return _("You may draw only with fewer than 5 power cards.")
    if reason.code == "not_in_hand":
        return _("{card} is not in your hand.").format(card=card)
    if reason.code == "off_board":
        return _("{card} would move the crown off the board.").format(card=card)
    if reason.code == "occupied":
        if target is not None and state.owner(target) == move.player:
            return _("{square} already holds your stone.").format(square=square)
        if state.heroes[move.player]:
            return _("{square} holds an opponent's stone: play a hero card with {card} to flip it.").format(
                square=square, card=card)
        return _("{square} holds an opponent's stone and you have no hero cards left.").format(square=square)
    if reason.code == "hero_needs_stone":
        if target is not None and state.owner(target) is None:
            return _("A hero card flips an opponent's stone, but {square} is empty.").format(square=square)
        return _("A hero card flips an opponent's stone, but {square} holds your own.").format(square=square)
    if reason.code == "no_heroes":
        return ngettext("You have used your {count} hero card.", "You have used all {count} hero cards.",
                        HEROES_PER_PLAYER).format(count=HEROES_PER_PLAYER)
    return _("That move is not allowed.")


#: Labels the screens show as they are. The client calls ``_()`` on the same English
#: text (e.g. ``_("New game")``); listing them here keeps them in the catalogues.
LABELS = (
    # window, main menu, pause menu
    N_("Rose King"), N_("New game"), N_("Play against a friend"), N_("Play against the computer"),
    N_("Continue"), N_("Quit"), N_("Resume"), N_("Main menu"), N_("Settings"), N_("How to play"),
    N_("Paused"), N_("Back"), N_("Cancel"), N_("OK"), N_("Yes"), N_("No"), N_("Start"), N_("Close"),
    N_("Next"), N_("Previous"), N_("Play again"),
    N_("Quit the game in progress? It is saved and can be resumed later."),
    N_("Abandon this game? It will not be saved."),
    # choosing a game against the computer
    N_("Your colour"), N_("Computer level"), N_("Red moves first."),
    # the game screen
    N_("Draw pile"), N_("Discard pile"), N_("Hero cards"), N_("Power cards"), N_("Crown"), N_("Stone"),
    N_("Score"), N_("Your turn"), N_("The computer is thinking…"), N_("The discard pile is shuffled into a new draw pile."),
    N_("Draw a card"), N_("Click a power card, then its target square — or click a square directly."),
    N_("Hero card: flip the opponent's stone"), N_("Territory"), N_("Total"), N_("Game over"),
    N_("Sound on"), N_("Sound off"),
    # LAN
    N_("Play over the network"), N_("Host a game"), N_("Join a game"), N_("Waiting for an opponent…"),
    N_("Games on this network"), N_("No games found yet. Searching…"), N_("Address"), N_("Port"),
    N_("Your name"), N_("Connecting…"), N_("connection interrupted, reconnecting…"), N_("Connection lost."),
    N_("Your opponent left the game."), N_("The other game is a different version."),
    # saved games, replay, undo
    N_("Saved games"), N_("Replay"), N_("Delete"), N_("in progress"), N_("finished"), N_("Save as…"),
    N_("Saved."), N_("Delete this saved game?"), N_("Resume the unfinished game?"), N_("No saved games yet."),
    N_("This file cannot be read."), N_("against the computer"), N_("two players, one computer"),
    N_("over the network"), N_("Undo"), N_("Redo"), N_("Nothing to undo."),
    N_("First move"), N_("Previous move"), N_("Next move"), N_("Last move"), N_("Play"), N_("Pause"),
    # settings screen
    N_("Language"), N_("Animation speed"), N_("Slow"), N_("Normal"), N_("Fast"), N_("Instant"),
    N_("Sound"), N_("Volume"), N_("On"), N_("Off"), N_("Full screen"), N_("Show legal targets"),
    N_("Red player's name"), N_("White player's name"), N_("Default computer level"),
    N_("Show the tutorial again"),
)


def ply_count_text(plies: int) -> str:
    """A saved game's length: "1 move", "37 moves"."""
    return ngettext("{count} move", "{count} moves", plies).format(count=plies)


def replay_position_text(ply: int, total: int) -> str:
    """The replay's position: "Move 12 of 60"."""
    return _("Move {number} of {total}").format(number=ply, total=total)


# --------------------------------------------------------------------------- LAN play
def stop_text(code: str, who: str = "", move: int = 0) -> str:
    """Why a LAN game of Rose King stopped (or could not start), for the players, in the current
    language: the waiting screen's refusal, the banner and the end panel of a stopped game.

    ``code`` is a verdict's kind (:class:`net.match.Verdict`) or the closing code of
    docs/protocol.md that stopped it. Rose King words its own verdicts here: ``illegal`` (a move
    the rules do not allow), ``coin`` (a check of a coin toss failed), ``forfeit`` (a secret
    withheld or changed), ``desync`` (the two copies of the game differ); every other code is
    the layer's, worded once for every game by :func:`game.stop_words.stop_text` in Rose King's
    term, "game" (``left``/``bye``: the host left). ``who`` is the name of the player at fault
    ("" when none is named) and ``move`` the number of the move where it happened (0: unknown).
    The English detail stays in the record and the report files.
    """
    if code == "illegal":
        if who and move:
            return _("{name} made a move the rules do not allow (move {ply}): the game was stopped.").format(
                name=who, ply=move)
        if move:
            return _("A move the rules do not allow (move {ply}): the game was stopped.").format(ply=move)
        return _("A move the rules do not allow: the game was stopped.")
    if code == "coin":
        if who:
            return _("The check of a coin toss failed on {name}'s side: the game was stopped.").format(name=who)
        return _("The check of a coin toss failed: the game was stopped.")
    if code == "forfeit":
        if who:
            return _("{name} withheld or changed a secret of a coin toss and forfeits the game.").format(name=who)
        return _("A player withheld or changed a secret of a coin toss and forfeits the game.")
    if code == "desync":
        if move:
            return _("The check found that the machines' copies of the game differ at move {ply}: "
                     "the game was stopped.").format(ply=move)
        return _("The check found that the machines' copies of the game differ: the game was stopped.")
    return layer_stop_text(code, who, "game")
