"""MultiDiseK-style questions from any knowledge base (paper 003 §4.1, "MultiDiseK").

Each (disease, enumerated aspect) with at least three entities is one knowledge point, asked
ten ways with four options (A-D):
  MCQ  one right option + three distractors, and the negated form (three right + one wrong);
  RQ   each MCQ with a proposed answer that is right, and one that is wrong;
  MAQ  one to three right options, and the negated form with the complementary answer;
  TFQ  one entity, associated with the disease with probability 1/2, and the negated statement.
Distractors are entities of the same aspect from other diseases, excluding entities the KB links
to this disease under the aspect or a sibling of it (one of the aspect family of
``audit_rules.FAMILIES``: an associated symptom is no wrong primary symptom), their near-synonyms (fuzzy token match) and entities of closely related
diseases (those sharing at least half of this disease's entities for the aspect, one of its
departments, where the KB lists departments, in Chinese also a body system of its departments or ICD-10
block: 心内科 and 心外科 are one system, ``DEPARTMENT_SYSTEMS``; or two of the content words of its name, such as
"muscular dystrophy": a finding the KB happens not to list for one limb-girdle muscular dystrophy
but lists for other muscular dystrophies is no safe wrong answer), so that a
"wrong" option is wrong rather than merely unlisted. Where the KB's language has an ontology
check (``ONTOLOGY_RELATED``: HPO for English), a candidate that is one of the disease's entities
under another name, or generalises or specialises one ("Abnormal penis morphology" beside
"Micropenis"), is excluded too; for Chinese the check compares spellings (轻度食欲下降 beside
食欲不振, 发烧 beside 发热). An entity that many of the aspect's diseases have (``NONSPECIFIC_SHARE``)
is never a distractor: an unlisted common finding may well be right; nor, where the language names
them (``GENERAL_FINDING``), is a general finding (焦虑不安, 四肢发凉, "Abnormality of the wrist") that
any disease may show. Five knowledge points from five diseases
are set aside as the solved examples; their diseases never appear as test questions.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

from medprobe.gating import kb_origin
from medprobe.methods.multifacet.questions import Demo, Question
from medprobe.methods.multifacet.templates import aspect_name, wording
from medprobe.precision import cell_aspect, common_disease
from medprobe.records import AnswerFormat, KnowledgePoint
from medprobe.seeding import item_rng
from medprobe.sources import hpo_terms
from medprobe.sources.audit_rules import FAMILIES, family_values
from medprobe.sources.cmekg_codes import department_systems
from medprobe.sources.cmekg_keys import ChineseKeys, not_a_finding
from medprobe.sources.cmekg_values import (
    age_or_sex_group,
    drug_class,
    general_finding,
    general_treatment,
    regions_of,
    shares_a_region,
)
from medprobe.sources.cmekg_values import related_to_any as zh_related_to_any
from medprobe.sources.drug_classes import broad_use, drug_class_en
from medprobe.sources.en_names import content_words
from medprobe.sources.hpo_terms import grouping_term, related_to_any
from medprobe.sources.kb import Disease, KnowledgeBase

LETTERS = ["A", "B", "C", "D"]
MIN_VALUES = 3
N_DEMOS = 5
SYNONYM_RATIO = 85.0
RELATED_OVERLAP = 0.5
#: language -> whether a candidate is, by an ontology, the same as or an ancestor or descendant of
#: one of the given entities; a language without one relies on the name comparison alone
ONTOLOGY_RELATED: dict[str, Callable[[str, Iterable[str]], bool]] = {"en": related_to_any, "zh": zh_related_to_any}
#: language -> whether a finding is so general (in Chinese: mood, behaviour, vital signs, fever, fatigue,
#: local pain or swelling; in English: HPO's grouping terms, "Abnormality of the wrist") that the KB's
#: silence never makes it wrong; such a finding is never a distractor
GENERAL_FINDING: dict[str, Callable[[str], bool]] = {"zh": general_finding, "en": grouping_term}
#: language -> whether a department sees any disease (in Chinese: one that names no body system: 急诊科,
#: 中西医结合科, 儿科); such a department is never a distractor
GENERAL_DEPARTMENT: dict[str, Callable[[str], bool]] = {"zh": lambda department: not department_systems(department)}
#: language -> whether a treatment is given for so many diseases (in Chinese: acupuncture, psychotherapy,
#: physiotherapy, diet) that the KB's silence never makes it wrong; such a treatment is never a distractor
GENERAL_TREATMENT: dict[str, Callable[[str], bool]] = {
    "zh": lambda t: general_treatment(t) or drug_class(t) or broad_use("zh", t),
    "en": lambda t: broad_use("en", t) or drug_class_en(t),
}
#: language -> whether a group of people is one of an age or a sex (in Chinese: 50岁以上患者, 中年男性): such
#: groups overlap from disease to disease, so one is never a wrong answer
GENERAL_PEOPLE: dict[str, Callable[[str], bool]] = {"zh": age_or_sex_group}
#: language -> whether a candidate finding may belong to an organ system of the disease's findings (or its
#: system cannot be told): a wrong finding is drawn only from systems the disease shows nothing in, since an
#: incomplete list of a disease's findings in one organ does not make another finding of that organ false
SAME_SYSTEM: dict[str, tuple[Callable[[Iterable[str]], frozenset[str]], Callable[[str, frozenset[str]], bool]]] = {
    "en": (hpo_terms.systems, hpo_terms.shares_a_system),
    "zh": (regions_of, shares_a_region),
}
#: language -> whether a candidate wrong finding is no finding of its own (``cmekg_keys.not_a_finding``: a disease,
#: a body part, a tongue or pulse sign of Chinese medicine): such an option is not the kind of thing asked, or
#: belongs to a pattern rather than a disease
NOT_A_FINDING: dict[str, Callable[[str], bool]] = {"zh": not_a_finding}
#: aspect family (``audit_rules.FAMILIES``) -> the language's test for a value any disease may have
GENERAL_BY_FAMILY = {"findings": GENERAL_FINDING, "departments": GENERAL_DEPARTMENT, "treatment": GENERAL_TREATMENT, "people": GENERAL_PEOPLE}
#: an entity that at least this share of the aspect's diseases (and NONSPECIFIC_MIN) have is never a
#: distractor: a finding that hundreds of diseases share (食欲减退, Seizure) cannot be called wrong for
#: a disease merely because the KB does not list it
NONSPECIFIC_SHARE = 0.01
NONSPECIFIC_MIN = 10
#: language -> the fewest diseases of a built-in KB that must list a finding before it is a wrong option (in
#: Chinese: a term that one to three pages of the graph use, such as 近视弧, 鼻充血 or 阴虱, is a page's phrase or
#: no finding at all, and a reader cannot tell it wrong for sure); a user's KB lists what its author meant to
#: list, and a small one would have no wrong options left
RECOGNISED_MIN = {"zh": 4}
#: two diseases that share a department are related, unless at least this share of the diseases have it
BROAD_DEPARTMENT = 0.2
#: language -> the body systems a department's name says it treats: for Chinese, two diseases of 心内科 and
#: 心血管外科, or of 心内科 and an ICD-10 circulatory code, are related like two of one department
DEPARTMENT_SYSTEMS: dict[str, Callable[[str], list[str]]] = {"zh": department_systems}
#: language -> the share of a sampled build's points drawn from common diseases (``precision.common_disease``):
#: half, in English, where the 157 common diseases are 1.4% of the KB (see README)
COMMON_SHARE = {"en": 0.5}
#: language -> whether a built-in KB's disease is asked at all: in Chinese, only a disease the graph gives an
#: ICD-10 code, since the graph also files traditional patterns, instruments and check-ups like diseases
#: (阳明头痛, 纤维鼻咽镜, 妇科的保健体检); the others still count when distractors are drawn
ASKED_DISEASE: dict[str, Callable[[Disease], bool]] = {"zh": lambda d: bool(d.codes.get("ICD10"))}
#: language -> the judge of which findings of a built-in KB a question may key (``cmekg_keys``)
KEYABLE_FINDINGS: dict[str, Callable[[Iterable[Disease], str], ChineseKeys]] = {"zh": ChineseKeys}
#: two diseases whose names share this many content words are related ("... muscular dystrophy ...")
NAME_WORDS_SHARED = 2


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


@dataclass
class AspectIndex:
    """For one aspect: every distinct entity (display form and normalized form), which diseases
    own each normalized entity, each disease's normalized set, and that set widened to the aspect's
    family (``kin``); and every disease's departments (the same for all aspects)."""

    values: list[str] = field(default_factory=list)
    norms: list[str] = field(default_factory=list)
    owners: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    sets: dict[str, set[str]] = field(default_factory=dict)
    kin: dict[str, set[str]] = field(default_factory=dict)
    departments: dict[str, frozenset[str]] = field(default_factory=dict)
    name_words: dict[str, frozenset[str]] = field(default_factory=dict)
    #: the fewest diseases that must list a finding before it is a wrong option (``RECOGNISED_MIN``, built-in KBs only)
    recognised: int = 1


