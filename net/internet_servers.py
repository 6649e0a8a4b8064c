"""Run a rendezvous (mailbox) server and a transit relay of one's own: for the tests and the
bench (on 127.0.0.1), or for a club or a school (docs/protocol.md, "Over the internet").

    python -m net.internet_servers [--host ADDRESS] [--mailbox-port P] [--relay-port Q] [--nodelay]

prints one line ``mailbox ws://ADDRESS:P/v1 relay tcp:ADDRESS:Q`` once both listen (port 0:
any free port), then serves until it is stopped. Players point the game at them with
``--mailbox``/``--relay`` or ``ROSE_KING_MAILBOX``/``ROSE_KING_RELAY``. ``--nodelay``: the
relay sets ``TCP_NODELAY`` on its connections (upstream's does not; see the bench).
Needs the PyPI packages ``magic-wormhole-mailbox-server`` and ``magic-wormhole-transit-relay``
(the ``test`` extra installs them). The databases are kept in memory.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Generator


def start(reactor: Any, host: str = "127.0.0.1", mailbox_port: int = 0, relay_port: int = 0,
          nodelay: bool = False) -> Any:
    """Listen with both servers on ``reactor`` (call from its thread); returns a Deferred of
    ``(mailbox_url, relay_location)``."""
    from twisted.internet import defer, endpoints, protocol
    from wormhole_mailbox_server.database import create_channel_db, create_usage_db
    from wormhole_mailbox_server.server import make_server
    from wormhole_mailbox_server.web import make_web_server
    from wormhole_transit_relay.transit_server import Transit, TransitConnection
    from wormhole_transit_relay.usage import create_usage_tracker

    rendezvous = make_server(create_channel_db(":memory:"), usage_db=create_usage_db(":memory:"))
    site = make_web_server(rendezvous, log_requests=False)
    conn_cls: Any = TransitConnection
    if nodelay:
        def made(self: Any) -> Any:
            self.transport.setTcpNoDelay(True)
            return TransitConnection.connectionMade(self)
        conn_cls = type("NoDelayTransit", (TransitConnection,), {"connectionMade": made})
    relay: Any = protocol.ServerFactory()
    relay.protocol = conn_cls
    relay.log_requests = False
    relay.transit = Transit(create_usage_tracker(blur_usage=None, log_file=None, usage_db=None), reactor.seconds)
    tcp: Any = endpoints.TCP4ServerEndpoint

    @defer.inlineCallbacks
    def listen() -> Generator[Any, Any, tuple[str, str]]:
        mp = yield tcp(reactor, mailbox_port, interface=host).listen(site)
        rp = yield tcp(reactor, relay_port, interface=host).listen(relay)
        return f"ws://{host}:{mp.getHost().port}/v1", f"tcp:{host}:{rp.getHost().port}"
    return listen()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m net.internet_servers", description=__doc__.split("\n\n")[0])
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--mailbox-port", type=int, default=0)
    p.add_argument("--relay-port", type=int, default=0)
    p.add_argument("--nodelay", action="store_true", help="the relay sets TCP_NODELAY")
    args = p.parse_args(argv)
    from twisted.internet import reactor as installed
    reactor: Any = installed  # (the reactor object at run time)

    def ready(urls: tuple[str, str]) -> None:
        print(f"mailbox {urls[0]} relay {urls[1]}", flush=True)

    def failed(f: Any) -> None:
        print(f"cannot listen: {f.getErrorMessage()}", file=sys.stderr, flush=True)
        reactor.stop()

    reactor.callWhenRunning(lambda: start(reactor, args.host, args.mailbox_port, args.relay_port,
                                          args.nodelay).addCallbacks(ready, failed))
    reactor.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
