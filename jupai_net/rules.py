"""Rule settings of a game: the RuleSet and its TOML loader (design/rules.md, specs/rules.md).

A :class:`RuleSet` is an immutable, validated set of settings: table size, number of
rounds, the round-type map (supply/discard numbers, prime/composite swap, random
specials), how the round value R is read, which same-identity reading applies, and
the identity set. Every house rule of design/rules.md is one field here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cards import DECK_SIZE

#: Identity letters: landlord 地主, coordinator 协调员, farmer 农民, narrator 旁白.
IDENTITY_NAMES = {"L": "landlord", "C": "coordinator", "F": "farmer", "N": "narrator"}
#: Default identity set by table size (design/rules.md §1).
DEFAULT_IDENTITIES: dict[int, str] = {2: "LF", 3: "LFF", 4: "LCFN", 5: "LCFFN", 6: "LCCFFN"}
COORDINATOR_RANKS = (4, 6, 8, 9, 10, 12)
FARMER_RANKS = (2, 3, 5, 7, 11, 13)
MIN_PLAYERS, MAX_PLAYERS = 2, 6
#: Default number of rounds N, chosen with ``jupai simulate`` (specs/rules.md §N).
DEFAULT_ROUNDS = 12

ROUND_VALUES = ("ordinal", "rank")
#: Settings added after version 1 of the game record, with their defaults: written to
#: the wire only when not at the default (:meth:`RuleSet.to_wire`).
LATER_SETTINGS: dict[str, Any] = {"attack_number": 0}
SAME_IDENTITY_READINGS = ("shared-role", "matching-card")


class RuleError(ValueError):
    """A rule setting is invalid. ``setting`` names it (the field name), ``detail``
    says what is wrong in English; ``code`` and ``params`` say it for the message
    catalog (``rule.CODE`` with those placeholders), so a command shows it in the
    player's language."""

    code: str | None = None
    params: dict[str, Any] = {}  # noqa: RUF012 - replaced per instance, never changed

    def __init__(self, setting: str, message: str, code: str | None = None, /, **params: Any):
        super().__init__(f"rule setting '{setting}': {message}")
        self.setting = setting
        self.detail = message
        #: the kind of mistake (a message key ``rule.CODE`` of jupai_net.messages) and its values
        self.code, self.params = code, params


class RuleFileMistakes(RuleError):
    """A rules file with one or more mistakes (:func:`load_rules`), all of them:
    ``mistakes`` is a list of ``(key as the file writes it, RuleError)`` (the error's
    ``detail``, ``code`` and ``params`` say what is wrong); ``str(exc)`` names the
    file and lists them one per line."""

    def __init__(self, path: str | Path, mistakes: list[tuple[str, RuleError]]):
        from .printable import printable

        lines = "\n".join(f"  {printable(key)}: {printable(exc.detail)}" for key, exc in mistakes)
        what = "a mistake" if len(mistakes) == 1 else f"{len(mistakes)} mistakes"
        ValueError.__init__(self, f"{path} has {what}:\n{lines}")
        self.setting = mistakes[0][0]
        self.detail = str(self)
        self.path, self.mistakes = str(path), mistakes


class RuleFileError(RuleError):
    """The rules file cannot be read, is not UTF-8 or not TOML (``setting`` is
    ``"file"``); ``str(exc)`` is one sentence naming the file (see
    :func:`jupai_net.textfile.read_text_file`)."""

    def __init__(self, message: str):
        ValueError.__init__(self, message)
        self.setting = "file"


