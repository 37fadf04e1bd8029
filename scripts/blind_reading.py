"""Blind readings of questions built from the built-in KBs (protocol: ../shared/docs/BLIND_READING.md).

  python scripts/blind_reading.py sample --language en --seed 9101 --round r1 --aspects primary_symptoms,medications \
      --points 50 --readers 4 -o readings-work/
      Builds each aspect's questions on a fresh seed and writes, per reader, a packet of questions with
      their keys (``<round>-<language>-<n>.items.jsonl``: id, question, options, key; nothing about the KB or
      the builder), and one private file that maps each question id to its language, aspect and type.
  python scripts/blind_reading.py sample-build --language en --seed 9301 --round h1 --probes probes.jsonl -o readings-work/
      The headline sample: 30 knowledge points of a `medprobe build multifacet` output drawn with
      random.Random(7), four questions each.
  python scripts/blind_reading.py ingest readings-work/ --round r1
      Joins the readers' verdict files (``<packet>.verdicts.jsonl``: id, verdict, confidence, reason) with the
      private map, checks every question has exactly one verdict, and writes ``medprobe/readings/<round>-<language>.jsonl``.
The shipped table: `medprobe kb precision`.

A reader is given only the packet and BLIND_READING.md, never this script, the builder or the KB.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter, defaultdict
from pathlib import Path

from medprobe.methods.multifacet.from_kb import build_kb_questions
from medprobe.methods.multifacet.questions import Question
from medprobe.precision import BUILDER_VERSIONS, READINGS_DIR, VERDICTS
from medprobe.sources.builtin import VERSIONS, resolve_kb

#: (task, variant) of the four questions read per knowledge point -> the precision table's type
READ_FORMS = {("MCQ", "base"): "MCQ", ("MCQ", "neg"): "MCQ-neg", ("MAQ", "pos"): "MAQ", ("TFQ", "stmt"): "TFQ", ("TFQ", "neg_stmt"): "TFQ"}


def _key(question: Question) -> str | list[str]:
    if question.task == "TFQ":
        return "true" if question.gold else "false"
    return question.gold if isinstance(question.gold, str | list) else str(question.gold)


def _four(questions: list[Question], rng: random.Random) -> list[Question]:
    """The MCQ, negated MCQ, positive MAQ and one of the two statements (drawn by ``rng``)."""
    statement = rng.choice(["stmt", "neg_stmt"])
    wanted = [("MCQ", "base"), ("MCQ", "neg"), ("MAQ", "pos"), ("TFQ", statement)]
    by_form = {(q.task, q.variant): q for q in questions}
    return [by_form[form] for form in wanted]


def _packet_line(question: Question) -> dict[str, object]:
    options = question.fmt.option_texts or {}
    return {"question": question.text, "options": options, "key": _key(question)}


def _write(out: Path, round_: str, language: str, rows: list[tuple[dict, dict]], readers: int) -> None:
    """Split the questions among ``readers`` packets (shuffled, so no packet holds one aspect only)."""
    random.Random(f"{round_}-{language}").shuffle(rows)
    private = []
    for n in range(readers):
        part = rows[n::readers]
        packet = out / f"{round_}-{language}-{n + 1}.items.jsonl"
        with packet.open("w", encoding="utf-8") as handle:
            for i, (line, meta) in enumerate(part, 1):
                qid = f"{round_}-{language}-{n + 1}-{i:03d}"
                handle.write(json.dumps({"id": qid, **line}, ensure_ascii=False) + "\n")
                private.append({"id": qid, **meta})
        print(f"{packet}: {len(part)} questions")
    (out / f"{round_}-{language}.private.jsonl").write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in private), encoding="utf-8")


def sample(args: argparse.Namespace) -> None:
    kb = resolve_kb(f"builtin:{args.language}")
    rng = random.Random(7)
    rows = []
    for aspect in args.aspects.split(","):
        built = build_kb_questions(kb, seed=args.seed, limit=args.points, aspects={aspect})
        by_point: dict[str, list[Question]] = defaultdict(list)
        for q in built.questions:
            by_point[q.knowledge_point].append(q)
        print(f"{aspect}: {len(by_point)} knowledge points")
        for point, questions in sorted(by_point.items()):
            for q in _four(questions, rng):
                meta = {"language": args.language, "aspect": aspect, "type": READ_FORMS[q.task, q.variant], "point": point,
                        "seed": args.seed, "kb_version": VERSIONS[args.language], "builder": BUILDER_VERSIONS[args.language]}
                rows.append((_packet_line(q), meta))
    _write(args.output, args.round, args.language, rows, args.readers)


def sample_build(args: argparse.Namespace) -> None:
    """Thirty knowledge points of a build, four questions each, as BLIND_READING.md draws them."""
    probes = [json.loads(line) for line in args.probes.read_text(encoding="utf-8").splitlines() if line.strip()]
    by_point: dict[str, list[dict]] = defaultdict(list)
    for p in probes:
        by_point[p["knowledge_point"]].append(p)
    rng = random.Random(7)
    points = rng.sample(sorted(by_point), min(30, len(by_point)))
    rows = []
    for point in points:
        forms = {(p["facet"], p["variant"]): p for p in by_point[point]}
        statement = rng.choice(["stmt", "neg_stmt"])
        for form in [("MCQ", "base"), ("MCQ", "neg"), ("MAQ", "pos"), ("TFQ", statement)]:
            p = forms[form]
            question = p["prompt"].rsplit("Question: " if p["language"] == "en" else "问题：", 1)[-1]
            question = question.rsplit("\nAnswer:" if p["language"] == "en" else "\n答案：", 1)[0]
            key = ("true" if p["gold"] else "false") if form[0] == "TFQ" else p["gold"]
            line = {"question": question, "options": p["answer_format"].get("option_texts") or {}, "key": key}
            meta = {"language": args.language, "aspect": point.rsplit("/", 1)[1], "type": READ_FORMS[form], "point": point,
                    "seed": args.seed, "kb_version": VERSIONS[args.language], "builder": BUILDER_VERSIONS[args.language]}
            rows.append((line, meta))
    _write(args.output, args.round, args.language, rows, args.readers)


def ingest(args: argparse.Namespace) -> None:
    for private_path in sorted(args.folder.glob(f"{args.round}-*.private.jsonl")):
        language = private_path.name.split("-")[1].split(".")[0]
        private = {m["id"]: m for m in map(json.loads, private_path.read_text(encoding="utf-8").splitlines())}
        verdicts: dict[str, dict] = {}
        for path in sorted(args.folder.glob(f"{args.round}-{language}-*.verdicts.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    v = json.loads(line)
                    if v["id"] in verdicts and verdicts[v["id"]] != v:
                        raise SystemExit(f"{path}: {v['id']} judged twice, differently")
                    if v["verdict"] not in VERDICTS:
                        raise SystemExit(f"{path}: {v['id']} has an unknown verdict {v['verdict']!r}")
                    verdicts[v["id"]] = v
        missing = sorted(set(private) - set(verdicts))
        if missing:
            raise SystemExit(f"{language}: {len(missing)} questions have no verdict, e.g. {missing[:3]}")
        out = READINGS_DIR / f"{args.round}-{language}.jsonl"
        with out.open("w", encoding="utf-8") as handle:
            for qid, meta in sorted(private.items()):
                v = verdicts[qid]
                reading = {"id": qid, "language": meta["language"], "aspect": meta["aspect"], "type": meta["type"],
                           "verdict": v["verdict"], "confidence": v["confidence"], "reason": v.get("reason", ""),
                           "seed": meta["seed"], "kb_version": meta["kb_version"], "round": args.round,
                           "builder": meta.get("builder", 1)}
                handle.write(json.dumps(reading, ensure_ascii=False) + "\n")
        bad = Counter(v["verdict"] for v in verdicts.values() if v["verdict"] != "ok" or v["confidence"] == "low")
        print(f"{out}: {len(private)} readings, bad {sum(bad.values())} ({dict(bad)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(required=True)
    s = sub.add_parser("sample")
    s.add_argument("--language", required=True)
    s.add_argument("--seed", type=int, required=True)
    s.add_argument("--round", required=True)
    s.add_argument("--aspects", required=True)
    s.add_argument("--points", type=int, default=50)
    s.add_argument("--readers", type=int, default=1)
    s.add_argument("-o", "--output", type=Path, required=True)
    s.set_defaults(run=sample)
    b = sub.add_parser("sample-build")
    b.add_argument("--language", required=True)
    b.add_argument("--seed", type=int, required=True)
    b.add_argument("--round", required=True)
    b.add_argument("--probes", type=Path, required=True)
    b.add_argument("--readers", type=int, default=1)
    b.add_argument("-o", "--output", type=Path, required=True)
    b.set_defaults(run=sample_build)
    i = sub.add_parser("ingest")
    i.add_argument("folder", type=Path)
    i.add_argument("--round", required=True)
    i.set_defaults(run=ingest)
    args = parser.parse_args()
    if hasattr(args, "output"):
        args.output.mkdir(parents=True, exist_ok=True)
    args.run(args)


if __name__ == "__main__":
    main()
