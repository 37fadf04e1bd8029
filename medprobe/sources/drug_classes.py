"""Drugs of broad use, known by their names: offered as a wrong medication, such a drug may well be right.

A knowledge base lists a few drugs per disease; a drug it does not list is not thereby wrong. That is
most dangerous for the classes given across diseases and specialties: antibiotics and other
anti-infectives, corticosteroids, immunosuppressants and biologics, anticancer drugs, analgesics,
the cardiovascular classes (beta blockers, ACE inhibitors, sartans, statins, calcium channel blockers,
anticoagulants, diuretics), acid suppressants, antihistamines, benzodiazepines, PDE5 inhibitors,
insulin, vitamins and infusions (blind readings found mycophenolate offered as wrong for
glomerulonephritis, methotrexate for bladder cancer, chloramphenicol for conjunctivitis, tadalafil for
pulmonary hypertension, metoprolol for hyperthyroidism, alteplase for a pleural effusion). A question
never offers one of them as a wrong answer; it may still key one the KB lists.
"""

from __future__ import annotations

import re

BROAD_USE: dict[str, re.Pattern[str]] = {
    "en": re.compile(
        r"cillin|mycin|micin|\bcef|\bceph|floxacin|cycline|penem\b|sulfa|trimethoprim|metronidazole|vancomycin|linezolid|antibiotic"
        r"|vir\b|antiviral|azole\b|terbinafine|nystatin|antifungal"
        r"|sone\b|solone\b|olone\b|cortisone|corticosteroid|steroid|budesonide|beclomethasone|fluticasone|mometasone"
        r"|tacrolimus|cyclosporine|ciclosporin|mycophenolate|azathioprine|methotrexate|cyclophosphamide|sirolimus|immunosuppress"
        r"|mab\b|cept\b|platin\b|taxel\b|rubicin\b|tinib\b|fluorouracil|gemcitabine|capecitabine|chemotherapy|vincristine|etoposide"
        r"|ibuprofen|naproxen|acetaminophen|paracetamol|aspirin|nsaid|analgesic|opioid|morphine|codeine|tramadol|celecoxib|diclofenac"
        r"|mustine|ambucil|melphalan|busulfan|carbazine|temozolomide|bleomycin|hydroxyurea|cytarabine|fludarabine|mercaptopurine"
        r"|interferon|interleukin"
        r"|olol\b|pril\b|sartan\b|statin\b|dipine\b|tidine\b|prazole\b|afil\b|azepam\b|azolam\b"
        r"|heparin|warfarin|parin\b|xaban\b|alteplase|thrombolytic|anticoagulant|furosemide|thiazide|spironolactone|torsemide|bumetanide"
        r"|cetirizine|loratadine|diphenhydramine|hydroxyzine|antihistamine"
        r"|insulin|vitamin|supplement|\biron\b|calcium|folic|fluids|saline|oxygen",
        re.IGNORECASE,
    ),
    "zh": re.compile(
        r"霉素|西林|头孢|沙星|环素|培南|唑|韦|磺胺|抗生素|抗菌|抗病毒|抗真菌|抗结核|利福|异烟肼"
        r"|松|泼尼|可的|激素|皮质|甾"
        r"|他克莫司|环孢素|麦考酚|硫唑嘌呤|甲氨蝶呤|环磷酰胺|免疫抑制|单抗|铂|紫杉|比星|替尼|氟尿嘧啶|吉西他滨|长春|依托泊苷|化疗"
        r"|布洛芬|萘普生|对乙酰氨基酚|阿司匹林|吲哚美辛|双氯芬酸|昔布|吗啡|哌替啶|曲马多|镇痛|止痛"
        r"|洛尔|普利|沙坦|他汀|地平|替丁|肝素|华法林|沙班|尿激酶|阿替普酶|溶栓|呋塞米|噻嗪|螺内酯|托拉塞米|地西泮|唑仑|那非|抗组胺|他定|西替利嗪"
        r"|胰岛素|维生素|补充|钙|铁|叶酸|葡萄糖|氯化钠|氨基酸|脂肪乳|氧"
    ),
}


#: an English drug class rather than a drug ("Antihypertensives", "ACE inhibitors", "Stool softeners",
#: "Hormone therapy"): a class holds drugs the KB may list by name only, so it is never a wrong option
_EN_CLASS = re.compile(r"s$|inhibitor|blocker|agonist|antagonist|therapy|agent|supplement|replacement", re.IGNORECASE)


def drug_class_en(drug: str) -> bool:
    """Whether an English medication value names a class of drugs (``_EN_CLASS``)."""
    return bool(_EN_CLASS.search(drug.strip()))


def broad_use(language: str, drug: str) -> bool:
    """Whether a drug belongs to a class given for many diseases (``BROAD_USE``); False for a language
    without a list."""
    pattern = BROAD_USE.get(language)
    return bool(pattern and pattern.search(drug))