_DESCRIPTIONS = {
    "players": "number of seats at the table (2-6)",
    "rounds": "number of rounds N (cards in the round pile); default 12, 11 for 6 players",
    "hand_size": "intent cards dealt to each hand",
    "supply_number": "round-card rank that makes a supply round",
    "discard_number": "round-card rank that makes a discard round",
    "swap_prime_composite": "house rule: prime ranks make attack rounds, others defense",
    "attack_number": "house rule: a round-card rank that always makes an attack round "
                     "(2 = the seed's '2 代表的积数为进攻回合' read literally); 0 = none",
    "random_specials": "house rule: draw the supply and discard numbers at random at setup",
    "round_value": "R = 'ordinal' (round number 1…N) or 'rank' (the flipped card's rank)",
    "same_identity": "'shared-role' (actor and target hold the same role) or 'matching-card'",
    "hidden_identities": "house rule: identities stay hidden until first used in a formula",
    "identities": "identity letters by seat order of dealing (L C F N), empty = default for the table size",
}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Validated rule settings (design/rules.md §1-§8). Raises :class:`RuleError` if invalid.

    ``identities`` is a string of identity letters (``L`` landlord, ``C`` coordinator,
    ``F`` farmer, ``N`` narrator), one per seat; empty means the default set for the
    table size (§1). The letters are dealt to seats in a random order at setup.
    """

    players: int = 4
    rounds: int | None = None
    hand_size: int = 5
    supply_number: int = 4
    discard_number: int = 9
    swap_prime_composite: bool = False
    attack_number: int = 0
    random_specials: bool = False
    round_value: str = "ordinal"
    same_identity: str = "shared-role"
    hidden_identities: bool = False
    identities: str = field(default="")

    def __post_init__(self) -> None:
        if self.rounds is None:  # default: DEFAULT_ROUNDS, or as many as the deck allows
            if isinstance(self.players, int) and isinstance(self.hand_size, int):
                fit = DECK_SIZE - self.players * (2 + self.hand_size)
                object.__setattr__(self, "rounds", max(1, min(DEFAULT_ROUNDS, fit)))
        for name in ("players", "rounds", "hand_size", "supply_number", "discard_number", "attack_number"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool):
                raise RuleError(name, f"must be a whole number, got {v!r}", "whole", got=repr(v))
        for name in ("swap_prime_composite", "random_specials", "hidden_identities"):
            if not isinstance(getattr(self, name), bool):
                raise RuleError(name, f"must be true or false, got {getattr(self, name)!r}", "bool", got=repr(getattr(self, name)))
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise RuleError("players", f"must be {MIN_PLAYERS}-{MAX_PLAYERS}, got {self.players}", "range",
                            low=MIN_PLAYERS, high=MAX_PLAYERS, got=self.players)
        if not 1 <= self.hand_size <= 10:
            raise RuleError("hand_size", f"must be 1-10, got {self.hand_size}", "range", low=1, high=10, got=self.hand_size)
        if self.rounds < 1:
            raise RuleError("rounds", f"must be at least 1, got {self.rounds}", "at_least", low=1, got=self.rounds)
        most = DECK_SIZE - self.players * (2 + self.hand_size)
        if most < 1:
            raise RuleError(
                "hand_size",
                f"a {self.players}-player table with {self.hand_size} hand cards deals "
                f"{self.players * (2 + self.hand_size)} cards and leaves none of the {DECK_SIZE} for the round pile "
                f"(at most {(DECK_SIZE - 1) // self.players - 2} hand cards)",
                "no_round_pile", players=self.players, hand=self.hand_size, dealt=self.players * (2 + self.hand_size),
                deck=DECK_SIZE, most=(DECK_SIZE - 1) // self.players - 2,
            )
        if self.rounds > most:
            raise RuleError(
                "rounds",
                f"at most {most} rounds fit a {self.players}-player table "
                f"({DECK_SIZE} cards - {self.players}×(2 equipment + {self.hand_size} hand)), got {self.rounds}",
                "too_many_rounds", most=most, players=self.players, deck=DECK_SIZE, hand=self.hand_size, got=self.rounds,
            )
        for name in ("supply_number", "discard_number"):
            if not 1 <= getattr(self, name) <= 14:
                raise RuleError(name, f"must be a rank 1-14, got {getattr(self, name)}", "rank", got=getattr(self, name))
        if self.supply_number == self.discard_number:
            raise RuleError("discard_number", "must differ from supply-number", "differ_supply")
        if not 0 <= self.attack_number <= 14:
            raise RuleError("attack_number", f"must be a rank 1-14, or 0 for none, got {self.attack_number}", "rank_or_0",
                            got=self.attack_number)
        if self.attack_number and not self.random_specials and self.attack_number in (
                self.supply_number, self.discard_number):
            raise RuleError("attack_number", "must differ from supply-number and discard-number", "differ_specials")
        if self.round_value not in ROUND_VALUES:
            raise RuleError("round_value", f"must be one of {', '.join(ROUND_VALUES)}, got {self.round_value!r}", "one_of",
                            choices=", ".join(ROUND_VALUES), got=repr(self.round_value))
        if self.same_identity not in SAME_IDENTITY_READINGS:
            raise RuleError(
                "same_identity", f"must be one of {', '.join(SAME_IDENTITY_READINGS)}, got {self.same_identity!r}",
                "one_of", choices=", ".join(SAME_IDENTITY_READINGS), got=repr(self.same_identity),
            )
        if not isinstance(self.identities, str):
            raise RuleError("identities", f"must be a string of letters L C F N, got {self.identities!r}", "letters",
                            got=repr(self.identities))
        if self.identities:
            bad = set(self.identities) - set(IDENTITY_NAMES)
            if bad:
                raise RuleError("identities", f"unknown identity letter(s) {''.join(sorted(bad))}; use L C F N", "bad_letters",
                                bad="".join(sorted(bad)))
            if len(self.identities) != self.players:
                raise RuleError(
                    "identities", f"needs one letter per seat ({self.players}), got {len(self.identities)}",
                    "letter_per_seat", players=self.players, got=len(self.identities),
                )
            if self.identities.count("L") > 1:
                raise RuleError("identities", "at most one landlord", "one_landlord")

    @property
    def identity_letters(self) -> str:
        """The identity letters in use: ``identities`` or the default for the table size."""
        return self.identities or DEFAULT_IDENTITIES[self.players]

    def replace(self, **changes: Any) -> "RuleSet":
        """A copy with ``changes`` applied (validated again)."""
        return dataclasses.replace(self, **changes)

    @property
    def stock_size(self) -> int:
        """Cards left in the stock after dealing (specs/rules.md §3): the deck less
        ``players × (2 + hand_size)`` and the ``rounds`` round-pile cards."""
        return DECK_SIZE - self.players * (2 + self.hand_size) - self.rounds

    def to_wire(self) -> dict[str, Any]:
        """Plain dict of every setting (msgpack/JSON friendly). Settings added after
        version 1 of the record (:data:`LATER_SETTINGS`) are written only when they
        differ from their default, so records of games without them keep their bytes."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if f.name not in LATER_SETTINGS or getattr(self, f.name) != LATER_SETTINGS[f.name]}

    @classmethod
    def from_wire(cls, data: Any) -> "RuleSet":
        """Build from :meth:`to_wire` output; unknown keys or bad values raise :class:`RuleError`."""
        if not isinstance(data, dict):
            raise RuleError("rules", "must be a table of settings")
        known = {f.name for f in dataclasses.fields(cls)}
        for key in data:
            if key not in known:
                raise RuleError(str(key), "unknown setting")
        return cls(**data)

    def describe(self) -> list[tuple[str, Any, str]]:
        """Every setting as ``(name, value, meaning)`` rows, for showing the rules back in full."""
        rows = []
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "identities":
                value = self.identity_letters + ("" if self.identities else " (default)")
            rows.append((f.name.replace("_", "-"), value, _DESCRIPTIONS[f.name]))
        stock = self.stock_size
        pairs = stock // 2
        if pairs:
            meaning = (f"cards left for drawing equipment after dealing: {pairs} new pair{'s' if pairs > 1 else ''} "
                       "(supply (b) or rearm) in the whole game")
        else:
            meaning = ("no new equipment can be drawn in this game: supply (b) and rearm are never possible "
                       f"(fewer than 2 cards are left after dealing; use fewer rounds for a stock)")
        rows.append(("stock", stock, meaning))
        return rows


