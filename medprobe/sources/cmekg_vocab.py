"""What kind of entity a Chinese medical term is, as the Chinese medical knowledge graph (PyCMeKG) types it.

CMeKG has no type field. Its subjects are typed by the predicates they carry (a drug has 成份, 适应症,
不良反应…; a herb has 界/科 or 性味; an examination has 所属分类; a disease has 常见症状, 就诊科室,
ICD10…), and most values are not subjects at all: 发热, 骨科 and 心脏 are only ever objects. For
those the kind comes from how Chinese medical vocabulary is built (…科 is a department, …检查/…测定
a test, …术 an operation, …炎/…病/…癌 a disease, …痛/…肿大/…升高 a finding) and, last, from the
graph's own usage (a term that several diseases list as a symptom is a symptom). Words that are no
medical entity at all are typed too, so that callers can say why they drop them: places (纽约和日本,
from the graph's own 分布区域/多发地区 vocabulary), people (小儿, 中年以上男性), units ("dL") and
measurements ("体温40℃").

``entity_kind(text)`` answers for the installed graph; ``Vocabulary(graph).kind(text)`` for any graph.
"""

from __future__ import annotations

import os
import pickle
import re
from collections import Counter
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from medprobe.errors import MedprobeError

Graph = dict[str, dict[str, list[str]]]

#: every kind ``entity_kind`` returns; the last four are no medical entities
KINDS = (
    "disease", "symptom", "drug", "herb", "test", "procedure", "treatment", "department", "body part", "organism",
    "population", "place", "unit", "measurement",
)
NON_ENTITY_KINDS = frozenset({"population", "place", "unit", "measurement"})

DISEASE_PREDICATES = frozenset({
    "常见症状", "相关症状", "临床症状及体征", "就诊科室", "ICD10", "多发群体", "常见发病部位", "发病部位",
    "并发症", "传染性", "传播途径", "发病性别倾向", "高危因素", "药物治疗", "手术治疗", "实验室检查",
})
DRUG_PREDICATES = frozenset({
    "成份", "适应症", "OTC类型", "不良反应", "药品监管分级", "用法用量", "通用名", "禁忌", "规格", "功能主治",
    "商品名", "药品类型", "贮藏", "性状", "用途分类", "组成", "功用", "出处",
})
HERB_PREDICATES = frozenset({"主治", "入药部位", "功效", "性味", "界", "门", "纲", "目", "科", "属", "种"})
TEST_PREDICATES = frozenset({"所属分类"})
SYMPTOM_PREDICATES = ("常见症状", "相关症状", "临床症状及体征")
SITE_PREDICATES = ("常见发病部位", "发病部位")
PLACE_PREDICATES = ("分布区域", "多发地区")

#: a term at least this many diseases list as a symptom is typed a symptom by usage
SYMPTOM_USES = 3
#: a term at least this many diseases list as a site is typed a body part by usage (one page's 常因围生期窒息 is none)
SITE_USES = 2

