"""Narrow terminals (issue 12, the screen at 40 and 60 columns): what a person reads
in a terminal of 40 or 60 columns is never cut where it must be whole — a house rule's
key name in ``jupai rules`` (specs/client.md § Command line), a seat's equipment in the
players table (§ What the player sees, item 3)."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len

from jupai_net.client import render as R
from jupai_net.client.i18n import t
from jupai_net.client.render import render_view, to_text
from jupai_net.rules import RuleSet

from .cli_helpers import jupai
from .test_client_polish_screen import BOTS, screens


@pytest.mark.parametrize("columns", [40, 60])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_jupai_rules_never_cuts_a_key_name(columns, lang):
    """``jupai rules`` at 40 and 60 columns, en and zh: every setting's name is whole on
    a line (``swap-prime-composite`` was cut to ``swap-prime-compos…`` at 60 columns),
    no line is wider than the terminal, nothing is cut with ``…`` (the meanings wrap)."""
    out = jupai("rules", "--lang", lang, columns=columns)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert all(cell_len(line) <= columns for line in lines), out.stdout
    for name, _value, _ in RuleSet().describe():
        assert any(f" {name} " in f" {line.strip(' │')} " for line in lines), (name, out.stdout)
    assert "…" not in out.stdout.replace("1…N", "")


# --------------------------------------------------------------- the players table
def _rows(text: str) -> dict[int, tuple[str, str]]:
    """Each seat's row of the compact players table on screen ``text``, and the line
    under it: seat → (row, next line)."""
    lines = text.split("\n")
    rows = {}
    for k, line in enumerate(lines):
        found = re.match(r"^[▶ ] (\d) ", line)
        if found and k + 1 < len(lines) and int(found[1]) not in rows:
            rows[int(found[1])] = (line.rstrip(), lines[k + 1].rstrip())
    return rows


def _counts(row: str, p: dict, lang: str) -> bool:
    """True when ``row`` gives the seat's identity whole, then its hand count and cards left
    (``6⚔`` while some of them are in play: specs/client.md § What the player sees, 3)."""
    from jupai_net.client.screen_parts import in_play

    ident = R.identity_text(p.get("identity"), p.get("identity_value"), lang, short=True)
    found = re.search(re.escape(ident) + r"\s+(\d+)\s+(\d+⚔?)(\s|$)", row)
    left = str(p["cards_left"]) + ("⚔" if in_play(p) else "")
    return bool(found) and found.groups()[:2] == (str(p["hand_count"]), left)


def _in_row(cell: str, row: str) -> bool:
    """True when ``row`` has a cell ``cell`` (between two spaces and the next cell or the end)."""
    return bool(re.search(r"\s\s" + re.escape(cell) + r"(\s\s|$)", row))


def _kit(p: dict, lang: str) -> list[str]:
    """How a seat's equipment may read in a row: in words, or ``down`` for a face-down pair."""
    said = [R.equipment_text(p.get("equipment"), lang, None, short=True, compact=True)]
    if p.get("equipment") is not None and p["equipment"].get("mass") is None:
        said.append(t("face.down_short", lang))
    return said


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_at_40_columns_each_seats_equipment_is_in_its_row_or_on_the_line_under_it(lang):
    """A 6-seat game at 40 columns on a tall terminal (nothing squeezed), en and zh:
    the row of a seat keeps its hand count and cards left, and its equipment is whole
    in the row, or, only when it does not fit there, whole on the line under the row
    (the viewer's own: in the own section above the table instead). Before, the
    equipment column was squeezed to nothing (and the counts' columns with it)."""
    lined = 0
    for st, seat, history in screens(6, 3, every=4):
        obs = st.observation(seat)
        legal = [] if st.is_over else st.legal_actions(seat)
        text = to_text(render_view(obs, legal=legal, names=BOTS, events=history, lang=lang, width=40,
                                   height=200, dealer="blind"), width=40)
        assert all(cell_len(line.rstrip()) <= 40 for line in text.split("\n")), text
        rows = _rows(text)
        assert sorted(rows) == list(range(6)), text
        for p in obs["players"]:
            s = p["seat"]
            row, under = rows[s]
            assert _counts(row, p, lang), (row, text)
            kit = _kit(p, lang)
            if any(_in_row(k, row) for k in kit):
                assert not under.startswith("      ") or re.match(r"^[▶ ] \d ", under), (under, text)
                continue
            assert cell_len(row) + 2 + min(map(cell_len, kit)) > 40, (row, kit, text)  # it did not fit
            if s == obs.get("seat") and not st.is_over:  # the own section above says it: no line
                assert not under.startswith(" " * 6), (under, text)
            else:
                assert under.strip() in kit, (row, under, kit, text)
                lined += 1
    assert lined  # some did not fit


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_at_40_by_23_the_equipment_is_never_squeezed_to_nothing(lang):
    """The same game at 40×23 (squeezed): each row keeps its counts and at least the
    beginning of its equipment (``10♣+6…`` at the most squeezed level; whole, or on
    the line under the row, before that); no line wider than 40 columns."""
    for st, seat, history in screens(6, 4, every=7):
        obs = st.observation(seat)
        legal = [] if st.is_over else st.legal_actions(seat)
        text = to_text(render_view(obs, legal=legal, names=BOTS, events=history, lang=lang, width=40,
                                   height=23, dealer="blind"), width=40)
        assert all(cell_len(line.rstrip()) <= 40 for line in text.split("\n")), text
        rows = _rows(text)
        for p in obs["players"]:
            row, under = rows[p["seat"]]
            assert _counts(row, p, lang), (row, text)
            if p["seat"] == obs.get("seat") and not st.is_over:
                continue
            kit = _kit(p, lang)
            cut = re.split(r"\s\s+", row)[-1]  # the last cell, cut with … at the most squeezed level
            assert (any(_in_row(k, row) or under.strip() == k for k in kit)
                    or (cut.endswith("…") and cell_len(cut) >= 4 and kit[0].startswith(cut[:-1]))), (row, under, kit,
                                                                                                    text)