def load_rules(path: str | Path, **overrides: Any) -> RuleSet:
    """Load a RuleSet from a TOML file (keys as in :meth:`RuleSet.describe`, written with
    hyphens, optionally under a ``[rules]`` table), then apply ``overrides`` (those
    that are not ``None``). specs/rules.md §8b.

    Raises :class:`RuleFileMistakes` listing every mistake of the file at once (each
    unknown key with the nearest valid one, a key written with underscores with its
    hyphen spelling, a setting written twice, each bad value, every table other than
    ``[rules]``), keys named as the file writes them; then a mistake that only the settings together make
    (e.g. too many rounds for the table). Raises :class:`RuleFileError` when the file
    cannot be read, is not UTF-8 (e.g. GBK) or is not valid TOML.
    """
    import tomllib  # here, not at the top: `jupai verify` and `jupai --help` never read a rules file

    from .textfile import TextFileError, read_text_file

    try:
        data = tomllib.loads(read_text_file(path) or "")
    except TextFileError as exc:
        raise RuleFileError(str(exc)) from None
    except tomllib.TOMLDecodeError as exc:
        from .textfile import toml_problem

        raise RuleFileError(toml_problem(path, exc)) from None
    entries = _file_entries(data)
    given = {k: v for k, v in overrides.items() if v is not None}
    mistakes = _file_mistakes(entries, given)
    if mistakes:
        raise RuleFileMistakes(path, mistakes)
    items = [(k, v) for k, v, _ in entries]
    written = {k.replace("-", "_"): k for k, _ in items}  # setting -> as the file writes it
    settings = {k.replace("-", "_"): v for k, v in items}
    settings.update(given)
    try:
        return RuleSet.from_wire(settings)
    except RuleError as exc:  # the settings together (e.g. rounds for this table size)
        raise RuleFileMistakes(path, [(written.get(exc.setting, exc.setting.replace("_", "-")), exc)]) from None


