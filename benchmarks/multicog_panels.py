"""MultiCogEval high level on AgentClinic: how much of a case's lab work a fixed panel request reaches.

A doctor who asks for the same eleven panels in every case ("CBC, BMP, CMP, LFTs, …") should reach
most of the routine blood and urine work an AgentClinic case records. The mean lab recall of that
one fixed request over the cases that have lab items shows whether panel names are expanded into
the components a case records (each case counts once; recall = requested items / the case's items).

Usage: python -m benchmarks.multicog_panels [--data PATH]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from medprobe.methods.multicog.dialogue.cases import load_cases
from medprobe.methods.multicog.dialogue.exams import requested_ids

AGENTCLINIC = Path(__file__).resolve().parents[2] / "shared" / "data" / "agentclinic" / "agentclinic_medqa_extended.jsonl"
PANELS = (
    "complete blood count, basic metabolic panel, comprehensive metabolic panel, liver function tests, lipid panel, "
    "coagulation panel, urinalysis, arterial blood gas, thyroid panel, iron studies, cardiac enzymes"
)
REPLY = f"Rationale: a routine work-up\nLab Tests: {PANELS}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(AGENTCLINIC))
    args = parser.parse_args()
    recalls = []
    for case in load_cases(args.data):
        record = {e.id for e in case.exams_of("LAB")}
        if record:
            recalls.append(len(requested_ids(case, "LAB", REPLY, "Lab Tests:") & record) / len(record))
    print(f"fixed 11-panel request: mean lab recall {sum(recalls) / len(recalls):.3f} over {len(recalls)} cases with lab items")


if __name__ == "__main__":
    main()