_UNIT = re.compile(r"(?i)(mg|g|kg|μg|ug|ng|ml|l|dl|mmol|μmol|umol|mol|mmhg|kpa|cm|mm|iu|u|%|bpm|次/分)")
_MEASUREMENT = re.compile(r"\d.*([<>＜＞≤≥≦≧%％℃°]|mg|ml|mmol|mmHg|cm|mm|kg|次|岁|天|周|月|年|小时|分钟|倍|个)|[<>＜＞≤≥≦≧]\s*\d|^[\d.～~\-—]+$")
_PLACE_SUFFIX = re.compile(r"(国|省|市|州|洲|县|地区|国家|沿海)$")
_PLACE_TRIM = re.compile(r"(等地|等地区|地区|北部|南部|东部|西部|中部|以南各地|各地|大部分地区)$")
_POPULATION = re.compile(
    r"(人群|患者|病人|病儿|患儿|儿童|小儿|婴儿|婴幼儿|新生儿|幼儿|少年|青少年|青年|成人|成年人|中年人?|老年人?|老人|"
    r"女性|男性|妇女|孕妇|产妇|男子|女子|高龄|者|青壮年|白人|黑人|白种人|黄种人|东方人|西方人|亚洲人|欧洲人|非洲人|年轻人|青年人|"
    r"青壮年人|中年人|成年人|男人|女人|牧民|牧羊人|工人|人员|农民|员|工|男婴|女婴|男童|女童|男孩|女孩|胎儿|早产儿|体弱儿|"
    r"青春期|儿童期|青少年期|更年期|围绝经期|妊娠期|哺乳期|育龄期|性活跃期)$"
)
_DEPARTMENT = re.compile(r"(科|门诊)$")
_TEST = re.compile(
    r"(检查|检测|测定|试验|化验|造影|扫描|显像|成像|摄影|摄片|平片|X线片|X光片|胸片|分析|培养|计数|活检|穿刺|涂片|镜检|"
    r"超声|B超|彩超|CT|MRI|PET|心电图|脑电图|肌电图|超声心动图|常规|功能|监测|测压|测量|描记|电泳|滴度|定量|筛查|"
    r"评分|量表|内镜|胃镜|肠镜|X线|X光)$"
)
_PROCEDURE = re.compile(
    r"(术|移植|切除|引流|置换|修补|修复|吻合|造口|造瘘|重建|摘除|摘出|缝合|消融|置入|植入|放置|减压|松解|结扎|"
    r"清创|刮除|刮宫|离断|截肢|矫正|复位|透析|置管|支架|搭桥|开窗|探查|切开|灌洗|取石|碎石|介入治疗)$"
)
_TREATMENT = re.compile(
    r"(治疗|疗法|处理|护理|康复|训练|锻炼|休息|饮食|复苏|氧疗|放疗|化疗|输血|补液|戒烟|戒酒|减肥|支持|控制|调理|调整|调节|"
    r"观察|随访|监护|教育|措施|方法|法|计划|供氧|吸氧|通气|支具|禁食|禁水|洗胃|隔离|艾灸|针灸|推拿|按摩|理疗|体疗|冷敷|"
    r"热敷|光凝|冷凝|电切|电凝)$|"
    r"^(控制|预防|防治|防止|避免|戒|限|补[液钾钠钙镁铁充]|纠正|抗|止|镇|降低|改善|减轻|减少|增加|保持|维持|去除|清除|"
    r"消除|促进|缓解|给予|口服|静脉(注射|滴注|输)|注射|输(血|液|注|入)|吸氧|卧床|积极|及时|尽早|定期|保护|"
    r"根除|停用|调整|加强|心理|物理|对症)(?=..)"
)
#: endings only drugs have, checked before the finding words (镇痛药, 低分子量肝素, 高血糖素 are drugs)
_DRUG_CLASS = re.compile(r"(药|药物|剂|素|霉素|西林|沙星|单抗|替尼|碱)$")
_FINDING = re.compile(
    r"痛(?!风)|疼|痒|肿胀|肿大|水肿|浮肿|红肿|肿块|肿物|包块|结节|^肿$|麻木|发热|发烧|低热|高热|潮热|畏寒|寒战|怕冷|出汗|多汗|"
    r"盗汗|咳|痰|喘|呕|恶心|泻|便秘|便血|尿血|咯血|呕血|血尿|血便|贫血|充血|瘀|淤血|出血|高血|低血|斑|疹|疱|溃烂|糜烂|"
    r"脓|积液|黄疸|发绀|紫绀|苍白|乏力|无力|疲|倦|(?<!乳)晕|昏|厥|抽搐|惊厥|痉挛|震颤|瘫|麻痹|萎缩|增大|肥大|肥胖|消瘦|"
    r"体重.*[减降增下]|食欲|纳差|厌食|失眠|嗜睡|烦躁|焦虑|抑郁|幻|妄想|障碍|困难|异常|不适|不良|减退|下降|减低|减少|增多|增高|"
    r"升高|降低|亢进|受限|丧失|缺失|消失|模糊|流涕|鼻塞|耳鸣|耳聋|心悸|胸闷|气短|气促|气急|急促|啰音|杂音|压痛|"
    r"叩痛|(?<!综合)征|阳性|反射|增厚|僵|挛缩|跛|闭经|尿频|尿急|尿少|少尿|多尿|无尿|多饮|多食|口干|口渴|脱发|色素沉着|过速|过缓|"
    r"不齐|失常|紊乱|失调|红斑|休克|迟缓|迟钝|失语|复视|畏光|流泪|充盈|怒张|隆起|突出|凹陷|变形|畸形|溃疡|"
    r"失禁|潴留|视野|血症$|不平|^(高|低)(?!平)|^缺(血|氧)"
)
#: words the graph lists as symptoms that say what is examined, not what is wrong (呼吸, 视力, 病程),
#: describe without a finding (圆形, 灰色), or are exposures (饮酒, 受凉)
_NOT_A_FINDING = re.compile(
    r"^(呼吸|吞咽|运动|视力|听力|排便|排尿|行走|咀嚼|活动|感觉|脉搏|体温|血压|心率|意识|智力|睡眠|饮食|月经|发育|生长|"
    r"语言|记忆|视物|张口|体重|年龄|病史|病程|妊娠|位置|形状|大小|部位|性别|症状|体征|体检|好发群体|起病急|反复发作|"
    r"大小不一|轻度|中度|重度|表面光滑|质软|圆形|椭圆形|饮酒|酗酒|吸烟|受凉|劳累|敏感|移位|内收|.{0,2}色|紧张|兴奋|粗糙|热|"
    r"干燥|质硬|光滑|柔软|坚实|坚硬|饱满|变硬|变厚|变薄|增粗|扩大|量多|量少|水|脂肪|思维|行为|情绪|情感|智能|地点|计算力|"
    r"计算|数量|程度|方向|关系|工作|劳动|穿衣|书写|站立|下蹲|弯腰|跑步|饮水|消化|听|上|中|下|下腹|胸背|口周|锁骨上|足底|"
    r"足缘|鼻梁|口角|颞|胸锁|阴毛|胡须|乳汁|浆液|黏液|分泌物|眼位|眼球运动|查体|无|发病年龄|外伤史|易复发|反复|起病急骤|"
    r"起病隐匿|起病缓慢|发病急|病程较长|早期无症状|可无症状|无症状|无明显症状|早期无自觉症状|疾病危害|对称分布|散在|"
    r"境界不清|境界清楚|边界不清|边界清楚|界限清楚|潮湿|寒冷|受寒|过劳|产后|分娩|浸润|破坏|压迫|攻击|被害|夸大|红|发白|"
    r"局部红|关节红|电解质|剂量|多发群体|减少|增多|升高|降低|下降|异常|增加|减低|亢进|障碍|困难|不良|不全|受限|改变|病变|"
    r"丧失|消失|缺失|增大|肿大|不适|弹性差|扩张|脱落|磨损|突出|模糊|高处|痛觉|触觉|温度觉|位置觉|振动觉|"
    r"[IVX]+度?|.+(特点|特征|情况|性质|范围))$"
)
_DISEASE = re.compile(
    r"(病|症|炎|癌|瘤|综合征|综合症|感染|中毒|骨折|脱位|损伤|损害|伤|缺损|缺如|结石|梗死|梗塞|栓塞|衰竭|硬化|狭窄|闭锁|"
    r"疝|瘘|囊肿|息肉|增生|发育不良|不全|穿孔|破裂|血肿|结核|肉芽肿|扭转|嵌顿|套叠|梗阻|过敏|早产|流产|不孕|痴呆|"
    r"积水|脱垂|变性|纤维化|感冒|青光眼|白内障|脓肿|疾病|疾患|痛风)$"
)
_ORGANISM = re.compile(r"(菌|病毒|螺旋体|支原体|衣原体|立克次体|原虫|寄生虫|蠕虫|线虫|绦虫|吸虫|蛔虫|疟原虫|虫)$")
_DRUG = re.compile(
    r"(霉素|西林|沙星|唑|胺|酮|醇|酯|素|钠|钾|钙|镁|锌|铁剂|片|胶囊|注射液|颗粒|丸|散|膏|剂|药|药物|抑制剂|拮抗剂|激动剂|"
    r"阻滞剂|阻断剂|单抗|抗体|替尼|洛尔|地平|西平|普利|沙坦|他汀|格列奈|疫苗|干扰素|激素|类固醇|球蛋白|酶|肽|苷|汀|碘|"
    r"嘌呤|嘧啶|环素|米松|尼松|泊苷|铂|芬|卡因|西泮|唑仑)$|^头孢|^格列"
)
_BODY_END = re.compile(
    r"(部|脏|腺|管|道|膜|骨|肌|腱|韧带|关节|系统|腔|窦|神经|动脉|静脉|血管|器官|组织|细胞|皮肤|(?<![脱蜕])皮|唇|龈|根|翼|椎|叶|窝|瓣|周围|附近|内侧|外侧|"
    r"上方|下方)$"
)
_BODY = re.compile(r"^[心肝脾肺肾胃肠脑眼耳鼻口舌牙唇咽喉颈胸腹背腰臀手足指趾腿臂肩肘腕膝踝髋骨乳]{1,2}$")
_SEPARATOR = re.compile(r"[、，,；;。]")
_CONNECTED = re.compile(r"[、，,；;和及与或]")
_NAME_CHAR = re.compile(r"[\u4e00-\u9fffA-Za-z]")
_ASIDE = re.compile(r"[（(][^）)]*[）)]")
_INORGANIC = re.compile(r"[氢钾钠钙镁锌铁铝锂一二三]+")
_DOSE = re.compile(r"\s*[\d.]+\s*(mg|g|ml|μg|ug|%|万?单位|IU)$", re.IGNORECASE)