# ------------------------------------------------------------------ redraw cost
def _styled(obs, legal, history, width, lang, moves_page=0) -> str:
    import io

    from rich.console import Console

    console = Console(file=io.StringIO(), width=width, color_system="truecolor", force_terminal=True,
                      legacy_windows=False, highlight=False, emoji=False, record=True)
    console.print(render_view(obs, legal=legal, names=BOTS, events=history, lang=lang, width=width, height=23,
                              dealer="blind", moves_page=moves_page))
    return console.export_text(styles=True)


def _views():
    """A 6-seat game's longest move list (an attack round) and a few other prompts."""
    found = [(st.observation(seat), st.legal_actions(seat), list(history))
             for st, seat, history in screens(6, 3, every=5) if not st.is_over]
    worst = max(found, key=lambda v: len(v[1]))
    return [worst, *[v for v in found if 1 < len(v[1]) <= 20][:3]]


def test_the_fitted_screen_is_byte_for_byte_what_measuring_every_part_gives(monkeypatch):
    """The redraw's shortcuts (specs/performance.md § Client) change no screen: a move
    layout whose floor is too tall is not built, the pages stop at the best count,
    parts are measured from their pieces and kept between redraws
    (``layout.lines_of``). Each view is drawn with them, then with every part rendered
    to be measured as before (``height_of``, no floor, no page limit); the screens,
    styles included, are the same, at 40, 60 and 80 columns, en and zh, the longest
    move list on its first and second pages; and at 60 columns every figure
    ``lines_of`` gave is the one rendering gives (``CHECK_LINES``)."""
    from jupai_net.client import layout, screen

    worst, *others = _views()
    cases = [(worst, 40, "en", 0), (worst, 40, "zh", 1), (worst, 60, "zh", 0), (worst, 80, "en", 1),
             (others[0], 60, "en", 0), (others[1], 40, "zh", 0), (others[2], 80, "zh", 0)]
    fast = []
    for view, width, lang, page in cases:
        monkeypatch.setattr(layout, "CHECK_LINES", width == 60)  # (checking costs a render of every part)
        fast.append(_styled(*view, width, lang, page))
    pages = screen.move_pages
    monkeypatch.setattr(screen, "lines_of", layout.height_of)
    monkeypatch.setattr(screen, "layout_floor", lambda *args: 0)
    monkeypatch.setattr(screen, "move_pages", lambda units, fits, limit=None: pages(units, fits))
    slow = [_styled(*view, width, lang, page) for view, width, lang, page in cases]
    for (view, width, lang, page), a, b in zip(cases, fast, slow):
        assert a == b, (width, lang, page, len(view[1]))
    assert any("\x1b[" in a for a in fast)  # (styles compared too)


