"""A saved session is taken back only when it is this person's seat at this host (issue
12, trial13 screen 58): after a mid-game ``/quit`` the resume file stayed, and the next
``jupai join`` to the address reused the old seat and name — a new table refused "seat
2 is taken" with free seats, ``--name Catherine-Longname`` was refused as "another
player is called '小明'", ``--name Annie`` sat down as "Ann". Now a seat left on purpose
is forgotten (except while its trusted game runs: a bot plays it, and the same command
takes it back until the game ends); a file of another host (another certificate) is not
used; an explicit ``--name`` other than the saved one joins as new; a refused rejoin
whose saved seat or name is taken joins with the free seats and the person's name
(specs/client.md § Rejoin) — through ``jupai join``."""

from __future__ import annotations

import re
import subprocess
import sys

from jupai_net.client.resume import ResumeState

from .pty_helpers import PtyJupai
from .test_net_hardening import HostProcess
from .test_net_play import Running, env_for


def _stale(tmp_path, who: str, port: int, **fields):
    """A resume file in ``who``'s config folder for 127.0.0.1:``port`` (a token the host
    never gave): ``(its path, the env of that config folder)``."""
    path = tmp_path / who / "sessions" / f"127.0.0.1-{port}.resume"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(ResumeState("127.0.0.1", port, token="t" * 32, **fields).to_bytes())
    return path, dict(env_for(tmp_path), JUPAI_CONFIG_DIR=str(tmp_path / who))


def _join(host, env, *more: str) -> subprocess.CompletedProcess:
    """``jupai join`` with its input closed: it sits down, then leaves (the end of input)."""
    return subprocess.run([sys.executable, "-m", "jupai_net", "join", host.addr, "--code", host.code, *more],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, env=env)


def _seated(host, mark: int) -> list[tuple[str, int]]:
    return [(m[1], int(m[2])) for m in re.finditer(r"(\S+) took seat (\d)", "".join(host.lines[mark:]))]


def test_a_stale_session_never_costs_the_person_a_seat_or_their_name(tmp_path):
    host = HostProcess(tmp_path, "--no-announce", "--seats", "3")
    bob = None
    try:
        port = int(host.addr.rsplit(":", 1)[1])
        bob = Running(["join", host.addr, "--code", host.code, "--bot", "random", "--seat", "1", "--name", "Bob"],
                      dict(env_for(tmp_path), JUPAI_CONFIG_DIR=str(tmp_path / "bob")))
        host.wait_for(r"Bob \(a bot\) took seat 1|Bob took seat 1", timeout=30)

        # a file of an older release (no certificate) from another table at this address:
        # its token is refused, its seat and name are Bob's now — the free seats, her name
        path, env = _stale(tmp_path, "ann", port, name="Bob", seat=1)  # her seat and name are Bob's now
        mark = len(host.lines)
        out = _join(host, env)  # no --name: the saved name and seat, refused, then hers and a free one
        assert out.returncode == 0 and "Traceback" not in out.stderr, out.stdout + out.stderr
        path2, env2 = _stale(tmp_path, "cy", port, name="Cy", seat=1)  # the seat is Bob's, the name free
        out2 = _join(host, env2)
        assert out2.returncode == 0, out2.stdout + out2.stderr
        seated = _seated(host, mark)
        assert len(seated) == 2 and all(seat in (0, 2) for _, seat in seated), seated
        assert seated[0][0] != "Bob" and seated[1][0] == "Cy", seated
        for said in (out, out2):
            assert "refused" not in said.stderr and "is taken" not in said.stderr, said.stderr
            # two or three connections (the token refused, then fresh joins): the pinned code said once
            assert said.stdout.count("matches the pinned one") + said.stdout.count("pinned in") == 1, said.stdout
        assert not path.exists() and not path2.exists()  # left on purpose (the end of input): forgotten

        # --name other than the saved one: a new player, not a rejoin as "Ann"
        path, env = _stale(tmp_path, "annie", port, name="Ann", seat=2)
        mark = len(host.lines)
        out = _join(host, env, "--name", "Annie")
        assert out.returncode == 0, out.stdout + out.stderr
        assert [name for name, _ in _seated(host, mark)] == ["Annie"], host.lines[mark:]

        # a file of another host at this address (another certificate): not used at all
        path, env = _stale(tmp_path, "dee", port, name="Old", seat=2, fingerprint="00" * 32)
        mark = len(host.lines)
        out = _join(host, env)
        assert out.returncode == 0, out.stdout + out.stderr
        (who,) = _seated(host, mark)
        assert who[0] != "Old" and "bad-token" not in "".join(host.lines[mark:]), host.lines[mark:]
    finally:
        if bob is not None and bob.proc.poll() is None:
            bob.proc.kill()
        host.kill()


def test_a_trusted_seat_left_with_quit_is_kept_for_its_game_then_joined_anew(tmp_path):
    """Ann types /quit in a running trusted game: a bot plays her seat, and her resume
    file stays while that game runs (the same command takes the seat back:
    tests/test_leave_keeps_seat.py). Once the game is over the host refuses the old
    token and the same command joins as a new arrival — not refused, not stuck — and
    the file is gone."""
    host = HostProcess(tmp_path, "--no-announce", "--dealer", "trusted", "--seats", "2", "--bots", "1",
                       "--bot-delay", "0", "--rounds", "2", "--turn-timeout", "30")
    ann = None
    try:
        port = int(host.addr.rsplit(":", 1)[1])
        env = dict(env_for(tmp_path), JUPAI_CONFIG_DIR=str(tmp_path / "ann"))
        ann = PtyJupai(["join", host.addr, "--code", host.code, "--name", "Ann"], env, rows=40, columns=100)
        ann.wait_for(r"Round 1", timeout=30)
        resume = tmp_path / "ann" / "sessions" / f"127.0.0.1-{port}.resume"
        assert ResumeState.from_bytes(resume.read_bytes()).game_id is not None  # the game is saved to rejoin
        ann.type("/quit\r")
        ann.wait_for(r"Leaving the table: a bot plays your seat while you are away\.")
        ann.wait_for(r"A bot plays your seat\. Take it back during this game with:")
        ann.finish(30)
        kept = ResumeState.from_bytes(resume.read_bytes())
        assert kept.game_id is not None  # kept for this game
        mark = len(host.lines)
        host.wait_for(r"scoreboard", timeout=30)  # the game is over: a stand-in holds her seat
        out = _join(host, env)  # the same command, after the game: the token refused, a new arrival
        assert out.returncode == 0 and "Traceback" not in out.stderr, out.stdout + out.stderr
        said = "".join(host.lines[mark:])
        assert "Ann came back with a session that has ended" in said and "Ann took seat 0" in said, said
    finally:
        if ann is not None:
            ann.kill()
        host.kill()
    # the old session is gone (a new game may have started just as the new arrival left:
    # then the file holds that game's seat, under a new token)
    assert not resume.exists() or ResumeState.from_bytes(resume.read_bytes()).token != kept.token
    assert "Traceback" not in ann.text
