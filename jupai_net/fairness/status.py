"""The five verdict statuses of a transcript check and the exit code of ``jupai verify``
for each (specs/fairness.md §9–10). No imports: ``jupai verify --help`` loads this and
not the verifier."""

VERIFIED = "verified"
TAMPERED = "tampered"
SUSPICIOUS = "suspicious"
UNVERIFIED = "unverified"
MALFORMED = "malformed"
STATUSES = (VERIFIED, TAMPERED, SUSPICIOUS, UNVERIFIED, MALFORMED)
#: Exit code of ``jupai verify`` per status (specs/fairness.md §10).
EXIT_CODES = {VERIFIED: 0, TAMPERED: 3, SUSPICIOUS: 4, UNVERIFIED: 5, MALFORMED: 6}
