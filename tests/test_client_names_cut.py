"""Names cut short on narrow and wide terminals (issue 12, specs/client.md § Narrow
terminals: names): the players table, at 40, 60, 80 and 120 columns, en and zh, with
ASCII, long ASCII, CJK and mixed names, at every squeeze of the screen, never cuts a
number (every count the view holds is whole in its row), never reduces a name to
``…`` alone, never renders two different names the same, never cuts a card, and every
line fits; the fitted screen never cuts a number or a card either. The move
numbers are checked by tests/test_client_move_table.py."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len

from jupai_net.client import render as R
from jupai_net.client.i18n import t
from jupai_net.client.layout import NAME_MIN, cap_names, cut_between
from jupai_net.client.render import render_view, to_text
from jupai_net.client.screen_parts import render_players

from .test_client_polish_screen import BOTS, screens

NAMES = {
    "ascii": BOTS,
    "long": dict(enumerate(["Bartholomew Smith", "Bartholomew Jones", "Bot Charlie", "Bot Chen",
                            "Maximiliana", "Maximilian"])),
    "cjk": dict(enumerate(["欧阳娜娜娜娜一", "欧阳娜娜娜娜二", "司马相如长卿", "司马相如长文", "诸葛孔明先生",
                           "诸葛孔明后生"])),
    "mixed": dict(enumerate(["Ann李", "李Ann Marie Long", "Zoë 张伟伟伟", "greedy bot 3", "王 Wang Wang", "x"])),
    "max": {s: "欧阳" * 11 + n for s, n in enumerate("一二三四五六")},  # 24 characters, 48 cells
}
#: (header, one_row, lines, recovered_line): the players table at each squeeze level.
SQUEEZES = [(True, False, True, True), (False, False, True, True), (False, True, True, True),
            (False, True, False, True), (False, True, False, False)]
CARD = r"(?:10|[2-9AJQK])"


def _states():
    """A few prompts of a 3-, a 4- and a 6-seat game (two-digit counts in the first),
    each seen by the seat to move and by a spectator."""
    for players, seed, every in ((3, 5, 23), (4, 1, 19), (6, 3, 17)):
        for st, seat, history in screens(players, seed, every=every):
            yield st.observation(seat), ([] if st.is_over else st.legal_actions(seat)), history
            yield st.observation(None), [], history


STATES = list(_states())


def _name_cell(row: str, seat: int, wide: bool) -> str:
    """The name a players row shows for ``seat``: ``▶ 2 Bart…h  farmer 5 …`` → ``Bart…h``
    (compact), ``  seat 2 (Bart…h)  …`` → ``Bart…h`` (wide); ``""`` when none."""
    if wide:
        found = re.match(r"^[▶ ] \S*?(?:seat )?\d+(?:号位)?(?:（|\()(.*?)(?:）|\))", row)
        return found.group(1) if found else ""
    return re.split(r"\s{2,}", row[2:].removeprefix(f"{seat}").strip())[0] if row[2:].strip() != str(seat) else ""


def _check_names(cells: dict[int, str], originals: dict[int, str]) -> list[str]:
    problems = []
    for s, cell in cells.items():
        if "…" in cell:
            kept = cell.replace("…", "")
            if cell_len(kept) < NAME_MIN:
                problems.append(f"seat {s}: name reduced to {cell!r}")
            head, _, tail = cell.partition("…")
            if not originals[s].startswith(head) or not originals[s].endswith(tail):
                problems.append(f"seat {s}: {cell!r} is not cut from {originals[s]!r}")
    seen: dict[str, int] = {}
    for s, cell in cells.items():
        if cell and cell.casefold() in seen and originals[seen[cell.casefold()]] != originals[s]:
            problems.append(f"seats {seen[cell.casefold()]} and {s} both read {cell!r}")
        seen.setdefault(cell.casefold(), s)
    return problems


def _row_problems(text: str, obs, names, lang: str, width: int) -> list[str]:
    """What is wrong with a rendered players table (or screen) at ``width``."""
    from jupai_net.client.screen_parts import in_play

    wide = width >= R.COMPACT_WIDTH
    lines = text.rstrip("\n").split("\n")
    problems = [f"too wide: {line!r}" for line in lines if cell_len(line.rstrip()) > width]
    me = obs.get("seat")
    cells, originals = {}, {}
    for p in obs["players"]:
        s = p["seat"]
        pattern = rf"^[▶ ] (?:seat {s}\b|{s}号位|{s}\b)"
        row = next((line for line in lines if re.match(pattern, line)), None)
        if row is None:
            problems.append(f"seat {s}: no row")
            continue
        ident = R.identity_text(p.get("identity"), p.get("identity_value"), lang, short=not wide)
        found = re.search(re.escape(ident) + r"\s+(\S+)\s+(\S+)", row)
        left = str(p["cards_left"]) + ("⚔" if in_play(p) else "")  # ⚔: some in play (specs/client.md)
        if not found or found.groups() != (str(p["hand_count"]), left):
            problems.append(f"seat {s}: counts {p['hand_count']}, {p['cards_left']} not whole in {row!r}")
        if re.search(CARD + "…", row.replace(_name_cell(row, s, wide), "", 1)):
            problems.append(f"seat {s}: a card or number cut in {row!r}")
        if s != me:
            cells[s] = _name_cell(row, s, wide)
            originals[s] = R.display_name(names[s], lang)
    return problems + _check_names(cells, originals)


@pytest.mark.parametrize("width", [40, 60, 80, 120])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("kind", list(NAMES))
def test_the_players_table_never_cuts_a_number_and_tells_names_apart(width, lang, kind):
    """Every state, seat and spectator, at every squeeze of the players table: the
    counts whole, no card cut (``6…``), a cut name keeps at least NAME_MIN cells and is
    cut from the name, two different names never read the same (``greed…`` six
    times before), every line within the width."""
    names = NAMES[kind]
    for obs, _legal, _history in STATES[::5]:
        for header, one_row, lines, recovered in SQUEEZES if width < R.COMPACT_WIDTH else SQUEEZES[:1]:
            table = render_players(obs, names, lang, compact=width < R.COMPACT_WIDTH, header=header,
                                   one_row=one_row, mine_above=obs.get("seat") is not None, lines=lines,
                                   recovered_line=recovered)
            text = to_text(table, width)
            assert not _row_problems(text, obs, names, lang, width), (_row_problems(text, obs, names, lang, width),
                                                                     text)


def _without_names(line: str, names, lang: str) -> str:
    """``line`` without the names cut short in it (``Bartholomew J…`` is a name, not a card)."""
    for name in names.values():
        name = R.display_name(name, lang)
        for k in range(len(name), 0, -1):
            line = line.replace(name[:k] + "…", "…")
    return line


@pytest.mark.parametrize("width", [40, 60])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_fitted_screen_never_cuts_a_number_or_a_card(width, lang):
    """The whole screen at ``width``×23 (squeezed as the fitting chooses), long ASCII
    and CJK names: the players rows as above, and no line anywhere holds a card or a
    number cut with ``…`` outside a name."""
    for kind in ("long", "cjk"):
        names = NAMES[kind]
        for obs, legal, history in STATES[::4]:
            text = to_text(render_view(obs, legal=legal, names=names, events=history, lang=lang, width=width,
                                       height=23), width)
            assert len(text.rstrip("\n").split("\n")) <= 23
            assert not _row_problems(text, obs, names, lang, width), text
            cut = [line for line in map(lambda x: _without_names(x, names, lang), text.split("\n"))
                   if re.search(r"(?:^|[\s+(（])" + CARD + "…", line)]
            assert not cut, text


@pytest.mark.parametrize("cap", [4, 6, 10, 14, 20])
@pytest.mark.parametrize("kind", list(NAMES))
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_cap_names_keeps_names_within_the_cap_and_apart(cap, kind, lang):
    """:func:`cap_names`: each name within ``cap`` cells, whole when it fits, else cut
    from the name keeping at least NAME_MIN cells of it (or no name at all), and no two
    the same; the bots' names keep their number (``gree…1``, ``贪心…1``)."""
    names = {s: R.display_name(n, lang) for s, n in NAMES[kind].items()}
    got = cap_names(names, cap)
    assert all(cell_len(x) <= cap for x in got.values()), got
    assert all(got[s] == n for s, n in names.items() if cell_len(n) <= cap), got
    assert not _check_names({s: x for s, x in got.items()}, names), got
    if kind == "ascii" and cap >= 6:
        assert all(x.endswith(str(s)) for s, x in got.items()), got