def _departments(kb: KnowledgeBase) -> dict[str, frozenset[str]]:
    """Each disease's departments, leaving out those that BROAD_DEPARTMENT of the diseases share
    (in a KB of one specialty, its department says nothing about which diseases are alike); where the
    language reads body systems from department names (``DEPARTMENT_SYSTEMS``), also those systems and
    the disease's affected body systems."""
    systems = DEPARTMENT_SYSTEMS.get(kb.language)
    listed = {d.id: frozenset(map(_norm, _departments_and_systems(d, systems))) for d in kb.diseases}
    counts = Counter(dept for depts in listed.values() for dept in depts)
    broad = {dept for dept, n in counts.items() if n >= BROAD_DEPARTMENT * sum(1 for depts in listed.values() if depts)}
    return {disease: depts - broad for disease, depts in listed.items()}


def _departments_and_systems(disease: Disease, systems: Callable[[str], list[str]] | None) -> list[str]:
    departments = disease.values("departments")
    if systems is None:
        return departments
    return [*departments, *(s for d in departments for s in systems(d)), *disease.values("affected_body_systems")]


def _name_words(kb: KnowledgeBase) -> dict[str, frozenset[str]]:
    """Each disease's content words of its names (none for names without spaced words, as in Chinese)."""
    return {d.id: frozenset(w for name in (d.name, *d.synonyms) for w in content_words(name)) for d in kb.diseases}


