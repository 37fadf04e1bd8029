"""The built-in Chinese knowledge base, built offline from the Chinese medical knowledge graph (PyCMeKG).

The graph (``pyCMeKG/model/cmekg.pkl``) is a dict subject -> {predicate: [objects]} mixing diseases,
drugs, herbs, examinations and clinical pathways, with values scraped from web pages.

Which subjects are diseases
    Those with at least one disease predicate (``DISEASE_PREDICATES``: 常见症状, 就诊科室, ICD10, …)
    and none of the predicates of drugs, herbs, acupoints or species (成份, 适应症, OTC类型, 主治, 界, …)
    nor 所属分类, which only examinations have (血清钙检查, 腹部叩诊音, …): 6,361 subjects (the
    data README's 7,488 counts the 1,135 examinations too). Of these, the 6,173 that keep at least
    one symptom after cleaning become diseases; the rest are too thin to ask about.

Predicates -> aspects (``ASPECT_PREDICATES``, ``EXTRA_PREDICATES``)
    常见症状 -> primary_symptoms; 相关症状, 临床症状及体征 -> associated_symptoms, minus what is already
    primary (so a symptom is never the right answer of both); 多发群体, 发病性别倾向 ->
    patient_population, and the age words in 多发群体 (儿童, 中老年人, …) -> prevalence_ages in the paper's
    age groups (``AGE_WORDS``); 常见发病部位, 发病部位 -> anatomical_sites; 就诊科室 -> departments;
    并发症 -> secondary_diseases; 药物治疗 and 相关药物 -> medications (below); 手术治疗,
    手术_手术方式 and the 治疗 items that are operations (ending in 术 or 移植) -> surgical_procedures;
    治疗, 治疗方案, 辅助治疗 -> treatment_principles; 实验室检查 plus the laboratory items of
    检查/辅助检查/影像学检查 -> laboratory_examinations, their other items -> auxiliary_examinations
    (both declarative: names joined with "；", a test is "laboratory" when the graph files it under
    a laboratory 所属分类 or its name says so, ``_is_laboratory``); clinical-pathway findings
    (诊断依据_体征, 诊断依据_辅助检查, …) -> physical_examination / the two examination texts.
    Extras: 常见病因, 病因 -> cause; 传染性 -> infectivity; 传播途径 -> transmission;
    高危因素 -> risk_factors (they are exposures like 紫外线辐射 or 曲马多, not patient populations);
    相关疾病 -> related_diseases (related, not caused by the disease, so not secondary_diseases).
    ICD10 -> codes {"ICD10": [...]}; 别称, 又称, 同义词, 英文名称, 英文别名, 英文别称, 外文名 -> synonyms.

Noise filters, in the order applied to every enumerated value. The counts are value occurrences
on the full graph (6,173 diseases kept; ``build_cmekg_kb(noise=Counter())`` measures any graph):
    label        a "标签：" prefix is cut off ("手术方式：子宫切除术")                  rewrote 130
    aside        parenthesised asides are removed ("厌食（食欲差）", "CABG）")
    split        combined values are split at 、，,；;。/ ("恶心、呕吐", "食欲减退；脉速")  +2,454 parts
    connective   leading 伴/伴有/如/或/及/特别是… and trailing 等/等症状/等因素… are cut off
                 ("发热等" -> 发热, "伴贫血" -> 贫血)                                 rewrote 4,530
    alias        溃疡病 among symptoms is read as 溃疡: the graph's entity linker turned
                 every "ulcer" into peptic ulcer disease                              rewrote 696
    placeholder  无, 有, 不详, 暂无, 其他, 安慰剂, section headers (实验室检查, 体格检查),
                 病因不明 and its variants, and 手术/外科手术 as an operation          removed 1,322
    fragment     one character (except sites: 眼, 肺, 肾), or no letter at all          removed 687
    sentence     longer than the aspect allows (10 characters; 12 for treatment
                 principles; 16 for operations, drugs, diseases and tests) or holding a
                 clause word (的, 等, 可, 时, 出现, 表现为, 引起, 所致, …)                removed 10,383
    own name     a synonym or the disease's own name, or, for symptoms, secondary and
                 related diseases and treatments, a value containing the name
                 (阑尾炎's symptom 急性阑尾炎; but 白内障囊外摘除术 stays an operation)   removed 719
    negated      a negative finding: 无/未 + a known symptom (无压痛, 无瘙痒)           removed 37
    duplicate    seen before for the same disease and aspect (after the rewrites)      removed 3,858
    in primary   associated symptoms that are already primary symptoms                 removed 249
Treatment items that are diseases in the graph are dropped (急性脑内血肿)               removed 80
Medications, before the filters above; 相关药物 lists up to 2,639 trade names per disease:
    brand        a trade name: its drug entry's 通用名 is another product (一君, 丽珠奇乐)  removed 13,848
    tcm          a Chinese patent medicine (分类 中成药, or 功能主治): not reducible to a
                 generic substance, and they flood the lists                            removed 5,257
    not a drug   an item whose entry has neither 成份 nor 通用名                          removed 1,622
    over cap     beyond ``MAX_MEDICATIONS`` per disease: 药物治疗 first, then the
                 substances of 相关药物 by how many of the disease's products hold them   removed 6,975
    Products are reduced to their substance: "注射用" and the dosage form dropped, then a salt
    prefix or ester suffix when at least three characters remain (乳酸左氧氟沙星氯化钠注射液 ->
    左氧氟沙星, 甲泼尼龙琥珀酸钠 -> 甲泼尼龙; 硝酸甘油 stays), and duplicates merged; 药物治疗 items lose a trailing 治疗 (抗生素治疗 -> 抗生素).
"""