def test_cut_between_keeps_whole_parts():
    """Cards and equipment are cut between parts, never inside one (``6…``)."""
    assert cut_between(["4♦", "6♥", "10♠"], " ", 9) == "4♦ 6♥ 10♠"
    assert cut_between(["4♦", "6♥", "10♠"], " ", 7) == "4♦ 6♥ …"
    assert cut_between(["Q♠+3♣", "2 left", "down"], " · ", 9) == "Q♠+3♣ …"
    assert cut_between(["10♠", "6♥"], " ", 2) == "…"


#: Names that share a long head (and the CJK pair its first 5 characters), for the move
#: grid and the scoreboard: cut at the same place they read the same.
PREFIXED = dict(enumerate(["Alexander the Great", "Alexander Hamilton", "张三丰大侠甲", "张三丰大侠乙",
                           "Alexandra Hamilton", "张三丰大侠甲乙"]))
_GRID_LABEL = {"en": re.compile(r"(?:attack|play against|discard|^) ?seat (\d+) \((.*?)\)(?:'s|:| |$)"),
               "zh": re.compile(r"(?:进攻 |对 |丢弃 |^)(\d+)号位（(.*?)）")}


def _grid_prompts():
    """A few prompts whose moves form a grid of targets: the 6-seat game (5 targets)
    and a 4-seat one."""
    from jupai_net.client.total_words import action_fields

    from .test_client_polish_screen import screens

    found = []
    for players, seed in ((6, 3), (4, 1)):
        for st, seat, _history in screens(players, seed, every=2):
            legal = [action_fields(a) for a in st.legal_actions(seat)] if not st.is_over else []
            if len({a.target for a in legal if a.target is not None}) >= 3 and len(legal) >= 12:
                found.append((st.observation(seat), legal))
            if len(found) >= 2 * (1 + (players == 6)):
                break
    return found


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_move_grid_cuts_names_by_the_one_rule(lang):
    """The move grid's row labels and its legend (``attack seat 1 (Alexander…n)``) at
    40, 60 and 80 columns cut names by :func:`cap_names`: each cut from its name,
    at least NAME_MIN cells of it, two seats never read the same (``Alexander…`` for
    both Alexanders before), every line within the width; some labels are cut."""
    from jupai_net.client.screen_moves import move_matrix

    names = PREFIXED
    grids = cut = 0
    for obs, legal in _grid_prompts():
        for width in (40, 60, 80):
            grid = move_matrix(legal, obs, names, lang, width)
            if grid is None:
                continue
            grids += 1
            text = to_text(grid, width)
            lines = text.rstrip("\n").split("\n")
            assert all(cell_len(line.rstrip()) <= width for line in lines), text
            shown = [(int(m.group(1)), m.group(2)) for line in lines for m in _GRID_LABEL[lang].finditer(line)]
            cells: dict[int, str] = {}
            for s, cell in shown:
                problems = _check_names({s: cell, **{k: v for k, v in cells.items() if k != s}},
                                        {s: R.display_name(n, lang) for s, n in names.items()})
                assert not problems, (problems, text)
                cells.setdefault(s, cell)
                cut += "…" in cell
    assert grids >= 4 and cut >= 4, (grids, cut)


