"""The words of the one LAN layer's screens, for every game: the session's status and a lobby
seat's state (translated at call time; no game is named). Why a connection closed for good is
worded by :func:`game.stop_words.stop_text`, through the game's hook
(:meth:`game.client.lan.LanClient.stop_words`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.i18n import _

if TYPE_CHECKING:
    from net.session import Session


def status_line(session: "Session", peer: str = "", away: bool = False) -> str:
    """The session's status as one translated line (``peer``: the other player's name, if known;
    ``away``: the host's table knows that player's connection is down, its seat waiting)."""
    code = session.status
    peer = peer or _("the other player")
    if away and code == "playing":
        code = "interrupted"
    if code == "listening":
        return _("Waiting for a player on port {port}").format(port=session.port)
    if code == "connecting":
        return _("Connecting to {address}…").format(address=f"{session.address}:{session.port}")
    if code == "lobby":
        return _("Connected, agreeing on the game…")
    if code == "playing":
        return _("Playing against {name}").format(name=peer)
    if code == "interrupted":
        return (_("Connection interrupted, reconnecting…") if session.role == "join"
                else _("Connection interrupted, waiting for {name} to come back…").format(name=peer))
    if code == "over":
        return _("Game over")
    if code == "failed":
        return _("The game was stopped: the connection failed.")
    return _("Disconnected")


def seat_state(kind: str, connected: bool, closed: bool = False) -> str:
    """One lobby row's state (``LobbySeats`` row: kind, name, connected), translated."""
    if closed and kind == "open":
        return _("empty")
    if closed and kind == "person":
        return _("connection closed")
    if kind == "open":
        return _("open: waiting for a player")
    if kind == "computer":
        return _("computer")
    if kind == "host":
        return _("host")
    return _("connected") if connected else _("connection lost")
