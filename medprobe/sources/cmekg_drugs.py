"""The medications of a CMeKG disease: drugs that treat it, as generic substances.

Two predicates name drugs. 药物治疗 is written for the disease (often a drug class: 抗生素, β受体阻滞剂)
and an item is kept when it is a drug, unless the drug has labels in the graph and none of them names
the disease (糖尿病's 药物治疗 lists rituximab, budesonide and azathioprine). 相关药物 is not: it lists every product whose label mentions
the disease anywhere, so 糖尿病 gets linezolid (for 糖尿病足 infections), carbamazepine (for diabetic
neuralgia) and a pneumococcal vaccine. A product of 相关药物 is kept only when it is a generic drug
(no brand, no patent medicine, no vaccine: a vaccine prevents, it does not treat) and the disease is
one of its *main* indications: at least ``MAIN_SHARE`` of its label's indications name the disease,
or ``MANY_PRODUCTS`` of the disease's products hold the substance and ``MANY_SHARE`` of their
indications name it (pneumonia is one of many infections each antibiotic lists, but twenty
azithromycin products list it). Products are reduced to their substance
(``cmekg_vocab.substance``); every insulin is 胰岛素, one answer for a clinician.

A label's indications are entities the scraper linked in its text, so a disease is "named" where the
text only mentions it: as the people of another indication (依西美坦 for 绝经后晚期乳腺癌 lists 绝经;
bisphosphonates for 绝经后骨质疏松), or cut out of a germ's name (溶血性链球菌 lists 溶血症, 流感嗜血杆菌
lists 流感). So a substance whose labels ever name the disease as a qualifier (绝经后…, 脑卒中后…)
is no medication of it, a label for a tumour never names such a state (来曲唑 lists 乳腺癌 and 绝经),
and an anti-infective's label names only an infection.

A diagnostic agent is no medication: a contrast agent or tracer is given to image a disease, not to
treat it (钆贝葡胺, gadobenate, lists 原发性肝癌 for its MRI). It is known by its name (造影剂, 钆…, 锝[99mTc]…,
[18F] tracers, 碘海醇-like 碘…醇) or by its labels, when every class of every label is a diagnostic one
(诊断用药, …造影剂): 碘化油 is also 碘和碘化物 and treats iodine deficiency, 锝[99Tc]亚甲基二膦酸盐 (no "m")
treats arthritis, 碘[131I]化钠 is also 放射性碘 and treats the thyroid, so they stay.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from medprobe.sources.cmekg_values import merge_near_duplicates, parts
from medprobe.sources.cmekg_vocab import NON_ENTITY_KINDS, Graph, Vocabulary, is_patent_medicine, substance

MAX_MEDICATIONS = 20
MAIN_SHARE = 0.25
MANY_PRODUCTS = 3
MANY_SHARE = 0.1

#: between two drugs of one item (依维莫司加依西美坦), never inside a name (加巴喷丁, 加替沙星)
#: a product name cut inside its dosage form when it became a substance (缓释微丸 -> 缓释微, 浓缩液 -> 浓), or a
#: name cut out of a sentence (用铝碳酸镁, 氯喹耐药, 药硫胺素)
_CUT_FORM = re.compile(r"(缓释|控释|微|浓|注射|口服|溶|胶|颗|滴|喷|贴|复合|耐药)$|^(用|药|以|二甲酯)")
_COMBINED = re.compile(r"(?<=..)(?:加|联合|联用|合用|和|及|与|或)(?=..)|[+＋±]")
_ROUTE = re.compile(r"^(一种|某种|联用|联合|合用|皮下注射|静脉注射|静脉滴注|肌内注射|肌肉注射|口服|外用|局部|吸入|静注|静滴)")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_PHRASE = re.compile(r"注射|持续|周围|使用|应用|服用|给予|治疗")
#: a drug class (分类, 用途分类) that treats infections; with a steroid (含皮质激素的外用抗感染药) it treats more
_ANTI_INFECTIVE = re.compile(r"^(?!.*激素).*(抗感染|抗菌|抗生素|真菌|喹诺酮|头孢|青霉素|大环内酯|四环素|磺胺|氨基糖苷|碳青霉烯|林可)")
#: a disease that is an infection, by its name (肺炎, 淋病, 痤疮) or by a germ among its causes
_INFECTION_NAME = re.compile(r"炎|感染|菌|脓|结核|梅毒|淋病|疟|伤寒|痢|霍乱|白喉|百日咳|破伤风|猩红热|疖|痈|疮|丹毒|沙眼|热$")
#: a germ among a disease's causes; a bare 感染 is no germ, only a trigger (of 溶血症)
_GERM = re.compile(r"菌|病毒|支原体|衣原体|螺旋体|立克次体")
#: a diagnostic drug class: contrast agents (造影剂, 对比剂, 显影剂) and 诊断用药 (放射性碘 is no such class: it treats)
_DIAGNOSTIC_CLASS = re.compile(r"造影|对比剂|显影|诊断用")
#: a diagnostic agent by its name: a class word, gadolinium, a 99mTc or 18F tracer, an iodinated contrast 碘…醇 (碘海醇, 碘克沙醇)
_DIAGNOSTIC_NAME = re.compile(r"造影|对比剂|显影剂|诊断用|^钆|锝\[99m|\[18F\]|氟代脱氧葡萄糖|^碘[^化酸苷\[]{1,3}醇$")
#: 后 as "after" before whom or what (绝经后妇女, 绝经后骨质疏松), not before a time (心肌梗塞后24小时内) nor in 后遗症
_AFTER = re.compile(r"后(?!遗)(?=[\u4e00-\u9fff])")
#: a tumour indication: beside it, a patients' state (绝经 of 来曲唑's 乳腺癌) is whom the drug treats, not what
_TUMOUR = re.compile(r"癌|瘤|白血病")

#: value -> why the builder's general filters drop it (placeholder, fragment, sentence, own name), or None
Rejection = Callable[[str], str | None]


@dataclass(frozen=True)
class _Target:
    """The disease whose medications are being picked: its names, whether it is an infection, and
    whether some label names it as its patients' state (绝经 of 绝经后骨质疏松)."""

    own: tuple[str, ...]
    infection: bool
    state: bool


