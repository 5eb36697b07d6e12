"""Do the transcripts of one game agree? (``jupai verify`` of several files,
specs/fairness.md §10.)

Every seat of a game receives its own copy of the host's public statements (addressed
to it: ``to`` and ``n`` differ) plus private openings. What the host signs for
everyone must be the same in every seat's copy: the rules, seat count, host key and
commitment (``start``), the seat commitments and seeds, the card commitments of the
``deal``, each step's actor and action, and how the game ended (``end``: host seed,
ranking, winner; ``abandon``: reason, host seed). A host that signs one story for one
seat and another for another (equivocation) passes each seat's own check; only the
transcripts side by side show it.

:func:`public_facts` lists those facts of one transcript; :func:`disagreement` names
the first fact two transcripts of one game both hold and state differently.
"""

from __future__ import annotations

from typing import Any

from .statements import StatementError, decode_body, split_statement
from .transcript import TranscriptError, decode_transcript

#: statement kind -> the fields every seat's copy shares (specs/fairness.md §6.2)
SHARED_FIELDS: dict[str, tuple[str, ...]] = {
    "start": ("rules", "seats", "host_commitment", "host_key"),
    "commitments": ("commitments",),
    "seeds": ("seeds",),
    "deal": ("commitments",),
    "step": ("actor", "action"),
    "end": ("host_seed", "ranking", "winner"),
    "abandon": ("reason", "host_seed"),
}


def public_facts(data: bytes) -> dict[str, Any] | None:
    """The facts of transcript file ``data`` that every seat's copy shares, keyed by
    where they sit in the game (``"start"``, ``"step 12"``, ``"over"``: ``end`` or
    ``abandon``), each ``(kind, {field: value})``; None when the file or one of its
    statements cannot be read (the file's own verdict says why)."""
    try:
        transcript = decode_transcript(data)
        facts: dict[str, Any] = {}
        for raw in transcript.statements:
            body = decode_body(split_statement(raw)[0])
            kind = body["kind"]
            fields = SHARED_FIELDS.get(kind)
            if fields is None:
                continue
            where = f"step {body['version']}" if kind == "step" else "over" if kind in ("end", "abandon") else kind
            facts[where] = (kind, {f: body.get(f) for f in fields})
        return facts
    except (TranscriptError, StatementError, KeyError, TypeError, ValueError):
        return None


def disagreement(a: dict[str, Any], b: dict[str, Any]) -> str | None:
    """The first place (``"over"``, ``"step 7"``, ``"deal"`` …) where the facts ``a`` and
    ``b`` of two transcripts of one game differ, or None when they agree wherever both
    reach (one may stop earlier: a seat that left, a file saved mid-game)."""
    for where in a:
        if where in b and a[where] != b[where]:
            return where
    return None