#: The one TOML table a house-rules file may put its settings under (specs/rules.md §8b).
RULES_TABLE = "rules"


def _file_entries(data: dict[str, Any]) -> list[tuple[str, Any, RuleError | None]]:
    """The entries of a parsed rules file in file order as ``(key as the file writes
    it, value, None)`` for a setting — the top-level keys and those of its ``[rules]``
    table, both read — and ``("[NAME]", table, mistake)`` for every other table
    (``[rule]``: did you mean ``[rules]``?). specs/rules.md §8b."""
    import difflib

    entries: list[tuple[str, Any, RuleError | None]] = []
    for key, value in data.items():
        key = str(key)
        if isinstance(value, dict) and key == RULES_TABLE:
            entries.extend((str(k), v, None) for k, v in value.items())
        elif isinstance(value, dict) or (isinstance(value, list) and value and all(isinstance(v, dict) for v in value)):
            table = f"[{key}]" if isinstance(value, dict) else f"[[{key}]]"
            near = f"[{RULES_TABLE}]"
            if difflib.get_close_matches(key.lower(), [RULES_TABLE], n=1, cutoff=0.6):
                error = RuleError(table, f"unknown table (did you mean {near}?)", "table_near", near=near)
            else:
                error = RuleError(table, f"unknown table (settings go at the top of the file or under {near})",
                                  "table_unknown", near=near)
            entries.append((table, value, error))
        else:
            entries.append((key, value, None))
    return entries


def _file_mistakes(entries: list[tuple[str, Any, RuleError | None]],
                   given: dict[str, Any]) -> list[tuple[str, RuleError]]:
    """Every mistake of the file's ``entries`` (:func:`_file_entries`) on its own — a
    table other than ``[rules]``, an unknown key with the nearest valid one,
    underscores, a setting written twice, a bad type or range — as ``(key as written,
    what is wrong)``, in file order."""
    import difflib

    known = [f.name for f in dataclasses.fields(RuleSet)]
    default_table = next(f.default for f in dataclasses.fields(RuleSet) if f.name == "players")
    file_table = next((v for k, v, e in entries if e is None and k.replace("-", "_") == "players"), default_table)
    table = given.get("players", file_table)
    try:  # the other settings are checked at the file's table size when it is valid
        RuleSet(players=table)
    except (RuleError, TypeError):
        table = default_table
    names = [n.replace("_", "-") for n in known]  # as a file writes them
    mistakes = []
    first: dict[str, str] = {}  # setting -> the key that set it first
    for key, value, table_error in entries:
        if table_error is not None:
            mistakes.append((key, table_error))
            continue
        name = key.replace("-", "_")
        if name not in known:
            near = difflib.get_close_matches(key.replace("_", "-"), names, n=1, cutoff=0.6)
            if near:
                error = RuleError(name, f"unknown setting (did you mean '{near[0]}'?)", "unknown_near", near=near[0])
            else:
                error = RuleError(name, f"unknown setting (known: {', '.join(names)})", "unknown", known=", ".join(names))
            mistakes.append((key, error))
            continue
        if name in first:  # e.g. at the top and again under [rules]: which one counts is not clear
            other = first[name]
            if other == key:  # TOML allows it only once per table: at the top and under [rules]
                error = RuleError(name, f"set twice: at the top of the file and under [{RULES_TABLE}]", "twice_table",
                                  near=f"[{RULES_TABLE}]")
            else:
                error = RuleError(name, f"set twice (also as '{other}')", "twice", other=other)
            mistakes.append((key, error))
            continue
        first[name] = key
        if "_" in key:  # keys are written with hyphens (specs/rules.md §8b); the value is still checked
            hyphens = key.replace("_", "-")
            mistakes.append((key, RuleError(name, f"write it with hyphens: '{hyphens}'", "hyphens", near=hyphens)))
        if name in given:  # the command line sets it: the file's value is not used
            continue
        alone = {"players": table, name: value} if name != "players" else {name: value}
        try:
            RuleSet(**alone)
        except RuleError as exc:
            if exc.setting == name:
                mistakes.append((key, exc))
    return mistakes
