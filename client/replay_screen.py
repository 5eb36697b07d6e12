"""The screens of ``jupai replay`` (specs/client.md § Replay): one frame per action of
a saved game, as the seat that saved it saw it, then the ending with the whole deck.

Words come from :mod:`jupai_net.client.render` (the same event descriptions and
formulas as the live table); this module only decides what goes on each frame and
how the keys move between frames.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.cells import cell_len
from rich.text import Text

from jupai_net.fairness.cli import reason_text
from jupai_net.fairness.story import GameStory
from jupai_net.printable import printable

from jupai_net.messages import names_text

from .i18n import t
from .layout import Packed, height_of
from .win_words import game_win_text
from .render import card_text, describe_event, render_view, seat_label



class ReplayScreen:
    """Frames of a :class:`~jupai_net.fairness.story.GameStory`.

    Frame 0 is the deal, frame k (1 ≤ k ≤ N) the view after action k, frame N+1 the
    ending (ranking, verdict, deck). ``lang`` is ``"en"`` or ``"zh"``."""

    def __init__(self, story: GameStory, lang: str = "en"):
        self.story = story
        self.lang = lang
        self.last = len(story.steps) + 1
        #: The players' names by seat (from the transcript's meta), or None: "seat N".
        self.names = list(story.names) or None

    # ------------------------------------------------------------------ words

    def header(self, k: int) -> str:
        """The first line of frame ``k``: where we are, whose view it is, the scheme
        that dealt the game (``dealer-blind`` / ``trusted dealer``, ``庄家盲发`` /
        ``可信庄家``, the live table's words, when the transcript says) and the verdict."""
        s, lang = self.story, self.lang
        view = t("replay.view_seat", lang, seat=s.seat) if s.seat is not None else t("replay.view_spectator", lang)
        status = t(f"verdict.{s.verdict.status}", lang)
        if k == 0 and not s.steps and s.abandoned is not None:
            where = t("replay.at_deal_abandoned", lang)  # not "(0 actions follow)"
        elif k == 0:
            where = t("replay.at_deal", lang, total=len(s.steps))
        elif k == self.last:
            where = t("replay.at_end", lang)
        else:
            where = t("replay.at_step", lang, step=k, total=len(s.steps), round=self._round(k))
        if s.dealer is None:
            return t("replay.header", lang, where=where, view=view, status=status)
        return t("replay.header_scheme", lang, where=where, view=view, scheme=t(f"header.dealer.{s.dealer}", lang),
                 status=status)

    def _round(self, k: int) -> int | str:
        obs = self.story.steps[k - 1].observation
        if obs is not None:
            return obs.get("round", "?")
        rnd: Any = (self.story.opening or {}).get("round", "?")
        for step in self.story.steps[:k]:
            for e in step.events:
                if e.get("kind") == "round":
                    rnd = e.get("round", rnd)
        return rnd

    def action_lines(self, k: int) -> list[str]:
        """Action ``k`` (1-based) and its outcome in words, every formula in full."""
        step = self.story.steps[k - 1]
        me = self.story.seat
        lines = []
        for e in step.events:
            text = describe_event(e, self.names, me=me, lang=self.lang)
            if text:
                lines.append(text)
        if not lines:
            lines.append(t("replay.acted", self.lang, actor=seat_label(step.actor, self.names, me, self.lang)))
        return lines

    def _blind(self) -> bool:
        return self.story.verdict.details.get("scheme") == "dealer-blind"

    def no_deal_line(self) -> str | None:
        """Why the deal cannot be shown (frame 0 has no view): the game was abandoned
        before the cards were dealt, or a dealer-blind deal whose audit lacks a seed
        (its views are rebuilt from the audited deck); None when the deal is shown."""
        s = self.story
        if s.opening is not None:
            return None
        if self._blind() and s.deck is None:
            return t("replay.no_deal_blind", self.lang)
        return t("replay.no_deal", self.lang) if s.abandoned is not None else None

    def deck_table(self, width: int = 80) -> RenderableType:
        """The whole deck, position by position, as many ``position:card`` cells a line
        as ``width`` holds (no deck: a sentence saying why not — a dealer-blind deck
        needs every seat's seed, a trusted one the host's)."""
        deck = self.story.deck
        if deck is None:
            return Text(t("replay.no_deck_blind" if self._blind() else "replay.no_deck", self.lang))
        cells = [f"{k}:{card_text(card, self.lang)}" for k, card in enumerate(deck)]
        cell = max(cell_len(c) for c in cells) + 1
        per_line = max(1, width // cell)
        lines = []
        for row in range(0, len(cells), per_line):
            chunk = cells[row:row + per_line]
            lines.append("".join(" " * (cell - cell_len(c)) + c for c in chunk))
        return Group(Text(t("replay.deck", self.lang), style="bold"), Text("\n".join(lines), no_wrap=True))

    def ending_lines(self) -> list[str]:
        """The ranking (or why the game did not finish) and the verdict."""
        s, lang, me = self.story, self.lang, self.story.seat
        lines = []
        if s.ranking is not None:
            order = names_text((seat_label(seat, self.names, me, lang) for seat in s.ranking), lang)
            lines.append(t("replay.ranking", lang, ranking=order))
            won = game_win_text(s.ranking, s.winner, lambda seat: seat_label(seat, self.names, me, lang), lang)
            if won is not None:  # the first of the ranking, by the one rule (specs/rules.md § 8)
                lines.append(won)
        elif s.abandoned is not None:
            from jupai_net.messages.notices import reason_sentence

            # the host's words; jupai's own in the viewer's language
            lines.append(t("replay.abandoned", lang, reason=reason_sentence(str(s.abandoned), lang)))
        else:
            lines.append(t("replay.unfinished", lang))
        lines.append(t("replay.verdict", lang, status=t(f"verdict.{s.verdict.status}", lang), reason=printable(reason_text(s.verdict, lang))))
        return lines

    # ------------------------------------------------------------------ frames

    def frame(self, k: int, width: int = 80, height: int | None = None) -> RenderableType:
        """Frame ``k`` (0 … N+1) laid out for ``width`` × ``height`` cells."""
        parts: list[RenderableType] = [Packed(self.header(k), style="bold")]  # broken between its parts
        if k == self.last:
            parts += [Text(line) for line in self.ending_lines()]
            parts.append(self.deck_table(width))
            return Group(*parts)
        if k > 0:
            parts += [Text("» " + line, style="cyan") for line in self.action_lines(k)]
        obs = self.story.opening if k == 0 else self.story.steps[k - 1].observation
        if k == 0 and obs is None and (why := self.no_deal_line()):
            parts.append(Text(why))
        if obs is not None:
            room = None if height is None else max(8, height - sum(height_of(p, width) for p in parts) - 1)
            parts.append(render_view(obs, names=self.names, lang=self.lang, width=width, height=room))
        return Group(*parts)

    def print_all(self, console: Console) -> None:
        """Every action once, in order, then the ending (for pipes and ``--all``)."""
        console.print(Text(self.header(0), style="bold"))
        if not self.story.steps and (why := self.no_deal_line()):
            console.print(Text(why))
        for k in range(1, self.last):
            for line in self.action_lines(k):
                console.print(Text(f"{k:>3}. {line}"))
        console.print(Text(self.header(self.last), style="bold"))
        for line in self.ending_lines():
            console.print(Text(line))
        console.print(self.deck_table(console.width))

    def interact(self, console: Console, read: Callable[[str], str]) -> int:
        """Step through the frames with ``read`` (``input``); returns the exit code (0).
        End of input or Ctrl-C quits."""
        k = 0
        while True:
            with console:  # one write: the clear and the frame together
                console.clear()
                console.print(self.frame(k, console.width, console.height - 1))
            try:
                key = read(t("replay.keys", self.lang)).strip().lower()
            except (EOFError, KeyboardInterrupt):
                return 0
            k = self.next_frame(k, key)
            if k is None:
                return 0

    def next_frame(self, k: int, key: str) -> int | None:
        """The frame after frame ``k`` for a typed ``key``; ``None`` to quit.
        ``""``/``n`` next, ``p`` previous, ``r`` first action of the next round,
        a number that action (clamped), ``q`` quit; anything else stays."""
        if key in ("q", "quit", "exit"):
            return None
        if key in ("", "n"):
            return min(k + 1, self.last)
        if key == "p":
            return max(k - 1, 0)
        if key == "r":
            for j in range(k + 1, self.last):
                if any(e.get("kind") == "round" for e in self.story.steps[j - 1].events):
                    return min(j + 1, self.last)
            return self.last
        if key.isdigit():
            return max(0, min(int(key), self.last))
        return k
