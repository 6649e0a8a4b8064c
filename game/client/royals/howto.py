"""How to play Royals & Riots: illustrated pages (the goal and the deal, the hierarchy both
ways, following, each special card, the order of resolution and the points, the controls)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.i18n import N_, _
from game.royals.engine import Card

from ..theme import CANVAS, CREAM, GOLD
from ..widgets import Button, ButtonScene, panel
from .art import CARD_H, CARD_W, card_name, royals_art

if TYPE_CHECKING:
    from ..app import App

#: (title, text, cards shown with their names, picture) per page; English, translated when shown.
PAGES: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    (N_("The goal"),
     N_("Win tricks to collect points in your loot. After three rounds the highest total wins (with four "
        "players you may play in teams: seats 1 + 3 against 2 + 4). Each round every player is dealt cards "
        "(2 players: 14, 3 players: 12, 4 players: 9), keeps some of them in hand (7, 6 or 5) and lays the "
        "rest face down as their own draw pile. After playing a card you draw the top card of your pile."),
     ("KING", "QUEEN", "R3", "P7", "BEGGAR"), "coins"),
    (N_("The hierarchy"),
     N_("Normally the King is highest, then the Queen, the Royals, the Knights, the Merchants and the "
        "Peasants; within a rank 1 is highest. During a revolution the whole order turns round: Peasant 10 "
        "is highest, the King lowest, and within a rank the higher number wins. The rank card shows which "
        "side is in force."),
     ("KING", "QUEEN", "R1", "K1", "M1", "P1"), "sides"),
    (N_("Following"),
     N_("The first card of a trick sets the led rank: whoever holds a card of that rank must play one. The "
        "Thief, the Executioner and the Beggar may always be played. If one of them leads, nobody has to "
        "follow in that trick. The highest card wins the trick; its player leads the next one."),
     ("K1", "K5", "THIEF", "M2"), ""),
    (N_("Guildmasters, Princes and Rebels"),
     N_("The 4 of each rank is its Guildmaster: in a trick where its rank was led, the highest card of that "
        "rank wins, even against higher ranks. The Rebels (Peasant 7) start a revolution that lasts into "
        "later tricks. A Prince (Royals 3 and 5) ends a revolution started in this or an earlier trick."),
     ("R4", "K4", "M4", "P4", "P7", "R3", "R5"), ""),
    (N_("Thief, Executioner, Beggar"),
     N_("The Thief's player may take an unseen card from another player's hand into their loot; the robbed "
        "player takes back the card they played in this trick (not in a round's last trick). The "
        "Executioner's player takes one other card of the trick out of the game. The Beggar costs its "
        "winner 3 points. These three never win a trick; if only they remain, nobody wins it."),
     ("THIEF", "EXECUTIONER", "BEGGAR"), ""),
    (N_("When a trick ends"),
     N_("After everyone has played: first the Thief, then the Executioner, then the Rebels, then the Prince, "
        "then the winner takes the cards left. Points: King, Queen, the Princes and the Rebels 3, Thief and "
        "Executioner 0, Beggar -3, every other card 1. The lowest scorer of a round starts the next one."),
     ("R5", "P7", "THIEF", "EXECUTIONER"), ""),
    (N_("Playing on the screen"),
     N_("At the start of a round click the cards to keep (or 'Choose for me'), then 'Keep these'. In a trick, "
        "cards you may play lift under the mouse; the others are dimmed and say why. Thief: click the player "
        "to rob. Executioner: click a card in the trick. Arrow keys and Enter work too. L shows the last "
        "trick, H asks for a hint, U takes back your move against the computer. With several people at one "
        "screen, the game hides the hands and asks to pass the screen."),
     (), ""),
)


#: The revolution's order on the hierarchy page, highest first: the best card of each rank, then
#: the Queen and the King (Peasant 10 beats Peasant 1, which beats every Merchant).
REVOLUTION_ROW = ("P10", "M7", "K7", "R7", "QUEEN", "KING")


class RoyalsHowTo(ButtonScene):
    """The pages of :data:`PAGES`; arrows or the buttons turn them, Esc leaves."""

    def __init__(self, app: "App") -> None:
        super().__init__(app)
        self.still = True  # pages change only on input
        self.page = 0
        self.rect = pygame.Rect(60, 40, CANVAS[0] - 120, CANVAS[1] - 80)
        y = self.rect.bottom - 76
        self.buttons = [
            Button((self.rect.x + 40, y, 200, 54), N_("Back"), self.back, size=28),
            Button((self.rect.right - 460, y, 200, 54), N_("Previous"), self.prev, key=pygame.K_LEFT, size=28,
                   enabled=lambda: self.page > 0),
            Button((self.rect.right - 240, y, 200, 54), N_("Next"), self.next, key=pygame.K_RIGHT, size=28,
                   enabled=lambda: self.page < len(PAGES) - 1),
        ]

    def back(self) -> None:
        self.app.pop()

    on_escape = back

    def prev(self) -> None:
        self.page = max(0, self.page - 1)

    def next(self) -> None:
        self.page = min(len(PAGES) - 1, self.page + 1)

    def layout(self) -> list[tuple[str, pygame.Surface, pygame.Rect]]:
        """What the page shows, as (what, image, where) in canvas px, in drawing order: ``what`` is
        a text's words or a card's name (``"card:P10"``; the rank card's sides ``"side:0"``). The
        body wraps to the panel; the pictures go under it, each label beside or under its picture,
        so that no text lies under a card in any language (French "Pendant une
        révolution" lay under the revolution row)."""
        art = self.app.art
        ra = royals_art(self.app)
        title, text, cards, picture = PAGES[self.page]
        out: list[tuple[str, pygame.Surface, pygame.Rect]] = []

        def put(what: str, img: pygame.Surface, **at) -> pygame.Rect:
            rect = img.get_rect(**at)
            out.append((what, img, rect))
            return rect

        head = art.text(_(title), 44, GOLD, shadow=True)
        put(_(title), head, topleft=(self.rect.x + 40, self.rect.y + 28))
        page = _("Page {n} of {total}").format(n=self.page + 1, total=len(PAGES))
        put(page, art.text(page, 22, CREAM), topright=(self.rect.right - 40, self.rect.y + 40))
        body = put(_(text), art.text(_(text), 26, CREAM, shadow=True, wrap=self.rect.w - 80),
                   topleft=(self.rect.x + 40, self.rect.y + 96))
        y = body.bottom + 24
        x = self.rect.x + 40
        if picture == "sides":
            labels = (_("Royals: normal order"), _("Riots: the order is reversed"))
            for i, img in enumerate(ra.sides):
                side = put(f"side:{i}", img, topleft=(x + i * 140, y))
                put(labels[i], art.text(labels[i], 18, CREAM, wrap=130), topleft=(side.x, side.bottom + 6))
            x += 300
        step = min(CARD_W + 52, (self.rect.right - 40 - x) // max(1, len(cards)))
        for i, name in enumerate(cards):
            card = Card.from_name(name)
            face = put(f"card:{name}", ra.face(card), topleft=(x + i * step, y))
            put(card_name(card), art.text(card_name(card), 18, CREAM, wrap=step - 6),
                topleft=(face.x, face.bottom + 6))
        if picture == "sides":
            self._revolution_row(put, x, y + CARD_H + 54)
        return out

    def _revolution_row(self, put, x: int, y: int) -> None:
        """The revolution's order, highest first: the best card of each rank (Peasant 10, Merchant 7,
        Knight 7, Royal 7), then the Queen and the King, with "›" between them, "highest" and
        "lowest" under the ends; its label above the row (rules: docs/royals-rules.md, ruling 2)."""
        art = self.app.art
        ra = royals_art(self.app)
        label = _("In a revolution:")
        head = put(label, art.text(label, 22, GOLD), topleft=(x, y))
        top = head.bottom + 6
        cx = x
        faces = []
        for i, name in enumerate(REVOLUTION_ROW):
            if i:
                sign = put("›", art.text("›", 26, GOLD), midleft=(cx + 4, top + 45))
                cx = sign.right + 4
            faces.append(put(f"card:{name}", ra.face(Card.from_name(name), 0.6), topleft=(cx, top)))
            cx = faces[-1].right
        for text, face, anchor in ((_("highest"), faces[0], "topleft"), (_("lowest"), faces[-1], "topright")):
            put(text, art.text(text, 18, CREAM), **{anchor: getattr(face, "bottomleft" if anchor == "topleft"
                                                                    else "bottomright")})

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = self.app.art
        surface.blit(art.table, (0, 0))
        surface.blit(panel(self.rect.size, 240), self.rect)
        for _what, img, where in self.layout():
            surface.blit(img, where)
        self.draw_buttons(surface)
