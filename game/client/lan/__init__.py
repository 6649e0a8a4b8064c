"""The window's side of the one LAN layer, the same for every game (docs/architecture.md).

A game's client (:class:`game.client.games.ClientGame`) that plays over the layer carries a
:class:`LanClient` as its ``lan`` attribute; the shell then does everything but the game's own
table: the host's waiting screen and the joiner's (:class:`~game.client.lan.lobby.LobbyScene`,
driven by :class:`net.session.Session`, polled once per frame, never waited on), the one join
screen (:class:`~game.client.lan.lobby.LayerJoinScene`, which finds every game's tables),
the status wording, the discovery beacon, "play again", and ``rose-king host/join`` with a
window (:func:`~game.client.lan.lobby.run_layer_window`). No game is named here.

The hook is small on purpose; a game gives:

- ``table(app, net)``: its network table scene for a match that has begun, given a
  :class:`NetMatch` (the session, its ``Started`` event, the events that came after it in the
  same frame, the beacon, where "Main menu" goes, "play again", the saved-games store);
- ``lobby_buttons(lobby, rect)`` (optional): the host's choices shown on its waiting screen in
  ``rect`` while no match is being set up (e.g. a colour), as :class:`~game.client.widgets.Button`
  objects that call :meth:`net.session.Session.set_options`;
- ``lobby_choice`` (optional): the host's one choice on its waiting screen (e.g. its colour),
  drawn and sent by the shell (:meth:`net.session.Session.set_options`);
- ``lobby_lines(lobby)`` (optional): translated lines about the table, shown under the seats
  (the host's switches that are on, e.g. teams, are shown by the shell);
- for the shell's table (:class:`~game.client.lan.table.LanTable`), each optional: ``save`` (the
  record as a saved game, pure), ``resign``
  (its action), ``stop_text`` (its words for a stopped match), ``record_path``.

Fields may be added later, each optional, so a game's hook written today keeps working.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    import pygame

    from net.discovery import Beacon
    from net.session import Session, Started

    from ..app import App
    from ..scene import Scene
    from ..widgets import Button


#: Game key -> its :class:`game.client.games.ClientGame` that has ``lan``: filled by the one
#: explicit registration, :func:`game.client.games.register` (the window's entry point calls it
#: before anything else); the screens here look games up in it, never by importing a game
#: (a game's client imports these screens, so they cannot import it back).
CLIENTS: dict[str, Any] = {}


@dataclass
class NetMatch:
    """What a game's network table gets from the lobby once its match has begun.

    ``session``: the :class:`net.session.Session` (the table now owns it: :meth:`close` on
    leaving); ``started``: its :class:`~net.session.Started` event (the table, our seat,
    whether resumed); ``pending``: the events the lobby polled after it in the same frame (the
    table handles them first); ``beacon``: the host's discovery beacon (stopped by :meth:`close`);
    ``on_main_menu``: where "Main menu" goes; ``again``: "play again" -- a new table with the
    same players' places (the host opens its table again on the same port, a joiner joins the
    same address; each side's player chooses it), or None when the match cannot be played again
    from here; ``store``: the saved-games store (None: the shared one)."""

    session: "Session"
    started: "Started"
    pending: list = field(default_factory=list)
    beacon: "Beacon | None" = None
    on_main_menu: Callable[[], None] = lambda: None
    again: Callable[[], None] | None = None
    store: Any = None
    #: a match by code over the internet: the host's invitations or the joiner's dialer
    #: (:mod:`game.client.lan.internet`; ``seat_words(seat)``, closed with the match), else None
    internet: Any = None

    @property
    def seat(self) -> int:
        """Our seat (0: the host)."""
        return self.started.seat

    @property
    def names(self) -> tuple[str, ...]:
        """Every seat's player name, seat 0 first."""
        return tuple(self.started.table.names)

    def close(self) -> None:
        """Leave: stop the beacon, close the session (it tells the others ``bye``; a match in
        progress is judged by who owes what). Safe to call twice."""
        if self.beacon is not None:
            self.beacon.stop()
            self.beacon = None
        self.session.close()
        if self.internet is not None:
            self.internet.close()
            self.internet = None


@dataclass(frozen=True)
class LanClient:
    """A game's window on the one LAN layer (its client's ``lan``; see the module docstring)."""

    #: ``table(app, net) -> Scene``: the game's network table for a begun match
    table: Callable[["App", NetMatch], "Scene"]
    #: ``lobby_buttons(lobby, rect) -> [Button]``: the host's choices on its waiting screen
    lobby_buttons: Callable[[Any, "pygame.Rect"], list["Button"]] | None = None
    #: ``lobby_lines(lobby) -> [str]``: translated lines about the table under the seats
    lobby_lines: Callable[[Any], list[str]] | None = None
    #: ``save(record, seat, computers) -> (save id, JSON text) | None``: the machine's record (a
    #: dict, or None) as a saved game, pure (the game's ``lan.record`` module); seats 0-based
    save: Callable[[Any, int, tuple[int, ...]], tuple[str, str] | None] | None = None
    #: the action that resigns the match (handed to ``Session.act``), None: no resigning
    resign: Any = None
    #: ``stop_text(code, who, verdict) -> str``: why a match stopped, in the game's words
    stop_text: Callable[[str, str, Any], str] | None = None
    #: ``record_path() -> str | None``: where a table of this game keeps its running record and
    #: journal (resumable with ``--record``) when none is given; None: none
    record_path: Callable[[], str | None] | None = None
    #: the host's switches on "Host a game": ``(option, label, when(seat count) -> bool)``, each a
    #: lobby option set True when chosen (e.g. teams for four)
    host_switches: tuple = ()
    #: ``ready(machine) -> bool``: the table can be shown (e.g. the cards are dealt); until then
    #: the shell's short wait shows the names and the status
    ready: Callable[[Any], bool] | None = None
    #: the host's one choice on its waiting screen, ``(option, heading, ((value, label), ...))``:
    #: a row of buttons under the heading (e.g. "Your colour:" Red / White / Random) while
    #: :meth:`~game.client.lan.lobby.LobbyScene.choices_open`; the value "" removes the option
    lobby_choice: tuple | None = None

    def stop_words(self, code: str, who: str = "", verdict: Any = None) -> str:
        """Why a match stopped or a connection closed for good (a verdict's kind or a closing code),
        in the game's words (its ``stop_text``), else the layer's (:func:`game.stop_words.stop_text`):
        the waiting screen's refusal and the table's banner and end panel say it alike."""
        if self.stop_text is not None:
            return self.stop_text(code, who, verdict)
        from game.stop_words import stop_text
        return stop_text(code, who)


__all__ = ["CLIENTS", "LanClient", "NetMatch"]
