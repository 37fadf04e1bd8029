"""The built-in Chinese knowledge base, built offline from the Chinese medical knowledge graph (PyCMeKG).

The graph (``pyCMeKG/model/cmekg.pkl``) is a dict subject -> {predicate: [objects]} mixing diseases,
drugs, herbs, examinations and clinical pathways, with values scraped from web pages. A value is kept
only when it is an entity of the kind its aspect asks for (``cmekg_vocab.entity_kind``): a symptom
among symptoms, a body part among sites, a department among departments, a drug among medications.

Which subjects are diseases
    Those with a disease predicate (常见症状, 就诊科室, ICD10, …) and none of a drug, herb or
    examination (``cmekg_vocab.is_disease_subject``), unless the name is a test's or a treatment's
    (卵巢检查, 膝关节分离试验) or a symptom's (水肿, 恶心与呕吐: ``cmekg_symptoms.symptom_page``);
    the ones that keep a symptom become diseases.

Predicates -> aspects (``ASPECT_PREDICATES``, ``EXTRA_PREDICATES``; ``ACCEPTED`` the kinds kept)
    常见症状 -> primary_symptoms; 相关症状, 临床症状及体征 -> associated_symptoms, minus the primary
    ones; 多发群体, 发病性别倾向 -> patient_population, and their age words -> prevalence_ages
    (``cmekg_codes.AGE_WORDS``); 常见发病部位, 发病部位 -> anatomical_sites; 就诊科室 -> departments; 并发症 ->
    secondary_diseases; 药物治疗, 相关药物 -> medications (``cmekg_drugs``); 手术治疗, 手术_手术方式 and the
    治疗 items that are operations -> surgical_procedures; 治疗, 治疗方案, 辅助治疗 -> treatment_principles;
    the ICD-10 chapter -> affected_body_systems (``cmekg_codes.ICD_SYSTEMS``: only blocks named for a system).
    Examinations: MedDisK asks for abnormal *results*, and a test name is none, so the two
    examination aspects and physical_examination hold findings only: the clinical-pathway findings
    (诊断依据_体征, 诊断依据_实验室检查, …), the results in 检查-type values, and the results found in the
    symptom lists (``cmekg_values.finding_kind``: lab results and imaging results move out of the
    symptoms, signs such as 压痛 are copied). Test names go to extra.examinations.
    Extras: 常见病因, 病因 -> cause; 传染性 -> infectivity; 传播途径 -> transmission; 高危因素 ->
    risk_factors; 相关疾病 -> related_diseases; ICD10 -> codes; 别称, 又称, 英文名称, … -> synonyms.

Filters, in order, on every part of every enumerated value (``build_cmekg_kb(noise=Counter())``
counts them; the README gives the counts on the full graph):
    parts        a "标签：" prefix and (asides) cut off, values split at 、，；。 and at / between
                 Chinese characters (never in "mg/dL"), leading words of a sentence (伴, 如, 继之,
                 其次为, 部分患者有, …) and trailing 等… trimmed; symptoms, sites and diseases also
                 split at 和/及/与/或/以至 when every piece is one (多食和体重减轻, 肝脾及淋巴结), and
                 a symptom joined of anything else is dropped (斑块或肿瘤); a one-off symptom made of
                 two common ones is both (疲劳晨僵 -> 乏力, 晨僵)
    spelling     symptoms: the sufferer and hedges dropped and one spelling per symptom (患儿烦躁不安 ->
                 烦躁不安, 轻度食欲下降 -> 食欲减退, 发烧 -> 发热, ``cmekg_values.SYMPTOM_SPELLINGS``)
    moved        symptoms that are lab or imaging results go to the examination findings
    placeholder  无, 不详, 其他, 病因不明, section headers, 手术 as an operation, treatments any
                 disease may get (手术治疗, 对症治疗, 支持疗法), a site that is only a relation (周围, 附近, 局部)
    fragment     one character (except sites: 眼, 肺), no letter at all, or a dangling 样/性/状
    no Chinese   no Chinese character: units ("dL"), genes, codes, English words
    sentence     longer than the aspect allows, or holding a clause word (的, 可, 时, 出现, …)
    own name     the disease's name (also without 小儿, 新生儿, …) or synonym, or for symptoms, diseases and treatments a value
                 containing it, contained in it or the name shortened (阑尾炎's symptom 急性阑尾炎,
                 3D眩晕症's 眩晕, 糖尿病肾病's complication 糖尿病, 肱骨干骨折's 肱骨骨折; but
                 白内障囊外摘除术 stays an operation)
    negated      a negative or rare finding: 无/未 + a known symptom (无压痛), 很少发热, 常无瘙痒
    kind         an entity of another kind, or of none: places (纽约和日本), people (小儿), units,
                 measurements, and medical terms of the wrong kind (肺炎 is no symptom)
    vague        symptoms: a category (肺部体征, 胃肠道症状) or some people's finding (心力衰竭者胸闷)
    lesion       symptoms: a bare lesion word (溃疡, 结节, 坏死, 水肿) of a disease that is no skin
                 disease: the linker cut it out of 口腔溃疡, 舟骨结节 or 坏死性… (``cmekg_symptoms``)
    baby         symptoms: a finding only a baby shows (易烦躁哭闹, 吃奶差) of a disease not of children
    one-off      symptoms named by fewer than ``MIN_SYMPTOM_USES`` diseases: a description cut out
                 of a sentence (皮疹数目一至数百个不, 周围黏膜充血), unconfirmed as a key
    duplicate    the same value twice, or another spelling of one (``cmekg_values.near_key``: 胸片
                 and 胸部 X 线检查; 不适 and 全身不适; 肺 and 肺部), of which the shorter is kept
    cause        complications: one the page names as a cause too (脂肪肝's 糖尿病)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import islice

from rapidfuzz import fuzz

from medprobe.sources.cmekg_codes import age_groups, body_systems, icd10, infectivity
from medprobe.sources.cmekg_drugs import MAX_MEDICATIONS, Medications
from medprobe.sources.cmekg_symptoms import (
    Sufferer,
    child_only,
    confirmations,
    is_child_disease,
    is_skin_disease,
    split_glued,
    symptom_page,
    unplaced_lesion,
)
from medprobe.sources.cmekg_values import (
    CONJUNCTIONS,
    LESIONS,
    canonical,
    finding_kind,
    joined,
    merge_near_duplicates,
    parts,
    trim,
    unique,
)
from medprobe.sources.cmekg_vocab import Graph, Vocabulary, disease_named, disease_subjects, load_cmekg_graph
from medprobe.sources.kb import AspectValue, Disease

__all__ = ["MAX_MEDICATIONS", "VERSION", "build_cmekg_kb", "disease_subjects", "load_cmekg_graph"]

#: bump whenever the built KB changes, so cached copies are rebuilt (medprobe.sources.builtin)
VERSION = 36

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
SYMPTOM_ASPECTS = ("primary_symptoms", "associated_symptoms")

#: the kinds of entity each aspect keeps; an extra not named here keeps any medical term
ACCEPTED: dict[str, frozenset[str | None]] = {
    "primary_symptoms": frozenset({"symptom"}),
    "associated_symptoms": frozenset({"symptom"}),
    "patient_population": frozenset({"population"}),
    "anatomical_sites": frozenset({"body part"}),
    "departments": frozenset({"department"}),
    "secondary_diseases": frozenset({"disease", "symptom"}),
    "related_diseases": frozenset({"disease", "symptom"}),
    "surgical_procedures": frozenset({"procedure"}),
    "treatment_principles": frozenset({"treatment", "procedure"}),
}
_NON_ENTITIES = frozenset({"place", "unit", "measurement"})

@dataclass(frozen=True)
class _Rules:
    """How strictly one aspect's values are cleaned: the shortest and longest name; whether a value
    containing the disease's name is the disease itself (阑尾炎's symptom 急性阑尾炎, but not
    白内障囊外摘除术); whether 无/未 + symptom is a negative finding; names too general to keep."""

    min_length: int = 2
    max_length: int = 10
    own_forms: bool = False
    negatable: bool = False
    generic: frozenset[str] = frozenset()
    generic_pattern: re.Pattern[str] = re.compile(r"(?!)")


#: treatments every disease may get (手术治疗, 对症治疗, 卧床休息, 随访): no knowledge of this one, and never safely wrong
_GENERIC_TREATMENT = re.compile(
    r"^(非?手术|非药物|药物|支持|支持性|辅助支持|对症|对症支持|病因|病原|局部|局部药物|全身|保守|内科|外科|综合|一般|针对性|基础|"
    r"中医|西医|中西医结合|系统|辅助|常规|早期|积极|及时|原发病|积极治疗原发病|并发症|特殊|联合|恢复期|术后|内用|外用|维持)(治疗|疗法|处理)$|"
    r"^((卧床)?休息|护理|急救措施|营养支持|去除病因|手术方法|(定期|密切)?随访|积极治疗原发病)$"
)
_SYMPTOMS = _Rules(own_forms=True, negatable=True)
#: a category of complications, none itself (严重并发症)
_COMPLICATION_CATEGORY = re.compile(r"并发症$")
_DISEASES = _Rules(max_length=16, own_forms=True, generic_pattern=_COMPLICATION_CATEGORY)
#: a relational word left alone by a split (关节及周围 -> 周围): it places something near a body part it no
#: longer names. 全身 stays a site: the whole body is where a systemic disease (红皮病, 登革热, 隐球菌病) occurs
_RELATIVE_SITES = frozenset({
    "周围", "周边", "附近", "邻近", "局部", "表面", "内部", "外部", "外周", "深部", "浅表", "两侧", "双侧", "一侧", "单侧",
    "上方", "下方", "前方", "后方", "各处", "多处", "部位", "其他部位", "任何部位",
})
RULES: dict[str, _Rules] = {
    "primary_symptoms": _SYMPTOMS,
    "associated_symptoms": _SYMPTOMS,
    "anatomical_sites": _Rules(min_length=1, generic=_RELATIVE_SITES),
    "secondary_diseases": _DISEASES,
    "related_diseases": _DISEASES,
    "treatment_principles": _Rules(max_length=12, own_forms=True, generic_pattern=_GENERIC_TREATMENT),
    "surgical_procedures": _Rules(max_length=16, generic=frozenset({"手术", "外科手术", "手术治疗", "外科治疗", "手术切除"})),
    "medications": _Rules(max_length=16),
    "examinations": _Rules(max_length=16),
    "findings": _Rules(max_length=24, negatable=True),
}
_DEFAULT_RULES = _Rules()

_UNKNOWN = re.compile(r"(病因|原因|发病机制)?(目前)?(尚|仍)?(不|未)(完全|甚)?(详|明|清)(确|了|楚)*")
_CLAUSE = re.compile(
    r"的|等|可|时|出现|表现为|甚至|也|但|如果|本病|一般|通常|多见|多为|导致|引起|所致|由于|因为|同意|禁忌|诊断明确|适应证|"
    r"进展为|发展为|(?<=[^行])为(?=.)|迅速|逐渐|次之|最为|是|随着|好发|多发于|见于|与.+有关|(上|内|下|表面|周围)有|(特点|特征|情况|程度|性质)$"
)
#: an adjective, a word's tail or head cut off (湿疹样, 压力性, 性白内障 of 并发性白内障, 第2 of 第2、3跖骨), or a
#: character doubled at the end by the scrape (右下腹痛痛), a receptor class without its receptor (受体阻滞剂 of β受体阻滞剂),
#: a syndrome with nothing but its course left (严重急性综合征 of 严重急性呼吸综合征), or a drug class's last
#: character with its tail (压药 of 降压药)
_DANGLING = re.compile(r"[样状]$|(?<![男女])性$|^[样状症部]|^色(?!素|盲|弱)|^性(?!欲|交|功能|早熟|发育|格|别|感|器|腺|征)|^第?[\d一二三四五]+$|(.)\1$|^受体|^(严重|重症|急性|慢性|亚急性)+综合[征症]$|^.药$")
#: a finding the source says is rare or absent (很少发热, 常无瘙痒, 腋窝淋巴结不肿大): no finding of the disease
_RARELY = re.compile(r"^(很少|较少|少有|罕见|极少|常无|多无|一般无|无明显)|(不|无|未|没有)(任何|肿大|增大|明显|改变|异常|升高|改善|受累|痛|疼)")
#: a category or what to look at, not a finding (肺部体征, 胃肠道症状, 便血量及颜色), or a finding of some
#: people only (心力衰竭者胸闷)
_VAGUE = re.compile(r"(体征|症状|表现|颜色|性状|次数)$|者")
#: a complaint, which is a symptom of a disease and never its complication (腹痛, 腹泻, 便秘)
_COMPLAINT = re.compile(r"痛$|泻$|便秘|咳嗽|呕吐|恶心|发热|乏力")
#: a symptom (as the KB spells it) fewer diseases than this name is unconfirmed: a description cut from a sentence (皮疹数目一至数百个不,
#: 周围黏膜充血) or a linker's slip, never a key a clinician can trust
MIN_SYMPTOM_USES = 2
#: a value this similar to a name of the disease restates it
NAME_RATIO = 90.0
#: a value this long made of the name's characters in order restates it (胫骨骨折 of 胫腓骨干骨折); shorter ones (骨折) may not
MIN_SHORTENED = 3
_NAME_CHAR = re.compile(r"[\u4e00-\u9fffA-Za-z]")
#: the patients a disease's name may begin with (小儿腮腺炎, 新生儿黄疸), before at least two characters of disease
_PATIENTS = re.compile(r"^(小儿|儿童|新生儿|婴幼儿|婴儿)(?=..)")
_CJK = re.compile(r"[\u4e00-\u9fff]")
#: disease-like subjects that are pages about a test or a treatment (卵巢检查, 膝关节分离试验)
_NOT_A_DISEASE = re.compile(r"(检查|试验|测定|监测|造影|术|疗法|治疗)$")
_PLACEHOLDERS = frozenset({
    "无", "有", "不详", "暂无", "未知", "不明", "其他", "其它", "其他药物", "无明显症状", "无症状", "无传染性",
    "安慰剂", "治疗原则", "实验室检查", "影像学检查", "辅助检查", "检查",
    "其他检查", "特殊检查", "体格检查", "临床检查", "查体", "体检", "病症", "疾病", "病变", "症状", "体征",
    "治疗措施", "治疗方法", "治疗方案", "处理原则", "治疗手段", "周围组织", "多个器官",
})
_LAB_HINTS = re.compile(r"实验室|血|尿|便|粪|痰|脑脊液|骨髓|培养|抗体|抗原|生化|常规|测定|涂片|酶|蛋白|激素|病原|病毒|细菌|真菌|细胞|活检|病理|基因|染色体|肝功|肾功|电解质|免疫")
_PHYSICAL_TOPICS = re.compile(r"体征|体格|体检")
_EXAM_TOPICS = re.compile(r"检查|X线|CT|MRI|超声|B超|造影|心电|脑电|影像|实验室")


def build_cmekg_kb(graph: Graph | None = None, *, limit: int | None = None,
                   noise: Counter[str] | None = None) -> list[Disease]:
    """The Chinese KB: the graph's diseases with at least one symptom, sorted by name (first
    ``limit``). ``noise`` (when given) counts, per filter, the values it removed or rewrote."""
    graph = load_cmekg_graph() if graph is None else graph
    noise = noise if noise is not None else Counter()
    cleaner = _Cleaner(graph, noise)
    names = sorted(disease_subjects(graph))
    kept = [name for name in names if not _NOT_A_DISEASE.search(name)]
    noise["subject: a test or treatment page"] += len(names) - len(kept)
    built = (cleaner.disease(name) for name in kept)
    return list(islice((d for d in built if d is not None), limit))


class _Cleaner:
    """Turns one subject's predicates into a Disease, counting what each filter removes."""

    def __init__(self, graph: Graph, noise: Counter[str]) -> None:
        self.graph = graph
        self.noise = noise
        self.vocabulary = Vocabulary(graph)
        self.medications = Medications(graph, self.vocabulary, noise)
        self.confirmations = confirmations(graph, self.vocabulary)

    def disease(self, name: str) -> Disease | None:
        po = self.graph[name]
        if symptom_page(name, po, self.vocabulary):
            self.noise["subject: a symptom page"] += 1
            return None
        synonyms = disease_synonyms(name, po)
        own = (name, *synonyms, *_for_anyone(name))
        findings: dict[str, list[str]] = {"laboratory": [], "auxiliary": [], "physical": []}
        sufferer = Sufferer(skin=is_skin_disease(po), child=is_child_disease(name, po))
        aspects: dict[str, AspectValue] = {key: self.values(_objects(po, ASPECT_PREDICATES[key]), own, key, findings, sufferer) for key in SYMPTOM_ASPECTS}
        aspects["associated_symptoms"] = self._without(aspects["associated_symptoms"], aspects["primary_symptoms"])
        if not aspects["primary_symptoms"] and not aspects["associated_symptoms"]:
            return None
        for key, predicates in ASPECT_PREDICATES.items():
            if key not in SYMPTOM_ASPECTS:
                aspects[key] = self.values(_objects(po, predicates), own, key)
        treatments = aspects["treatment_principles"]
        operations = [t for t in treatments if self.vocabulary.kind(t) == "procedure"]
        aspects["treatment_principles"] = [t for t in treatments if t not in operations]
        aspects["surgical_procedures"] = merge_near_duplicates([*aspects["surgical_procedures"], *operations])[0]
        aspects["prevalence_ages"] = age_groups(po.get("多发群体", []))
        aspects["affected_body_systems"] = body_systems(icd10(po).get("ICD10", []))
        aspects["medications"] = self.medications.of(po, own, lambda v: self._rejection(v, own, RULES["medications"]))
        tests = self._examinations(po, own, findings)
        aspects.update(_finding_texts(findings))
        extra: dict[str, AspectValue] = {key: self.values(_objects(po, preds), own, key) for key, preds in EXTRA_PREDICATES.items()}
        aspects["secondary_diseases"] = self._follows(self._not_causes(aspects["secondary_diseases"], extra["cause"]), own)
        extra["infectivity"] = unique(word for v in po.get("传染性", ()) if (word := infectivity(v)))
        extra["examinations"] = tests
        return Disease(
            id=f"CMeKG:{name}", name=name, language="zh", codes=icd10(po), synonyms=list(synonyms),
            aspects={k: v for k, v in aspects.items() if v}, extra={k: v for k, v in extra.items() if v},
        )

    def values(self, raw: Iterable[str], own: tuple[str, ...], key: str,
               findings: dict[str, list[str]] | None = None, sufferer: Sufferer | None = None) -> list[str]:
        """Clean entity names from raw objects: every filter of the module docstring, in order;
        results found among symptoms go to ``findings``; symptoms are judged against the ``sufferer``."""
        rules = RULES.get(key, _DEFAULT_RULES)
        symptoms = key in SYMPTOM_ASPECTS
        conjunctions = symptoms or key in ("anatomical_sites", "secondary_diseases", "related_diseases")
        kept: list[str] = []
        for value in raw:
            for part in self._parts(value, key, symptoms, conjunctions):
                if symptoms and findings is not None and self._moved(part, own, findings):
                    continue
                reason = self._rejection(part, own, rules) or self._kind_reason(part, key) or self._unconfirmed(part, sufferer)
                if reason is None and joined(part):
                    reason = "joins two values"
                if reason is None and part in kept:
                    reason = "duplicate"
                if reason:
                    self.noise[reason] += 1
                else:
                    kept.append(part)
        merged, dropped = merge_near_duplicates(kept)
        self.noise["near duplicate"] += len(dropped)
        return merged

    def _parts(self, value: str, key: str, symptoms: bool, conjunctions: bool) -> list[str]:
        pieces = parts(value)
        self.noise["split (extra parts)"] += len(pieces) - 1
        if not conjunctions:
            return pieces
        kinds = ACCEPTED["primary_symptoms"] if symptoms else ACCEPTED.get(key, frozenset())
        spell = canonical if symptoms else trim
        spelled = []
        for piece in pieces:
            split = [spell(trim(p)) for p in CONJUNCTIONS.split(piece)]
            if len(split) > 1 and all(self.vocabulary.kind(p) in kinds for p in split):
                self.noise["split (extra parts)"] += len(split) - 1
                spelled.extend(split)
                continue
            rewritten = spell(piece)
            self.noise["spelling (rewritten)"] += rewritten != piece
            glued = split_glued(rewritten, self.vocabulary) if symptoms else [rewritten]
            self.noise["split (glued findings)"] += len(glued) - 1
            spelled.extend(glued)
        return spelled

    def _moved(self, part: str, own: tuple[str, ...], findings: dict[str, list[str]]) -> bool:
        """A lab or imaging result among the symptoms moves to the findings (True); a sign is
        copied to the physical examination and stays a symptom (False)."""
        kind = finding_kind(part)
        if kind is None or self._rejection(part, own, RULES["findings"]):
            return False
        findings[kind].append(part)
        if kind == "physical":
            return False
        self.noise[f"moved to {kind} findings"] += 1
        return True

    def _rejection(self, value: str, own: tuple[str, ...], rules: _Rules) -> str | None:
        if value in _PLACEHOLDERS or value in rules.generic or _UNKNOWN.fullmatch(value) or rules.generic_pattern.search(value):
            return "placeholder"
        if len(value) < rules.min_length or not _NAME_CHAR.search(value) or _DANGLING.search(value):
            return "fragment"
        if not _CJK.search(value):
            return "no Chinese"
        if len(value) > rules.max_length or _CLAUSE.search(value):
            return "sentence"
        if value in own or (rules.own_forms and any(_restates(value, name) for name in own)):
            return "own name"
        if rules.negatable and ((value[0] in "无未" and self.vocabulary.kind(value[1:]) == "symptom") or _RARELY.search(value)):
            return "negated"
        return None

    def _unconfirmed(self, value: str, sufferer: Sufferer | None) -> str | None:
        """Why a symptom is no key a clinician can trust: a category, a lesion without a site, two
        findings joined (斑块或肿瘤: the ones of two symptoms were split already), or one disease's word."""
        if sufferer is None:
            return None
        if _VAGUE.search(value):
            return "vague"
        if unplaced_lesion(value, sufferer.skin):
            return "lesion without a site"
        if child_only(value, sufferer.child):
            return "a baby's finding"
        if CONJUNCTIONS.search(value):
            return "joined phrase"
        if self.confirmations[value] < MIN_SYMPTOM_USES:
            return "one-off description"
        return None

    def _kind_reason(self, value: str, key: str) -> str | None:
        kind = self.vocabulary.kind(value)
        accepted = ACCEPTED.get(key)
        if kind in _NON_ENTITIES or (kind == "population" and key != "patient_population"):
            return f"kind: {kind}"
        if key in ("secondary_diseases", "related_diseases") and kind == "symptom" and not self._disease_like(value):
            return f"kind: {kind} as {key}"
        if accepted is None or kind in accepted:
            return None
        return f"kind: {kind or 'unknown term'} as {key}"

    def _disease_like(self, value: str) -> bool:
        """A finding is a complication only where it is also a disease: a subject of the graph (休克,
        黄疸) or named like one (阑尾周围脓肿), and no complaint or bare lesion (发热, 腹痛, 水肿)."""
        if _COMPLAINT.search(value) or value in LESIONS:
            return False
        return self.vocabulary.subjects.get(value) == "disease" or disease_named(value)

    def _not_causes(self, complications: AspectValue, causes: AspectValue) -> list[str]:
        """A complication the page also names as a cause is the other way round (脂肪肝's 糖尿病,
        肝硬化's 酒精性肝病): the disease follows it, so it is no safe key of either question."""
        kept = [c for c in complications if c not in causes]
        self.noise["complication: also a cause"] += len(complications) - len(kept)
        return kept

    def _follows(self, complications: list[str], own: tuple[str, ...]) -> list[str]:
        """Complications that follow the disease, between two diseases: not one whose own page lists this
        disease as its complication (脑膜炎 listing 腮腺炎: mumps causes meningitis, not the reverse), nor one
        that ends in the disease's own head word (消化性溃疡's 十二指肠溃疡, a form of the disease, not a
        disease it causes)."""
        kept = []
        for value in complications:
            theirs = self.graph.get(value, {}).get("并发症", [])
            if any(name in part for part in theirs for name in own):
                self.noise["complication: the other way round"] += 1
            elif len(own[0]) >= 2 and value.endswith(own[0][-2:]):
                self.noise["complication: a form of the disease"] += 1
            else:
                kept.append(value)
        return kept

    def _without(self, values: list[str], seen: list[str]) -> list[str]:
        kept = [v for v in values if v not in seen]
        self.noise["in primary"] += len(values) - len(kept)
        return kept

    def _examinations(self, po: dict[str, list[str]], own: tuple[str, ...], findings: dict[str, list[str]]) -> list[str]:
        """Test names (returned) and results (into ``findings``) of the examination predicates and of
        the clinical pathway's 诊断依据_… findings."""
        tests = []
        for part in (p for predicate in EXAMINATION_PREDICATES for v in po.get(predicate, ()) for p in parts(v)):
            kind = finding_kind(part)
            if kind in ("laboratory", "auxiliary") and not self._rejection(part, own, RULES["findings"]):
                findings[kind].append(part)
            elif self.vocabulary.kind(part) == "test" and not self._rejection(part, own, RULES["examinations"]):
                tests.append(part)
            else:
                self.noise["examinations: no test and no result"] += 1
        for predicate, raw in po.items():
            topic = predicate.removeprefix("诊断依据_")
            if topic == predicate or not (_PHYSICAL_TOPICS.search(topic) or _EXAM_TOPICS.search(topic)):
                continue
            for part in (p for v in raw for p in parts(v) if not self._rejection(p, own, RULES["findings"])):
                findings[_pathway_finding(topic, part)].append(part)
        merged, dropped = merge_near_duplicates(tests)
        self.noise["examinations: near duplicate"] += len(dropped)
        return merged