# ------------------------------------------------------------------ jupai history
def test_jupai_history_breaks_lines_between_names_and_pads_no_line(tmp_path):
    """``jupai history`` into a pipe at 40, 60 and 80 columns (en, zh, en): no line ends
    with a space (rich padded every row of its tables), no line is wider than the
    terminal, and a line breaks between names and parts only — each player's name is
    whole on a line (``greedy`` / ``bot 1`` was), each series standing (``Alexandria
    Bartholomew 3 pts``) too (``Alice 0`` / ``pts`` was), and the block's head keeps
    ``series ababab #2`` together."""
    from jupai_net.client.card_words import display_name
    from jupai_net.fairness.selfplay import play_game

    names = ["Alexandria Bartholomew", "greedy bot 1", "random bot 2"]
    for k in (1, 2):
        game = play_game(RuleSet(players=3, rounds=2), rng_seed=k, game_id=bytes([k]) * 16)
        meta = {"saved": f"2026-11-30T10:0{k}:00", "table": "Ann's table", "names": names, "series": "ab" * 16,
                "game": str(k)}
        (tmp_path / f"g{k}-seat0.jupai").write_bytes(game.witnesses[0].transcript(meta))
    for columns, lang in ((80, "en"), (60, "zh"), (40, "en")):
        out = jupai("history", "--dir", str(tmp_path), "--lang", lang, columns=columns)
        assert out.returncode == 0, out.stderr
        lines = out.stdout.splitlines()
        assert all(line == line.rstrip() for line in lines), out.stdout.replace(" \n", "·\n")
        assert all(cell_len(line) <= columns for line in lines), out.stdout
        shown = [display_name(n, lang) for n in names]
        for name in shown:
            assert sum(line.count(name) for line in lines) >= 3, (name, out.stdout)  # two games and the series
        series = t("series.col.series", lang)
        assert any(f"{series} ababab #2" in line for line in lines), out.stdout
        points = "分" if lang == "zh" else "pts?"
        for name in shown:
            assert any(re.search(re.escape(name) + rf" \d+ ({points})", line) for line in lines), (name, out.stdout)


# ------------------------------------------------------------------ the ending
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_at_40_columns_the_transcript_path_and_the_verify_command_are_whole_lines(lang, tmp_path, monkeypatch):
    """The end of a game at 40 columns (issue 12): the transcript's path (54 columns from
    ``~``) and the ``jupai verify`` command are each printed as one line, never broken
    by rich nor cut (the terminal folds a long line, and copying it gives it whole: a
    trial in tmux at 40 columns copied the path in one piece, ``capture-pane -J``); the
    command is cut after ``verify`` with a shell continuation, its path alone on the
    next line, so the two lines paste as one command."""
    import io
    from types import SimpleNamespace

    from rich.console import Console

    from jupai_net.client.ui import print_game_end

    monkeypatch.setenv("HOME", str(tmp_path))
    path = tmp_path / ".config" / "jupai" / "transcripts" / "674d463e2a68-seat0.jupai"
    result = SimpleNamespace(status="finished", ranking=[], seat=0, result={}, names={}, verdict=None,
                             transcript_path=path, series=None)
    console = Console(file=io.StringIO(), width=40, color_system=None, force_terminal=False, record=True,
                      legacy_windows=False, highlight=False, emoji=False)
    print_game_end(console, result, lang)
    lines = console.export_text().splitlines()
    shown = "~/.config/jupai/transcripts/674d463e2a68-seat0.jupai"
    assert f"  {shown}" in lines, lines
    at = lines.index(t("end.verify", lang))
    assert lines[at + 1].endswith(" verify \\") and lines[at + 2] == f"    ~/{shown[2:]}", lines
