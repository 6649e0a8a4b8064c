"""Royals & Riots' guided first game (item 11): a real match in which a bubble explains
each situation the first time the person meets it, over the table, pointing at what it is about.

:func:`situations` reads, from the person's own :class:`~game.royals.engine.Observation` only,
which of :data:`STEPS` apply now (choosing the hand, leading, having to follow, being free to
play anything, holding a special card, a revolution in force, robbing, executing, the trick's
cards gone to a loot, a new round). :class:`GuideOverlay` sits above the
:class:`~game.client.royals.scene.RoyalsTableScene` (not opaque): while no bubble shows it
passes every event and update through, so the match plays as usual; when the person is to act
and a step they have not seen applies, it shows that step's bubble, dims the rest, and the
table waits until "Got it". "Stop the guide" (or Esc while a bubble shows) leaves the plain match.
The set-up's "Guided first game" starts one (:func:`guided_config`, :func:`guide`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

import pygame

from game.i18n import N_, _
from game.royals.engine import Card, Observation, Phase

from ..scene import Scene
from ..theme import CANVAS, CREAM, GOLD
from ..widgets import Button, handle_buttons, panel

from game.royals.match import Seat, TableConfig

if TYPE_CHECKING:
    from ..scene import AppLike
    from .scene import RoyalsTableScene

BUBBLE_W = 520
#: The seats of a guided first game: the person and two computers that play by simple, steady
#: rules (``greedy``, "Casual"): strong enough to show the game, never baffling.
GUIDE_LEVEL = "greedy"


class Step(NamedTuple):
    """One explanation: ``key`` (as :func:`situations` names it), the English ``text`` (translated
    when shown) and what it points at: ``hand``, ``trick``, ``seats``, ``scores``, ``rank`` or ""."""

    key: str
    text: str
    anchor: str


STEPS: tuple[Step, ...] = (
    Step("keep", N_("Each round you are dealt more cards than you keep. Click the cards to keep in your "
                    "hand, then 'Keep these'; the rest become your face-down draw pile. Keep strong cards "
                    "and special ones: the King, the Queen, the Princes, the Thief."), "hand"),
    Step("lead", N_("You lead this trick: play any card. Its rank is the led rank, which the others "
                    "must follow if they can. The highest card wins the trick and its cards."), "hand"),
    Step("follow", N_("A rank was led and you hold that rank, so you must follow it. The cards you cannot "
                      "play are dimmed; hover one to read why."), "hand"),
    Step("free", N_("You hold none of the led rank, so you may play any card: a low one to save your "
                    "strong cards, or a higher rank to win the trick."), "hand"),
    Step("special", N_("You hold a special card. The Thief, the Executioner and the Beggar may always be "
                       "played, even when you must follow; they never win a trick themselves."), "hand"),
    Step("steal", N_("Your Thief robs a player: click the player, then one of their face-down cards. It goes "
                     "into your loot, and they take back the card they played."), "seats"),
    Step("execute", N_("Your Executioner takes one other card of the trick out of the game: click the card, "
                       "for instance the one that would win against you."), "trick"),
    Step("revolution", N_("A revolution is on: the whole order is reversed until a Prince ends it. Peasant 10 "
                          "is now the highest card and the King the lowest."), "rank"),
    Step("loot", N_("The trick's cards went to its winner's loot; they count at the end of the round (the "
                    "King, the Queen, the Princes and the Rebels 3 points, the Thief and the Executioner 0, the "
                    "Beggar -3, any other card 1). The scores are here."), "scores"),
    Step("round", N_("A new round: the scores add up over three rounds, and the lowest scorer of the last "
                     "round leads. You are on your own now: enjoy the match!"), "scores"),
)
STEP_BY_KEY = {s.key: s for s in STEPS}
SPECIALS = frozenset(Card.from_name(n) for n in ("THIEF", "EXECUTIONER", "BEGGAR"))


def situations(obs: Observation) -> list[str]:
    """The keys of :data:`STEPS` that apply to ``obs`` (the person's own information state, when
    they are to act), in the order the guide explains them. Only what the seat knows is read."""
    if obs.to_act != obs.seat:
        return []
    out: list[str] = []
    if obs.round > 1:
        out.append("round")
    if obs.phase is Phase.KEEP:
        out.append("keep")
        return out
    if obs.trick_no > 1 or obs.round > 1:
        out.append("loot")
    if obs.revolution:
        out.append("revolution")
    if obs.phase is Phase.STEAL:
        out.append("steal")
    elif obs.phase is Phase.EXECUTE:
        out.append("execute")
    elif obs.phase is Phase.PLAY:
        if not obs.trick:
            out.append("lead")
        elif obs.led is not None and any(c.rank is obs.led for c in obs.hand):
            out.append("follow")
        else:
            out.append("free")
        if any(c in SPECIALS for c in obs.hand):
            out.append("special")
    return out


class GuideOverlay(Scene):
    """The guide over ``table`` for the person in ``seat`` (see the module docstring)."""

    opaque = False

    def __init__(self, app: "AppLike", table: "RoyalsTableScene", seat: int) -> None:
        super().__init__(app)
        self.table = table
        self.seat = seat
        self.seen: set[str] = set()
        self.step: Step | None = None  # the bubble showing, None: the match plays
        self.stopped = False
        self.clock = 0.0
        self.bubble = pygame.Rect(0, 0, BUBBLE_W, 200)
        self.ok_button = Button((0, 0, 220, 50), N_("Got it"), self.dismiss, key=pygame.K_RETURN, size=26)
        self.stop_button = Button((0, 0, 220, 50), N_("Stop the guide"), self.stop, size=24)
        self.buttons = [self.ok_button, self.stop_button]

    # ------------------------------------------------------------------ what to explain
    def due(self) -> Step | None:
        """The first step not yet seen that applies now (the person to act, the table idle)."""
        if self.stopped or not self.table.my_turn():
            return None
        state = self.table.match.state
        if state.to_act != self.seat:
            return None
        for key in situations(state.observation(self.seat)):
            if key not in self.seen:
                return STEP_BY_KEY[key]
        return None

    def dismiss(self) -> None:
        """"Got it": the match goes on (after the last step, without the guide)."""
        self.step = None
        if self.stopped and self.app.top is self:
            self.app.pop()

    def stop(self) -> None:
        """Leave the guide: the plain match goes on."""
        self.stopped, self.step = True, None
        if self.app.top is self:
            self.app.pop()

    # ------------------------------------------------------------------ scene: pass through
    def update(self, dt: float) -> None:
        self.clock += dt
        if self.step is None:
            self.table.update(dt)
            self.step = self.due()
            if self.step is not None:
                self.seen.add(self.step.key)
                if self.step.key == "round":  # the last step: the guide ends after it
                    self.stopped = True

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.step is None:
            self.table.handle_event(event)
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.stop()
            return
        handle_buttons(self.buttons, event)

    def at_rest(self) -> bool:
        return self.step is None and self.table.at_rest()

    def uses_key(self, key: int) -> bool:
        uses = getattr(self.table, "uses_key", None)
        return bool(uses and uses(key))

    def quit_question(self) -> str | None:
        return self.table.quit_question()

    def unsaved_game(self) -> bool:
        return self.table.unsaved_game()

    def close(self) -> None:
        self.step = None

    # ------------------------------------------------------------------ drawing
    def anchor_rect(self, anchor: str) -> pygame.Rect | None:
        """The table's area a step points at (None: a centred bubble)."""
        layout = self.table.layout
        state = self.table.match.state
        if anchor == "hand":
            rects = layout.keep_slots(len(state.hand(self.seat)) or len(state.observation(self.seat).dealt))
            return rects[0].unionall(rects[1:]).inflate(16, 16) if rects else None
        if anchor == "trick":
            points = [layout.trick_pos(s) for s in range(1, layout.n + 1)]
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            return pygame.Rect(min(xs) - 60, min(ys) - 80, max(xs) - min(xs) + 120, max(ys) - min(ys) + 160)
        if anchor == "seats":
            plates = [layout.plate_rect(s) for s in range(1, layout.n + 1) if s != self.seat]
            return plates[0].unionall(plates[1:]).inflate(12, 12) if plates else None
        if anchor == "scores":
            return layout.scores_rect().inflate(10, 10)
        if anchor == "rank":
            return pygame.Rect(10, 8, 190, 330)
        return None

    def layout(self) -> tuple[pygame.Rect | None, pygame.Surface]:
        """(the area pointed at, the bubble's text image), placing the bubble and its buttons:
        beside the area (above a low one, below a high one), inside the canvas."""
        assert self.step is not None
        target = self.anchor_rect(self.step.anchor)
        text = self.app.art.text(_(self.step.text), 24, CREAM, wrap=BUBBLE_W - 48)
        b = self.bubble
        b.size = (BUBBLE_W, text.get_height() + 124)
        if target is None:
            b.center = (CANVAS[0] // 2, CANVAS[1] // 2)
        elif target.centery > CANVAS[1] // 2:
            b.midbottom = (target.centerx, target.top - 14)
        elif target.centerx < CANVAS[0] // 3:
            b.midleft = (target.right + 14, target.centery)
        elif target.centerx > 2 * CANVAS[0] // 3:
            b.midright = (target.left - 14, target.centery)
        else:
            b.midtop = (target.centerx, target.bottom + 14)
        b.clamp_ip(pygame.Rect(8, 8, CANVAS[0] - 16, CANVAS[1] - 16))
        self.ok_button.rect.bottomright = (b.right - 20, b.bottom - 18)
        self.stop_button.rect.bottomleft = (b.x + 20, b.bottom - 18)
        return target, text

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        if self.step is None:
            return
        target, text = self.layout()
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((0, 0, 0, 140))
        if target is not None:
            veil.fill((0, 0, 0, 0), target)
        surface.blit(veil, (0, 0))
        if target is not None:
            glow = 3 + round(2 * (0.5 + 0.5 * math.sin(self.clock * 5)))
            pygame.draw.rect(surface, GOLD, target, glow, border_radius=12)
        surface.blit(panel(self.bubble.size, 248, 14), self.bubble)
        head = self.app.art.text(_("Guided first game"), 22, GOLD)
        surface.blit(head, (self.bubble.x + 24, self.bubble.y + 14))
        surface.blit(text, (self.bubble.x + 24, self.bubble.y + 46))
        for b in self.buttons:
            b.draw(surface, self.app.art)


def guided_config(person: str, computers: tuple[str, str]) -> TableConfig:
    """A first match's seats: the person (named ``person``) and two computers (named
    ``computers``) at :data:`GUIDE_LEVEL`."""
    return TableConfig([Seat(person), *(Seat(name, GUIDE_LEVEL) for name in computers)])


def guide(app: "AppLike", table: "RoyalsTableScene") -> GuideOverlay:
    """Put the guide over ``table`` (the top scene) for its first person. Raises ValueError if no
    person plays at this screen."""
    people = table.match.config.humans()
    if not people:
        raise ValueError("a guided game needs a person at this screen")
    overlay = GuideOverlay(app, table, people[0])
    app.push(overlay)
    return overlay


__all__ = ["GUIDE_LEVEL", "GuideOverlay", "STEPS", "Step", "guide", "guided_config", "situations"]
