"""Mouse and keyboard at the Royals & Riots table: what a click or a key means in each phase
(choosing the hand, playing a card, the Thief's and the Executioner's choices, a team's
starter), the arrow keys' focus, and the buttons of the decision at hand.

:class:`TableControls` is held by :class:`~game.client.royals.scene.RoyalsTableScene` (its
``controls``): it reads and sets the scene's decision in the making through
:class:`ControlsScene` (the cards chosen, the keyboard mark, the Thief's target), finds what was
clicked with the scene's :class:`~game.client.royals.layout.TableLayout`, and every decision goes
through the scene's :meth:`act`.
"""

from __future__ import annotations

from typing import Protocol

import pygame

from game.i18n import N_, Text, _
from game.royals.engine import Action, Card, Phase

from ..theme import CANVAS
from ..widgets import Button, handle_buttons

from .art import card_name
from .layout import LIFT, TableLayout, TableMotion
from game.royals.match import Beat

#: What the arrow keys move through: cards (of the hand, of the trick) or seats (to rob, to lead).
Choice = Card | int


class ControlsScene(TableMotion, Protocol):
    """What :class:`TableControls` reads of the table scene, what it sets there (the attributes)
    and what it asks of it (the methods)."""

    mouse: tuple[int, int]
    show_last: bool
    news: tuple[int, list[Beat]] | None
    selected: set[Card]
    focus: int
    armed: tuple[int, int] | None
    steal_target: int
    steal_from: tuple[int, int] | None

    def pause(self) -> None: ...
    def undo(self) -> None: ...
    def hand_to(self, seat: int) -> None: ...
    def release_trick(self) -> None: ...
    def my_turn(self) -> int: ...
    def idle(self) -> bool: ...
    def viewer(self) -> int: ...
    def act(self, action: Action) -> bool: ...
    def say(self, text: Text) -> None: ...


