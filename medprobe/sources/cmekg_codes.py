"""What CMeKG's codes and population words say in the terms of MedDisK's aspects: the paper's age groups
in 多发群体, the body system of an ICD-10 code's block, the ICD-10 codes themselves, infectivity."""

from __future__ import annotations

import re
from typing import Any

from medprobe.sources.cmekg_values import unique

INFECTIVITY = {"有": "有传染性", "有传染性": "有传染性", "无": "无传染性", "无传染性": "无传染性", "弱": "弱传染性"}

# The paper's age groups, and the words of 多发群体 that name them.
AGE_GROUPS = ("围生期", "新生儿", "婴儿", "幼儿", "儿童", "少年", "成人", "青年", "中年", "老年")
AGE_WORDS: tuple[tuple[str, str], ...] = (
    ("围生", "围生期"), ("围产", "围生期"), ("新生儿", "新生儿"), ("婴儿", "婴儿"), ("婴幼儿", "婴儿"),
    ("幼儿", "幼儿"), ("儿童", "儿童"), ("小儿", "儿童"), ("学龄", "儿童"), ("少年", "少年"), ("青春期", "少年"),
    ("青少年", "青年"), ("成人", "成人"), ("成年", "成人"), ("青年", "青年"), ("青壮年", "青年"), ("中年", "中年"),
    ("中老年", "中年"), ("老年", "老年"), ("老人", "老年"), ("高龄", "老年"),
)

#: ICD-10 blocks named for one body system (the chapters of infections, tumours, pregnancy,
#: injuries, … are not, so their diseases get no system from here)
ICD_SYSTEMS: tuple[tuple[str, str, str], ...] = (
    ("D50", "D77", "血液系统"), ("D80", "D89", "免疫系统"), ("E00", "E35", "内分泌系统"), ("G00", "G99", "神经系统"),
    ("H00", "H59", "视觉系统"), ("H60", "H95", "听觉系统"), ("I00", "I99", "循环系统"), ("J00", "J99", "呼吸系统"),
    ("K00", "K93", "消化系统"), ("L00", "L99", "皮肤系统"), ("M00", "M99", "运动系统"), ("N00", "N39", "泌尿系统"),
    ("N40", "N51", "生殖系统"), ("N70", "N98", "生殖系统"), ("Q00", "Q07", "神经系统"), ("Q20", "Q28", "循环系统"),
    ("Q30", "Q34", "呼吸系统"), ("Q35", "Q45", "消化系统"), ("Q50", "Q56", "生殖系统"), ("Q60", "Q64", "泌尿系统"),
    ("Q65", "Q79", "运动系统"),
)


#: the body systems a department's name says it treats (first word wins: 心理 is no 心; 心胸外科 is two)
DEPARTMENT_SYSTEMS: tuple[tuple[str, str], ...] = (
    (r"精神|心理", "精神"), (r"心|血管", "循环系统"), (r"呼吸|胸", "呼吸系统"), (r"消化|胃肠|肛肠|肝|胆|腹", "消化系统"),
    (r"神经|脑", "神经系统"), (r"骨|脊柱|手外科|创伤", "运动系统"), (r"风湿|免疫|变态反应", "免疫系统"),
    (r"妇|产|生殖|乳腺|男科", "生殖系统"), (r"泌尿|肾", "泌尿系统"), (r"皮肤|烧伤", "皮肤系统"), (r"眼", "视觉系统"),
    (r"耳|鼻|咽|喉|头颈", "耳鼻喉"), (r"口腔|牙", "口腔"), (r"内分泌|代谢", "内分泌系统"), (r"血液", "血液系统"),
    (r"感染|传染|HIV|肝炎", "感染"),
)


def department_systems(department: str) -> list[str]:
    """The body systems of a department (心血管内科 -> 循环系统; 心胸外科 -> 循环系统, 呼吸系统; 内科 -> none),
    in the names ``ICD_SYSTEMS`` uses, so that a disease's systems and departments can be compared."""
    rest, systems = department, []
    for pattern, system in DEPARTMENT_SYSTEMS:
        if re.search(pattern, rest):
            systems.append(system)
            rest = re.sub(pattern, "", rest)
    return systems


def age_groups(population: list[str]) -> list[str]:
    """Age words anywhere in the raw 多发群体 values, even in the sentences the filters drop
    ("成人多见" still says 成人)."""
    groups = {group for word, group in AGE_WORDS for value in population if word in value}
    return [g for g in AGE_GROUPS if g in groups]


def body_systems(codes: list[str]) -> list[str]:
    """The body systems of the ICD-10 blocks the codes fall in (I30.1 -> 循环系统)."""
    return unique(system for code in codes for first, last, system in ICD_SYSTEMS if first <= code[:3] <= last)


def icd10(po: dict[str, Any]) -> dict[str, list[str]]:
    """The ICD-10 codes in a subject's ICD10 values ("K37，K35.9" -> K37, K35.9), as the KB's codes."""
    codes = unique(c for v in po.get("ICD10", ()) for c in re.findall(r"[A-Z]\d{2}(?:\.\d+)?", v))
    return {"ICD10": codes} if codes else {}


def infectivity(value: str) -> str | None:
    """传染性 as the KB states it (有 -> 有传染性), or None for what it cannot read."""
    return INFECTIVITY.get(value)