from __future__ import annotations

import os
import pickle
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import islice
from pathlib import Path
from typing import Any

from medprobe.errors import MedprobeError
from medprobe.sources.kb import AspectValue, Disease

#: bump whenever the built KB changes, so cached copies are rebuilt (medprobe.sources.builtin)
VERSION = 1

Graph = dict[str, dict[str, list[str]]]

DISEASE_PREDICATES = frozenset({
    "常见症状", "相关症状", "临床症状及体征", "就诊科室", "ICD10", "多发群体", "常见发病部位", "发病部位",
    "并发症", "传染性", "传播途径", "发病性别倾向", "高危因素", "药物治疗", "手术治疗", "实验室检查",
})
NON_DISEASE_PREDICATES = frozenset({
    "成份", "适应症", "OTC类型", "不良反应", "药品监管分级", "用法用量", "通用名", "禁忌", "规格", "功能主治",
    "性味", "商品名", "药品类型", "贮藏", "性状", "主治", "入药部位", "功效", "界", "所属分类",
})

ASPECT_PREDICATES: dict[str, tuple[str, ...]] = {
    "primary_symptoms": ("常见症状",),
    "associated_symptoms": ("相关症状", "临床症状及体征"),
    "patient_population": ("多发群体", "发病性别倾向"),
    "anatomical_sites": ("常见发病部位", "发病部位"),
    "departments": ("就诊科室",),
    "secondary_diseases": ("并发症",),
    "surgical_procedures": ("手术治疗", "手术_手术方式"),
    "treatment_principles": ("治疗", "治疗方案", "辅助治疗"),
}
EXTRA_PREDICATES: dict[str, tuple[str, ...]] = {
    "cause": ("常见病因", "病因"),
    "transmission": ("传播途径",),
    "risk_factors": ("高危因素",),
    "related_diseases": ("相关疾病",),
}
SYNONYM_PREDICATES = ("别称", "又称", "同义词", "英文名称", "英文别名", "英文别称", "外文名")
EXAMINATION_PREDICATES = ("实验室检查", "检查", "辅助检查", "影像学检查")
SYMPTOM_PREDICATES = ("常见症状", "相关症状", "临床症状及体征")

INFECTIVITY = {"有": "有传染性", "有传染性": "有传染性", "无": "无传染性", "无传染性": "无传染性", "弱": "弱传染性"}