# Endings that make a product of a substance, longest first; 治疗/疗法 end 药物治疗 items like 抗生素治疗.
_PRODUCT_SUFFIXES = tuple(sorted((
    "片", "分散片", "肠溶片", "缓释片", "控释片", "咀嚼片", "泡腾片", "含片", "薄膜衣片", "口腔崩解片", "阴道片",
    "阴道泡腾片", "阴道栓", "阴道软胶囊", "胶囊", "软胶囊", "肠溶胶囊", "缓释胶囊", "颗粒", "缓释颗粒", "干混悬剂",
    "混悬液", "口服混悬液", "口服液", "口服溶液", "糖浆", "干糖浆", "注射液", "氯化钠注射液", "葡萄糖注射液", "滴眼液",
    "滴耳液", "滴鼻液", "眼膏", "乳膏", "软膏", "凝胶", "眼用凝胶", "栓", "喷雾剂", "鼻喷雾剂", "气雾剂", "吸入剂",
    "吸入气雾剂", "粉雾剂", "贴剂", "搽剂", "洗剂", "溶液", "滴剂", "滴丸", "胶丸", "酊", "散", "丸", "治疗", "疗法",
    "注射剂", "鼻气雾剂", "鼻用喷雾剂", "吸入粉雾剂", "口腔喷雾剂",
), key=len, reverse=True))
_SALTS = ("盐酸", "醋酸", "硫酸氢", "硫酸", "乳酸", "马来酸", "枸橼酸", "甲磺酸", "磷酸", "重酒石酸", "酒石酸", "富马酸",
          "氢溴酸", "乳糖酸", "甲苯磺酸", "苯磺酸", "门冬氨酸", "丙酸", "琥珀酸", "硝酸", "硬脂酸")
