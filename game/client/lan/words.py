"""The words of the one LAN layer's screens, for every game: the session's status, why a
connection closed for good, a lobby seat's state (translated at call time; no game is named)."""

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


def drop_text(code: str) -> str:
    """Why the layer refused or closed a connection for good (``Dropped.code``, docs/protocol.md
    "Errors"), translated; a game's own verdicts are worded by its table."""
    if code == "version":
        return _("The other player's program is a different version.")
    if code == "game":
        return _("That host plays another game.")
    if code == "seat":
        return _("That game has no place for this player.")
    if code in ("role", "self"):
        return _("This machine cannot play against itself.")
    if code in ("order", "schema", "frame", "flood"):
        return _("The other program broke the network protocol: the game was stopped.")
    if code in ("left", "bye"):
        return _("The host left: the game is over.")
    return _("The game was stopped: the connection failed.")


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