def _scoreboard_names(lines: list[str], me_mark: str) -> list[str]:
    """The name cells of the scoreboard's player lines (``  2. Alex…n (you)  2 pts`` →
    ``Alex…n``), the viewer's mark taken off."""
    cells = []
    for line in lines[1:]:
        found = re.match(r"^  \d+\. (.*?)(?:  |$)", line)
        assert found, line
        cells.append(found.group(1).replace(me_mark, "").strip())
    return cells


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("kind", ["prefixed", "cjk", "long", "max"])
def test_the_scoreboard_cuts_names_by_the_one_rule(lang, kind):
    """The scoreboard at 40, 60 and 80 columns, after a game and at the end of the
    series, each player in turn the viewer: every line within the width, each name
    cut from its name keeping at least NAME_MIN cells, no two players reading the
    same (``Alexander the G…`` / ``Alexander Ham…`` told apart, ``张三丰大…甲`` /
    ``张三丰大…乙``), the viewer's ``(you)`` whole."""
    from jupai_net.client.scoreboard import scoreboard_lines
    from jupai_net.series import Series

    names = [R.display_name(n, "en") for n in (PREFIXED if kind == "prefixed" else NAMES[kind]).values()]
    series = Series(b"\x01" * 16, games=3)
    series.record(names, list(range(len(names))))
    standings = series.standings()
    originals = dict(enumerate(R.display_name(st.name, lang) for st in standings))
    mark = t("series.you", lang)
    cut = 0
    for width in (40, 60, 80):
        for final in (False, True):
            for me in names[:2]:
                lines = scoreboard_lines(standings, game=1, games=3, final=final, lang=lang, me=me, width=width)
                assert all(cell_len(line) <= width for line in lines), "\n".join(lines)
                assert sum(mark in line for line in lines) == 1, "\n".join(lines)
                cells = dict(enumerate(_scoreboard_names(lines, mark)))
                mine = next(k for k, st in enumerate(standings) if st.name == me)
                if not cells[mine]:  # the viewer's name may give way to its mark alone
                    del cells[mine]
                assert not _check_names(cells, originals), (_check_names(cells, originals), "\n".join(lines))
                cut += sum("…" in c for c in cells.values())
    assert cut, "no name was cut"
