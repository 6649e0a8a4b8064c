"""Mouse and keyboard at the Royals & Riots table: what a click or a key means in each phase
(choosing the hand, playing a card, the Thief's and the Executioner's choices, a team's
starter), the arrow keys' focus, and the buttons of the decision at hand.

:class:`TableControls` is a mixin of :class:`~game.client.royals.scene.RoyalsTableScene`;
every decision goes through the scene's :meth:`act`.
"""

from __future__ import annotations


import pygame

from game.i18n import N_, _
from game.royals.engine import Action, Card, Phase

from ..dialogs import PauseMenu
from ..theme import CANVAS
from ..widgets import Button, handle_buttons

from .art import card_name
from .layout import LIFT


class TableControls:
    """Clicks and keys at the table (a mixin of the table scene)."""

    def uses_key(self, key: int) -> bool:
        return key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_RETURN, pygame.K_SPACE, pygame.K_UP, pygame.K_l,
                       pygame.K_ESCAPE, pygame.K_s, pygame.K_n, pygame.K_KP_ENTER, pygame.K_h, pygame.K_u, pygame.K_z)

    def pause(self) -> None:
        self.app.push(PauseMenu(self.app, self.on_main_menu, self.unsaved_game))

    def toggle_last(self) -> None:
        if self.match.last_trick is not None:
            self.show_last = not self.show_last

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        if self.modal:
            if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                self.pause()
                return
            handle_buttons(self.modal_buttons, event)
            return
        if self.passing:
            if (event.type == pygame.MOUSEBUTTONUP and event.button == 1) or (
                    event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER)):
                self.hand_to(self.passing)
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                self.pause()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_z and event.mod & pygame.KMOD_CTRL:
            self.undo()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if self.show_last:
                self.show_last = False
            else:
                self.pause()
            return
        if self.show_last:
            if event.type in (pygame.MOUSEBUTTONUP, pygame.KEYDOWN):
                self.show_last = False
            return
        if self.news is not None:  # "since your last turn": any click or key puts it away
            if event.type in (pygame.MOUSEBUTTONUP, pygame.KEYDOWN):
                self.news = None
            return
        if handle_buttons(self.buttons + self.action_buttons, event):
            return
        if self.holding and (event.type == pygame.MOUSEBUTTONUP or (
                event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER))):
            self.release_trick()  # "keep the trick until I click": this is the click
            return
        seat = self.my_turn()
        if not seat:
            if event.type == pygame.MOUSEBUTTONUP and not self.idle():
                self._skip_anims()
            return
        phase = self.state.phase
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self._click(seat, phase, event.pos)
        elif event.type == pygame.KEYDOWN:
            self._key(seat, phase, event.key)

    def _skip_anims(self) -> None:
        if self.anim is not None:
            self.anim.t = self.anim.duration

    def choices(self, seat: int) -> list:
        """What the arrow keys move through now: cards of the hand, seats to rob, cards of the trick."""
        phase = self.state.phase
        if phase is Phase.KEEP:
            return list(self.state.observation(seat).dealt)
        if phase is Phase.PLAY:  # the playable cards only, in the hand's order
            legal = {a.card for a in self.state.legal_actions()}
            return [c for c in self.view.hands[seat - 1] if c in legal]
        if phase is Phase.STEAL:
            return [a.target for a in self.state.legal_actions() if a.target is not None]
        if phase is Phase.EXECUTE:
            return [a.card for a in self.state.legal_actions()]
        if phase is Phase.START:
            return [a.seat for a in self.state.legal_actions()]
        return []

    def _focused(self):
        """The choice the keyboard mark points at now (a card, a seat), or None: none before the
        person's first key of this decision (:meth:`keys_armed`)."""
        seat = self.my_turn()
        items = self.choices(seat) if seat and self.keys_armed() else []
        return items[self.focus % len(items)] if items else None

    def keys_armed(self) -> bool:
        """Whether the keyboard mark shows for the decision awaited now: a key (an arrow, Enter,
        Space) of this person since their last decision. Until then Enter and Space only show the
        mark, so the Enter that gets a person the table (the pass screen's) or one pressed twice
        never also plays a card."""
        return self._armed == (self.state.ply, self.my_turn())

    def _key(self, seat: int, phase: Phase, key: int) -> None:
        items = self.choices(seat)
        if not items:
            return
        armed = self.keys_armed()
        self._armed = (self.state.ply, seat)
        if key in (pygame.K_LEFT, pygame.K_RIGHT):
            if armed:
                self.focus = (self.focus + (1 if key == pygame.K_RIGHT else -1)) % len(items)
            return
        item = items[self.focus % len(items)]
        if not armed and key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE, pygame.K_UP):
            self._show_mark(phase, item)  # the first key shows the mark; the next one chooses
            return
        if phase is Phase.KEEP:
            if key in (pygame.K_SPACE, pygame.K_UP):
                self._toggle_keep(item)
            elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.confirm_keep()
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            if phase is Phase.PLAY:
                self.act(Action.play(seat, item))
            elif phase is Phase.STEAL:
                if self.steal_target == item:
                    self.act(Action.steal(seat, item))
                else:
                    self.steal_target = item
            elif phase is Phase.EXECUTE:
                self.act(Action.execute(seat, item))
            elif phase is Phase.START:
                self.act(Action.start(item))

    def _show_mark(self, phase: Phase, item) -> None:
        """Say what the next Enter (or Space) does, now that the keyboard mark shows."""
        if phase is Phase.PLAY:
            name = card_name(item)
            self.say(lambda: _("Press Enter again to play {card}, or the arrow keys to choose another card.").format(
                card=name))
        elif phase is Phase.KEEP:
            self.say(lambda: _(
                "Space puts the marked card in your hand or takes it out; the arrow keys move the mark."))
        else:
            self.say(lambda: _("Press Enter again to choose the marked one, or the arrow keys to move the mark."))

    def _click(self, seat: int, phase: Phase, pos: tuple[int, int]) -> None:
        if phase is Phase.KEEP:
            dealt = list(self.state.observation(seat).dealt)
            for card, r in reversed(list(zip(dealt, self._keep_rects(dealt)))):
                if r.collidepoint(pos):
                    self._toggle_keep(card)
                    return
        elif phase is Phase.PLAY:
            card = self.card_at(pos)
            if card is not None:
                self.act(Action.play(seat, card))
        elif phase is Phase.STEAL:
            # first the player to rob, then one of their face-down cards (which one is chance: unseen)
            # or their glowing name box again
            if self.steal_target:
                rects = self.back_rects(self.steal_target, len(self.view.hands[self.steal_target - 1]))
                for r in reversed(rects):
                    if r.collidepoint(pos):
                        self.steal_from = r.center
                        self.act(Action.steal(seat, self.steal_target))
                        return
                if self.plate_rect(self.steal_target).collidepoint(pos):
                    self.steal_from = None
                    self.act(Action.steal(seat, self.steal_target))
                    return
            for t in self.choices(seat):
                if any(r.collidepoint(pos) for r in self.back_rects(t, len(self.view.hands[t - 1]))) \
                        or self.plate_rect(t).collidepoint(pos):
                    self.steal_target = t
                    return
        elif phase is Phase.EXECUTE:
            for s, c in reversed(self.view.trick):
                if c.name != "EXECUTIONER" and self._trick_rect(s).collidepoint(pos):
                    self.act(Action.execute(seat, c))
                    return
        elif phase is Phase.START:
            for t in self.choices(seat):
                if self.plate_rect(t).collidepoint(pos):
                    self.act(Action.start(t))
                    return

    def card_at(self, pos: tuple[int, int]) -> Card | None:
        hand = self.view.hands[self.viewer() - 1]
        rects = self.hand_rects(len(hand))
        for card, r in reversed(list(zip(hand, rects))):
            if r.inflate(0, LIFT * 2).collidepoint(pos):
                return card
        return None

    def _toggle_keep(self, card: Card) -> None:
        if card in self.selected:
            self.selected.discard(card)
        elif len(self.selected) < self.state.hand_size():
            self.selected.add(card)
        else:
            n = self.state.hand_size()
            self.say(lambda: _("Your hand holds {n} cards: put one back first.").format(n=n))

    def confirm_keep(self) -> None:
        seat = self.my_turn()
        if not seat or self.state.phase is not Phase.KEEP:
            return
        if len(self.selected) != self.state.hand_size():
            n = self.state.hand_size()
            self.say(lambda: _("Choose {n} cards for your hand.").format(n=n))
            return
        self.act(Action.keep(seat, sorted(self.selected)))

    def suggest_keep(self) -> None:
        seat = self.my_turn()
        if seat and self.state.phase is Phase.KEEP:
            self.selected = set(self.match.suggested_hand(seat))

    def skip_steal(self) -> None:
        seat = self.my_turn()
        if seat and self.state.phase is Phase.STEAL:
            self.act(Action.steal(seat, None))

    def _layout_action_buttons(self) -> None:
        seat = self.my_turn()
        phase = self.state.phase if seat else None
        want = {Phase.KEEP: "keep", Phase.STEAL: "steal"}.get(phase, "") if phase else ""
        if getattr(self, "_buttons_for", None) == want:
            return
        self._buttons_for = want
        x, y = CANVAS[0] - 210, 396
        if want == "keep":
            self.action_buttons = [
                Button((x, y, 190, 44), N_("Keep these"), self.confirm_keep, key=pygame.K_RETURN, size=24,
                       enabled=lambda: len(self.selected) == self.state.hand_size()),
                Button((x, y + 52, 190, 44), N_("Choose for me"), self.suggest_keep, key=pygame.K_s, size=24)]
        elif want == "steal":
            self.action_buttons = [Button((x, y + 52, 190, 44), N_("Don't steal"), self.skip_steal,
                                          key=pygame.K_n, size=24)]
        else:
            self.action_buttons = []