# The paper's age groups, and the words of 多发群体 that name them.
AGE_GROUPS = ("围生期", "新生儿", "婴儿", "幼儿", "儿童", "少年", "成人", "青年", "中年", "老年")
AGE_WORDS: tuple[tuple[str, str], ...] = (
    ("围生", "围生期"), ("围产", "围生期"), ("新生儿", "新生儿"), ("婴儿", "婴儿"), ("婴幼儿", "婴儿"),
    ("幼儿", "幼儿"), ("儿童", "儿童"), ("小儿", "儿童"), ("学龄", "儿童"), ("少年", "少年"), ("青春期", "少年"),
    ("青少年", "青年"), ("成人", "成人"), ("成年", "成人"), ("青年", "青年"), ("青壮年", "青年"), ("中年", "中年"),
    ("中老年", "中年"), ("老年", "老年"), ("老人", "老年"), ("高龄", "老年"),
)

MAX_MEDICATIONS = 20


@dataclass(frozen=True)
class _Rules:
    """How strictly one aspect's values are cleaned.

    min_length 1 only for sites (眼, 肺, 肾 are organs; a one-character symptom like 心 is a stray
    word); max_length 10 for symptom-like values, longer for the names of operations, drugs,
    diseases and tests; own_forms drops values containing the disease name where that makes them
    the disease itself (阑尾炎's symptom 急性阑尾炎) but not where it names a treatment of it
    (白内障囊外摘除术, 狂犬病疫苗); negatable drops negative findings (无压痛); generic drops
    values too general for the aspect (手术 as an operation).
    """

    min_length: int = 2
    max_length: int = 10
    own_forms: bool = False
    negatable: bool = False
    generic: frozenset[str] = frozenset()


_SYMPTOMS = _Rules(own_forms=True, negatable=True)
_DISEASES = _Rules(max_length=16, own_forms=True)
RULES: dict[str, _Rules] = {
    "primary_symptoms": _SYMPTOMS,
    "associated_symptoms": _SYMPTOMS,
    "anatomical_sites": _Rules(min_length=1),
    "secondary_diseases": _DISEASES,
    "related_diseases": _DISEASES,
    "treatment_principles": _Rules(max_length=12, own_forms=True),
    "surgical_procedures": _Rules(max_length=16, generic=frozenset({"手术", "外科手术", "手术治疗", "外科治疗", "手术切除"})),
    "medications": _Rules(max_length=16),
    "examinations": _Rules(max_length=16),
}
_DEFAULT_RULES = _Rules()

_SEPARATORS = re.compile(r"[、，,；;。/／]")
_LABEL = re.compile(r"^[^：:]{1,6}[：:]")
_ASIDE = re.compile(r"[（(][^）)]*[）)]|[（）()]")
_LEADING = re.compile(r"^(常伴有|常伴|伴有|伴|并发|以及|或|及|和|与|如|特别是|尤其是|尤以)")
_TRAILING = re.compile(r"(等症状|等表现|等疾病|等因素|等原因|等症|等等|等)$")
_UNKNOWN = re.compile(r"(病因|原因|发病机制)?(目前)?(尚|仍)?(不|未)(完全|甚)?(详|明|清)(确|了|楚)*")
_CLAUSE = re.compile(r"的|等|可|时|出现|表现为|甚至|也|但|如果|本病|一般|通常|多见|多为|导致|引起|所致|由于|因为|同意|禁忌|诊断明确|适应证")
_OPERATION = re.compile(r"(术|移植)$")
_NAME_CHAR = re.compile(r"[\u4e00-\u9fffA-Za-z]")
_PLACEHOLDERS = frozenset({
    "无", "有", "不详", "暂无", "未知", "不明", "其他", "其它", "其他药物", "无明显症状", "无症状", "无传染性",
    "安慰剂", "治疗原则", "实验室检查", "影像学检查", "辅助检查", "检查",
    "其他检查", "特殊检查", "体格检查", "临床检查", "查体", "体检",
})
_SYMPTOM_ALIASES = {"溃疡病": "溃疡"}