class Medications:
    """Picks one disease's medications; ``noise`` counts what each rule removed."""

    def __init__(self, graph: Graph, vocabulary: Vocabulary, noise: Counter[str]) -> None:
        self.graph = graph
        self.vocabulary = vocabulary
        self.noise = noise
        self.labels: dict[str, list[str]] = {}
        for subject, po in graph.items():
            if "适应症" in po and vocabulary.subjects.get(subject) == "drug" and not is_patent_medicine(po):
                self.labels.setdefault(_drug_name(substance(subject)), []).append(subject)
        self.states = _qualifiers(i for subjects in self.labels.values() for s in subjects for i in graph[s]["适应症"])

    def of(self, po: dict[str, list[str]], own: tuple[str, ...], rejection: Rejection) -> list[str]:
        """药物治疗 first, then the substances of 相关药物 by how many of the disease's products hold
        them; near-duplicates merged, at most ``MAX_MEDICATIONS``."""
        target = _Target(own, is_infection(own[0], po), any(name in self.states for name in own))
        curated = [name for item in po.get("药物治疗", ()) for name in self._curated(item, target, rejection)]
        listed = self._listed(po.get("相关药物", ()), target)
        merged, dropped = merge_near_duplicates(dict.fromkeys([*curated, *listed]))
        self.noise["medications: near duplicate"] += len(dropped)
        self.noise["medications: over cap"] += max(0, len(merged) - MAX_MEDICATIONS)
        return merged[:MAX_MEDICATIONS]

    def _curated(self, item: str, target: _Target, rejection: Rejection) -> list[str]:
        names = []
        for part in parts(item):
            for piece in _COMBINED.split(part):
                name = _drug_name(substance(_ROUTE.sub("", piece.strip())))
                reason = self._reason(name, target) or rejection(name)
                if reason:
                    self.noise[f"medications: {reason}"] += 1
                elif name:
                    names.append(name)
        return names

    def _reason(self, name: str, target: _Target, product: bool = False) -> str | None:
        """Why a name is no medication of the disease; a product's name (``product``) is a drug by
        the graph's own typing, so only what no drug is called is refused (live bacteria are drugs)."""
        if not _CJK.search(name):
            return "no Chinese name (a gene, a code)"
        if "疫苗" in name:
            return "vaccine"
        if _CUT_FORM.search(name):
            return "a name cut inside its dosage form or sentence (地尔硫卓缓释微, 唑来膦酸浓, 用铝碳酸镁, 氯喹耐药)"
        if _PHRASE.search(name):
            return "a phrase, no drug name"
        labels = self.labels.get(name, [])
        if _DIAGNOSTIC_NAME.search(name) or (labels and all(_only_of(self.graph[item], _DIAGNOSTIC_CLASS) for item in labels)):
            return "diagnostic agent (contrast, tracer)"
        kind = self.vocabulary.kind(name)
        if kind in NON_ENTITY_KINDS or (not product and kind not in ("drug", "herb")):
            return f"not a drug ({kind or 'unknown term'})"
        if not labels and not product:
            return "no label of the graph confirms it (a drug named in the disease's text only)"
        if labels and not any(self._share(item, target) for item in labels):
            return "its labels never name the disease"
        if any(_qualifies(self.graph[item].get("适应症", []), target.own) for item in labels):
            return "its labels name the disease's people only (绝经后…)"
        return None

    def _listed(self, items: Iterable[str], target: _Target) -> list[str]:
        products: Counter[str] = Counter()
        shares: dict[str, float] = {}
        for item in items:
            name = _drug_name(substance(item))
            reason = self._product_reason(item) or self._reason(name, target, product=True)
            if reason:
                self.noise[f"medications: {reason}"] += 1
                continue
            products[name] += 1
            shares[name] = max(shares.get(name, 0.0), self._share(item, target))
        kept = [n for n in products if shares[n] >= MAIN_SHARE or (products[n] >= MANY_PRODUCTS and shares[n] >= MANY_SHARE)]
        self.noise["medications: not a main indication"] += sum(products[n] for n in products if n not in kept)
        return sorted(kept, key=lambda n: (-products[n], n))

    def _product_reason(self, item: str) -> str | None:
        drug = self.graph.get(item, {})
        if "成份" not in drug and "通用名" not in drug:
            return "not a drug"
        if "通用名" in drug and item not in drug["通用名"]:
            return "brand"
        if is_patent_medicine(drug):
            return "patent medicine"
        if "疫苗" in item:
            return "vaccine"
        return None

    def _share(self, item: str, target: _Target) -> float:
        """The part of the product's indications that name the disease (or one of its names); none
        when an anti-infective names a disease that is no infection (the germ's name was linked)."""
        drug = self.graph[item]
        if not target.infection and _only_of(drug, _ANTI_INFECTIVE):
            return 0.0
        indications = drug.get("适应症", [])
        if target.state and any(_TUMOUR.search(i) for i in indications):
            return 0.0
        naming = [i for i in indications if any(name in i or (len(i) >= 2 and i in name) for name in target.own)]
        return len(naming) / len(indications) if indications else 0.0