class TableControls:
    """Clicks and keys at ``table``, found on ``layout`` (see the module docstring); the buttons of
    the decision at hand (:attr:`action_buttons`, laid out again by :meth:`layout_action_buttons`)."""

    def __init__(self, table: ControlsScene, layout: TableLayout) -> None:
        self.table = table
        self.layout = layout
        self.action_buttons: list[Button] = []
        #: the decision :attr:`action_buttons` are for: "keep", "steal", "" (none); None: not laid out yet
        self.buttons_for: str | None = None

    def handle_event(self, event: pygame.event.Event) -> None:
        t = self.table
        if event.type == pygame.MOUSEMOTION:
            t.mouse = event.pos
        if t.modal:
            if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                t.pause()
                return
            handle_buttons(t.modal_buttons, event)
            return
        if t.passing:
            if (event.type == pygame.MOUSEBUTTONUP and event.button == 1) or (
                    event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER)):
                t.hand_to(t.passing)
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                t.pause()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_z and event.mod & pygame.KMOD_CTRL:
            t.undo()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if t.show_last:
                t.show_last = False
            else:
                t.pause()
            return
        if t.show_last:
            if event.type in (pygame.MOUSEBUTTONUP, pygame.KEYDOWN):
                t.show_last = False
            return
        if t.news is not None:  # "since your last turn": any click or key puts it away
            if event.type in (pygame.MOUSEBUTTONUP, pygame.KEYDOWN):
                t.news = None
            return
        if handle_buttons(t.buttons + self.action_buttons, event):
            return
        if t.holding and (event.type == pygame.MOUSEBUTTONUP or (
                event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER))):
            t.release_trick()  # "keep the trick until I click": this is the click
            return
        seat = t.my_turn()
        if not seat:
            if event.type == pygame.MOUSEBUTTONUP and not t.idle():
                self._skip_anims()
            return
        phase = t.state.phase
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self._click(seat, phase, event.pos)
        elif event.type == pygame.KEYDOWN:
            self._key(seat, phase, event.key)

    def _skip_anims(self) -> None:
        anim = self.table.anim
        if anim is not None:
            anim.t = anim.duration

    def choices(self, seat: int) -> list[Choice]:
        """What the arrow keys move through now: cards of the hand, seats to rob, cards of the trick."""
        state = self.table.state
        phase = state.phase
        if phase is Phase.KEEP:
            return list(state.observation(seat).dealt)
        if phase is Phase.PLAY:  # the playable cards only, in the hand's order
            legal = {a.card for a in state.legal_actions()}
            return [c for c in self.table.view.hands[seat - 1] if c in legal]
        if phase is Phase.STEAL:
            return [a.target for a in state.legal_actions() if a.target is not None]
        if phase is Phase.EXECUTE:
            return [a.card for a in state.legal_actions() if a.card is not None]
        if phase is Phase.START:
            return [a.seat for a in state.legal_actions()]
        return []

    def focused(self) -> Choice | None:
        """The choice the keyboard mark points at now (a card, a seat), or None: none before the
        person's first key of this decision (:meth:`keys_armed`)."""
        seat = self.table.my_turn()
        items = self.choices(seat) if seat and self.keys_armed() else []
        return items[self.table.focus % len(items)] if items else None

    def focused_card(self) -> Card | None:
        """:meth:`focused` when it is a card (of the hand, of the trick), else None."""
        item = self.focused()
        return item if isinstance(item, Card) else None

    def focused_seat(self) -> int:
        """:meth:`focused` when it is a seat (to rob, to lead), else 0."""
        item = self.focused()
        return item if isinstance(item, int) else 0

    def targets(self, seat: int) -> list[int]:
        """The seats among :meth:`choices` (the Thief's targets, a team's possible leaders)."""
        return [item for item in self.choices(seat) if isinstance(item, int)]

    def keys_armed(self) -> bool:
        """Whether the keyboard mark shows for the decision awaited now: a key (an arrow, Enter,
        Space) of this person since their last decision. Until then Enter and Space only show the
        mark, so the Enter that gets a person the table (the pass screen's) or one pressed twice
        never also plays a card."""
        return self.table.armed == (self.table.state.ply, self.table.my_turn())

    def _key(self, seat: int, phase: Phase, key: int) -> None:
        t = self.table
        items = self.choices(seat)
        if not items:
            return
        armed = self.keys_armed()
        t.armed = (t.state.ply, seat)
        if key in (pygame.K_LEFT, pygame.K_RIGHT):
            if armed:
                t.focus = (t.focus + (1 if key == pygame.K_RIGHT else -1)) % len(items)
            return
        item = items[t.focus % len(items)]
        if not armed and key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE, pygame.K_UP):
            self._show_mark(phase, item)  # the first key shows the mark; the next one chooses
            return
        if phase is Phase.KEEP:
            if key in (pygame.K_SPACE, pygame.K_UP) and isinstance(item, Card):
                self._toggle_keep(item)
            elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.confirm_keep()
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            if phase is Phase.PLAY and isinstance(item, Card):
                t.act(Action.play(seat, item))
            elif phase is Phase.STEAL and isinstance(item, int):
                if t.steal_target == item:
                    t.act(Action.steal(seat, item))
                else:
                    t.steal_target = item
            elif phase is Phase.EXECUTE and isinstance(item, Card):
                t.act(Action.execute(seat, item))
            elif phase is Phase.START and isinstance(item, int):
                t.act(Action.start(item))

    def _show_mark(self, phase: Phase, item: Choice) -> None:
        """Say what the next Enter (or Space) does, now that the keyboard mark shows."""
        if phase is Phase.PLAY and isinstance(item, Card):
            name = card_name(item)
            self.table.say(lambda: _(
                "Press Enter again to play {card}, or the arrow keys to choose another card.").format(card=name))
        elif phase is Phase.KEEP:
            self.table.say(lambda: _(
                "Space puts the marked card in your hand or takes it out; the arrow keys move the mark."))
        else:
            self.table.say(lambda: _("Press Enter again to choose the marked one, or the arrow keys to move the mark."))

    def _click(self, seat: int, phase: Phase, pos: tuple[int, int]) -> None:
        t, layout = self.table, self.layout
        if phase is Phase.KEEP:
            dealt = list(t.state.observation(seat).dealt)
            for card, r in reversed(list(zip(dealt, layout.keep_rects(dealt)))):
                if r.collidepoint(pos):
                    self._toggle_keep(card)
                    return
        elif phase is Phase.PLAY:
            played = self.card_at(pos)
            if played is not None:
                t.act(Action.play(seat, played))
        elif phase is Phase.STEAL:
            # first the player to rob, then one of their face-down cards (which one is chance: unseen)
            # or their glowing name box again
            if t.steal_target:
                rects = layout.back_rects(t.steal_target, len(t.view.hands[t.steal_target - 1]))
                for r in reversed(rects):
                    if r.collidepoint(pos):
                        t.steal_from = r.center
                        t.act(Action.steal(seat, t.steal_target))
                        return
                if layout.plate_rect(t.steal_target).collidepoint(pos):
                    t.steal_from = None
                    t.act(Action.steal(seat, t.steal_target))
                    return
            for target in self.targets(seat):
                if any(r.collidepoint(pos) for r in layout.back_rects(target, len(t.view.hands[target - 1]))) \
                        or layout.plate_rect(target).collidepoint(pos):
                    t.steal_target = target
                    return
        elif phase is Phase.EXECUTE:
            for s, c in reversed(t.view.trick):
                if c.name != "EXECUTIONER" and layout.trick_rect(s).collidepoint(pos):
                    t.act(Action.execute(seat, c))
                    return
        elif phase is Phase.START:
            for leader in self.targets(seat):
                if layout.plate_rect(leader).collidepoint(pos):
                    t.act(Action.start(leader))
                    return

    def card_at(self, pos: tuple[int, int]) -> Card | None:
        """The card of the bottom hand at ``pos`` (a lifted card's room counts), or None."""
        hand = self.table.view.hands[self.table.viewer() - 1]
        rects = self.layout.hand_rects(len(hand))
        for card, r in reversed(list(zip(hand, rects))):
            if r.inflate(0, LIFT * 2).collidepoint(pos):
                return card
        return None

    def _toggle_keep(self, card: Card) -> None:
        t = self.table
        if card in t.selected:
            t.selected.discard(card)
        elif len(t.selected) < t.state.hand_size():
            t.selected.add(card)
        else:
            n = t.state.hand_size()
            t.say(lambda: _("Your hand holds {n} cards: put one back first.").format(n=n))

    def confirm_keep(self) -> None:
        """"Keep these": the chosen cards become the hand (if as many as it holds are chosen)."""
        t = self.table
        seat = t.my_turn()
        if not seat or t.state.phase is not Phase.KEEP:
            return
        if len(t.selected) != t.state.hand_size():
            n = t.state.hand_size()
            t.say(lambda: _("Choose {n} cards for your hand.").format(n=n))
            return
        t.act(Action.keep(seat, sorted(t.selected)))

    def suggest_keep(self) -> None:
        """"Choose for me": the computer players' choice of hand is marked."""
        t = self.table
        seat = t.my_turn()
        if seat and t.state.phase is Phase.KEEP:
            t.selected = set(t.match.suggested_hand(seat))

    def skip_steal(self) -> None:
        """"Don't steal"."""
        t = self.table
        seat = t.my_turn()
        if seat and t.state.phase is Phase.STEAL:
            t.act(Action.steal(seat, None))

    def layout_action_buttons(self) -> None:
        """The buttons of the decision at hand ("Keep these" and "Choose for me", "Don't steal"),
        made again when that decision changes."""
        t = self.table
        seat = t.my_turn()
        phase = t.state.phase if seat else None
        want = {Phase.KEEP: "keep", Phase.STEAL: "steal"}.get(phase, "") if phase else ""
        if self.buttons_for == want:
            return
        self.buttons_for = want
        x, y = CANVAS[0] - 210, 396
        if want == "keep":
            self.action_buttons = [
                Button((x, y, 190, 44), N_("Keep these"), self.confirm_keep, key=pygame.K_RETURN, size=24,
                       enabled=lambda: len(t.selected) == t.state.hand_size()),
                Button((x, y + 52, 190, 44), N_("Choose for me"), self.suggest_keep, key=pygame.K_s, size=24)]
        elif want == "steal":
            self.action_buttons = [Button((x, y + 52, 190, 44), N_("Don't steal"), self.skip_steal,
                                          key=pygame.K_n, size=24)]
        else:
            self.action_buttons = []