def disease_synonyms(name: str, po: dict[str, list[str]]) -> tuple[str, ...]:
    """A page's other names (别称, 英文名称, …), asides in brackets dropped, one per list item."""
    names = (p.strip() for v in _objects(po, SYNONYM_PREDICATES) for p in re.split(r"[、，,；;]", re.sub(r"[（(][^）)]*[）)]", "", v)))
    return tuple(unique(p for p in names if p and p != name))


def _restates(value: str, name: str) -> bool:
    """The value says the disease's name again, so a question on it answers itself: it holds the name
    (阑尾炎's 急性阑尾炎), is part of it (3D眩晕症's 眩晕, 糖尿病肾病's complication 糖尿病, 心尖肥厚型心肌病's
    肥厚性心肌病: 型 and 性 are one suffix here), is the name with words left out (肱骨干骨折's complication
    肱骨骨折, the broader name of the disease itself) or nearly is it."""
    value, name = value.replace("型", "性"), name.replace("型", "性")
    return (name in value or (len(value) >= 2 and value in name) or (len(value) >= MIN_SHORTENED and _shortened(value, name))
            or fuzz.ratio(value, name) >= NAME_RATIO)


def _shortened(value: str, name: str) -> bool:
    """Whether ``value`` is ``name`` with characters left out, in order (胫骨骨折 of 胫腓骨干骨折)."""
    rest = iter(name)
    return all(char in rest for char in value)


