"""The Royals & Riots table: the hands, the trick, piles and loots, the rank card, the scores,
mouse and keyboard play, the "pass to NAME" screen, the last trick, the round's score table
and the match's result.

The scene draws a display model (:class:`~game.client.royals.anims.View`) that follows the
match one :class:`~game.royals.match.Beat` at a time; decisions (people's clicks,
computers' answers) wait until every beat has played. Privacy: with two or more people at
the screen, a hand is face up only for the person whose decision it is, after that person
has clicked through the "pass to NAME" screen, and never while another screen (the pause
menu) lies over the table; that person is then told what happened since their last decision
(:mod:`.news`); with one person, only that person's hand is ever face up; with none, no hand is.

This module is the match driver: the beats and their sounds, the computers' turns at the pace
of the ``computer_speed`` setting, a finished trick held until a click (``hold_trick``; both
read by :func:`table_setting`), decisions with one possibility made at once, undo (never past
a deal), hints, opening and closing the score table, and what the table says (the prompt, the
notes under the score table). Three parts it holds do the rest, each reading the scene through
a small protocol: the table's geometry (:attr:`RoyalsTableScene.layout`, a
:class:`~.layout.TableLayout`), clicks and keys (:attr:`~RoyalsTableScene.controls`, a
:class:`~.controls.TableControls`) and the picture (:attr:`~RoyalsTableScene.painter`, a
:class:`~.drawing.TablePainter`).
"""

from __future__ import annotations

from collections import deque
from functools import partial
from typing import TYPE_CHECKING, Callable

import pygame

from game.fsutil import os_error_text
from game.i18n import N_, Text, Worded, _
from game.royals.engine import Action, Card, IllegalMoveError, Phase, State, team_of
from game.royals.explain import REASONS, hint_keep_text, hint_play_text, hint_steal_text, preview_execute
from game.royals.phrases import illegal_text

from ..dialogs import PauseMenu
from ..scene import AppLike, Scene
from ..theme import CANVAS
from ..widgets import Button
from .anims import DURATIONS, TRICK_HOLD, Anim, View, begin, end
from .analysis_view import analysis_button  # post-match analysis
from .art import card_name
from .controls import TableControls
from .drawing import TablePainter
from .layout import LEVEL_WORDS, MODAL_NAMES_W, TEAM_COLOURS, TableLayout
from .news import news_lines
from game.royals.match import Beat, TableMatch
from .thinking import RoyalsThinker

if TYPE_CHECKING:
    from ..app import App

#: Asked before an undo past cards shown since the person's move (:meth:`RoyalsTableScene.undo`).
UNDO_QUESTION = N_("Cards were shown since your move. Take it back anyway? The match then no longer "
                   "counts in your statistics.")
#: This game's key in the registry and the settings.
GAME_KEY = "royals-riots"
#: How long a computer's decision waits before it shows (times ``min_delay``) and how long a
#: finished trick stays (times its normal time), per ``computer_speed`` setting.
THINK_PACE = {"slow": 2.5, "normal": 1.0, "fast": 0.35}
TRICK_PACE = {"slow": 1.8, "normal": 1.0, "fast": 0.6}
#: Royals & Riots' sound effects (``assets/sounds/<name>.wav``, made by ``assets/make_sounds.py``), its
#: client's ``sounds``; the first is the one its settings screen plays at a new volume.
SOUNDS = ("royals_play", "royals_deal", "royals_draw", "royals_trick_won", "royals_steal", "royals_execution",
          "royals_revolution", "royals_prince", "royals_round_end", "royals_match_won", "royals_match_lost")
#: The sound each beat starts with (one of :data:`SOUNDS`).
BEAT_SOUNDS = {"deal": "royals_deal", "play": "royals_play", "draw": "royals_draw", "steal": "royals_steal",
               "execute": "royals_execution", "revolution": "royals_revolution", "restore": "royals_prince",
               "trick": "royals_trick_won"}


def table_setting(app: AppLike, name: str, default: object) -> object:
    """A Royals & Riots table setting (``computer_speed``, ``hold_trick``): the field ``name`` of
    the game's section of the app's settings (``app.prefs.settings.of("royals-riots")``, a
    :class:`game.schema.Section`), or ``default`` if the section has no such field. The one
    place the table reads its settings."""
    return app.prefs.settings.of(GAME_KEY).get(name, default)

