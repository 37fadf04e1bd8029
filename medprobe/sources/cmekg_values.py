"""Turning CMeKG's scraped values into entity names, and telling findings from symptoms.

A graph value is often several things at once ("恶心、呕吐"), wrapped in words that are no part of
the entity ("伴高热", "发热等"), hedged ("轻度食欲下降"), or spelled one of several ways (发烧 and
发热; 胸片 and 胸部 X 线摄影). ``parts`` splits and trims a value, ``canonical`` rewrites a
symptom to the one spelling the built KB uses, ``near_key`` is what two spellings of one entity
share, and ``merge_near_duplicates`` keeps one of each.

Symptom lists also hold results that MedDisK asks for elsewhere: an abnormal laboratory result
(白细胞计数增高, 空腹血糖＞140 mg/dL) belongs to the laboratory findings, an imaging or ECG result
(胸片示肺纹理增粗, ST段抬高) to the auxiliary findings, and a sign found on examination (压痛,
湿啰音, 移动性浊音阳性) also to the physical examination (``finding_kind``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache

_SEPARATORS = re.compile(r"[、，,；;。]|(?<=[\u4e00-\u9fff])[/／](?=[\u4e00-\u9fff])")
_LABEL = re.compile(r"^[^：:]{1,6}[：:]")
_ASIDE = re.compile(r"[（(][^）)]*[）)]|[（）()]")
#: words that lead into an entity in a sentence: connectives, "then", "mostly", "in some patients"
_LEADING = re.compile(
    r"^(常伴有|常伴|伴有|伴|常并发|并发|以及|或|及|和|与|如|特别是|尤其是|尤以|始则|继而|继之|继则|继有|继以|以|即|则|而|且|并|亦|"
    r"在|为|从|其次为|其次是|其中|体征有|症状有|有些有|有些|部分患者有|部分病例有|部分患者|部分有|多数患者有|多数|"
    r"少数患者|少数病例有|少数有|常见症状为|常见|常诉|常感|常发|常先有|先有|常有|主要为|主要是|主要在|最初有|最后|最常见|呈现|呈|"
    r"表现为|表现|多伴有|多伴|均伴|可伴|可有|经常|易发生|易并发|可并发|可发生|可引起|例如|比如|还有|重者|轻者|严重者|现|其(?![他它])|形成|发生|人体)+"
)
_TRAILING = re.compile(r"(等症状|等表现|等疾病|等因素|等原因|等症|等等|等|以|而)$")
#: words that say how often, how strongly or how widely, not what: 轻度食欲下降 is 食欲下降, 疼痛剧烈 is 疼痛
_HEDGES = re.compile(
    r"^(轻度|轻微|明显|偶有|偶见|常有|可有|可见|多有|有时|全身|周身|严重|重度|剧烈|持续性|持续|反复|急性|慢性|早期|晚期|初期|有)|"
    r"(剧烈|明显|加重|加剧|较重|严重)$"
)
#: who has the symptom, which a symptom does not name: 患儿烦躁不安 is 烦躁不安, for a child or an adult
_SUFFERER = re.compile(r"^(患儿|小儿|病儿|患者|病人|婴儿|新生儿|婴幼儿)(?=..)")
#: conjunctions inside one value: "多食和体重减轻" is two symptoms
CONJUNCTIONS = re.compile(r"(?<=..)(?:和|及|与|或|并|伴|以至|以致)(?=..)")

#: one spelling per symptom (in our words: the form a Chinese textbook uses), applied inside values
SYMPTOM_SPELLINGS: dict[str, str] = {
    "发烧": "发热", "紫绀": "发绀", "食欲不振": "食欲减退", "食欲下降": "食欲减退", "食欲低下": "食欲减退",
    "食欲差": "食欲减退", "胃纳差": "食欲减退", "纳差": "食欲减退", "浮肿": "水肿", "头疼": "头痛", "腹疼": "腹痛",
    "吐血": "呕血", "心慌": "心悸", "咯痰": "咳痰", "瘙痒症": "瘙痒", "肝脏肿大": "肝肿大", "脾脏肿大": "脾肿大",
    "吐泻": "呕吐腹泻",
}
#: whole symptoms that are one (the fatigue words), rewritten only when they are the entire value
SYMPTOM_SYNONYMS: dict[str, str] = {word: "乏力" for word in ("疲乏", "疲乏力", "疲乏无力", "疲劳", "疲倦", "倦怠", "疲劳乏力")}
#: names of one drug class (钙拮抗剂 is 钙通道阻滞剂): rewritten to the first when they are the entire value,
#: so that one is never a wrong option beside the other
DRUG_CLASS_NAMES: tuple[tuple[str, ...], ...] = (
    ("钙通道阻滞剂", "钙拮抗剂", "钙离子拮抗剂", "钙通道阻断剂", "钙离子通道阻滞剂", "CCB"),
    ("β受体阻滞剂", "β受体阻断剂", "β阻滞剂", "β-受体阻滞剂", "β肾上腺素受体阻滞剂", "β-肾上腺素受体阻断剂"),
    ("血管紧张素转换酶抑制剂", "ACEI", "ACE抑制剂", "血管紧张素转化酶抑制剂"),
    ("血管紧张素Ⅱ受体拮抗剂", "血管紧张素II受体拮抗剂", "ARB", "血管紧张素受体阻滞剂", "血管紧张素Ⅱ受体阻滞剂"),
    ("糖皮质激素", "皮质类固醇", "肾上腺皮质激素", "皮质激素", "类固醇激素", "激素"),
    ("非甾体抗炎药", "非甾体类抗炎药", "NSAIDs", "NSAID", "解热镇痛药", "非甾体消炎药"),
    ("质子泵抑制剂", "PPI", "PPIs"),
    ("抗生素", "抗菌药物", "抗菌素", "抗菌药", "抗生素类药物"),
    ("利尿剂", "利尿药"),
    ("抗凝药", "抗凝剂", "抗凝药物"),
    ("抗血小板药", "抗血小板药物", "抗血小板聚集药"),
    ("他汀类药物", "他汀类", "他汀"),
    ("免疫抑制剂", "免疫抑制药"),
    ("抗病毒药", "抗病毒药物"),
    ("抗真菌药", "抗真菌药物"),
)
CLASS_SYNONYMS: dict[str, str] = {name: names[0] for names in DRUG_CLASS_NAMES for name in names[1:]}
#: a drug class rather than a drug (抗生素, β受体阻滞剂, 他汀类药物): a class holds drugs the KB may list by name
#: only, so a class is never offered as a wrong medication
_DRUG_CLASS = re.compile(r"(药物|药|剂|类|素类)$")
#: the body regions a Chinese finding names: a finding of a region where the disease has a finding is never
#: a safe wrong answer (干呕 beside 恶心, 排便次数增多 beside 腹泻, 烧灼感 of the eye beside 畏光), and
#: a finding that names no region (烧灼, 不安) may be true of any disease (``regions``)
BODY_REGIONS: dict[str, re.Pattern[str]] = {
    "eye": re.compile(r"眼|视|瞳|角膜|结膜|睑|泪|畏光|怕光|虹|晶状体|玻璃体|失明|盲|眶"),
    "ear, nose and throat": re.compile(r"耳|听|鼻|嗅|咽|喉|声|嘶哑|吞咽|喷嚏|涕"),
    "mouth": re.compile(r"口|舌|牙|齿|唇|龈|涎|腮|颌"),
    "chest": re.compile(r"咳|痰|喘|呼吸|气促|气短|气急|胸|咯血|哮|肺|心|脉|发绀|杂音|颈静脉|紫绀"),
    "abdomen": re.compile(r"腹|便|泻|呕|恶心|食|胃|肠|肝|脾|胆|黄疸|嗳|反酸|泛酸|反胃|呃|肛|里急后重|饱|纳|厌油"),
    "urinary and genital": re.compile(r"尿|肾|腰|膀胱|阴|月经|(?<!神)经|乳|白带|带下|性(功能|交|欲|器|病)|阳痿|早泄|睾|精(?!神|力)|"
                                      r"子宫|盆|妊|胎|流产|不孕|腹股沟"),
    "skin": re.compile(r"皮|疹|斑|痒|疱|痂|屑|毛|脱发|风团|紫癜|溃|糜烂|渗|痣|疣|色素|瘀|红"),
    "limbs and back": re.compile(r"关节|骨|肌|腰|背|颈|肩|肢|臂|腿|膝|(?<!不)足|手|指|趾|跛|僵|活动|畸形|臀|髋|腕|肘|踝|步|脊"),
    "nerves and mind": re.compile(r"头|晕|抽搐|惊厥|瘫|麻|感觉|意识|昏|震颤|共济|失语|失写|认知|智力|记忆|精神|神经|迟钝|呆|反射|痉挛|"
                                  r"言语|语言|幻|妄想|行为|情|性格|焦虑|抑郁|睡|眠|躁|惊|恐"),
}
#: lesion words that, bare, name no site and so no finding a clinician could check (``cmekg_symptoms``)
LESIONS = frozenset({"出血", "水肿", "溃疡", "结节", "充血", "坏死", "痉挛", "渗出", "糜烂", "破溃"})
#: findings of the whole body, the mind and the vital signs (flushing, like pallor, goes with fever and emotion; a
#: weakness of the muscles is a fatigue), pain, swelling, oedema or discomfort of a part, and any
#: disorder of an organ (焦虑不安, 性格改变, 四肢发凉, 心率加快, 局部皮肤红肿, 眼部异常, 神经功能障碍): many diseases have them whether or not a page lists them, so the
#: KB's incomplete lists can never call one wrong for a disease (``general_finding``)
_GENERAL_FINDING = re.compile(
    r"焦虑|烦躁|狂躁|躁动|性格|情绪|情感|精神|淡漠|抑郁|言语|语言|注意力|记忆|智力|学习|失眠|嗜睡|睡眠|兴奋|紧张|恐惧|"
    r"发凉|发冷|冰冷|厥冷|畏寒|怕冷|寒战|红肿|肿胀|水肿|潮红|肌力|疼痛|不适|乏力|无力|疲|倦|发热|高热|低热|体温|消瘦|体重|食欲|休克|"
    r"昏迷|意识|心率|脉搏|血压|呼吸[加急增快]|出汗|多汗|盗汗|自汗|苍白|头晕|头昏|头痛|眩晕|口渴|口干|体力|虚弱|软弱|困重|身重|湿冷|毛细血管|"
    r"(部|功能)(异常|障碍|紊乱|失调)$|(病变|损害|改变)$"
)
#: 关节疼痛 is 关节痛 (a bare 疼痛 and 腹部疼痛 stay)
_PAIN = re.compile(r"(?<=[^部])疼痛")
_SPELLING = re.compile("|".join(sorted(SYMPTOM_SPELLINGS, key=len, reverse=True)))
#: test names that are one examination (胸片, CXR and 胸部X线摄影 are all a chest X-ray)
_TEST_SPELLINGS = {"胸片": "胸部X线", "CXR": "胸部X线", "胸部平片": "胸部X线", "B型超声": "B超", "磁共振": "MRI", "核磁共振": "MRI"}
_TEST_ENDINGS = re.compile(r"(检查|检测|测定|化验|摄影|摄片|平片|片|成像|扫描|试验)+$")
#: words that say how much or where in general, not what: 全身不适 is 不适, 灼热感 is 灼热
_QUALIFIERS = re.compile(r"^(全身|周身|轻度|轻微|明显|严重|重度|持续性|持续|反复|偶尔|偶有|有)|(感|症状)$")
_SITE_ENDINGS = re.compile(r"(?<=.)(部|脏|睛)$")

_ANALYTE = (
    r"白细胞|红细胞|血小板|血红蛋白|中性粒|淋巴细胞|嗜酸|单核细胞|网织红|转氨酶|ALT|AST|胆红素|肌酐|尿素|尿酸|血糖|糖化|"
    r"血钾|血钠|血钙|血镁|血磷|血氯|电解质|血脂|胆固醇|甘油三酯|白蛋白|球蛋白|蛋白|抗体|抗原|补体|Ig[AGMED]|酶|血沉|"
    r"C反应蛋白|CRP|降钙素原|乳酸|血氨|凝血|纤维蛋白|二聚体|铁蛋白|血清铁|激素|TSH|皮质醇|尿糖|尿比重|管型|隐血|潜血|"
    r"肌钙蛋白|BNP|PSA|AFP|CEA|病毒载量|HBsAg|DNA|RNA|滴度|脑脊液|骨髓|血气|氧分压|二氧化碳分压|血清|血浆|尿液|粪便"
)
_LAB_FINDING = re.compile(
    rf"({_ANALYTE}).*(升高|增高|增多|增加|偏高|降低|减低|减少|下降|偏低|阳性|阴性|异常|延长|缩短|[<>＜＞≤≥]\s*\d)|"
    r"^(高|低).{1,6}血症$|^(蛋白|管型|酮|脓|糖)尿$"
)
_IMAGING_FINDING = re.compile(
    r"(X线|X光|CT|MRI|磁共振|B超|超声|彩超|心电图|脑电图|肌电图|造影|胸片|影像|内镜|胃镜|肠镜|眼底).*"
    r"(示|显示|提示|可见|见|改变|异常|表现|增粗|阴影|影|狭窄|扩张|增宽|增厚|积液)|ST段|T波|Q波|P波|QRS|P—R间期|QT间期"
)
_SIGN = re.compile(
    r"压痛|反跳痛|叩击痛|叩痛|啰音|杂音|浊音|鼓音|摩擦音|奔马律|心界|呼吸音|心音|征阳性|(?<!综合)征$|反射|肝大|脾大|"
    r"肝肿大|脾肿大|肝脾肿大|淋巴结肿大|触及|扪及|怒张|杵状指|肌力|肌张力|颈强直|颈项强直|眼球震颤|瞳孔|肌卫|板状腹|"
    r"蜘蛛痣|肝掌|(血压|心率|脉搏|体温|呼吸频率).*(\d|升高|增快|减慢|降低)"
)


def parts(value: str, *, conjunctions: bool = False) -> list[str]:
    """The entity names in one raw value: a "标签：" label and parenthesised asides removed, split
    at list punctuation (and at 和/及/与/或/并/伴 when ``conjunctions``), connectives trimmed
    ("伴高热" -> 高热, "发热等" -> 发热)."""
    text = _ASIDE.sub("", value)
    chunks = [_LABEL.sub("", chunk) for chunk in _SEPARATORS.split(text)]
    pieces = [p for chunk in chunks for p in (CONJUNCTIONS.split(chunk) if conjunctions else [chunk])]
    return [trimmed for p in pieces if (trimmed := trim(p))]


def unique(values: Iterable[str]) -> list[str]:
    """The values in their first order, each once."""
    return list(dict.fromkeys(values))


def trim(part: str) -> str:
    """A part without leading and trailing connectives (伴, 如, 等, 等症状 …)."""
    return _TRAILING.sub("", _LEADING.sub("", part.strip())).strip()


def canonical(symptom: str) -> str:
    """The KB's spelling of a symptom: the sufferer and hedges dropped, synonyms rewritten (轻度食欲下降 -> 食欲减退,
    发烧 -> 发热, 疼痛剧烈 -> 疼痛), so that one symptom is one string across all diseases (and a
    common one is seen to be common)."""
    bare = trim(_HEDGES.sub("", _HEDGES.sub("", _SUFFERER.sub("", symptom))))
    bare = bare if len(bare) >= 2 else symptom
    spelled = _PAIN.sub("痛", _SPELLING.sub(lambda m: SYMPTOM_SPELLINGS[m.group()], bare))
    return SYMPTOM_SYNONYMS.get(spelled, spelled)


def near_key(value: str) -> str:
    """What two spellings of one entity share: width, case and spaces folded, X光 read as X线 and
    天冬 as 门冬 (左旋天冬酰胺酶 is 左旋门冬酰胺酶),
    general qualifiers dropped (全身不适 -> 不适), a site's 部/脏 dropped (肺部, 肺脏 -> 肺), and for
    tests the ending dropped (胸部 X 线检查, 胸部X线片 and 胸片 all become 胸部X线)."""
    key = re.sub(r"\s+", "", unicodedata.normalize("NFKC", value)).upper().replace("X光", "X线").replace("天冬", "门冬")
    key = _TEST_SPELLINGS.get(key, key)
    for pattern in (_QUALIFIERS, _TEST_ENDINGS, _SITE_ENDINGS):
        stem = pattern.sub("", key)
        key = stem if len(stem) >= 1 else key
    return _TEST_SPELLINGS.get(key, key)


def merge_near_duplicates(values: Iterable[str]) -> tuple[list[str], list[str]]:
    """(kept, dropped): values with one ``near_key`` are one entity; the shortest spelling is
    kept, in the place of the first. Only spellings merge: 偏头痛 is no 头痛, 肺水肿 no 水肿."""
    kept: dict[str, str] = {}
    dropped: list[str] = []
    for value in values:
        key = near_key(value)
        if key not in kept:
            kept[key] = value
            continue
        shorter, longer = sorted((kept[key], value), key=len)
        kept[key] = shorter
        dropped.append(longer)
    return list(kept.values()), dropped


def finding_kind(value: str) -> str | None:
    """Which examination aspect a symptom-list value is a result of: "laboratory" (an abnormal
    lab result), "auxiliary" (imaging, ECG), "physical" (a sign found on examination), or None."""
    if _LAB_FINDING.search(value):
        return "laboratory"
    if _IMAGING_FINDING.search(value):
        return "auxiliary"
    if _SIGN.search(value):
        return "physical"
    return None


@cache
def _comparable(text: str) -> str:
    return near_key(CLASS_SYNONYMS.get(text.strip(), canonical(text)))


def related_to_any(candidate: str, own: Iterable[str]) -> bool:
    """Whether a Chinese candidate is one of ``own`` in another spelling, hedged or qualified
    (轻度食欲下降 beside 食欲不振, 发烧 beside 发热, 全身乏力 beside 乏力: the two compared after
    ``canonical`` and ``near_key``, equal or one inside the other), or names a body region one of
    them names (干呕 beside 恶心: ``BODY_REGIONS``)."""
    key = _comparable(candidate)
    mine = regions(candidate)
    return any(_overlap(key, _comparable(other)) or not mine.isdisjoint(regions(other)) for other in own)


@cache
def regions(text: str) -> frozenset[str]:
    """The ``BODY_REGIONS`` a Chinese term names (腹泻: abdomen; 胸闷心悸: chest; 烧灼: none)."""
    return frozenset(name for name, words in BODY_REGIONS.items() if words.search(text))


def regions_of(findings: Iterable[str]) -> frozenset[str]:
    """The body regions a disease's findings name, together (``regions``)."""
    return frozenset().union(*map(regions, findings))