# Endings that make a product of a substance, longest first; 治疗/疗法 end 药物治疗 items like 抗生素治疗.
_PRODUCT_SUFFIXES = tuple(sorted((
    "片", "分散片", "肠溶片", "缓释片", "控释片", "咀嚼片", "泡腾片", "含片", "薄膜衣片", "胶囊", "软胶囊", "肠溶胶囊",
    "缓释胶囊", "颗粒", "干混悬剂", "混悬液", "口服液", "口服溶液", "糖浆", "干糖浆", "注射液", "氯化钠注射液",
    "葡萄糖注射液", "滴眼液", "滴耳液", "滴鼻液", "眼膏", "乳膏", "软膏", "凝胶", "栓", "喷雾剂", "气雾剂", "吸入剂",
    "粉雾剂", "贴剂", "搽剂", "洗剂", "溶液", "酊", "散", "丸", "治疗", "疗法",
), key=len, reverse=True))
_SALTS = ("盐酸", "醋酸", "硫酸", "乳酸", "马来酸", "枸橼酸", "甲磺酸", "磷酸", "酒石酸", "富马酸", "氢溴酸", "乳糖酸",
          "苯磺酸", "门冬氨酸", "丙酸", "琥珀酸", "硝酸", "硬脂酸")
_ESTERS = ("琥珀酸钠", "琥珀酸酯", "磷酸钠", "磷酸酯")

# 所属分类 of examination entries that are laboratory tests; the name hints decide for the others.
_LAB_CATEGORIES = frozenset({
    "血", "免疫学", "生化检查", "尿", "病原体", "脑脊液", "内分泌", "便", "肾功能", "显微镜检查", "肝功能检查",
    "浆膜腔积液aaa", "阴道分泌物", "痰", "肿瘤标志物", "精液和前列腺液", "DNA",
})
_IMAGING_HINTS = re.compile(r"X线|CT|MRI|核磁|磁共振|超声|B超|彩超|造影|内镜|窥镜|腔镜|胃镜|肠镜|心电|脑电|肌电|扫描|摄片|平片|胸片|钡|显像|PET|核素")
_LAB_HINTS = re.compile(
    r"血|尿|便|粪|痰|脑脊液|骨髓|培养|抗体|抗原|生化|常规|测定|涂片|酶|蛋白|激素|病原|病毒|细菌|真菌|细胞|活检|病理|组织学|"
    r"基因|染色体|肝功|肾功|电解质|免疫|显微镜|穿刺|实验室"
)
_PHYSICAL_HINTS = re.compile(r"体征|体格|体检")


def load_cmekg_graph() -> Graph:
    """The packaged graph (about a second to unpickle)."""
    try:
        import pyCMeKG
    except ImportError:
        raise MedprobeError("PyCMeKG is not installed", hint="pip install PyCMeKG") from None
    path = Path(os.path.dirname(pyCMeKG.__file__)) / "model" / "cmekg.pkl"
    with path.open("rb") as handle:
        graph: Graph = pickle.load(handle)
    return graph


def build_cmekg_kb(graph: Graph | None = None, *, limit: int | None = None,
                   noise: Counter[str] | None = None) -> list[Disease]:
    """The Chinese KB: the graph's diseases with at least one symptom, sorted by name (first
    ``limit``). ``noise`` (when given) counts, per filter, the values it removed or rewrote."""
    graph = load_cmekg_graph() if graph is None else graph
    cleaner = _Cleaner(graph, noise if noise is not None else Counter())
    built = (cleaner.disease(name) for name in sorted(disease_subjects(graph)))
    return list(islice((d for d in built if d is not None), limit))


def disease_subjects(graph: Graph) -> list[str]:
    """Subjects with a disease predicate and no drug, herb, acupoint, species or examination one."""
    return [s for s, po in graph.items() if not DISEASE_PREDICATES.isdisjoint(po) and NON_DISEASE_PREDICATES.isdisjoint(po)]


