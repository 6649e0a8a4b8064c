"""Royals & Riots' new-match set-up (2-4 seats, each a person or a computer level, names,
teams for 4, who starts round 1), its title art, and starting a match."""

from __future__ import annotations

import logging
import math
from functools import partial
from typing import TYPE_CHECKING, Callable

import pygame

from game.i18n import N_, _
from game.royals.engine import CARDS
from game.settings import MAX_NAME_LENGTH

from ..theme import CANVAS, CREAM, GOLD
from ..textinput import TextInput
from ..widgets import Button, ButtonScene, elide, panel
from .art import royals_art
from .scene import LEVEL_WORDS as LEVEL_LABELS, RoyalsTableScene, Saver
from game.royals.match import LEVELS, Seat, TableConfig, TableMatch
from .thinking import RoyalsThinker

if TYPE_CHECKING:
    from ..app import App
    from ..scene import AppLike

log = logging.getLogger(__name__)

#: Seconds after which the title's cards come to rest (as the main menu's, games.TITLE_SETTLE).
TITLE_SETTLE = 4.0
#: Names the computer seats get by default.
COMPUTER_NAMES = ("Ada", "Bram", "Cato", "Dora")


#: Computer level -> what playing against it feels like, in one or two English sentences (the
#: figures from docs/royals-ai.md's matches between the levels), shown beside the seats;
#: translated when shown (:func:`level_blurb`).
LEVEL_BLURBS = {
    "random": N_("Plays any card it may and has no plan at all; good for learning the rules."),
    "greedy": N_("Plays each trick sensibly but never plans ahead; it spends strong cards early and is easy "
                 "to read."),
    "easy": N_("Plays like Casual but slips now and then; a relaxed opponent who gives away the odd trick."),
    "medium": N_("A steady player who remembers the cards it has seen; it wins nine games in ten against "
                 "Easy. It never peeks at hidden cards."),
    "hard": N_("A strong, patient player who weighs many possible deals before each card; it beats Medium "
               "about two games in three. It never peeks at hidden cards."),
}


def level_blurb(level: str) -> str:
    """One sentence on how the computer ``level`` plays, in the current language ("" for an
    unknown level)."""
    return _(LEVEL_BLURBS[level]) if level in LEVEL_BLURBS else ""


def level_label(level: str | None) -> str:
    return _("Person") if level is None else _("Computer · {level}").format(level=_(LEVEL_LABELS[level]))


def default_level(app: "AppLike") -> str:
    """Royals & Riots' "Default computer level" setting, else ``medium``."""
    try:
        level = app.prefs.store.settings.of("royals-riots").computer_level
    except Exception:  # noqa: BLE001 - a settings problem must never keep a player from a game
        level = None
    return level if level in LEVELS else "medium"


