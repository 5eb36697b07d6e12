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

from jupai_net.engine import WIN_RANKED, game_winner, win_reason
from jupai_net.fairness.cli import reason_text
from jupai_net.fairness.story import GameStory
from jupai_net.printable import printable

from .card_words import display_name
from .i18n import t
from .layout import NAME_MIN, Packed, Wrapped, cap_names, height_of
from .render import card_text, describe_event, render_view, seat_label
from .win_words import game_win_text, win_why

#: The keys prompt's forms, longest first: the first that leaves :data:`TYPING_ROOM`
#: cells on its row is used (specs/client.md § Replay).
PROMPTS = ("replay.keys", "replay.keys_mid", "replay.keys_short")
#: Cells kept after the prompt for what is typed (``/log``, a number) and the cursor.
TYPING_ROOM = 5
#: The one-line hint after a line that is no key, longest first (the first that fits).
HINTS = ("replay.hint", "replay.hint_mid", "replay.hint_narrow", "replay.hint_short")
#: What ends the replay (besides the end of input and Ctrl-C).
QUIT = frozenset({"q", "/q", "quit", "/quit", "exit", "/exit", "退出"})
#: A name on the end frame is cut (``layout.cap_names``) to leave this many cells of
#: the line for ``Ranking: seat 10 (`` … ``),``, so that a place is never broken.
NAME_ROOM = 20
#: The names a frame's view gives, at its most squeezed, in as many cells (``Alexa…``:
#: as the players table at 40 columns shows them).
SHORT_NAME = 6


def rows_of(text: str, width: int) -> int:
    """The terminal rows a prompt ``text`` takes at ``width`` columns, its cursor included."""
    return cell_len(text) // max(1, width) + 1