def shares_a_region(candidate: str, own: frozenset[str]) -> bool:
    """Whether a candidate wrong finding names one of a disease's body regions (``own``, from ``regions_of``) or
    names none, so that its region cannot be told: a disease whose listed findings name no eye is safely asked
    about 畏光, but an unlisted finding of a region the disease shows findings in may be one the page left out
    (尿道刺痒 beside 尿频 and 尿痛)."""
    found = regions(candidate)
    return not found or not found.isdisjoint(own)


#: treatments Chinese medicine gives for many diseases (针灸治疗, 心理治疗, 物理疗法, 饮食疗法, 康复训练)
_GENERAL_TREATMENT = re.compile(r"针灸|针刺|艾灸|推拿|按摩|拔罐|刮痧|理疗|物理|心理|放松|康复|锻炼|运动|饮食|营养|中医|中药|休息")


#: words of an age or a sex in a group of people (50岁以上, 中老年, 男性, 小儿)
_AGE_OR_SEX = re.compile(r"\d|岁|年|老|青|成人|男|女|儿|婴|幼|孕|妇")


def age_or_sex_group(text: str) -> bool:
    """Whether a Chinese group of people is named by an age or a sex (``_AGE_OR_SEX``)."""
    return bool(_AGE_OR_SEX.search(text))


