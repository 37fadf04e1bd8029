"""SDAK (paper 004): self-diagnostic atomic knowledge, checked as factual/counterfactual claims.

Every atomic knowledge item is a pair of claims — "People with X may have Y" and its negation —
and the model is asked of each whether it is correct, verdict first, then a reason. It holds the
item only if it supports the fact and refutes the counterfactual (FactAcc); the instruction-
following rate (IFR) counts items whose two replies both begin with a verdict; missed items are
sorted into not-follow / sycophancy / safety / misinterpretation, plus "reversed" (the fact refuted
and the counterfactual supported), which the paper has no column for; AccR is a manual check of a
100-item sample. Sources (``--data``): the SDAK release (JSONL file or folder), or any knowledge
base (``builtin:zh`` by default, ``builtin:en``, a KB file), from which claim pairs are built per
atomic type. ``--setting zero-shot|few-shot`` (zero-shot tests every item; few-shot holds a
validation split apart and draws 3 demos from it anew for each run); ``--repeats`` is the number of runs (3); ``--limit N`` is N items per type.
Decoding follows the paper's Appendix E: temperature 0.3, top-k 5, top-p 0.85, repetition
penalty 1.05 (max 128 new tokens: the verdict and a short reason). Strict scoring reads verdicts
with ``medprobe.methods.sdak.strict_verdict``; reference-compatible scoring with the authors' prefix rules
(``medprobe.methods.sdak.reference_verdict``); every report compares the two readings.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from rich.table import Table

from medprobe.contract import (
    BuildOptions,
    PointTest,
    ProbeSet,
    ProfileRole,
    RunSession,
    ScoreOptions,
    ScoreResult,
    Way,
)
from medprobe.errors import MedprobeError
from medprobe.gating import GATES_KEY, ItemCells
from medprobe.methods.sdak import review
from medprobe.methods.sdak.build import DEFAULT_RUNS, READ_TYPES, SETTINGS, build_probes
from medprobe.methods.sdak.metrics import ERROR_TYPES
from medprobe.methods.sdak.profile_part import point_test
from medprobe.methods.sdak.prompts import STOP
from medprobe.methods.sdak.score import RADAR_FILE
from medprobe.methods.sdak.score import score as score_responses
from medprobe.methods.sdak.strict_verdict import read_verdict
from medprobe.parsing.reading import NO_REPLY, Reading
from medprobe.precision import cell_aspect
from medprobe.records import GenerationParams, Probe, Response
from medprobe.report.markdown import md_table, pct, pct_pm
from medprobe.seeding import sample_seed
from medprobe.sources.kb import KnowledgeBase
from medprobe.verification import ReviewItem

SAMPLING = GenerationParams(temperature=0.3, top_p=0.85, top_k=5, repetition_penalty=1.05, max_tokens=128, stop=STOP)
ERROR_NAMES = {"not_follow": "NotFollow", "sycophancy": "Sycophancy", "safety": "Safety", "misinterpretation": "Misinterpretation",
               "reversed": "Reversed*"}


def _pm(spread: dict[str, Any]) -> str:
    """A mean ± sd (percent) cell; the mean alone for a single run."""
    return pct_pm(spread["mean"], spread.get("sd"), 2)


class SdakMethod:
    name = "sdak"
    title = "SDAK"
    default_data = "builtin:zh"
    settings = SETTINGS
    raw_formats: tuple[str, ...] = ()

    profile = ProfileRole(rank=40, ways=(Way("claims", "sdak", "SDAK claim pairs"),), question_types=READ_TYPES)

    def profile_points(self, kb: KnowledgeBase, seed: int) -> PointTest:
        return point_test(kb, seed)

    def build(self, options: BuildOptions) -> ProbeSet:
        if options.options:
            raise MedprobeError(f"unknown option(s) {', '.join(sorted(options.options))}", field="-X", hint="sdak takes no -X options")
        setting = options.setting or "zero-shot"
        probes, info = build_probes(
            options.data or self.default_data, setting=setting, runs=options.repeats or DEFAULT_RUNS, seed=options.seed, limit=options.limit,
            points=options.point_ids(), include_unmeasured=options.include_unmeasured,
        )
        return ProbeSet(probes, SAMPLING, 1, setting, info, own_repeats=True)

    async def interact(self, probe_set: ProbeSet, session: RunSession) -> None:
        """Ask every probe once, each run with its own sampling seed: zero-shot runs have the
        same prompts, and with one seed they would be one run three times (and one cache entry)."""
        seed = session.seed
        run_of = {p.id: int(p.meta["run"]) for p in probe_set.probes}
        requests = [
            r if r.seed is None else r.model_copy(update={"seed": sample_seed(seed, run_of[r.probe_id])})
            for r in session.requests_for(probe_set.probes)
        ]
        await session.ask(requests)

    def score(self, probes: list[Probe], responses: list[Response], options: ScoreOptions) -> ScoreResult:
        return score_responses(probes, responses, options)

    def read_alone(self, probe: Probe, reply: str | None) -> tuple[bool, Reading]:
        """One claim's reply read on its own (a harness scores sample by sample, while a run scores the fact and
        the counterfactual of an item together): right when the verdict read matches the claim's truth."""
        reading = read_verdict(reply, probe.language) if reply is not None else Reading(None, NO_REPLY, NO_REPLY)
        return reading.value is not None and reading.value == probe.gold, reading

    def review_items(self, probes: list[Probe]) -> list[ReviewItem]:
        return review.review_items(probes)

    def item_cells(self, probes: list[Probe], build_info: dict[str, Any]) -> ItemCells:
        """(KB, aspect, TFQ) of each claim built from a knowledge base, once however many runs ask it: a claim
        states one fact or one distractor, as a true/false question does."""
        gates = build_info.get(GATES_KEY, {})
        kb = next(iter(gates), None)
        if kb is None:
            return Counter()
        language = gates[kb]["language"]
        claims = {(p.knowledge_point, p.variant): p for p in probes if "aspect" in p.meta}
        # a KB claim's id is "<type>/<disease id>/<entity>"
        return Counter((kb, cell_aspect(language, p.knowledge_point.split("/", 2)[1], p.meta["aspect"]), READ_TYPES[0]) for p in claims.values())

    def import_raw(self, path: Path, fmt: str, options: BuildOptions) -> tuple[ProbeSet, list[Response]]:
        raise MedprobeError(
            "SDAK has no result format of another tool to import",
            field="--format",
            hint="score a medprobe run directory (--format medprobe), or answer exported probes (medprobe build sdak) "
            "and run them with --model replay:ANSWERS.jsonl",
        )

    def headline(self, summary: dict[str, Any]) -> dict[str, str]:
        """One leaderboard row (paper Table 4): setting, IFR and FactAcc as mean ± sd."""
        m = summary["metrics"]
        return {"Setting": str(m.get("setting")), "IFR": _pm(m["ifr"]), "FactAcc": _pm(m["fact_acc"]), "_sort": f"{m['fact_acc']['mean'] or 0:012.6f}"}

    def table(self, summary: dict[str, Any]) -> Table:
        m = summary["metrics"]
        table = Table(
            "atomic type", "items", "FactAcc %", "IFR %",
            title=f"SDAK · {summary['model']} · {m['items']} items × {m['runs']} runs · {m.get('setting')} · {summary['mode']}",
        )
        for row in m["per_type"].values():
            table.add_row(row["label"], str(row["items"]), pct(row["fact_acc"]), pct(row["ifr"]))
        table.add_row("[bold]all", str(m["items"]), f"[bold]{_pm(m['fact_acc'])}", _pm(m["ifr"]))
        errors = m["errors"]
        shares = ", ".join(f"{ERROR_NAMES[k]} {errors['counts'][k]}" for k in ERROR_TYPES)
        table.caption = (
            f"mean ± sd over runs; random FactAcc {pct(m['random_fact_acc'])} %; missed items: {shares}; "
            f"AccR sheet: {m['accr']['file']} ({m['accr']['items']} items)"
        )
        return table

    def report(self, summary: dict[str, Any]) -> str:
        m = summary["metrics"]
        errors = m["errors"]
        parts = [
            f"## IFR, FactAcc and AccR (%), mean ± sd over {m['runs']} run(s), {m['items']} items (Table 4 shape)",
            "",
            md_table(
                ["Model", "Setting", "IFR", "FactAcc", "AccR"],
                [
                    ["Random", "–", pct(1.0), pct(m["random_fact_acc"]), "–"],
                    [summary["model"], m.get("setting") or "–", _pm(m["ifr"]), _pm(m["fact_acc"]), f"manual: `{m['accr']['file']}`"],
                ],
            ),
            "",
            "An item counts for FactAcc when the factual claim is called correct *and* the counterfactual incorrect; "
            "for IFR when both replies begin with a verdict. "
            f"Replies without a leading verdict: {pct(m['no_verdict_rate'])} %"
            + "".join(f"; {n} × {reason}" for reason, n in m.get("no_verdict_reasons", {}).items()) + ". "
            f"AccR: review the {m['accr']['items']} items of `{m['accr']['file']}` (does each reason support its verdict?).",
            "",
            f"## FactAcc per atomic type (%), mean over runs (Fig. 4; chart: `{RADAR_FILE}`)",
            "",
            md_table(
                ["atomic type", "items", "FactAcc", "IFR"],
                [[r["label"], r["items"], pct(r["fact_acc"]) + (f" ± {pct(r['fact_acc_sd'], 2)}" if r["fact_acc_sd"] is not None else ""), pct(r["ifr"])]
                 for r in m["per_type"].values()],
            ),
            "",
            f"## Error types of the {errors['missed']} missed item-runs (Table 5 shape; % of missed)",
            "",
            md_table(
                [ERROR_NAMES[k] for k in ERROR_TYPES],
                [[f"{errors['counts'][k]} ({pct(errors['shares'][k])})" for k in ERROR_TYPES]],
            ),
            "",
            "NotFollow = a reply without a leading verdict; Misinterpretation = both claims supported and the reply to the "
            "counterfactual restates the fact (one clause with the claims' shared words and the fact's polarity); "
            "Sycophancy = both supported otherwise; Safety = both refuted (whether the reasons call the claim imprecise "
            "is not checked). Paraphrased restatements are not recognised, so Misinterpretation is a lower bound and "
            "Sycophancy may include some. *Reversed = the fact refuted and the counterfactual supported: no column in "
            "the paper's Table 5, counted apart.",
        ]
        if "readers" in m:
            parts += ["", readers_section(m["readers"], summary["mode"])]
        return "\n".join(parts) + "\n"


