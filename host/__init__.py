"""jupai-net host: serve tables on the LAN (specs/host.md).

Kept light: ``jupai --help`` imports this package to register ``jupai host``, so the
server (trio, TLS, the protocol) loads only in the modules that need it."""

#: The TCP port ``jupai host`` listens on and ``jupai join`` dials by default.
DEFAULT_PORT = 47474