_ESTERS = ("琥珀酸钠", "琥珀酸酯", "磷酸钠", "磷酸酯")


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


def is_disease_subject(predicates: Iterable[str]) -> bool:
    """A disease predicate and none of a drug, herb or examination (血清钙检查 has 所属分类 and
    相关症状, so it is a test, not a disease)."""
    keys = set(predicates)
    return not DISEASE_PREDICATES.isdisjoint(keys) and (DRUG_PREDICATES | HERB_PREDICATES | TEST_PREDICATES).isdisjoint(keys)


def disease_subjects(graph: Graph) -> list[str]:
    """The subjects that are diseases (``is_disease_subject``)."""
    return [s for s, po in graph.items() if is_disease_subject(po)]


def is_patent_medicine(po: dict[str, list[str]]) -> bool:
    """A Chinese patent medicine (功能主治, or filed under 中成药): named for what it treats (咳嗽糖浆,
    感冒颗粒), so its name is no substance."""
    return "功能主治" in po or "中成药" in po.get("分类", ())


def subject_kind(predicates: Iterable[str]) -> str | None:
    """The kind a subject's predicates give it: drugs and formulas, herbs (the graph's species are
    materia medica: 陈皮, 火麻仁), examinations, diseases; None for anything else."""
    keys = set(predicates)
    if is_disease_subject(keys):
        return "disease"
    if not TEST_PREDICATES.isdisjoint(keys):
        return "test"
    if not DRUG_PREDICATES.isdisjoint(keys):
        return "drug"
    if not HERB_PREDICATES.isdisjoint(keys):
        return "herb"
    return None