class _Cleaner:
    """Turns one subject's predicates into a Disease, counting what each filter removes."""

    def __init__(self, graph: Graph, noise: Counter[str]) -> None:
        self.graph = graph
        self.noise = noise
        self.symptoms = frozenset(v for po in graph.values() for p in SYMPTOM_PREDICATES for v in po.get(p, ()))
        self.diseases = frozenset(disease_subjects(graph))

    def disease(self, name: str) -> Disease | None:
        po = self.graph[name]
        synonyms = self._synonyms(name, po)
        own = (name, *synonyms)
        aspects: dict[str, AspectValue] = {}
        for key, predicates in ASPECT_PREDICATES.items():
            aspects[key] = self.values(_objects(po, predicates), own, key)
        aspects["associated_symptoms"] = self._without(aspects["associated_symptoms"], aspects["primary_symptoms"])
        if not aspects["primary_symptoms"] and not aspects["associated_symptoms"]:
            return None
        treatments = aspects["treatment_principles"]
        operations = [t for t in treatments if _OPERATION.search(t)]
        aspects["treatment_principles"] = self._treatments([t for t in treatments if t not in operations])
        aspects["surgical_procedures"] = _unique([*aspects["surgical_procedures"], *operations])
        aspects["prevalence_ages"] = _age_groups(po.get("多发群体", []))
        aspects["medications"] = self._medications(po, own)
        aspects.update(self._examinations(po, own))
        extra: dict[str, AspectValue] = {key: self.values(_objects(po, preds), own, key) for key, preds in EXTRA_PREDICATES.items()}
        extra["infectivity"] = _unique(INFECTIVITY[v] for v in po.get("传染性", ()) if v in INFECTIVITY)
        return Disease(
            id=f"CMeKG:{name}", name=name, language="zh", codes=_icd10(po), synonyms=list(synonyms),
            aspects={k: v for k, v in aspects.items() if v}, extra={k: v for k, v in extra.items() if v},
        )

    def values(self, raw: Iterable[str], own: tuple[str, ...], key: str) -> list[str]:
        """Clean entity names from raw objects: every filter of the module docstring, in order."""
        rules = RULES.get(key, _DEFAULT_RULES)
        kept: list[str] = []
        for value in raw:
            for part in self._parts(value):
                if rules.negatable and part in _SYMPTOM_ALIASES:
                    self.noise["alias (rewritten)"] += 1
                    part = _SYMPTOM_ALIASES[part]
                reason = self._rejection(part, own, rules)
                if reason is None and part in kept:
                    reason = "duplicate"
                if reason:
                    self.noise[reason] += 1
                else:
                    kept.append(part)
        return kept

    def _parts(self, value: str) -> list[str]:
        if _LABEL.match(value):
            self.noise["label (rewritten)"] += 1
            value = _LABEL.sub("", value)
        parts = [p.strip() for p in _SEPARATORS.split(_ASIDE.sub("", value)) if p.strip()]
        self.noise["split (extra parts)"] += len(parts) - 1
        cleaned = []
        for part in parts:
            bare = _TRAILING.sub("", _LEADING.sub("", part)).strip()
            if bare != part:
                self.noise["connective (rewritten)"] += 1
            cleaned.append(bare)
        return cleaned

    def _rejection(self, value: str, own: tuple[str, ...], rules: _Rules) -> str | None:
        if value in _PLACEHOLDERS or value in rules.generic or _UNKNOWN.fullmatch(value):
            return "placeholder"
        if len(value) < rules.min_length or not _NAME_CHAR.search(value):
            return "fragment"
        if len(value) > rules.max_length or _CLAUSE.search(value):
            return "sentence"
        if value in own or (rules.own_forms and own[0] in value):
            return "own name"
        if rules.negatable and value[0] in "无未" and value[1:] in self.symptoms:
            return "negated"
        return None

    def _without(self, values: list[str], seen: list[str]) -> list[str]:
        kept = [v for v in values if v not in seen]
        self.noise["in primary"] += len(values) - len(kept)
        return kept

    def _treatments(self, values: list[str]) -> list[str]:
        """Treatment items minus those that are diseases in the graph (scraping mistakes)."""
        diseases = [v for v in values if v in self.diseases]
        self.noise["disease as treatment"] += len(diseases)
        return [v for v in values if v not in diseases]

    def _medications(self, po: dict[str, list[str]], own: tuple[str, ...]) -> list[str]:
        """药物治疗 (curated) first, then the substances of 相关药物's generic products, the substance
        of most products first."""
        preferred = self.values((_substance(v) for v in po.get("药物治疗", ())), own, "medications")
        products = Counter(_substance(p) for p in self._generic_products(po.get("相关药物", ())))
        listed = self.values(sorted(products, key=lambda s: (-products[s], s)), own, "medications")
        ranked = _unique([*preferred, *listed])
        self.noise["over cap"] += max(0, len(ranked) - MAX_MEDICATIONS)
        return ranked[:MAX_MEDICATIONS]

    def _generic_products(self, items: Iterable[str]) -> list[str]:
        kept = []
        for item in items:
            drug = self.graph.get(item, {})
            if "成份" not in drug and "通用名" not in drug:
                self.noise["not a drug"] += 1
            elif "通用名" in drug and item not in drug["通用名"]:
                self.noise["brand"] += 1
            elif "功能主治" in drug or "中成药" in drug.get("分类", ()):
                self.noise["tcm"] += 1
            else:
                kept.append(item)
        return kept

    def _examinations(self, po: dict[str, list[str]], own: tuple[str, ...]) -> dict[str, AspectValue]:
        """The declarative aspects: test names by kind, plus clinical-pathway findings."""
        texts: dict[str, list[str]] = {"laboratory_examinations": [], "auxiliary_examinations": [], "physical_examination": []}
        for predicate in EXAMINATION_PREDICATES:
            for item in self.values(po.get(predicate, ()), own, "examinations"):
                kind = "laboratory" if predicate == "实验室检查" or self._is_laboratory(item) else "auxiliary"
                texts[f"{kind}_examinations"].append(item)
        for predicate, raw in po.items():
            topic = predicate.removeprefix("诊断依据_")
            if topic == predicate:
                continue
            findings = [f.strip() for f in raw if f.strip()]
            if _PHYSICAL_HINTS.search(topic):
                texts["physical_examination"].extend(findings)
            elif _IMAGING_HINTS.search(topic) or _LAB_HINTS.search(topic) or "检查" in topic:
                kind = "laboratory" if self._is_laboratory(topic) else "auxiliary"
                texts[f"{kind}_examinations"].extend(findings)
        return {key: "；".join(_unique(items)) for key, items in texts.items()}

    def _is_laboratory(self, test: str) -> bool:
        category = self.graph.get(test, {}).get("所属分类")
        if category:
            return category[0] in _LAB_CATEGORIES
        return not _IMAGING_HINTS.search(test) and bool(_LAB_HINTS.search(test))

    def _synonyms(self, name: str, po: dict[str, list[str]]) -> tuple[str, ...]:
        parts = (p.strip() for v in _objects(po, SYNONYM_PREDICATES) for p in re.split(r"[、，,；;]", _ASIDE.sub("", v)))
        return tuple(_unique(p for p in parts if p and p != name))


