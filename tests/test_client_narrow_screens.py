"""The in-game screens at 60 and 80 columns, English and Chinese, ASCII and CJK names
(specs/client.md § What the player sees, § The game log, § Keys): a line of ``a · b``
parts breaks between parts (never right after a separator, never inside a key), the
players table never breaks its recovered cards' title or a card, ``/log`` has single
spaces, and Chinese labels end in a full-width colon."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len

from jupai_net.client.i18n import t
from jupai_net.client.render import render_help, render_view, to_text
from jupai_net.client.screen_log import game_log_lines, game_log_rows
from jupai_net.client.session import NoticeLine

from .test_client_polish_screen import BOTS, screens

CJK = {s: n for s, n in enumerate(["张伟伟", "李小明同学", "王芳", "欧阳娜娜", "陈", "赵钱孙李周吴"])}
SEP = "·"


def _views(players: int, seed: int):
    """Every fourth prompt of a random game: (observation, legal moves, history) for
    the seat to move, and the spectator's ``observation(None)`` then."""
    for st, seat, history in screens(players, seed, every=4):
        yield st.observation(seat), ([] if st.is_over else st.legal_actions(seat)), history
        yield st.observation(None), [], history


def _problems(text: str, lang: str) -> list[str]:
    """What is wrong with a rendered screen at its width: separators at a line's end or
    start, the recovered cards' title broken, a card cut at a line's start."""
    found = []
    title = t("col.recovered", lang)
    for line in text.split("\n"):
        row = line.rstrip()
        if row.endswith(" " + SEP) or row.lstrip().startswith(SEP + " "):
            found.append(f"separator at a line's edge: {row!r}")
        for k in range(2, len(title)):
            if row.endswith(title[:k]) or row.strip() == title[k:]:
                found.append(f"the title {title!r} broken: {row!r}")
        if re.match(r"^\s*[♠♥♦♣]", row):
            found.append(f"a card broken: {row!r}")
    return found


@pytest.mark.parametrize("width", [60, 80])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("names", [BOTS, CJK], ids=["ascii", "cjk"])
def test_headers_tables_and_outcomes_break_between_parts(width, lang, names):
    """Whole random 4- and 6-seat games, a seat's screen and the spectator's, fitted
    to ``width``×23: no line ends or starts with a separator (the header's leader goes
    to the next line whole), the recovered cards' title is whole when shown and the
    cards are never cut, and every line fits."""
    recovered_seen = 0
    for players, seed in ((4, 2), (6, 5)):
        for obs, legal, history in _views(players, seed):
            text = to_text(render_view(obs, legal=legal, names=names, events=history, lang=lang, width=width,
                                       height=23), width)
            assert not _problems(text, lang), (_problems(text, lang), text)
            assert all(cell_len(line.rstrip()) <= width for line in text.split("\n")), text
            if any(p.get("recovered") for p in obs["players"]) and obs.get("seat") is None:
                recovered_seen += 1
                # the cards are on screen: in their column or on the line under the table
                for p in obs["players"]:
                    for card in p.get("recovered") or ():
                        from jupai_net.client.card_words import card_text

                        assert card_text(card, lang) in text or "…" in text, (card, text)
    assert recovered_seen >= 4


@pytest.mark.parametrize("width", [60, 80])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_help_keys_line_never_splits_a_key(width, lang):
    """The keys line under the help's title: each key with its word (``/quit: leave``,
    ``? 帮助``) on one line, at 60 and 80 columns (it was cut as ``?`` / ``帮助``)."""
    text = to_text(render_help(lang, width, 23), width)
    rows = [re.sub(r"^[│\s]+|[│\s]+$", "", line) for line in text.split("\n")]
    for part in t("help.keys", lang).split(" · "):
        assert any(part in row for row in rows), (part, text)
    assert not _problems("\n".join(rows), lang), text


@pytest.mark.parametrize("width", [60, 80])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("names", [BOTS, CJK], ids=["ascii", "cjk"])
def test_the_game_log_has_single_spaces(width, lang, names):
    """``/log`` rows: one space between words (a wrapped line's break took the space;
    it was doubled when the rest was joined again), none at a row's end."""
    *_, (st, seat, history) = list(screens(4, 3, every=1))
    rows = game_log_rows(game_log_lines(history, seat, names, lang), width)
    assert len(rows) > 20
    for row in rows:
        plain = row.plain
        assert plain == plain.rstrip(), repr(plain)
        assert "  " not in plain.lstrip(" »"), repr(plain)
        assert cell_len(plain) <= width


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_compact_labels_use_the_languages_colon(lang):
    """The notices and chat lines of the compact screen: ``Notices: …`` in English,
    ``通知：…`` (full-width colon, no space) in Chinese."""
    st, seat, history = next(iter(screens(4, 1)))
    notice = NoticeLine("player-left", "Bob left the table", 0.0)
    text = to_text(render_view(st.observation(seat), notices=[notice], names=BOTS, events=history, lang=lang,
                               width=60), 60)
    if lang == "zh":
        assert "通知：" in text and "通知:" not in text, text
    else:
        assert "Notices: " in text, text


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("names", [BOTS, CJK], ids=["ascii", "cjk"])
def test_a_move_in_words_is_never_broken_over_two_lines(lang, names):
    """At 60 columns a move listed one per line in words (``3. play 8♦ against seat 2
    (they defend) (= 1 + 8 = 9)``) is on one line whole, or the moves are grouped (the
    60-column zh trial broke ``(= 1 + 2 =`` / ``3)``)."""
    from jupai_net.client.render import describe_action

    listed = 0
    for players, seed in ((2, 1), (4, 2), (6, 5)):
        for st, seat, history in screens(players, seed, every=2):
            if st.is_over:
                continue
            obs, legal = st.observation(seat), st.legal_actions(seat)
            text = to_text(render_view(obs, legal=legal, names=names, events=history, lang=lang, width=60,
                                       height=23), 60)
            for k, a in enumerate(legal, 1):
                if re.search(rf"^ ?{k}\. ", text, re.M):
                    listed += 1
                    assert f"{k:>2}. " + describe_action(a, obs, names, lang) in text, (k, text)
    assert listed > 10


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_grid_names_the_cards_when_every_move_uses_the_weapon(lang):
    """A defense with an armed weapon (the weapon must be used) or the last round: every
    column of the grid is a card with the weapon, so its head names the card
    (``A♠+W``), not a bare ``+W`` beside nothing."""
    from jupai_net.client.card_words import cards_text
    from jupai_net.client.screen_moves import move_matrix

    found = 0
    for players, seed in ((2, 1), (3, 2), (4, 3), (4, 7)):
        for st, seat, _history in screens(players, seed):
            legal = [] if st.is_over else st.legal_actions(seat)
            if len(legal) < 2 or not all(a.weapon for a in legal):
                continue
            grid = move_matrix(legal, st.observation(seat), BOTS, lang, 120)
            if grid is None:
                continue
            found += 1
            head = to_text(grid, 120).split("\n")[0]
            for a in legal:
                assert cards_text(a.cards, lang, "+") + t("item.weapon", lang) in head, head
    assert found >= 2