def draw_title(surface: pygame.Surface, app: "AppLike", clock: float, y: int = 150) -> None:
    """The table, the title, and a fan of cards that sways gently for :data:`TITLE_SETTLE`
    seconds of ``clock``, then rests (the screen can then be still)."""
    clock = min(clock, TITLE_SETTLE)
    surface.blit(app.art.table, (0, 0))
    ra = royals_art(app)
    title = app.art.text(_("Royals & Riots"), 110, GOLD, shadow=True)
    surface.blit(title, title.get_rect(center=(CANVAS[0] // 2, y)))
    sub = app.art.text(_("Win tricks, start a revolution, keep your head"), 30, CREAM, shadow=True)
    surface.blit(sub, sub.get_rect(center=(CANVAS[0] // 2, y + 74)))
    for i, name in enumerate(("KING", "P7")):
        card = next(c for c in CARDS if c.name == name)
        img = pygame.transform.rotozoom(ra.face(card), (-1 if i else 1) * (10 + 3 * math.sin(clock * 1.5 + i)), 0.8)
        x = CANVAS[0] // 2 + (-1 if i == 0 else 1) * (title.get_width() // 2 + 80)
        surface.blit(img, img.get_rect(center=(x, y + 10)))


def start_match(app: "App", config: TableConfig, *, min_delay: float = 0.45, use_process: bool = True,
                autosave: bool = True) -> RoyalsTableScene:
    """Replace the whole stack by a new match of ``config`` (autosaved after every action);
    "Rematch" starts another with the same seats."""
    from .saving import autosaver
    match = TableMatch(config)
    return play_match(app, match, autosaver(match, stats=app.stats) if autosave else None, min_delay=min_delay,
                      use_process=use_process)


def play_match(app: "App", match: TableMatch, saver: Saver | None, *, min_delay: float = 0.45,
               use_process: bool = True) -> RoyalsTableScene:
    """Replace the whole stack by the table of ``match``."""
    config = match.config

    def again() -> None:
        if config.seed is not None:
            config.seed += 1
        start_match(app, config, min_delay=min_delay, use_process=use_process, autosave=saver is not None)

    scene = RoyalsTableScene(app, match, on_new_game=again, on_main_menu=app.go_home,
                             thinker=RoyalsThinker(config.seconds, config.seed, use_process=use_process),
                             min_delay=min_delay, saver=saver)
    app.reset(scene)
    return scene


def resume(app: "App", path) -> RoyalsTableScene:
    """Play on the saved match at ``path`` (its autosave goes on in the same file).
    Raises SaveError / ValueError for a bad file, and ValueError for a network match (kind
    ``"lan"``): it goes on only with its players, by joining its host again; here it is watched
    (``open_file`` then opens the replay viewer)."""
    from game.saves import read_json_record

    from .saving import autosaver, load
    if read_json_record(path).get("kind") == "lan":
        raise ValueError(_("a network game can only be resumed with its opponent"))
    match, save = load(path)
    return play_match(app, match, autosaver(match, save, app.stats))


class RoyalsSetup(ButtonScene):
    """Choose the seats (2-4; each a person or a computer level; names), teams, who starts.

    The set-up of the last match started here is kept in the settings (Royals & Riots' ``table``, see
    :mod:`game.royals.settings`) and offered again when the set-up opens, also after a
    restart; a stored set-up that cannot be used gives the defaults."""

    def __init__(self, app: "App", start: Callable[[TableConfig], None] | None = None) -> None:
        super().__init__(app)
        self.clock = 0.0
        self.start_fn = start or (lambda cfg: start_match(app, cfg))
        self.count = 3
        level = default_level(app)
        self.levels: list[str | None] = [None, level, level, level]
        self.teams = False
        self.starter = 0
        self.described: int | None = None  # the seat whose level the description box explains
        self.rect = pygame.Rect(CANVAS[0] // 2 - 400, 222, 800, 560)
        self.fields = [TextInput((self.rect.x + 170, self.rect.y + 120 + 56 * i, 260, 44),
                                 _("You") if i == 0 else COMPUTER_NAMES[i], max_len=MAX_NAME_LENGTH, size=24)
                       for i in range(4)]
        self.restore()
        self._build()

    def remembered(self) -> dict:
        """This set-up as the settings keep it (Royals & Riots' ``table`` setting): the seats in use with
        their names as typed and levels (None: a person), teams, the starter."""
        return {"seats": [{"name": self.fields[i].text, "level": self.levels[i]} for i in range(self.count)],
                "teams": self.teams and self.count == 4, "starter": self.starter}

    def restore(self) -> bool:
        """Take the last set-up kept in the settings, if any; True when one was taken. A stored
        set-up this screen cannot show (validated by the settings, so only a level this build
        does not offer) is ignored whole: the defaults stay, the player can start at once."""
        try:
            kept = self.app.prefs.store.settings.of("royals-riots").table
            seats = kept.get("seats", [])
            if not 2 <= len(seats) <= 4 or any(seat["level"] not in (None, *LEVELS) for seat in seats):
                return False
            count, teams, starter = len(seats), bool(kept["teams"]) and len(seats) == 4, int(kept["starter"])
        except Exception:  # noqa: BLE001 - a settings problem must never keep a player from a game
            return False
        self.count, self.teams, self.starter = count, teams, starter if 0 <= starter <= count else 0
        for i, seat in enumerate(seats):
            self.levels[i] = seat["level"]
            self.fields[i].set_text(str(seat["name"])[:MAX_NAME_LENGTH])
        return True

    def remember(self) -> None:
        """Keep this set-up in the settings for the next match (a failed write is the settings'
        notice; a refused value is logged and the match starts all the same)."""
        try:
            self.app.prefs.store.update_game("royals-riots", table=self.remembered())
        except Exception:  # noqa: BLE001 - a settings problem must never keep a player from a game
            log.exception("cannot keep the Royals & Riots set-up")

    def _build(self) -> None:
        r = self.rect
        x0 = r.x + 40
        self.buttons = []
        for i, n in enumerate((2, 3, 4)):
            self.buttons.append(Button((x0 + 130 + i * 90, r.y + 40, 80, 48), str(n), partial(self.set_count, n),
                                       key=getattr(pygame, f"K_{n}"), selected=partial(self.count_is, n), size=28))
        self.seat_buttons = [Button((r.x + 450, r.y + 120 + 56 * i, 310, 44), partial(self.level_text, i),
                                    partial(self.cycle_level, i), size=24, enabled=partial(self.seat_used, i))
                             for i in range(4)]
        self.buttons += self.seat_buttons
        y = r.y + 120 + 56 * 4 + 14
        self.buttons.append(Button((x0 + 130, y, 300, 46), self.teams_label, self.toggle_teams, size=24,
                                   enabled=lambda: self.count == 4,
                                   selected=lambda: self.teams and self.count == 4))
        self.buttons.append(Button((x0 + 130, y + 58, 300, 46), self.starter_label, self.cycle_starter, size=24))
        self.buttons += [
            Button((x0, r.bottom - 74, 200, 54), N_("Back"), self.back, size=28),
            Button((x0 + 210, r.bottom - 74, 260, 54), N_("Guided first game"), self.start_guided, size=24),
            Button((r.right - 280, r.bottom - 74, 240, 54), N_("Start"), self.start, key=pygame.K_RETURN, size=28),
        ]

    def teams_label(self) -> str:
        """The teams toggle: the two teams by their players' names (seats 1 + 3 against 2 + 4,
        ruling 10), or that there are none."""
        if not (self.teams and self.count == 4):
            return _("Teams: off")
        font = self.app.art.font(20)  # long names are cut, so the label fits its button on two lines
        a, b, c, d = (elide(font, self.name(s), 90) for s in range(1, 5))
        return _("{a} + {c} against {b} + {d}").format(a=a, b=b, c=c, d=d)

    def starter_label(self) -> str:
        if not self.starter:
            return _("Round 1 starts: random")
        return _("Round 1 starts: {name}").format(name=self.name(self.starter))

    def name(self, seat: int) -> str:
        text = self.fields[seat - 1].text.strip()
        return text or _("Player {n}").format(n=seat)

    def count_is(self, n: int) -> bool:
        return self.count == n

    def seat_used(self, i: int) -> bool:
        """Whether seat ``i`` (0-based) plays with the count chosen."""
        return i < self.count

    def level_text(self, i: int) -> str:
        """Seat ``i``'s (0-based) level as its button says it."""
        return level_label(self.levels[i])

    def set_count(self, n: int) -> None:
        self.count = n
        if n != 4:
            self.teams = False
        if self.starter > n:
            self.starter = 0

    def cycle_level(self, i: int) -> None:
        self.described = i
        order: list[str | None] = [None, *LEVELS]
        self.levels[i] = order[(order.index(self.levels[i]) + 1) % len(order)]
        if self.levels[i] is None and self.fields[i].text in COMPUTER_NAMES:
            self.fields[i].set_text(_("Player {n}").format(n=i + 1))
        elif self.levels[i] is not None and self.fields[i].text.startswith(_("Player {n}").format(n=i + 1)):
            self.fields[i].set_text(COMPUTER_NAMES[i])

    def toggle_teams(self) -> None:
        self.teams = not self.teams and self.count == 4

    def cycle_starter(self) -> None:
        self.starter = (self.starter + 1) % (self.count + 1)

    def config(self) -> TableConfig:
        seats = [Seat(self.name(i + 1), self.levels[i]) for i in range(self.count)]
        people = [s for s in seats if s.human]
        if len(people) > 1 and seats[0].human and seats[0].name == _("You"):  # "You" is no name at a shared screen
            seats[0] = Seat(_("Player {n}").format(n=1))
        return TableConfig(seats, teams=self.teams and self.count == 4, starter=self.starter)

    def back(self) -> None:
        self.app.pop()

    on_escape = back

    def start(self) -> None:
        for f in self.fields:
            f.blur()
        config = self.config()
        self.remember()
        self.start_fn(config)

    def described_seat(self) -> int | None:
        """The seat (0-based) whose level the description box explains: the seat button under the
        mouse, else the one last changed, else the first computer seat; None if no seat in use is
        a computer."""
        for i in (*(i for i, b in enumerate(self.seat_buttons) if b.hover), self.described):
            if i is not None and i < self.count and self.levels[i] is not None:
                return i
        return next((i for i in range(self.count) if self.levels[i] is not None), None)

    def description_rect(self) -> pygame.Rect:
        """The box right of the Teams and Start rows, under the seat buttons, canvas px."""
        r = self.rect
        y = r.y + 120 + 56 * 4 + 14
        return pygame.Rect(r.x + 480, y, r.right - 40 - (r.x + 480), 104)

    def description(self) -> tuple[str, pygame.Surface, pygame.Rect] | None:
        """(text, image, where) of the described seat's level: "Ada · Medium: Thinks a tenth of a
        second ahead ...", wrapped to :meth:`description_rect`; None when no seat is a computer."""
        i = self.described_seat()
        if i is None:
            return None
        level = self.levels[i]
        assert level is not None
        text = _("{level}: {blurb}").format(level=_(LEVEL_LABELS[level]), blurb=level_blurb(level))
        box = self.description_rect()
        for size in (21, 19, 17):
            img = self.app.art.text(text, size, CREAM, wrap=box.w - 20)
            if img.get_height() <= box.h - 12:
                break
        return text, img, img.get_rect(topleft=(box.x + 10, box.y + 6))

    def start_guided(self) -> None:
        """A guided first game (item 11): the first seat's person against two computers
        that play by simple rules, with the guide explaining each situation the first time
        (:mod:`.tutorial`). The set-up on screen is not remembered: the next match is the usual."""
        from .tutorial import guide, guided_config
        for f in self.fields:
            f.blur()
        person = self.fields[0].text.strip() if self.levels[0] is None else ""
        config = guided_config(person or _("You"), (COMPUTER_NAMES[1], COMPUTER_NAMES[2]))
        self.start_fn(config)
        top = self.app.top
        if isinstance(top, RoyalsTableScene):
            guide(self.app, top)

    def handle_event(self, event: pygame.event.Event) -> None:
        for i, f in enumerate(self.fields[:self.count]):
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and f.rect.collidepoint(event.pos):
                for g in self.fields:
                    if g is not f:
                        g.blur()
                f.focus()
                return
            if f.focused and f.handle_event(event):
                return
        super().handle_event(event)

    def update(self, dt: float) -> None:
        self.clock += dt
        for f in self.fields:
            f.update(dt)

    def at_rest(self) -> bool:
        """Still once the title's cards rest and no name is being typed (its caret blinks)."""
        return self.clock >= TITLE_SETTLE and not any(f.focused for f in self.fields)

    def close(self) -> None:
        for f in self.fields:
            f.blur(keep=False)

    def labels(self) -> list[tuple[str, pygame.Surface, pygame.Rect]]:
        """The panel's texts beside its fields and buttons as (text, image, where), canvas px."""
        art = self.app.art
        r = self.rect
        y = r.y + 120 + 56 * 4 + 14
        out = []
        for text, size, colour, at in ([(_("Players"), 28, GOLD, (r.x + 40, r.y + 50))]
                                       + [(_("Seat {n}").format(n=i + 1), 24, CREAM, (r.x + 40, r.y + 130 + 56 * i))
                                          for i in range(self.count)]
                                       + [(_("Teams"), 24, CREAM, (r.x + 40, y + 12)),
                                          (_("Start"), 24, CREAM, (r.x + 40, y + 70))]):
            img = art.text(text, size, colour, shadow=True)
            out.append((text, img, img.get_rect(topleft=at)))
        return out

    def draw(self, surface: pygame.Surface, alpha: float = 1.0) -> None:
        art = self.app.art
        draw_title(surface, self.app, self.clock, y=110)
        surface.blit(panel(self.rect.size), self.rect)
        for _text, img, where in self.labels():
            surface.blit(img, where)
        described = self.description()
        if described is not None:
            box = self.description_rect()
            surface.blit(panel(box.size, 200, 10), box)
            surface.blit(described[1], described[2])
        for i in range(self.count):
            self.fields[i].draw(surface, art)
        for b in self.buttons:
            if b.enabled() or b not in self.seat_buttons:
                b.draw(surface, art)