def is_infection(name: str, po: dict[str, list[str]]) -> bool:
    """Whether a disease is an infection, which an anti-infective may treat: by its name or its causes."""
    causes = (*po.get("病因", ()), *po.get("常见病因", ()))
    return bool(_INFECTION_NAME.search(name)) or "传播途径" in po or any(_GERM.search(c) for c in causes)


def _only_of(drug: dict[str, list[str]], pattern: re.Pattern[str]) -> bool:
    """Whether every class the graph gives a drug (分类, 用途分类) is of one kind: a class of another
    kind beside it says the drug does more (利尿药 beside 磺胺类 for furosemide, 碘和碘化物 beside
    造影剂 for 碘化油, which treats iodine deficiency)."""
    classes = [*drug.get("分类", ()), *drug.get("用途分类", ())]
    return bool(classes) and all(pattern.search(c) for c in classes)


def _qualifiers(indications: Iterable[str]) -> frozenset[str]:
    """Every phrase some indication puts before 后 (绝经 of 绝经后骨质疏松), not 后遗症: the patients' states."""
    return frozenset(i[start:match.start()] for i in indications for match in _AFTER.finditer(i) for start in range(match.start()))


def _qualifies(indications: list[str], own: tuple[str, ...]) -> bool:
    """Whether a label names the disease only to say whose another indication is (绝经后骨质疏松,
    脑卒中后抑郁): the disease then is the patients' state, not what the drug treats. 前 is no such
    word (子痫前期 is a disease) and 后遗症 is the disease's own sequel."""
    return any(match.start() >= len(name) and i[match.start() - len(name):match.start()] == name
               for name in own for i in indications for match in _AFTER.finditer(i))


def _drug_name(name: str) -> str:
    """A substance as the KB shows it: every insulin preparation is 胰岛素."""
    return "胰岛素" if "胰岛素" in name else name