def _for_anyone(name: str) -> tuple[str, ...]:
    """The disease's name without the patients it is written for (小儿腮腺炎 is 腮腺炎 in a child), so
    that 流行性腮腺炎 is seen to restate it; empty when the name names no such patients."""
    bare = _PATIENTS.sub("", name)
    return (bare,) if bare != name else ()


def _objects(po: dict[str, list[str]], predicates: Iterable[str]) -> list[str]:
    return [v for p in predicates for v in po.get(p, ())]


def _pathway_finding(topic: str, finding: str) -> str:
    """Which examination a clinical-pathway finding belongs to: its topic says physical
    (诊断依据_体征), else the finding itself or the topic's words say laboratory or auxiliary."""
    if _PHYSICAL_TOPICS.search(topic):
        return "physical"
    kind = finding_kind(finding)
    if kind in ("laboratory", "auxiliary"):
        return kind
    return "laboratory" if _LAB_HINTS.search(topic) else "auxiliary"


def _finding_texts(findings: dict[str, list[str]]) -> dict[str, AspectValue]:
    """The declarative examination aspects: each kind's findings, near-duplicates merged, joined by "；"."""
    keys = {"laboratory": "laboratory_examinations", "auxiliary": "auxiliary_examinations", "physical": "physical_examination"}
    return {keys[kind]: "；".join(merge_near_duplicates(items)[0]) for kind, items in findings.items()}