__all__ = ["RoyalsTableScene", "LEVEL_WORDS", "MODAL_NAMES_W", "TEAM_COLOURS", "REASONS"]


#: The autosave hook a table is given (:func:`.saving.autosaver`): called with the match after every
#: action, with None when the table closes.
Saver = Callable[[TableMatch | None], None]


class RoyalsTableScene(Scene):
    """A match of :class:`TableMatch` at this screen. ``on_new_game`` starts a rematch with the
    same seats; ``on_main_menu`` leaves; ``saver`` (optional) is called with the match after
    every action (autosave)."""

    app: "App"

    def __init__(self, app: "App", match: TableMatch, on_new_game: Callable[[], None],
                 on_main_menu: Callable[[], None], thinker: RoyalsThinker | None = None,
                 min_delay: float = 0.45, saver: Saver | None = None,
                 advance: bool = True) -> None:
        super().__init__(app)
        self.match = match
        self.on_new_game = on_new_game
        self.on_main_menu = on_main_menu
        self.thinker = thinker or RoyalsThinker(match.config.seconds, match.config.seed)
        self.min_delay = min_delay
        self.saver = saver
        self.humans = match.config.humans()
        self.view = View.of(match.state)
        self.queue: deque[Beat] = deque()
        self.anim: Anim | None = None
        self.revealed = self.humans[0] if len(self.humans) == 1 else 0
        self.passing = 0          # the person the screen waits for ("pass to NAME"), 0: none
        self.thinking = 0         # the computer seat being asked, 0: none
        self.think_time = 0.0
        self.clock = 0.0
        self.selected: set[Card] = set()   # KEEP: the cards chosen for the hand
        self.focus = 0                     # keyboard focus (index into the current choices)
        self.armed: tuple[int, int] | None = None  # (ply, person) whose keys show the mark (controls.keys_armed)
        self.mouse = (0, 0)
        self.steal_target = 0              # STEAL: the robbed seat picked, before its card is clicked
        self.steal_from: tuple[int, int] | None = None  # where the clicked face-down card lies
        self.toast = ""
        self.toast_time = 0.0
        self.show_last = False
        self.modal = ""                    # "round" (score table) or "over" (result)
        self.modal_time = 0.0
        self.round_shown = 0
        self.hint_text = ""
        self._held: Action | None = None
        self._shown_look: tuple | None = None  # what the last drawn frame showed (see at_rest)
        self._save_error_shown: OSError | None = None  # the autosave's failure last said
        self.journal: list[Beat] = []      # every beat of this sitting, for "since your last turn"
        self.seen: dict[int, int] = {}     # person -> how much of the journal they saw at their last decision
        self.news: tuple[int, list[Beat]] | None = None  # (person, beats they missed) shown on getting the table
        self.holding = False               # the finished trick waits for a click ("keep the trick")
        self.hint_cards: set[Card] = set()  # the cards the hint marks (the hand choice's, the card to play or execute)
        self.hint_seat = 0                  # the seat the hint marks (the Thief's target, a team's leader)
        self.round_loot: list[list[Card]] = [[] for _ in range(match.players)]  # the last round's loots
        self.reveal_all = False  # the replay viewer shows every hand
        self.hinter: RoyalsThinker | None = None
        self.hint_for = -1
        self.modal_buttons: list[Button] = []
        self.layout = TableLayout(self)
        self.controls = TableControls(self, self.layout)
        self.painter = TablePainter(self, self.layout, self.controls)
        x = CANVAS[0] - 210
        self.buttons = [
            Button((x, 0, 190, 44), N_("Hint"), self.hint, key=pygame.K_h, size=24,
                   enabled=lambda: bool(self.my_turn())),
            Button((x, 0, 190, 44), N_("Undo"), self.undo, key=pygame.K_u, size=24,
                   enabled=lambda: self.match.can_undo() and self.idle() and not self.modal),
            Button((x, 0, 190, 44), N_("Last trick"), self.toggle_last, key=pygame.K_l, size=24,
                   enabled=lambda: self.match.last_trick is not None),
            Button((x, 0, 190, 44), N_("Menu"), self.pause, size=24),
        ]
        if not self.match.undo_seat():
            self.buttons.pop(1)
        for k, b in enumerate(self.buttons):  # one a row: "Rückgängig" fits no half row
            b.rect.y = 500 + 52 * k
        if advance:  # play the chance events due (a replay pushes the record's own instead)
            self._queue_beats(self.match.advance())

    @property
    def state(self) -> State:
        return self.match.state

    @property
    def n(self) -> int:
        return self.match.players

    def speed(self) -> float:
        return self.app.options.anim_speed

    def viewer(self) -> int:
        """The seat drawn at the bottom."""
        if len(self.humans) == 1:
            return self.humans[0]
        if len(self.humans) >= 2:
            return self.passing or self.revealed or self.match.human_to_act() or self.humans[0]
        return 1

    def face_up_seat(self) -> int:
        """The one seat whose hand may be drawn face up now (0: none). With several people at
        the screen, none while another screen lies over the table (the pause menu dims it, and
        dimmed cards can still be read)."""
        if self.passing:
            return 0
        if len(self.humans) >= 2 and self.app.top is not self:
            return 0
        if len(self.humans) == 1:
            return self.humans[0]
        if len(self.humans) >= 2:
            h = self.match.human_to_act()
            return self.revealed if self.revealed and h == self.revealed and self.idle() and not self.modal else 0
        return 0

    def idle(self) -> bool:
        return self.anim is None and not self.queue

    def my_turn(self) -> int:
        """The person who may act now (idle, no screen in the way), else 0."""
        if not self.idle() or self.passing or self.modal or self.news is not None:
            return 0
        h = self.match.human_to_act()
        if h and (len(self.humans) == 1 or h == self.revealed):
            return h
        return 0

    def say(self, text: Text) -> None:
        """Show ``text`` for 2.6 s over the hand: a function that words it (worded at every draw, so
        a language change shows at once) or a fixed string."""
        self.toast, self.toast_time = text, 2.6

    toast = Worded(
        'The toast\'s words in the current language ("" for none; see :attr:`toast_time`).')

    hint_text = Worded(
        'The hint after the prompt ("Hint: play the Thief."), in the current language; "" for none.')

    def unsaved_game(self) -> bool:
        return bool(self.state.history) and not self.state.is_over() and self.saver is None

    def look(self) -> tuple:
        """Everything the picture depends on besides the beats and the mouse (which are events):
        when this changes between two frames, the window draws again."""
        return (self.state.ply, self.passing, self.revealed, self.modal, self.thinking, self.hint_text,
                self.news is not None, self.holding, len(self.hint_cards),
                self.show_last, self.steal_target, len(self.selected), self.focus, self.controls.buttons_for,
                self.toast if self.toast_time > 0 else "", self.view.trick_no, len(self.view.trick))

    def at_rest(self) -> bool:
        """Still when no beat plays (or a finished trick is held until a click, or the score table
        lies over the table: the beats behind it wait), no toast shows and nothing in :meth:`look`
        changed since the last check (a computer's answer, a network event)."""
        look = self.look()
        if look != self._shown_look:
            self._shown_look = look
            return False  # draw this change (the next check finds it still)
        return (self.idle() or self.holding or bool(self.modal)) and self.toast_time <= 0

    def quit_question(self) -> str | None:
        if self.saver is None:
            return super().quit_question()
        return None  # saved after every action: Continue brings it back

    # ------------------------------------------------------------------ input and picture (the parts)
    def uses_key(self, key: int) -> bool:
        return key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_RETURN, pygame.K_SPACE, pygame.K_UP, pygame.K_l,
                       pygame.K_ESCAPE, pygame.K_s, pygame.K_n, pygame.K_KP_ENTER, pygame.K_h, pygame.K_u, pygame.K_z)

    def handle_event(self, event: pygame.event.Event) -> None:
        self.controls.handle_event(event)

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        self.painter.draw(surface)

    def pause(self) -> None:
        """"Menu" (and Esc): the pause menu over the table."""
        self.app.push(PauseMenu(self.app, self.on_main_menu, self.unsaved_game))

    def toggle_last(self) -> None:
        """"Last trick": show the last finished trick again, or put it away."""
        if self.match.last_trick is not None:
            self.show_last = not self.show_last

    # ------------------------------------------------------------------ what the table says
    def prompt_text(self) -> str:
        """What the table asks now: the person's decision (with the hint, if one was asked), or
        which computer is thinking; "" for nothing."""
        seat = self.my_turn()
        text = ""
        if seat:
            text = self.decision_prompt(seat, self.state.phase)
        elif self.idle() and not self.passing and not self.modal:
            c = self.match.computer_to_act()
            if c:
                text = _("{name} is thinking…").format(name=self.match.name(c))
        if seat and self.hint_text:
            text = f"{text}  {self.hint_text}"
        return text

    def decision_prompt(self, seat: int, phase: Phase) -> str:
        """The line asking ``seat`` for its decision in ``phase`` (rules: the phases of a trick)."""
        if phase is Phase.KEEP:
            return _("{name}: choose the {n} cards to keep in hand; the rest become your pile.").format(
                name=self.match.name(seat), n=self.state.hand_size())
        if phase is Phase.PLAY:
            return _("{name}: play a card.").format(name=self.match.name(seat))
        if phase is Phase.STEAL and self.steal_target:
            return _("Thief: take one of {name}'s cards (you cannot see which).").format(
                name=self.match.name(self.steal_target))
        if phase is Phase.STEAL:
            return _("Thief: pick a player to rob (click their cards), or don't steal.")
        if phase is Phase.EXECUTE:
            return _("Executioner: pick a card in the trick to take out of the game.")
        if phase is Phase.START:
            return _("Your team starts: click who leads the first trick.")
        return ""

    def modal_notes(self) -> list[tuple[str, int]]:
        """Lines (text, px size) under the open modal's score table, inside its panel: who starts
        the next round. Subclasses add theirs; an empty text keeps its line's room (so the panel and
        its buttons do not move when the line fills in later)."""
        if self.modal == "round" and not self.state.is_over():
            nxt = self.state.next_starter()
            if nxt:
                return [(_("Round {r} starts with {name}.").format(name=self.match.name(nxt), r=self.state.round), 24)]
        if self.modal == "over" and self.match.undo_marked:
            return [(_("Played with undo: this match does not count in your statistics."), 22)]
        return []

    # ------------------------------------------------------------------ help: hints and undo
    def hint(self) -> None:
        """Ask the hard computer player what it would do here (for the person to act only); at
        the hand choice, mark the cards the computer players would keep."""
        seat = self.my_turn()
        if not seat:
            return
        if self.state.phase is Phase.KEEP:
            self.hint_cards = set(self.match.suggested_hand(seat))
            kept = tuple(self.hint_cards)
            self.hint_text = lambda: hint_keep_text(kept)
            return
        if self.hinter is None:
            self.hinter = RoyalsThinker(self.match.config.seconds, None, use_process=self.thinker.use_process)
        self.hint_for = self.state.ply
        self.hint_text = lambda: _("Thinking about a hint…")
        self.hinter.start(self.state, seat, "hard")

    def _poll_hint(self) -> None:
        if self.hinter is None or self.hint_for < 0:
            return
        if self.hint_for != self.state.ply:
            self.hinter.cancel()
            self.hint_for = -1
            self.hint_text = ""
            return
        try:
            a = self.hinter.poll()
        except RuntimeError:
            self.hint_for = -1
            self.hint_text = ""
            return
        if a is None:
            return
        self.hint_for = -1
        card, name = a.card, self.match.name
        obs = self.state.observation(self.my_turn() or a.seat)
        self.hint_cards = {card} if card is not None and a.kind.value in ("play", "execute") else set()
        self.hint_seat = 0
        if a.kind.value == "play" and card is not None:
            self.hint_text = partial(hint_play_text, obs, card)
        elif a.kind.value == "steal":
            self.hint_seat = a.target or 0
            self.hint_text = partial(hint_steal_text, obs, a.target, name)
        elif a.kind.value == "execute" and card is not None:
            res = preview_execute(obs, card)
            self.hint_text = lambda: _("Hint: execute {card}: the trick goes to {name}.").format(
                card=card_name(card), name=name(res.winner)) if res.winner else \
                _("Hint: execute {card}: then nobody takes the trick.").format(card=card_name(card))
        elif a.kind.value == "start":
            seat = self.hint_seat = a.seat
            self.hint_text = lambda: _("Hint: {name} leads, the partner with fewer points last round.").format(
                name=name(seat))

    def undo(self) -> None:
        """Take back the person's last decision (against computers), with everything after it.
        Past a card shown since that decision (a computer's card, the person's draw, the Thief's
        catch) the person is asked first: such an undo marks the match as played with undo, and
        it no longer counts in the statistics (:meth:`TableMatch.undo_shows`)."""
        if not self.match.can_undo() or self.modal or self.passing:
            self.say(lambda: _("Nothing to undo."))
            return
        if self.match.undo_shows() and not self.match.undo_marked:
            from ..dialogs import ConfirmDialog
            self.app.push(ConfirmDialog(self.app, UNDO_QUESTION, self.take_back, yes=N_("Undo"), no=N_("Cancel")))
            return
        self.take_back()

    def take_back(self) -> None:
        """The undo itself (see :meth:`undo`)."""
        marked = self.match.undo_marked
        self.thinker.cancel()
        self.thinking = 0
        self._held = None
        self.queue.clear()
        self.anim = None
        self.match.undo()
        self.view = View.of(self.state, self.view)
        self.selected.clear()
        self.hint_cards.clear()
        self.hint_seat = 0
        self.steal_target = 0
        self.armed = None  # the keyboard mark of the decision taken back is gone with it
        self.focus = 0
        self.hint_text = ""
        self.holding = False
        self.controls.buttons_for = None
        self._after_action()
        if self.match.undo_marked and not marked:
            self.say(lambda: _("Played with undo: this match does not count in your statistics."))

    def _queue_beats(self, beats: list[Beat]) -> None:
        self.queue.extend(beats)
        self.journal.extend(beats)

    def act(self, action: Action) -> bool:
        """Push a decision from this screen; False (with the reason shown) if it is not allowed."""
        who = self.my_turn()
        try:
            beats = self.match.apply(action)
        except IllegalMoveError as e:
            self.say(partial(self.explain, e.reason))
            return False
        self.selected.clear()
        self.hint_cards.clear()
        self.hint_seat = 0
        self.steal_target = 0
        self.focus = 0
        self.hint_text = ""
        self._queue_beats(beats)
        if who:
            self.seen[who] = len(self.journal)
        self._after_action()
        return True

    def hand_to(self, seat: int) -> None:
        """The "pass to NAME" screen was clicked through: ``seat`` gets the table, and with it
        what happened since that person's last decision (:func:`.news.news_lines`)."""
        self.revealed, self.passing = seat, 0
        missed = self.journal[self.seen.get(seat, len(self.journal)):]
        self.seen[seat] = len(self.journal)
        self.news = (seat, missed) if news_lines(missed, seat, self.match.name) else None

    def news_text(self) -> list[str]:
        """The lines of the "since your last turn" panel now shown (empty: none)."""
        if self.news is None:
            return []
        seat, missed = self.news
        return news_lines(missed, seat, self.match.name)

    def _after_action(self) -> None:
        if self.saver is not None:
            self.saver(self.match)

    def explain(self, reason: str) -> str:
        """The engine's (English) reason for a refused decision as a sentence in the player's
        language, the seats by their names (:func:`game.royals.phrases.illegal_text`)."""
        return illegal_text(reason, self.match.name)

    def save_error(self) -> OSError | None:
        """The last autosave's failure (None after a good write, or without autosave): the
        :class:`game.saves.BackgroundAutosaver` behind :func:`.saving.autosaver`'s hook."""
        return getattr(getattr(self.saver, "saver", None), "error", None)

    def update(self, dt: float) -> None:
        self.clock += dt
        self._poll_hint()
        error = self.save_error()
        if error is not None and error is not self._save_error_shown:
            self._save_error_shown = error  # said once per failure, in the player's language
            self.say(lambda: _("The match could not be saved: {reason}").format(reason=os_error_text(error)))
        if self.toast_time > 0:
            self.toast_time -= dt
        self._advance(dt)
        self.controls.layout_action_buttons()

    def _advance(self, dt: float) -> None:
        """The match moves on: the beats play, then whoever decides next is asked (a computer),
        shown the pass screen (one of several people) or spared a forced choice."""
        if self.modal:
            self.modal_time += dt
            if not self.humans and self.modal == "round" and self.modal_time > 2.5 / max(0.5, self.speed() or 4):
                self.close_modal()
            return
        if not self._play_beats(dt):
            return
        self.view = View.of(self.state, self.view) if self.view.trick_no != self.state.trick_no or \
            len(self.view.trick) != len(self.state.trick) else self.view
        # whose decision?
        h = self.match.human_to_act()
        if h and self._forced_choice(h):
            return  # made at once, before any pass screen: there is nothing to choose
        if h and len(self.humans) >= 2 and h != self.revealed and not self.passing:
            self.passing = h
            self.revealed = 0
            self.news = None
        c = self.match.computer_to_act()
        if c:
            self._computer(c, dt)

    def _forced_choice(self, seat: int) -> bool:
        """Make ``seat``'s decision when it has one possibility only: the Executioner with one
        other card in the trick (ruling 7: the execution is compulsory). The one person against
        computers is told; people at one screen learn it from "since your last turn" (no pass
        screen comes for it). True if it was made. A Thief with one hand to rob has it picked
        (not robbed: not stealing stays open)."""
        if self.state.phase is Phase.STEAL and self.my_turn() == seat and not self.steal_target:
            targets = self.controls.targets(seat)
            if len(targets) == 1:
                self.steal_target = targets[0]
            return False
        if self.state.phase is not Phase.EXECUTE or self.passing:
            return False
        acts = self.state.legal_actions()
        if len(acts) != 1 or acts[0].card is None or acts[0].seat != seat:
            return False
        card = acts[0].card
        if self.my_turn() == seat:  # the way every decision of this screen goes (a network table: the session)
            if not self.act(acts[0]):
                return False
        elif len(self.humans) >= 2:  # people at one screen: made before the pass screen, nobody need look
            self._queue_beats(self.match.apply(acts[0]))
            self._after_action()
        else:
            return False
        if len(self.humans) == 1:
            self.say(lambda: _("The Executioner could only take {card}.").format(card=card_name(card)))
        return True

    def _play_beats(self, dt: float) -> bool:
        """Advance the running beat animations by ``dt``; True when none is left (and no modal opened)."""
        for _i in range(64):  # instant speed plays many beats in one update
            if self.anim is None:
                if not self.queue:
                    break
                beat = self.queue.popleft()
                if beat.kind == "round":
                    self.round_loot = [list(cards) for cards in self.view.loot]  # before the view moves on
                    self.view = View.of(self.state, self.view) if not self.queue else self.view
                    self.open_modal("over" if self.queue and self.queue[0].kind == "over" else "round", beat)
                    if self.queue and self.queue[0].kind == "over":
                        self.queue.popleft()
                    return False
                if beat.kind == "over":
                    self.open_modal("over", beat)
                    return False
                speed = self.speed()
                dur = 0.0 if speed <= 0 else DURATIONS.get(beat.kind, 0.3) / speed
                if beat.kind in ("trick", "void"):
                    dur *= TRICK_PACE[self.pacing()]
                self.anim = Anim(beat, dur)
                self._start_anim(self.anim)
            a = self.anim
            if self.holds_trick() and a.beat.kind in ("trick", "void"):
                hold = a.duration * TRICK_HOLD / DURATIONS["trick"]
                if a.t + dt >= hold and not a.data.get("released"):
                    a.t = max(a.t, hold)
                    self.holding = True
                    break
            a.t += dt if a.duration > 0 else 0
            if a.done:
                end(self.view, a.beat)
                self.anim = None
                if not self.queue:
                    self.view = View.of(self.state, self.view)
                continue
            break
        return self.idle()

    def pacing(self) -> str:
        """The computers' pace: ``"slow"``, ``"normal"`` or ``"fast"`` (the Royals & Riots setting
        ``computer_speed``; see :func:`table_setting`)."""
        pace = table_setting(self.app, "computer_speed", "normal")
        return pace if pace in THINK_PACE else "normal"

    def holds_trick(self) -> bool:
        """Whether a finished trick stays with its winner shown until a click (the setting
        ``hold_trick``, "keep the trick until I click"; only with a person at the table)."""
        return bool(self.humans) and self.speed() > 0 and bool(table_setting(self.app, "hold_trick", False))

    def release_trick(self) -> None:
        """The click that lets a held trick go to its winner."""
        if self.anim is not None and self.holding:
            self.anim.data["released"] = True
        self.holding = False

    def _start_anim(self, a: Anim) -> None:
        b = a.beat
        if self.speed() > 0:
            self.play_sound(BEAT_SOUNDS.get(b.kind, ""))
        if b.kind == "steal" and self.humans == [b.target]:  # the one person was robbed: say what went and came
            self.say(partial(lambda beat: news_lines([beat], beat.target, self.match.name)[0], b))
        if b.kind == "play":
            hand = self.view.hands[b.seat - 1]
            src = self.layout.hand_card_center(b.seat, hand.index(b.card) if b.card in hand else 0, len(hand))
            a.data["src"] = src
        elif b.kind == "steal":
            hand = self.view.hands[b.target - 1]
            a.data["src"] = self.steal_from or self.layout.hand_card_center(
                b.target, hand.index(b.card) if b.card in hand else 0, len(hand))
            self.steal_from = None
            back = next((c for s, c in self.view.trick if s == b.target), None)
            a.data["back"] = back
        begin(self.view, b)

    def _computer(self, seat: int, dt: float) -> None:
        if self.thinking != seat:
            self.thinking = seat
            self.think_time = 0.0
            self._held = None
            level = self.match.config.seats[seat - 1].level or "random"
            self.thinker.start(self.state, seat, level)
        self.think_time += dt
        action = self._held
        if action is None:
            try:
                action = self.thinker.poll()
            except RuntimeError as e:
                self.say(str(e))
                self.thinking = 0
                return
        if action is None:
            return
        speed = self.speed()
        if speed > 0 and self.think_time < self.min_delay * THINK_PACE[self.pacing()] / speed:
            self._held = action  # a moment to see whose turn it is
            return
        self.thinking = 0
        self._held = None
        try:
            beats = self.match.apply(action)
        except IllegalMoveError as e:  # a computer must never break a rule; show it, ask again
            self.say(partial(self.explain, e.reason))
            return
        self._queue_beats(beats)
        self._after_action()

    def play_sound(self, name: str) -> None:
        """Play the effect ``name`` through the app's sound settings; a name not among this game's
        :data:`SOUNDS` (or "") is skipped."""
        if name in SOUNDS:
            self.app.prefs.play(name)

    def open_modal(self, kind: str, beat: Beat | None) -> None:
        self.modal = kind
        self.modal_time = 0.0
        self.round_shown = len(self.state.round_scores)
        self.view = View.of(self.state, self.view)
        self.holding = False
        if kind == "over":  # (the statistics count the match in the autosave: .saving.autosaver)
            self.play_sound(self.over_sound())
        else:
            self.play_sound("royals_round_end")
        if kind == "round":
            self.modal_buttons = self.layout.modal_button_row([(N_("Next round"), self.close_modal, pygame.K_RETURN)])
        else:
            self.modal_buttons = self.layout.modal_button_row([(N_("Rematch"), self.on_new_game, pygame.K_r),
                                                               analysis_button(self.app, self.match),  # post-match analysis
                                                               (N_("Main menu"), self.on_main_menu, pygame.K_m)])

    def close_modal(self) -> None:
        if self.modal == "round":
            self.modal = ""
            self.modal_buttons = []

    def over_sound(self) -> str:
        """The match's last sound: won or lost for the one person at the table (a team's win
        counts), a win with several people or none (somebody at the screen won)."""
        out = self.state.outcome()
        if out is None or len(self.humans) != 1:
            return "royals_match_won"
        return "royals_match_won" if self.humans[0] in self.winning_seats() else "royals_match_lost"

    def winning_seats(self) -> set[int]:
        """The seats that won the match (a team's win: both its members); empty before the end."""
        out = self.state.outcome()
        if out is None:
            return set()
        if self.state.teams:
            teams = {team_of(w) for w in out.winners}
            return {s for s in range(1, self.n + 1) if team_of(s) in teams}
        return set(out.winners)

    def close(self) -> None:
        self.thinker.close()
        if self.hinter is not None:
            self.hinter.close()
        if self.saver is not None:
            self.saver(None)  # write what is pending and stop the autosave thread
