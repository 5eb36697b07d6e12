"""jupai-net: play 剧牌 (Jupai) on a local network with provably fair dealing.

Subpackages: ``jupai_net.fairness`` (commit-reveal dealing, transcripts),
``jupai_net.protocol`` (sans-IO wire protocol), ``jupai_net.host`` (trio server),
``jupai_net.client`` (rich terminal client).
"""

__version__ = "0.1.0"
