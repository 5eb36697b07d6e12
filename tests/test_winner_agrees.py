"""One winner rule, every screen agrees (specs/rules.md § 8 "Who won"): a game won by a
seat emptying its hand and a game ended by the last round (``state.winner`` None) each
name one winner — the first of the final ranking — in the engine's rule, the event
log, the ending screen (a seat's and a spectator's), the plain ending, ``jupai
replay``, ``jupai history`` (read from the saved transcript, as the command reads it),
the series scoreboard and the host console, and say how it was won."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace

import pytest

from jupai_net.engine import WIN_EMPTIED, WIN_RANKED, game_winner, win_reason
from jupai_net.fairness.selfplay import play_game
from jupai_net.rules import RuleSet

NAMES = ["Ann", "Bob", "Cy"]
#: 3 seats, 2 rounds, random legal moves: seed 1 ends by a seat emptying its hand,
#: seed 4 after the last round (asserted below, so a change of the engine shows here)
SEEDS = {WIN_EMPTIED: 1, WIN_RANKED: 4}
WHY = {WIN_EMPTIED: ("played out every card", "出完了所有牌"),
       WIN_RANKED: ("ranked first after the last round", "最后一回合后排名第一")}


@pytest.fixture(scope="module", params=sorted(SEEDS))
def game(request):
    kind = request.param
    s = SEEDS[kind]
    g = play_game(RuleSet(players=3, rounds=2), rng_seed=s, game_id=bytes([s]) * 16, host_seed=bytes([s]) * 32,
                  seat_seeds=[bytes([s + 10 + k]) * 32 for k in range(3)])
    state = g.dealer.state
    end = state.events[-1].to_wire(None)
    assert state.is_over and end["kind"] == "end"
    if kind == WIN_EMPTIED:  # the ending kind each seed is here for
        assert state.winner is not None and end["reason"] == "emptied"
    else:
        assert state.winner is None and end["reason"] == "last-round"
    return SimpleNamespace(kind=kind, g=g, state=state, end=end, seat=state.ranking[0])


def test_the_engine_rule(game):
    state = game.state
    assert game_winner(state.ranking) == game.seat
    assert win_reason(state.ranking, state.winner) == game.kind
    if game.kind == WIN_EMPTIED:
        assert state.winner == game.seat
    assert game_winner([]) is None and game_winner(None) is None and win_reason([], None) is None
    assert game_winner(["x", 1]) is None and game_winner([True, 0]) is None  # not a seat number


def test_the_event_log_and_the_replay(game):
    from jupai_net.client.event_words import describe_event, involves
    from jupai_net.client.replay_screen import ReplayScreen
    from jupai_net.fairness.story import read_game

    names = dict(enumerate(NAMES))
    line = describe_event(game.end, names, None, "en")
    assert line == f"Game over: seat {game.seat} ({NAMES[game.seat]}) wins ({WHY[game.kind][0]})", line
    assert [s for s in range(3) if involves(game.end, s)] == [game.seat]  # the winner's own outcome
    zh = describe_event(game.end, names, None, "zh")
    assert zh == f"游戏结束：{game.seat}号位（{NAMES[game.seat]}）获胜（{WHY[game.kind][1]}）", zh

    story = read_game(game.g.witnesses[1].transcript({"names": NAMES}))
    assert story.verdict.status == "verified"
    ending = ReplayScreen(story, "en").ending_lines()
    assert f"seat {game.seat} ({NAMES[game.seat]}) wins ({WHY[game.kind][0]})" in ending, ending


def test_the_ending_screens(game):
    from jupai_net.client.end_words import game_end_lines
    from jupai_net.client.layout import to_text
    from jupai_net.client.screen import render_view
    from jupai_net.client.watch import WatchScreen

    state, names = game.state, dict(enumerate(NAMES))
    me = (game.seat + 1) % 3  # a seat that did not win, then the winner's own screen
    for seat, who in ((me, f"seat {game.seat} ({NAMES[game.seat]})"), (game.seat, f"seat {game.seat} (you)")):
        screen = " ".join(to_text(render_view(state.observation(seat), names=names, lang="en", width=100), 100).split())
        assert f"{who} wins ({WHY[game.kind][0]})" in screen, screen

    result = {"reason": game.end["reason"], "winner": state.winner, "ranking": list(state.ranking),
              "cards_left": game.end["cards_left"], "names": NAMES}
    plain = SimpleNamespace(status="finished", ranking=list(state.ranking), seat=me, result=result, names=names,
                            view=None, verdict=None, transcript_path=None)
    lines = [text for text, _, _ in game_end_lines(plain, "zh")]
    assert f"  {game.seat}号位（{NAMES[game.seat]}）获胜（{WHY[game.kind][1]}）" in lines, lines
    assert lines[2].startswith(f"  第1名 {game.seat}号位")  # the ranking under it starts with the same seat

    from rich.console import Console

    view = SimpleNamespace(observation=state.observation(None), chat=[], notices=[], names=names, events=[],
                           series=None, verdict=None, result=result, dealer=None, waiting=(), table="")
    watch = WatchScreen(lang="en", console=Console(file=io.StringIO(), width=80, height=40), reader=object())
    screen = " ".join(to_text(watch.screen(view), 80).split())
    assert f"seat {game.seat} ({NAMES[game.seat]}) wins ({WHY[game.kind][0]})" in screen, screen


def test_history_from_the_saved_transcript(game, tmp_path, capsys):
    from jupai_net.cli import main
    from jupai_net.client.layout import to_text
    from jupai_net.history import collect, history_block, history_row

    (tmp_path / "g-seat2.jupai").write_bytes(game.g.witnesses[2].transcript({"names": NAMES, "saved": "2026-12-02T01:00:00"}))
    (entry,) = collect([tmp_path])
    assert (entry.winner, entry.win, entry.ranking[0]) == (NAMES[game.seat], game.kind, game.seat)
    assert main(["history", "--dir", str(tmp_path), "--json"]) == 0
    (shown,) = json.loads(capsys.readouterr().out)
    assert (shown["winner"], shown["win"]) == (NAMES[game.seat], game.kind)
    assert main(["history", "--dir", str(tmp_path), "--lang", "en"]) == 0
    table = capsys.readouterr().out.splitlines()
    head = table[0]
    col = head.index("winner")
    assert table[1][col:].split()[0] == NAMES[game.seat], table  # never "—" for a game that finished
    for lang in ("en", "zh"):  # the narrow block says how
        block = " ".join(to_text(history_block(history_row(entry, lang), lang, 40), 40).split())
        name = NAMES[game.seat]
        assert (f"{name} ({WHY[game.kind][0]})" if lang == "en" else f"{name}（{WHY[game.kind][1]}）") in block, block


def test_the_scoreboard_and_the_host_console(game):
    from rich.console import Console

    from jupai_net.client.scoreboard import scoreboard_lines
    from jupai_net.host.cli import HostScreen
    from jupai_net.series import Series

    state = game.state
    series = Series(b"s" * 16)
    series.record(NAMES, state.ranking)
    wins = {st.name: st.wins for st in series.standings()}
    assert wins == {name: int(s == game.seat) for s, name in enumerate(NAMES)}
    lines = scoreboard_lines(series.standings(), game=1, games=1, final=True, lang="en")
    (won,) = [line for line in lines if "1 win" in line]
    assert NAMES[game.seat] in won, lines

    out = io.StringIO()
    screen = HostScreen(Console(file=out, width=200), lang="en", games=1)
    result = {"reason": game.end["reason"], "winner": state.winner, "ranking": list(state.ranking),
              "cards_left": game.end["cards_left"], "names": NAMES}
    screen(0, "end", {"result": result})
    closing = screen.closing(None)
    said = f"{NAMES[game.seat]} wins ({WHY[game.kind][0]})"
    assert said in " ".join(out.getvalue().split()).split("game over", 1)[1], out.getvalue()
    assert f"{NAMES[game.seat]} (seat {game.seat}) wins ({WHY[game.kind][0]})" in closing, closing


def test_the_host_console_says_who_won_once(game):
    """The game's last step carries the engine's ``end`` event and the game's ``end``
    follows it: the console says who won once, with the places (the trial's console
    said "Game over: seat 0 (Alice) wins …" and then "game over: Alice wins …")."""
    from rich.console import Console

    from jupai_net.host.cli import HostScreen

    state = game.state
    out = io.StringIO()
    screen = HostScreen(Console(file=out, width=200), lang="en", games=1)
    screen(0, "step", {"events": [game.end], "actor": state.ranking[0], "action": {"kind": "pass"}})
    result = {"reason": game.end["reason"], "winner": state.winner, "ranking": list(state.ranking),
              "cards_left": game.end["cards_left"], "names": NAMES}
    screen(0, "end", {"result": result})
    text = out.getvalue()
    assert text.lower().count("game over") == 1 and text.count(" wins (") == 1, text
