"""The "How to play" pages and the first-game tutorial, as data the client renders.

Written by us from the four rule texts in ``shared/rules`` and the rulings in
``docs/rules.md``. Texts are English sources marked with ``N_``; :func:`how_to_play`
and :func:`tutorial` return them in the current language, so call them again after
a language change (``game.i18n.on_language_change``).

Each section may name an :class:`Illustration`: a small board position the client
draws with its own sprites (board, crown, stones, cards). Positions use the
engine's squares and card names, and the tests check them with the engine (the
move lands where the text says, the territories have the sizes the text says).

No pygame here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from game.roseking.engine import Card, parse_square
from game.i18n import N_, _

#: Illustration kinds the client knows how to draw.
ILLUSTRATION_KINDS = ("setup", "card_move", "draw", "hero_flip", "pass", "territories")


@dataclass(frozen=True, slots=True)
class Illustration:
    """A board excerpt to draw beside a section.

    ``kind``: one of :data:`ILLUSTRATION_KINDS`:
      * ``card_move``: ``card`` moves the crown from ``crown`` to ``highlight[0]``,
        where a stone of ``player`` appears (animate it if you like);
      * ``hero_flip``: the same, but ``highlight[0]`` holds the opponent's stone,
        which flips to ``player``'s colour;
      * ``pass``: ``player`` holds ``hand`` and none of it can move the crown
        from ``crown``; draw each card's blocked target crossed out;
      * ``territories``: outline each territory and write its size and value;
      * ``setup``: the crown on its start square and ``hand`` (a dealt hand) with a hero card;
      * ``draw``: ``player`` holds ``hand`` (fewer than 5) and takes the top card of the draw pile.
    ``red``/``white``: squares (0..80) with a stone of that colour before the action; the
    crown stands on the opponent's stone (the opponent moved last), except in ``territories``.
    ``player``: ``"red"`` or ``"white"``. ``caption``: translated text under the picture.
    """

    kind: str
    crown: int
    red: tuple[int, ...] = ()
    white: tuple[int, ...] = ()
    card: Card | None = None
    hand: tuple[Card, ...] = ()
    player: str = "red"
    highlight: tuple[int, ...] = ()
    caption: str = ""


@dataclass(frozen=True, slots=True)
class Section:
    """One page of "How to play": a title, paragraphs (each a wrapped block), an optional picture."""

    title: str
    paragraphs: tuple[str, ...]
    illustration: Illustration | None = None


@dataclass(frozen=True, slots=True)
class TutorialStep:
    """One bubble of the first-game tutorial, pointing at a part of the game screen.

    ``anchor``: ``"hand"``, ``"board"``, ``"draw_pile"``, ``"heroes"``, ``"scores"`` or ``None``
    (centred). The client shows the steps in order with :data:`TUTORIAL_BUTTONS`
    and sets Rose King's ``tutorial_seen`` setting when the last one (or "Skip") is clicked.
    """

    text: str
    anchor: str | None


def _sq(*names: str) -> tuple[int, ...]:
    return tuple(parse_square(n) for n in names)


_SECTIONS: tuple[tuple[str, tuple[str, ...], Illustration | None], ...] = (
    (N_("Goal of the game"), (
        N_("Two houses fight the Wars of the Roses: Lancaster plays the red roses, York the white. "
           "Each player tries to bring the largest connected areas of the board under their colour."),
        N_("At the end, every territory of your stones scores its size squared. "
           "The player with the most points wins."),
    ), Illustration("territories", crown=parse_square("g5"), white=_sq("a9", "b9", "a8", "b8"),
                    red=_sq("e5", "f5", "g5", "c2"),
                    caption=N_("White's 4 connected stones score 4 × 4 = 16 points. Red's 3 in a row "
                               "score 9, and the single stone 1 more: 10 points."))),
    (N_("Set-up"), (
        N_("The board has 9 × 9 squares. The crown starts on the centre square."),
        N_("The 24 power cards are shuffled and each player is dealt 5, face up: both hands are open. "
           "The other 14 cards form the draw pile. "
           "Each card shows a direction (the arrow) and a distance of 1, 2 or 3 squares (the Roman numeral)."),
        N_("Each player has 4 hero cards. The 52 stones are one supply for both players. Red moves first."),
    ), Illustration("setup", crown=parse_square("e5"),
                    hand=tuple(Card.from_name(n) for n in ("N1", "NE2", "E3", "SW1", "W2")), player="red",
                    caption=N_("The crown starts on e5, the centre square. Each player gets 5 open power cards "
                               "and 4 hero cards."))),
    (N_("Your turn: play a power card"), (
        N_("On your turn you do exactly one of three things: play a power card, draw a power card, "
           "or play a hero card together with a power card."),
        N_("To play a power card, move the crown exactly as far as the card says in the direction of its arrow, "
           "jumping over anything in between. The target square must be on the board and empty. "
           "Place one of your stones there and the crown on top. The card goes to the discard pile."),
    ), Illustration("card_move", crown=parse_square("e5"), red=_sq("e4"), white=_sq("e5", "f6"),
                    card=Card.from_name("NE2"), player="red", highlight=_sq("g7"),
                    caption=N_("NE II moves the crown two squares north-east, from e5 to g7, "
                               "jumping over f6. Red places a stone on g7."))),
    (N_("Your turn: draw a power card"), (
        N_("Instead of playing, you may draw the top card of the draw pile, but only while you hold fewer than "
           "5 power cards. The card is added to your open hand."),
        N_("As soon as the draw pile is used up, the discard pile is shuffled and becomes the new draw pile."),
    ), Illustration("draw", crown=parse_square("d5"), red=_sq("e4", "c6"), white=_sq("d5", "f5"),
                    hand=tuple(Card.from_name(n) for n in ("S3", "NW1", "E2", "N3")), player="red",
                    caption=N_("Red holds 4 cards and takes the top card of the draw pile instead of playing one."))),
    (N_("Your turn: play a hero card"), (
        N_("A hero card lets the crown land on a square that holds one of your opponent's stones. "
           "Play it together with a power card whose target is such a square: the stone there is turned over "
           "to your colour and the crown is placed on it. No new stone is placed."),
        N_("Each of your 4 hero cards can be used once. Use them wisely: they turn the tide."),
    ), Illustration("hero_flip", crown=parse_square("d4"), red=_sq("e3", "c4"), white=_sq("d4", "f4", "f5", "g4"),
                    card=Card.from_name("E2"), player="red", highlight=_sq("f4"),
                    caption=N_("E II would move the crown onto White's stone on f4. "
                               "With a hero card, Red turns that stone red."))),
    (N_("Passing"), (
        N_("Moving is compulsory: if you can act, you must, even with a hero card if that is the only way."),
        N_("If you cannot act at all, because you hold 5 power cards and none of them can move the crown "
           "and no hero card helps, you pass and your opponent moves again, as long as this lasts."),
    ), Illustration("pass", crown=parse_square("a9"), red=_sq("a8", "b9"), white=_sq("a9", "c9"),
                    hand=tuple(Card.from_name(n) for n in ("N1", "W2", "NW3", "S1", "E1")), player="red",
                    caption=N_("Red holds 5 cards: N I, W II and NW III would leave the board, S I and E I "
                               "lead onto Red's own stones. Red cannot move and passes."))),
    (N_("End of the game"), (
        N_("The game ends at once when the last of the 52 stones is placed, or when neither player can act."),
    ), Illustration("territories", crown=parse_square("e2"), white=_sq("a1", "b1", "c1", "e1", "e2"),
                    red=_sq("a3", "b3", "c3", "i9", "g5"),
                    caption=N_("At the end: White scores 9 + 4 = 13 points, Red 9 + 1 + 1 = 11 points. White wins."))),
    (N_("Scoring"), (
        N_("A territory is a group of stones of one colour connected through their edges; "
           "stones that touch only at a corner are not connected. "
           "Each territory scores its number of stones multiplied by itself."),
        N_("Example: White has territories of 8, 2 and 1 stones: 8 × 8 + 2 × 2 + 1 × 1 = 64 + 4 + 1 = 69 points. "
           "Red has territories of 5, 2, 2 and 1 stones: 25 + 4 + 4 + 1 = 34 points. White wins."),
        N_("If the totals are equal, the player with the larger single territory wins; if those are equal too, "
           "the player with more stones on the board; otherwise the game is a draw."),
    ), Illustration("territories", crown=parse_square("f7"),
                    white=_sq("a9", "b9", "c9", "d9", "a8", "b8", "c8", "d8", "g9", "h9", "f7"),
                    red=_sq("a4", "b4", "c4", "d4", "b3", "g4", "g3", "i6", "i7", "e1"),
                    caption=N_("White: 64 + 4 + 1 = 69 points. Red: 25 + 4 + 4 + 1 = 34 points."))),
)

_TUTORIAL = (
    (N_("Welcome to Rose King! Place your stones to build large territories: "
        "each one scores its size squared."), None),
    (N_("These are your power cards. The arrow shows where a card moves the crown, "
        "the Roman numeral how many squares."), "hand"),
    (N_("Click a card, then the highlighted square, to move the crown there and place your stone. "
        "You can also click a highlighted square directly."), "board"),
    (N_("With fewer than 5 cards you may draw a card from the draw pile instead."), "draw_pile"),
    (N_("Your 4 hero cards: play one with a power card to land on an opponent's stone and turn it over."),
     "heroes"),
    (N_("Point at a stone to see its territory and its value. The scores here update after every move."),
     "scores"),
)

#: Buttons of the tutorial bubbles: next step, skip the rest, close after the last step.
TUTORIAL_BUTTONS = (N_("Next"), N_("Skip tutorial"), N_("Got it"))


def how_to_play() -> list[Section]:
    """The "How to play" sections in the current language, in reading order."""
    return [Section(_(title), tuple(_(p) for p in paragraphs),
                    None if picture is None else replace(picture, caption=_(picture.caption)))
            for title, paragraphs, picture in _SECTIONS]


def tutorial() -> list[TutorialStep]:
    """The first-game tutorial steps in the current language."""
    return [TutorialStep(_(text), anchor) for text, anchor in _TUTORIAL]
