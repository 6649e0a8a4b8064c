"""Royals & Riots over the LAN, with no trusted dealer (docs/protocol.md, "Royals & Riots with no
trusted dealer (protocol version 5)"; docs/mental-poker.md).

- :mod:`.match`: :class:`~game.royals.lan.match.FairMatch`, one :class:`net.match.MatchMachine` for
  every seat of a match on the one LAN layer, and :data:`~game.royals.lan.match.FAIR`, the game's LAN
  part (registered as ``game.royals.plugin.GAME.lan``); the match flow. Its parts, each readable
  alone: :mod:`.deal` (the deck steps of a round and the round's end), :mod:`.verdicts`
  (who owes what, the deadlines, verdicts and their evidence) and :mod:`.relay` (the host's
  countersigned relay, a joiner's checks of it, the wire messages); :mod:`.shared` declares the
  state they share and the :class:`~game.royals.lan.shared.Fault` they raise.
- :mod:`.messages`: the signed bodies it exchanges (shuffle passes, key shares, decisions,
  coins, the round-end audit and logs).

The joint shuffle and keys are :mod:`net.deck`; signed envelopes and the match code
:mod:`net.signed`. Nothing here touches a socket, a thread or a clock.
"""