def _objects(po: dict[str, list[str]], predicates: Iterable[str]) -> list[str]:
    return [v for p in predicates for v in po.get(p, ())]


def _unique(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(values))


@cache
def _substance(product: str) -> str:
    """乳酸左氧氟沙星氯化钠注射液 -> 左氧氟沙星: drop "注射用", the dosage form, then a salt prefix or
    ester suffix when at least three characters remain (so 硝酸甘油 and 硫酸镁 stay whole)."""
    name = product.removeprefix("注射用")
    for suffix in _PRODUCT_SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix) + 1:
            name = name[: -len(suffix)]
            break
    for salt in _SALTS:
        if name.startswith(salt) and len(name) - len(salt) >= 3:
            name = name[len(salt):]
            break
    for ester in _ESTERS:
        if name.endswith(ester) and len(name) - len(ester) >= 3:
            return name[: -len(ester)]
    return name


def _age_groups(population: list[str]) -> list[str]:
    """Age words anywhere in the raw 多发群体 values, even in the sentences the filters drop
    ("成人多见" still says 成人)."""
    groups = {group for word, group in AGE_WORDS for value in population if word in value}
    return [g for g in AGE_GROUPS if g in groups]


def _icd10(po: dict[str, Any]) -> dict[str, list[str]]:
    codes = _unique(c for v in po.get("ICD10", ()) for c in re.findall(r"[A-Z]\d{2}(?:\.\d+)?", v))
    return {"ICD10": codes} if codes else {}