def general_treatment(text: str) -> bool:
    """Whether a Chinese treatment is one given for many diseases (``_GENERAL_TREATMENT``)."""
    return bool(_GENERAL_TREATMENT.search(text))


def general_finding(text: str) -> bool:
    """Whether a Chinese finding is general (``_GENERAL_FINDING``), a bare lesion (溃疡: of a skin disease,
    but ulcers are found anywhere) or names no body region (烧灼, 不安): never offered as a wrong answer."""
    return bool(_GENERAL_FINDING.search(text)) or text in LESIONS or not regions(text)


def drug_class(text: str) -> bool:
    """Whether a Chinese medication value names a class of drugs (``_DRUG_CLASS``)."""
    return bool(_DRUG_CLASS.search(text))


def fits(finding: str, disease_texts: Iterable[str]) -> bool:
    """Whether a finding may be keyed as one of the disease's: it names a body region (no general finding
    such as 乏力, which a reader can only pick by elimination), and one that the disease's name, sites or
    departments name, where they name any (躁狂 for pulmonary tuberculosis, 口腔溃疡 for pulmonary
    hypertension are the graph's linker at work, not the disease)."""
    mine = regions(finding)
    if not mine or general_finding(finding):
        return False
    theirs = regions_of(disease_texts)
    return not theirs or not mine.isdisjoint(theirs)


def joined(text: str) -> bool:
    """Whether one value joins two (化疗和放疗, 手术及放疗): such an option is neither right nor wrong
    when its parts are keyed differently, so it is never an option."""
    return bool(CONJUNCTIONS.search(text)) or "、" in text


def _overlap(a: str, b: str) -> bool:
    """One key inside the other; a one-character key only at the start (腕 of 腕关节, not 心 of 恶心)."""
    short, long = sorted((a, b), key=len)
    return short in long if len(short) >= 2 else long.startswith(short)