def first_fitting(keys: tuple[str, ...], room: int, lang: str) -> str:
    """The first of the catalog ``keys`` whose text is at most ``room`` cells (the last one
    when none is)."""
    for key in keys:
        if cell_len(t(key, lang)) <= room:
            return t(key, lang)
    return t(keys[-1], lang)



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
        #: The page of the deck's rows the end frame shows (:meth:`end_layout`).
        self.deck_page = 0

    # ------------------------------------------------------------------ words

    def header(self, k: int, scheme: bool = True) -> str:
        """The first line of frame ``k``: where we are, whose view it is, the scheme
        that dealt the game (``dealer-blind`` / ``trusted dealer``, ``庄家盲发`` /
        ``可信庄家``, the live table's words, when the transcript says; not with
        ``scheme=False``, on a frame short of rows) and the verdict."""
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
        if s.dealer is None or not scheme:
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

    def action_lines(self, k: int, names: Any = ...) -> list[str]:
        """Action ``k`` (1-based) and its outcome in words, every formula in full
        (``names``: the names to give the seats; default the players', None: seat numbers
        only)."""
        step = self.story.steps[k - 1]
        me = self.story.seat
        names = self.names if names is ... else names
        lines = []
        for e in step.events:
            text = describe_event(e, names, me=me, lang=self.lang)
            if text:
                lines.append(text)
        if not lines:
            lines.append(t("replay.acted", self.lang, actor=seat_label(step.actor, names, me, self.lang)))
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

    def deck_rows(self, width: int = 80) -> list[str]:
        """The whole deck as lines of ``position:card`` cells (each right-aligned in
        cells of one size), as many a line as ``width`` holds; none without a deck."""
        deck = self.story.deck
        if deck is None:
            return []
        cells = [f"{k}:{card_text(card, self.lang)}" for k, card in enumerate(deck)]
        cell = max(cell_len(c) for c in cells) + 1
        per_line = max(1, width // cell)
        return ["".join(" " * (cell - cell_len(c)) + c for c in cells[row:row + per_line])
                for row in range(0, len(cells), per_line)]

    def deck_title(self) -> RenderableType:
        """The line over the deck's rows; without a deck, a sentence saying why not (a
        dealer-blind deck needs every seat's seed, a trusted one the host's)."""
        if self.story.deck is None:
            return Wrapped(t("replay.no_deck_blind" if self._blind() else "replay.no_deck", self.lang), lang=self.lang)
        return Wrapped(t("replay.deck", self.lang), style="bold", lang=self.lang)

    def deck_table(self, width: int = 80) -> RenderableType:
        """The whole deck, position by position (:meth:`deck_title`, :meth:`deck_rows`)."""
        rows = self.deck_rows(width)
        if not rows:
            return self.deck_title()
        return Group(self.deck_title(), Text("\n".join(rows), no_wrap=True))

    def capped_names(self, cap: int) -> list[str] | None:
        """The players' names as shown in the viewer's language (a bot's too:
        ``贪心机器人 2``), each within ``cap`` cells (``layout.cap_names``: cut names told
        apart; a name that cannot be, ``""``: the seat number alone names the seat)."""
        if self.names is None:
            return None
        shown = {s: display_name(n, self.lang) for s, n in enumerate(self.names)}
        capped = cap_names(shown, max(NAME_MIN + 1, cap))
        return [capped[s] for s in range(len(self.names))]

    def _end_names(self, width: int | None) -> Any:
        """The names on the end frame: each within ``width - NAME_ROOM`` cells
        (:meth:`capped_names`), so that a place of the ranking fits a line whole."""
        return self.names if width is None else self.capped_names(width - NAME_ROOM)

    def ending_parts(self, width: int | None = None, short: bool = False) -> list[RenderableType]:
        """The ranking (or why the game did not finish), who won, and the verdict, laid
        out so that no name is broken across two lines: the ranking is broken between its
        places only (each place whole, the list's comma kept at the line's end), the
        winner's label stays whole, and names longer than ``width - NAME_ROOM`` cells are
        cut (:meth:`_end_names`). ``short``: the verdict without its reason (``jupai
        verify FILE`` gives it) — for a short terminal (specs/client.md § Replay)."""
        s, lang, me = self.story, self.lang, self.story.seat
        names = self._end_names(width)
        parts: list[RenderableType] = []
        if s.ranking is not None:
            labels = [seat_label(seat, names, me, lang) for seat in s.ranking]
            sep = t("names.sep", lang)
            items = [label + (sep.rstrip() if n < len(labels) - 1 else "") for n, label in enumerate(labels)]
            if items:
                items[0] = t("replay.ranking", lang, ranking=items[0])
            parts.append(Packed([Text(item) for item in items], sep=sep[len(sep.rstrip()):]))
            winner = game_winner(s.ranking)
            won = game_win_text(s.ranking, s.winner, lambda seat: seat_label(seat, names, me, lang), lang)
            if won is not None:  # the first of the ranking, by the one rule (specs/rules.md § 8)
                why = win_why(win_reason(s.ranking, s.winner) or WIN_RANKED, lang)
                parts.append(Wrapped(won, lang=lang, keep=[seat_label(winner, names, me, lang), why]))  # each whole
        elif s.abandoned is not None:
            from jupai_net.messages.notices import reason_sentence

            # the host's words; jupai's own in the viewer's language
            parts.append(Wrapped(t("replay.abandoned", lang, reason=reason_sentence(str(s.abandoned), lang)),
                                 lang=lang))
        else:
            parts.append(Wrapped(t("replay.unfinished", lang), lang=lang))
        status = t(f"verdict.{s.verdict.status}", lang)
        if short:
            parts.append(Text(t("replay.verdict_short", lang, status=status)))
        else:
            parts.append(Wrapped(t("replay.verdict", lang, status=status,
                                   reason=printable(reason_text(s.verdict, lang))), lang=lang))
        return parts

    def ending_lines(self) -> list[str]:
        """:meth:`ending_parts` as text lines, each whole (the ranking on one line)."""
        return [part.plain for part in self.ending_parts()]  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ frames

    def end_layout(self, width: int, height: int | None) -> tuple[list[RenderableType], list[str], int]:
        """The end frame at ``width`` × ``height``: the parts over the deck's rows (the
        header, :meth:`ending_parts`, :meth:`deck_title`), the deck's rows, and how many
        of them a page holds. What does not fit gives way in this order: the verdict's
        reason (the short verdict), then the deck's rows come in pages (one row kept for
        the page line ``deck page 1/3 · Enter: next · p: back``); the header, the
        ranking and the winner stay."""
        header = Packed(self.header(self.last), style="bold")
        rows = self.deck_rows(width)
        full = [header, *self.ending_parts(width), self.deck_title()]
        if height is None:
            return full, rows, max(1, len(rows))
        short = [header, *self.ending_parts(width, short=True), self.deck_title()]
        for parts in (full, short):
            used = sum(height_of(p, width) for p in parts)
            if used + len(rows) <= height:
                return parts, rows, max(1, len(rows))
        line = height_of(self._deck_page_line(99, 99), width)
        return short, rows, max(1, height - used - line)

    def _deck_page_line(self, page: int, pages: int) -> RenderableType:
        return Packed(t("replay.deck_page", self.lang, page=page, pages=pages), style="dim")

    def deck_pages(self, width: int, height: int | None) -> int:
        """How many pages the deck's rows take on the end frame (:meth:`end_layout`)."""
        _parts, rows, per = self.end_layout(width, height)
        return max(1, -(-len(rows) // per))

    def _action_parts(self, k: int, names: Any) -> list[RenderableType]:
        """Action ``k``'s lines (:meth:`action_lines`), wrapped, a seat's label with its
        name never broken (``seat 0 (Alexandria Longname)``)."""
        me = self.story.seat
        labels = [seat_label(seat, names, me, self.lang) for seat in range(self.story.seats)]
        return [Wrapped(Text("» " + line, style="cyan"), lang=self.lang, keep=labels)
                for line in self.action_lines(k, names)]

    def frame(self, k: int, width: int = 80, height: int | None = None) -> RenderableType:
        """Frame ``k`` (0 … N+1) laid out for ``width`` × ``height`` cells (``height``:
        the rows it may take; None: as tall as it is). An action's frame is its header,
        the action and its outcome (``» …``), then the seat's view fitted to the rows
        left (:func:`.render.render_view`). When the view cannot fit under them, in this
        order: the action's lines name the seats by number only (the players table
        names them), the scheme's name leaves the header (as on the live table), the
        action's lines go (the view's newest outcome is the action's, whole, and the
        header says which action it is), the view's names are cut to :data:`SHORT_NAME`
        cells (as its players table shows them); on the game-over view, last, the view
        gives way to the ranking's places, names cut so (the end frame gives the rest). The end frame:
        :meth:`end_layout`, page :attr:`deck_page`."""
        if k == self.last:
            parts, rows, per = self.end_layout(width, height)
            pages = max(1, -(-len(rows) // per))
            page = self.deck_page % pages
            if rows:
                parts = [*parts, Text("\n".join(rows[page * per:(page + 1) * per]), no_wrap=True)]
            if pages > 1:
                parts.append(self._deck_page_line(page + 1, pages))
            return Group(*parts)
        obs = self.story.opening if k == 0 else self.story.steps[k - 1].observation
        why = [Wrapped(line, lang=self.lang)] if k == 0 and obs is None and (line := self.no_deal_line()) else []

        def head(scheme: bool = True) -> list[RenderableType]:
            return [Packed(self.header(k, scheme), style="bold"), *why]  # broken between its parts

        named = self._action_parts(k, self.names) if k > 0 else []
        if obs is None:
            return Group(*head(), *named)
        if height is None:
            return Group(*head(), *named, render_view(obs, names=self.names, lang=self.lang, width=width))
        numbered = self._action_parts(k, None) if k > 0 and self.names else named
        tries = [head() + named, head() + numbered, head(False) + numbered, head(False)] if k else [head(), head(False)]
        if k and named is numbered:  # no names to drop
            tries = [tries[0], *tries[2:]]
        levels = [(parts, self.names) for parts in tries]
        if self.names:  # the view's names as short as its players table shows them (its lines too)
            levels.append((tries[-1], self.capped_names(SHORT_NAME)))
        view: RenderableType = Text("")
        for parts, names in levels:
            room = height - sum(height_of(p, width) for p in parts)
            if room < 4 and parts is not tries[-1]:
                continue
            view = render_view(obs, names=names, lang=self.lang, width=width, height=max(4, room))
            if height_of(view, width) <= room:
                return Group(*parts, view)
        if obs.get("result"):  # the game-over view: the action and the places (the end frame has the rest)
            from .screen_parts import render_result

            places = render_result(obs, self.capped_names(SHORT_NAME), self.lang, compact=True, counts=False)
            return Group(*head(False), *numbered, *([places] if places is not None else []))
        return Group(*tries[-1], view)  # as squeezed as the view goes

    def print_all(self, console: Console) -> None:
        """Every action once, in order, then the ending (for pipes, ``--all`` and ``--plain``)."""
        console.print(Packed(self.header(0), style="bold"))
        if not self.story.steps and (why := self.no_deal_line()):
            console.print(Wrapped(why, lang=self.lang))
        for k in range(1, self.last):
            for line in self.action_lines(k):
                console.print(Text(f"{k:>3}. {line}"))
        console.print(Packed(self.header(self.last), style="bold"))
        for part in self.ending_parts(console.width):
            console.print(part)
        console.print(self.deck_table(console.width))

    # ------------------------------------------------------------------ keys

    def prompt(self, width: int) -> str:
        """The keys prompt for a terminal ``width`` columns wide: the longest form that
        leaves :data:`TYPING_ROOM` cells on its row (:data:`PROMPTS`)."""
        return first_fitting(PROMPTS, width - TYPING_ROOM, self.lang)

    def hint(self, width: int) -> str:
        """The one-line hint after a line that is no key: the longest form of
        :data:`HINTS` that fits ``width``, naming the keys."""
        return first_fitting(HINTS, width, self.lang)

    def log_view(self, k: int) -> Any:
        """The game so far at frame ``k``, for the ``/log`` pager
        (:class:`.screen_log.LogPager`): the deal's log, then every event of actions
        1 … k (all of them at the end), as the seat that saved the game saw them."""
        from types import SimpleNamespace

        events = list((self.story.opening or {}).get("log") or ())
        for step in self.story.steps[:min(k, len(self.story.steps))]:
            events.extend(step.events)
        return SimpleNamespace(events=events, seat=self.story.seat, names=self.names)

    def frame_height(self, console: Console, hint: bool = False) -> int:
        """The rows a frame may take on ``console``: its height less the prompt's rows
        (and the hint's, with ``hint``)."""
        width = console.width
        rows = console.height - rows_of(self.prompt(width), width)
        if hint:
            rows -= height_of(Text(self.hint(width)), width)
        return rows

    def draw(self, console: Console, k: int, hint: bool = False) -> None:
        """Draw frame ``k`` on ``console`` in one write (the clear with it), with the
        hint under it when ``hint``."""
        width = console.width
        with console:  # one write: the clear and the frame together
            console.clear()
            console.print(self.frame(k, width, self.frame_height(console, hint)))
            if hint:
                console.print(Text(self.hint(width), style="bold yellow"))

    def draw_help(self, console: Console) -> None:
        """The help (``?``): the replay's keys, then how to play, fitted to the terminal
        (:func:`.render.render_help`), and ``Enter: back to the replay`` under it."""
        from .render import render_help

        with console:
            console.clear()
            height = console.height - 2  # the back line, the prompt's row
            console.print(render_help(self.lang, console.width, height, keys="replay.help_keys"))
            console.print(Text(t("replay.help_back", self.lang), style="dim"))

    def interact(self, console: Console, read: Callable[[str], str]) -> int:
        """Step through the frames with ``read`` (``input``); returns the exit code (0).
        End of input or Ctrl-C quits. Besides the keys of :meth:`press`: ``/log`` pages
        the game so far (:meth:`log_view`; Enter the next page, ``q`` back to the frame,
        another line closes it and is handled as usual), ``?`` shows the help (any line
        goes back; Enter just that), any other line redraws the frame with a one-line
        hint naming the keys (:meth:`hint`)."""
        from .screen_log import LogPager
        from .ui import HELP_WORDS, LOG_WORDS

        log = LogPager(back="replay")
        k, help_open = 0, False
        self.deck_page = 0
        self.draw(console, k)
        while True:
            prompt = "" if log.is_open or help_open else self.prompt(console.width)
            try:
                line = read(prompt)
            except (EOFError, KeyboardInterrupt):
                return 0
            word = line.strip().lower()
            if log.is_open:
                still_open, used = log.key(line, console)
                if still_open:
                    log.draw(console, self.lang)
                    continue
                if used:
                    self.draw(console, k)
                    continue
            if help_open:
                help_open = False
                if not word:
                    self.draw(console, k)
                    continue
            if word in LOG_WORDS:
                log.open(self.log_view(k), console.width, self.lang)
                log.draw(console, self.lang)
            elif word in HELP_WORDS:
                help_open = True
                self.draw_help(console)
            elif not self.is_key(word):
                self.draw(console, k, hint=True)
            else:
                nxt = self.press(k, word, console.width, self.frame_height(console))
                if nxt is None:
                    return 0
                k = nxt
                self.draw(console, k)

    @staticmethod
    def is_key(key: str) -> bool:
        """True when ``key`` (a typed line, stripped and lower-cased) moves between
        frames or quits (:meth:`next_frame`)."""
        return key in ("", "n", "p", "r") or key in QUIT or key.isdigit()

    def press(self, k: int, key: str, width: int, height: int | None) -> int | None:
        """The frame after frame ``k`` for ``key`` on a ``width`` × ``height`` frame
        (``None``: quit), as :meth:`next_frame`, but on the end frame whose deck comes in
        pages (:meth:`deck_pages`) Enter/``n`` turns to the next page (round to the
        first) and ``p`` to the previous one, from the first to the last action."""
        if k == self.last and key in ("", "n", "p"):
            pages = self.deck_pages(width, height)
            page = self.deck_page % pages
            if key != "p" and pages > 1:
                self.deck_page = (page + 1) % pages
                return k
            if key == "p" and page > 0:
                self.deck_page = page - 1
                return k
        nxt = self.next_frame(k, key)
        if nxt == self.last and k != self.last:
            self.deck_page = 0
        return nxt

    def next_frame(self, k: int, key: str) -> int | None:
        """The frame after frame ``k`` for a typed ``key``; ``None`` to quit.
        ``""``/``n`` next, ``p`` previous, ``r`` first action of the next round,
        a number that action (clamped), ``q`` quit; anything else stays."""
        if key in QUIT:
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

