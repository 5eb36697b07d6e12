"""A headless :class:`~jupai_net.client.session.Player` driven by a rules bot
(:mod:`jupai_net.bots`), for tests, benchmarks and ``jupai join --bot NAME``.

The bot sees exactly what a person would: the :class:`ClientView` (its own
observation and legal actions); it never reads hidden state.
"""

from __future__ import annotations

import logging
import random
import secrets

import trio

from jupai_net.actions import Action
from jupai_net.bots import get_bot

from .session import ClientView, PlayerBase, SessionResult

log = logging.getLogger("jupai.client")


class BotPlayer(PlayerBase):
    """Plays with the bot ``bot`` (a name of :data:`jupai_net.bots.BOTS`; ``ValueError`` otherwise).

    ``seed``: seed of the bot's own ``random.Random`` (default: from :mod:`secrets`).
    ``budget``: seconds a planning bot (``expert``) thinks per move (None: its default).
    ``think``: seconds to wait before answering each prompt (a float, or a
    ``(low, high)`` range drawn uniformly). ``on_view``: optional callback for every
    :class:`ClientView` (e.g. to print or record). After the game, ``result`` holds the
    :class:`SessionResult` and ``prompts`` counts the prompts answered.
    """

    #: the session tells the host a bot plays this seat (``hello.bot``)
    is_bot = True

    def __init__(self, bot: str = "random", *, seed: int | None = None,
                 think: float | tuple[float, float] = 0.0, on_view=None, budget: float | None = None):
        self.name = bot
        self.bot = get_bot(bot)
        self.budget = budget
        self.rng = random.Random(secrets.randbits(64) if seed is None else seed)
        self.think = think
        self.on_view = on_view
        self.result: SessionResult | None = None
        self.prompts = 0
        self.last_view: ClientView | None = None

    def on_update(self, view: ClientView) -> None:
        """Remember the latest view (and pass it to ``on_view``)."""
        self.last_view = view
        if self.on_view is not None:
            self.on_view(view)

    async def choose(self, view: ClientView) -> Action:
        """Wait ``think`` seconds, then the bot's pick among ``view.legal``."""
        self.prompts += 1
        delay = self.think if isinstance(self.think, (int, float)) else self.rng.uniform(*self.think)
        if delay > 0:
            await trio.sleep(delay)
        assert view.observation is not None
        bot = get_bot(self.name, think=self.budget, rules=view.rules) if self.bot is get_bot("expert") else self.bot
        return bot(view.observation, view.legal, self.rng)

    def on_end(self, result: SessionResult) -> None:
        """Keep the result as :attr:`result`."""
        self.result = result
