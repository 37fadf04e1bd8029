"""The SDAK release: JSON lines, one claim per line, two lines per atomic knowledge item.

    {"label_id": "pos_1", "type": "DiseaseCause", "disease": "乳核", "cause": "痰浊凝结所致",
     "claim": "乳核的病因可能包括痰浊凝结所致", "label": "support", "instruction": "…", "input": "", "output": "", "id": 0}
    {"label_id": "neg_1", "type": "DiseaseCause", "disease": "乳核", "cause": "痰浊凝结所致",
     "claim": "乳核的病因不可能包括痰浊凝结所致", "label": "refute", …}

``pos_N`` is the factual claim (label "support") and ``neg_N`` its counterfactual ("refute"); N
pairs them within a type, as the published evaluation script groups them. Every other field except
the prompt fields (instruction, input, output, id) names an entity of the item ("disease",
"cause", …); both halves must name the same ones. ``--data`` is one such file or a folder of them.

Nothing is dropped quietly: a line that is not a claim, an unknown type, a duplicate label_id, a
label that contradicts its label_id, a pair with a missing half or with halves that disagree stops
the import with the file, line and field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from medprobe.errors import MedprobeError
from medprobe.jsonl import first_record, iter_json_lines
from medprobe.methods.sdak.claims import AtomicType, ClaimPair, find_type, release_names

PROMPT_FIELDS = frozenset({"instruction", "input", "output", "id"})
CLAIM_FIELDS = frozenset({"label_id", "type", "claim", "label"})
LABEL_OF = {"pos": "support", "neg": "refute"}
_LABEL_ID = re.compile(r"^(pos|neg)_(\d+)$")
_CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass(frozen=True)
class _Claim:
    """One line of the release, validated."""

    kind: AtomicType
    half: str
    number: str
    claim: str
    entities: dict[str, str]
    file: Path
    line: int

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


def is_release(spec: str) -> bool:
    """A folder, or a JSONL file whose first record has a ``label_id`` (a KB line has none)."""
    path = Path(spec)
    if path.is_dir():
        return True
    if not path.is_file():
        return False
    record = first_record(path)
    return isinstance(record, dict) and "label_id" in record


def _text(value: dict[str, Any], name: str, file: Path, line: int) -> str:
    text = value.get(name)
    if not isinstance(text, str) or not text.strip():
        problem = "missing required field" if text is None else "expected non-empty text"
        raise MedprobeError(problem, file=file, line=line, field=name)
    return text.strip()


def _read_claim(value: Any, file: Path, line: int) -> _Claim:
    if not isinstance(value, dict):
        raise MedprobeError("expected one JSON object per line (a claim)", file=file, line=line)
    label_id = _text(value, "label_id", file, line)
    match = _LABEL_ID.match(label_id)
    if match is None:
        raise MedprobeError(f"'{label_id}' is not pos_N or neg_N", file=file, line=line, field="label_id")
    half, number = match.groups()
    type_name = _text(value, "type", file, line)
    kind = find_type(type_name)
    if kind is None:
        raise MedprobeError(f"unknown atomic type '{type_name}'", file=file, line=line, field="type", hint="known types: " + release_names())
    label = _text(value, "label", file, line)
    if label != LABEL_OF[half]:
        raise MedprobeError(f"label '{label}' contradicts label_id '{label_id}' (expected '{LABEL_OF[half]}')", file=file, line=line, field="label")
    entities = {k: v for k, v in value.items() if k not in CLAIM_FIELDS | PROMPT_FIELDS}
    if not entities:
        raise MedprobeError("no entity fields (e.g. 'disease', 'symptom')", file=file, line=line)
    for name in entities:
        entities[name] = _text(value, name, file, line)
    return _Claim(kind, half, number, _text(value, "claim", file, line), entities, file, line)


def _pair(pos: _Claim, neg: _Claim, language: str) -> ClaimPair:
    for name in sorted(pos.entities.keys() | neg.entities.keys()):
        if pos.entities.get(name) != neg.entities.get(name):
            raise MedprobeError(
                f"neg_{neg.number} names {neg.entities.get(name)!r} but pos_{pos.number} ({pos.where}) names {pos.entities.get(name)!r}",
                file=neg.file, line=neg.line, field=name,
            )
    return ClaimPair(
        id=f"{pos.kind.key}/{pos.number}", type=pos.kind.key, language=language,  # type: ignore[arg-type]
        factual=pos.claim, counterfactual=neg.claim, entities=pos.entities, source=str(pos.file),
    )


def load_release(path: Path) -> list[ClaimPair]:
    """Every item of a release file or folder (``*.jsonl``), validated and paired."""
    files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    if not files:
        raise MedprobeError("no .jsonl files in this SDAK release folder", file=path)
    slots: dict[tuple[str, str], dict[str, _Claim]] = {}
    language: str | None = None
    for file in files:
        for line, value in iter_json_lines(file):
            claim = _read_claim(value, file, line)
            slot = slots.setdefault((claim.kind.key, claim.number), {})
            if claim.half in slot:
                first = slot[claim.half]
                raise MedprobeError(
                    f"duplicate label_id '{claim.half}_{claim.number}' for type {claim.kind.release_name} (first at {first.where})",
                    file=file, line=line, field="label_id",
                )
            slot[claim.half] = claim
            claim_language = "zh" if _CJK.search(claim.claim) else "en"
            if language not in (None, claim_language):
                raise MedprobeError(f"a {claim_language} claim in a {language} release", file=file, line=line, field="claim")
            language = claim_language
    pairs = []
    for slot in slots.values():
        if len(slot) < 2:
            (alone,) = slot.values()
            other = "neg" if alone.half == "pos" else "pos"
            raise MedprobeError(
                f"{alone.half}_{alone.number} ({alone.kind.release_name}) has no {other}_{alone.number} to pair with",
                file=alone.file, line=alone.line, field="label_id",
            )
        pairs.append(_pair(slot["pos"], slot["neg"], language or "zh"))
    if not pairs:
        raise MedprobeError("the SDAK release is empty (no claim lines)", file=path)
    return sorted(pairs, key=lambda p: p.id)