def _similar_names(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two names share at least two content words (one word alone, such as "cancer", is too broad)."""
    return len(a & b) >= NAME_WORDS_SHARED


def index_kb(kb: KnowledgeBase, aspects: set[str]) -> dict[str, AspectIndex]:
    departments, names = _departments(kb), _name_words(kb)
    recognised = RECOGNISED_MIN.get(kb.language, 1) if kb_origin(kb).builtin else 1
    index: dict[str, AspectIndex] = defaultdict(lambda: AspectIndex(departments=departments, name_words=names, recognised=recognised))
    for disease in kb.diseases:
        for key in aspects:
            values = disease.values(key)
            if not values:
                continue
            entry = index[key]
            entry.sets[disease.id] = {_norm(v) for v in values}
            entry.kin[disease.id] = {_norm(v) for v in family_values(disease, key)}
            for value in values:
                norm = _norm(value)
                if norm not in entry.owners:
                    entry.values.append(value)
                    entry.norms.append(norm)
                entry.owners[norm].add(disease.id)
    return index


def _near_synonym(candidate: str, own: set[str]) -> bool:
    """One of ``own`` contains the candidate, is contained in it, or matches it by fuzzy token set
    (rapidfuzz compares against the whole set in one call, with the cut-off)."""
    if any(candidate in o or o in candidate for o in own):
        return True
    return process.extractOne(candidate, own, scorer=fuzz.token_set_ratio, score_cutoff=SYNONYM_RATIO) is not None


def distractors(entry: AspectIndex, kp: KnowledgePoint, rng: random.Random, n: int, tries: int = 200) -> list[str]:
    """Up to ``n`` entities that are plausibly wrong for this disease and aspect.

    Candidates are drawn uniformly from the aspect's distinct entities and rejected when the
    disease has them under this aspect or a sibling one, when they are common to many diseases,
    when they are near-synonyms of those entities, when the language's ontology or spelling check
    relates them to one of those entities, or when any disease owning them is closely related (shares at least
    RELATED_OVERLAP of the smaller entity set, a department: 甘草酸二铵, a drug of other liver
    diseases, is no safe wrong answer for hepatitis B; or two words of its name).
    Relatedness is checked only for the owners of drawn candidates, which keeps this cheap
    even for phenotypes shared by thousands of diseases.
    """
    disease_id = kp.meta["disease_id"]
    own = entry.sets[disease_id]
    kin = entry.kin.get(disease_id, own)
    mine = entry.departments.get(disease_id, frozenset())
    in_ontology = ONTOLOGY_RELATED.get(kp.meta.get("language", ""), lambda _candidate, _own: False)
    family = FAMILIES.get(kp.aspect or "", "")
    general = GENERAL_BY_FAMILY.get(family, {}).get(kp.meta.get("language", ""))
    same_system = SAME_SYSTEM.get(kp.meta.get("language", "")) if family == "findings" else None
    not_finding = NOT_A_FINDING.get(kp.meta.get("language", "")) if family == "findings" else None
    fewest = entry.recognised if family == "findings" else 1
    common = max(NONSPECIFIC_MIN, NONSPECIFIC_SHARE * len(entry.sets))
    related: dict[str, bool] = {}
    own_systems: frozenset[str] | None = None  # worked out once, for the first candidate that needs it

    def is_related(other: str) -> bool:
        if other not in related:
            theirs = entry.sets[other]
            shared = len(own & theirs) / min(len(own), len(theirs))
            related[other] = (
                shared >= RELATED_OVERLAP
                or not mine.isdisjoint(entry.departments.get(other, ()))
                or _similar_names(entry.name_words.get(disease_id, frozenset()), entry.name_words.get(other, frozenset()))
            )
        return related[other]

    picked: list[str] = []
    seen: set[str] = set()
    for _ in range(tries):
        i = rng.randrange(len(entry.values))
        norm = entry.norms[i]
        if norm in seen or norm in kin:
            continue
        seen.add(norm)
        owners = len(entry.owners[norm])
        if owners >= common or owners < fewest or (general is not None and general(norm)) or (not_finding is not None and not_finding(norm)):
            continue
        # cheapest first: the organ systems are worked out once, relatedness is cached per disease, the name
        # and ontology checks are not
        if same_system is not None:
            if own_systems is None:
                own_systems = same_system[0](kin)
            if same_system[1](norm, own_systems):
                continue
        if any(is_related(o) for o in entry.owners[norm]) or _near_synonym(norm, kin) or in_ontology(norm, kin):
            continue
        picked.append(entry.values[i])
        if len(picked) == n:
            break
    return picked


@dataclass(frozen=True)
class Draw:
    """The random choices behind one knowledge point's ten questions."""

    mcq: list[str]
    mcq_gold: str
    neg: list[str]
    neg_gold: str
    maq: list[str]
    maq_gold: list[str]
    tfq_value: str
    tfq_true: bool
    wrong_given: str
    neg_wrong_given: str


def _options(right: list[str], wrong: list[str], rng: random.Random) -> tuple[list[str], list[str]]:
    """Shuffle right and wrong entities into options A-D; return texts and right letters."""
    tagged = [(v, True) for v in right] + [(v, False) for v in wrong]
    rng.shuffle(tagged)
    return [v for v, _ in tagged], [LETTERS[i] for i, (_, ok) in enumerate(tagged) if ok]


def draw(kp: KnowledgePoint, wrong: list[str], rng: random.Random) -> Draw:
    values = kp.values
    mcq, mcq_gold = _options([rng.choice(values)], rng.sample(wrong, 3), rng)
    neg, neg_right = _options(rng.sample(values, 3), [rng.choice(wrong)], rng)
    neg_gold = [letter for letter in LETTERS if letter not in neg_right]
    k = rng.randint(1, 3)
    maq, maq_gold = _options(rng.sample(values, k), rng.sample(wrong, 4 - k), rng)
    tfq_true = rng.random() < 0.5
    return Draw(
        mcq=mcq,
        mcq_gold=mcq_gold[0],
        neg=neg,
        neg_gold=neg_gold[0],
        maq=maq,
        maq_gold=maq_gold,
        tfq_value=rng.choice(values) if tfq_true else rng.choice(wrong),
        tfq_true=tfq_true,
        wrong_given=rng.choice([x for x in LETTERS if x != mcq_gold[0]]),
        neg_wrong_given=rng.choice([x for x in LETTERS if x != neg_gold[0]]),
    )


def _mcq_text(stem: str, options: list[str], language: str, sep: str) -> str:
    w = wording(language)
    return f"{w.question}{stem}\n{w.options}" + sep.join(f"{LETTERS[i]}: {o}" for i, o in enumerate(options))


def kp_questions(kp: KnowledgePoint, d: Draw, language: str) -> list[Question]:
    """The ten questions of one knowledge point."""
    w = wording(language)
    names = {"aspect": aspect_name(kp.aspect or "", language), "disease": kp.disease}
    texts = lambda opts: dict(zip(LETTERS, opts, strict=True))  # noqa: E731
    mcq = _mcq_text(w.mcq.format(**names), d.mcq, language, "\t")
    neg = _mcq_text(w.mcq_negated.format(**names), d.neg, language, "\t")
    out = [
        Question(kp.id, "MCQ", "base", False, mcq, d.mcq_gold, AnswerFormat(kind="option_letter", options=LETTERS, option_texts=texts(d.mcq), language=language)),
        Question(kp.id, "MCQ", "neg", True, neg, d.neg_gold, AnswerFormat(kind="option_letter", options=LETTERS, option_texts=texts(d.neg), language=language)),
    ]
    for prefix, text, opts, gold, wrong_given, negated in (
        ("", mcq, d.mcq, d.mcq_gold, d.wrong_given, False),
        ("neg_", neg, d.neg, d.neg_gold, d.neg_wrong_given, True),
    ):
        for variant, given in (("given_right", gold), ("given_wrong", wrong_given)):
            fmt = AnswerFormat(kind="verdict_letter", options=LETTERS, option_texts=texts(opts), given=given, language=language)
            out.append(Question(kp.id, "RQ", prefix + variant, negated, w.revision.format(question=text, given=given), [given == gold, gold], fmt))
    maq_fmt = AnswerFormat(kind="letter_set", options=LETTERS, option_texts=texts(d.maq), language=language)
    complement = [x for x in LETTERS if x not in d.maq_gold]
    out += [
        Question(kp.id, "MAQ", "pos", False, _mcq_text(w.maq.format(**names), d.maq, language, "\n"), d.maq_gold, maq_fmt),
        Question(kp.id, "MAQ", "neg", True, _mcq_text(w.maq_negated.format(**names), d.maq, language, "\n"), complement, maq_fmt),
    ]
    tf_fmt = AnswerFormat(kind="true_false", language=language)
    for variant, template, label in (("stmt", w.statement, d.tfq_true), ("neg_stmt", w.statement_negated, not d.tfq_true)):
        statement = template.format(value=d.tfq_value, **names)
        out.append(Question(kp.id, "TFQ", variant, variant == "neg_stmt", w.tfq.format(statement=statement), label, tf_fmt))
    return out


class QuestionPoints:
    """Which knowledge points of a KB a question may ask, each with only the values it may key. On a
    built-in KB (``gating.kb_origin``: by name or by its cache file, as a profile hands it on) only the
    diseases the language's rule asks (``ASKED_DISEASE``) and only the findings its judge lets be keys
    (``KEYABLE_FINDINGS``): the questions blind readers measured. A user's KB is asked as it is. Every
    method that builds questions with ``distractors`` takes its points from here, so that a reading's
    estimate covers the questions each of them asks; a value left out stays in the KB, so it is never a
    wrong option either."""

    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb
        self.builtin = kb_origin(kb).builtin
        self.judges: dict[str, ChineseKeys] = {}

    def asks(self, disease: Disease) -> bool:
        rule = ASKED_DISEASE.get(self.kb.language)
        return not self.builtin or rule is None or rule(disease)

    def point(self, disease: Disease, key: str) -> KnowledgePoint:
        kp = self.kb.knowledge_point(disease, key)
        make = KEYABLE_FINDINGS.get(self.kb.language)
        if not self.builtin or make is None or FAMILIES.get(key) != "findings" or key == "secondary_diseases":
            return kp
        if key not in self.judges:
            self.judges[key] = make(self.kb.diseases, key)
        return kp.model_copy(update={"values": self.judges[key].keyable(disease, kp.values)})

    def every(self) -> list[KnowledgePoint]:
        """Every askable knowledge point with at least one value, in KB order."""
        return [self.point(d, key) for d, key, n in self.kb.point_sizes() if n and self.asks(d)]


def _with_common_share(candidates: list[tuple[Disease, str]], share: float) -> list[tuple[Disease, str]]:
    """The shuffled candidates reordered so that every first N of them hold ``share`` of points of common
    diseases while those last (each group keeps its shuffled order): a sample of the KB otherwise
    reflects its make-up, 98% rare syndromes in English, and never reaches the diseases most patients have."""
    frequent = deque(c for c in candidates if common_disease(c[0].language, c[0].id))
    rare = deque(c for c in candidates if not common_disease(c[0].language, c[0].id))
    out: list[tuple[Disease, str]] = []
    taken = 0
    while frequent or rare:
        take_frequent = bool(frequent) and (taken < share * (len(out) + 1) or not rare)
        out.append(frequent.popleft() if take_frequent else rare.popleft())
        taken += take_frequent
    return out


@dataclass
class KbQuestions:
    """A build's questions, made one knowledge point at a time as they are read (a build of 8,000
    points turns each into probes at once instead of holding 80,000 questions beside their probes),
    its solved examples and what it chose."""

    questions: Iterator[Question]
    demos: dict[tuple[str, bool], list[Demo]]
    info: dict[str, object]


def _demo_questions(kp: KnowledgePoint, wrong: list[str], seed: int, language: str, i: int) -> Iterator[tuple[tuple[str, bool], Demo]]:
    """One solved example per task and polarity; revision examples alternate between a right and
    a wrong proposed answer so the examples do not teach "always correct"."""
    rq_variant = "given_right" if i % 2 == 0 else "given_wrong"
    for q in kp_questions(kp, draw(kp, wrong, item_rng(seed, "draw", kp.id)), language):
        if q.task != "RQ" or q.variant.removeprefix("neg_") == rq_variant:
            yield (q.task, q.negated), Demo(q.text, q.gold)


def build_kb_questions(
    kb: KnowledgeBase, *, seed: int, limit: int | None, points: Collection[str] | None = None, aspects: Collection[str] | None = None
) -> KbQuestions:
    """Questions for ``limit`` knowledge points (a seeded sample; all when None), or for exactly
    ``points`` (a profile's shared sample), plus demos. With ``points`` the demos come from diseases
    none of the points belongs to, so that a tested disease is never a solved example. ``aspects``
    limits the points asked (and the demos) to those aspects; every aspect still counts when
    distractors are drawn, so a value the disease has under an aspect left out is never a wrong option."""
    sizes = [(disease, key, n) for disease, key, n in kb.point_sizes() if n >= 1]
    index = index_kb(kb, {key for _, key, _ in sizes})
    askable = QuestionPoints(kb)
    asked = [(d, key, n) for d, key, n in sizes if (aspects is None or cell_aspect(d.language, d.id, key) in aspects) and askable.asks(d)]
    candidates = [(disease, key) for disease, key, n in asked if n >= MIN_VALUES]
    skipped: Counter[str] = Counter({"fewer than 3 entities": len(asked) - len(candidates)})
    if len(asked) < len(sizes):
        skipped["aspect or disease not asked"] = len(sizes) - len(asked)
    random.Random(seed).shuffle(candidates)
    if kb.language in COMMON_SHARE and askable.builtin and points is None:
        candidates = _with_common_share(candidates, COMMON_SHARE[kb.language])
    wanted = None if points is None else set(points)
    tested_diseases = set() if wanted is None else {point.rsplit("/", 1)[0] for point in wanted}
    limit = limit if wanted is None else len(wanted)

    demo_kps: list[tuple[KnowledgePoint, list[str]]] = []
    chosen: list[tuple[KnowledgePoint, list[str]]] = []
    demo_diseases: set[str] = set()
    for entry, key in candidates:
        if limit is not None and len(chosen) == limit and len(demo_kps) == N_DEMOS:
            break
        disease = entry.id
        demo = len(demo_kps) < N_DEMOS and disease not in tested_diseases
        test = f"{disease}/{key}" in wanted if wanted is not None else limit is None or len(chosen) < limit
        if disease in demo_diseases or not (demo or test):
            continue
        kp = askable.point(entry, key)
        if len(kp.values) < MIN_VALUES:
            skipped["fewer than 3 entities a question may key"] += 1
            continue
        wrong = distractors(index[kp.aspect or ""], kp, item_rng(seed, "distractors", kp.id), 6)
        if len(wrong) < 3:
            skipped["fewer than 3 usable distractors"] += 1
        elif demo:
            demo_kps.append((kp, wrong))
            demo_diseases.add(disease)
        else:
            chosen.append((kp, wrong))
    chosen.sort(key=lambda pair: pair[0].id)
    hpo_terms.release()  # the distractors are drawn; the questions need no ontology

    language = kb.language
    questions = (q for kp, wrong in chosen for q in kp_questions(kp, draw(kp, wrong, item_rng(seed, "draw", kp.id)), language))
    demos: dict[tuple[str, bool], list[Demo]] = defaultdict(list)
    for i, (kp, wrong) in enumerate(demo_kps):
        for key, demo in _demo_questions(kp, wrong, seed, language, i):
            demos[key].append(demo)
    info = {
        "source": kb.name,
        "language": language,
        "knowledge_points": len(chosen),
        "candidate_knowledge_points": len(candidates),
        "demo_knowledge_points": [kp.id for kp, _ in demo_kps],
        "skipped": dict(skipped),
        "per_aspect": dict(Counter(kp.aspect for kp, _ in chosen)),
    }
    return KbQuestions(questions, dict(demos), info)