def disease_named(text: str) -> bool:
    """Whether a term is named as a disease (…炎, …病, …脓肿), whatever else it may be."""
    return bool(_DISEASE.search(text))


class Vocabulary:
    """The graph's typed vocabulary: subject kinds, how many diseases list each term as a symptom,
    the place names it uses, and the taxonomic families of its herbs (蔷薇科 is no department)."""

    def __init__(self, graph: Graph) -> None:
        self.subjects = {s: k for s, po in graph.items() if (k := subject_kind(po))}
        diseases = [po for s, po in graph.items() if self.subjects.get(s) == "disease"]
        self.symptom_uses = Counter(part for po in diseases for part in _terms(po, SYMPTOM_PREDICATES))
        named = Counter(part for po in diseases for part in _terms(po, SITE_PREDICATES))
        self.sites = frozenset(part for part, n in named.items() if n >= SITE_USES)
        self.places = frozenset(_place_names(v for po in graph.values() for p in PLACE_PREDICATES for v in po.get(p, ())))
        self.families = frozenset(v for po in graph.values() for v in po.get("科", ()))
        self._kinds: dict[str, str | None] = {}
        drugs = [(s, po) for s, po in graph.items() if self.subjects.get(s) == "drug" and not is_patent_medicine(po)]
        self.drug_names = frozenset(substance(name) for s, po in drugs for name in (s, *po.get("通用名", ()))) - self.subjects.keys()

    def kind(self, text: str) -> str | None:
        """The kind of ``text`` (one of ``KINDS``), or None when nothing says what it is (memoised)."""
        if text not in self._kinds:
            self._kinds[text] = self._kind(text)
        return self._kinds[text]

    def _kind(self, text: str) -> str | None:
        """Checked in this order, first answer wins: not a name, unit, population (40岁以下女性 too),
        measurement, place, department; a drug, herb or test subject; the name patterns of procedures, treatments
        (控制感染: the verb makes it one), tests, disease subjects named as diseases (肌萎缩侧索硬化),
        findings, diseases and organisms; a drug substance
        the graph names (a product or its 通用名 without the dosage form); a site the graph names; the
        drug pattern; a symptom by usage (not 呼吸, 病程, 圆形: no finding); a disease subject; the
        body-part pattern.
        """
        name = text.strip()
        if not _NAME_CHAR.search(name):
            return "measurement" if re.search(r"\d", name) else None
        if _UNIT.fullmatch(name):
            return "unit"
        if _POPULATION.search(name):
            return "population"
        if _MEASUREMENT.search(name):
            return "measurement"
        if any(_PLACE_SUFFIX.search(part) or part in self.places for part in _CONNECTED.split(name)):
            return "place"
        if _DEPARTMENT.search(name) and name not in self.families:
            return "department"
        subject = self.subjects.get(name)
        if subject in ("drug", "herb", "test"):
            return subject
        return self._by_pattern(name, subject)

    def _by_pattern(self, name: str, subject: str | None) -> str | None:
        if _PROCEDURE.search(name):
            return "procedure"
        if _DRUG_CLASS.search(name):
            return "drug"
        if _TREATMENT.search(name):
            return "treatment"
        if _TEST.search(name):
            return "test"
        if subject == "disease" and _DISEASE.search(name):
            return "disease"
        if _NOT_A_FINDING.search(name) and name not in self.sites:
            return None  # a bare change (下降, 模糊) names no finding, though it holds a finding's word
        if _ORGANISM.search(name):
            return "organism"  # 带状疱疹病毒 holds a finding's word (疱)
        if _FINDING.search(name):
            return "symptom"
        if _DISEASE.search(name):
            return "disease"
        if name in self.drug_names:
            return "drug"
        if name in self.sites or _BODY_END.search(name):
            return "body part"
        if _DRUG.search(name):
            return "drug"
        if self.symptom_uses[name] >= SYMPTOM_USES:
            return "symptom"
        if subject == "disease":
            return "disease"
        if _BODY.search(name):
            return "body part"
        return None


