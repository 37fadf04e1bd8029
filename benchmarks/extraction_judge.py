"""What the extraction judge adds on replies written and labelled blind (``benchmarks.written_replies``).

``python -m benchmarks.extraction_judge [MODEL] [SET ...]`` (from the repository root) sends every reply of the
sets (by default the latest, untouched round: ``UNSEEN``) that strict reading leaves unread to MODEL (default
``llamacpp:default``; any model id ``--model`` takes, e.g. ``llamacpp:/path/model.gguf`` or ``openai:NAME@URL``)
with the judge's own prompt and parameters (``medprobe.engine.extraction``), reads its answer as a run does
(``with_judge``), and prints, per answer format: the unread replies that have an answer (misses) and how many the
judge reads right or wrong, and the unread replies that commit to none and how many the judge reads an answer into
(new false reads). A judge is worth switching on only when it reads many misses right and invents almost nothing.
"""

from __future__ import annotations

import asyncio
import sys
from collections import Counter

from benchmarks.written_replies import SETS, UNSEEN, probe, rows, set_name
from medprobe.engine.extraction import PARAMS, judge_prompt
from medprobe.models import make_backend
from medprobe.parsing.answers import question_of, read_strict, with_judge
from medprobe.records import Message, Request


async def judge(model: str, names: list[str]) -> Counter[str]:
    """Counts of what the judge does with the unread replies of the named sets."""
    backend = make_backend(model)
    counts: Counter[str] = Counter()
    try:
        await backend.check()
        for name in names:
            language, _ = set_name(SETS / f"{name}.jsonl")
            for row in rows(SETS / f"{name}.jsonl"):
                fmt, question, label = probe(row, language)
                reading = read_strict(row["reply"], fmt, question)
                if reading.read:
                    continue
                prompt = judge_prompt(question_of(question), row["reply"], fmt)
                request = Request(id=f"{row['id']}/extract#0", probe_id=f"{row['id']}/extract", messages=[Message(role="user", content=prompt)], params=PARAMS)
                value = with_judge(reading, fmt, await backend.complete(request)).value
                kind = row.get("kind", "mcq")
                if label is None:
                    counts[f"{kind} unread, no answer"] += 1
                    counts[f"{kind} judge invents"] += value is not None
                else:
                    counts[f"{kind} misses"] += 1
                    counts[f"{kind} judge right"] += value == label
                    counts[f"{kind} judge wrong"] += value is not None and value != label
            print(f"{name} done", file=sys.stderr)
    finally:
        await backend.aclose()
    return counts


def main(argv: list[str]) -> None:
    model = argv[0] if argv else "llamacpp:default"
    names = argv[1:] or sorted(UNSEEN)
    counts = asyncio.run(judge(model, names))
    print(f"extraction judge {model} on {', '.join(names)}")
    for kind in ("mcq", "tf"):
        if counts[f"{kind} misses"] or counts[f"{kind} unread, no answer"]:
            print(f"{kind}: misses {counts[f'{kind} misses']}: judge right {counts[f'{kind} judge right']}, wrong {counts[f'{kind} judge wrong']}; "
                  f"unread with no answer {counts[f'{kind} unread, no answer']}: judge invents {counts[f'{kind} judge invents']}")


if __name__ == "__main__":
    main(sys.argv[1:])