def readers_section(readers: dict[str, Any], mode: str) -> str:
    """Strict reading against the SDAK authors' prefix rules, on the same replies: the metrics under
    each, the verdict pairs per claim half and the authors' deciding rules."""
    strict, reference = readers["strict"], readers["reference"]
    pairs = [[half, combo, n] for half, combos in readers["verdict_pairs"].items() for combo, n in combos.items()]
    rules = [[half, rule, n] for half, counts in readers["authors_rules"].items() for rule, n in counts.items()]
    parts = [
        "## How answers were read: strict reader and the authors' rules",
        "",
        f"This run is scored in {mode} mode. The same replies read the other way give:",
        "",
        md_table(["reading", "IFR", "FactAcc"], [
            ["strict (medprobe)", pct(strict["ifr"]), pct(strict["fact_acc"])],
            ["the authors' prefix rules (reference-compatible)", pct(reference["ifr"]), pct(reference["fact_acc"])],
        ]),
        "",
        f"Verdicts per reply, strict / the authors' rules ({readers['disagreements']} replies differ). The authors' "
        "rules look only at fixed substrings in the first 3–10 characters of the raw reply (Chinese only, no "
        "markdown, label, `<think>` or leading-space handling); a reply matching both kinds counts as support for a "
        "factual claim and as refutation for a counterfactual one, as their script asks only for that.",
        "",
        md_table(["claims", "strict / authors'", "replies"], pairs),
        "",
        "Which of the authors' rules decided each reply (the first that matches, the side's own kind first):",
        "",
        md_table(["claims", "rule", "replies"], rules),
    ]
    parts += ["", f"Every reply read differently is listed, with its claim and why, in `{readers['disagreements_file']}` "
              "(kept out of this report: it pairs replies with their claim half)."]
    return "\n".join(parts)


METHOD = SdakMethod()