def _terms(po: dict[str, list[str]], predicates: Iterable[str]) -> set[str]:
    """The distinct terms one subject lists under ``predicates``, combined values split apart."""
    return {part.strip() for p in predicates for value in po.get(p, ()) for part in _SEPARATOR.split(value) if part.strip()}


def _place_names(values: Iterable[str]) -> set[str]:
    """Clean place names of the graph's 分布区域 and 多发地区 values (日本北部 -> 日本)."""
    names = set()
    for value in values:
        for part in re.split(r"[、，,；;：:和及与]", value):
            place = _PLACE_TRIM.sub("", part.strip())
            if 2 <= len(place) <= 6 and not re.search(r"[全各我]|国家|沿海|以|发展|工业|资源|热带|赤道|日照|建筑|农村|土著", place):
                names.add(place)
    return names


@cache
def substance(product: str) -> str:
    """乳酸左氧氟沙星氯化钠注射液 -> 左氧氟沙星: drop asides, a trailing dose, "注射用" and "小儿", the
    dosage form, then a salt prefix or ester suffix when at least three characters remain (two after
    盐酸: 盐酸吗啡 is 吗啡, but 硝酸甘油 and 硫酸镁 stay whole), and a sodium or potassium ending that is
    no acid's (华法林钠 is 华法林, but 碳酸氢钠 and 双氯芬酸钠 stay)."""
    name = _DOSE.sub("", _ASIDE.sub("", product).strip()).removeprefix("注射用").removeprefix("小儿")
    for suffix in _PRODUCT_SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix) + 1:
            name = name[: -len(suffix)]
            break
    for salt in _SALTS:
        rest = name[len(salt):]
        if name.startswith(salt) and len(rest) >= (2 if salt == "盐酸" else 3) and not _INORGANIC.fullmatch(rest):
            name = name[len(salt):]
            break
    for ester in _ESTERS:
        if name.endswith(ester) and len(name) - len(ester) >= 3:
            return name[: -len(ester)]
    if name[-1:] in ("钠", "钾") and len(name) >= 4 and name[-2] not in "酸氢化二三钾钠":
        return name[:-1]
    return name


@cache
def default_vocabulary() -> Vocabulary:
    """The installed graph's vocabulary (built once per process, in about two seconds)."""
    return Vocabulary(load_cmekg_graph())


def entity_kind(text: str) -> str | None:
    """The CMeKG kind of a Chinese medical term ("disease", "symptom", "drug", "test", "department",
    "body part", "procedure", …, see ``KINDS``), or None when unknown."""
    return default_vocabulary().kind(text)
