"""The built-in English KB: no key restates the disease's name, no bare organ-level HPO
term, the clinician's examples gone; and the word comparison behind it (medprobe.sources.en_names)."""

from __future__ import annotations

import pytest

from medprobe.sources.builtin import resolve_kb
from medprobe.sources.en_names import name_key, restates_name
from medprobe.sources.kb import Disease, KnowledgeBase
from medprobe.sources.kb_common import sentence_case
from medprobe.sources.kb_mesh import mesh_aspects

SYMPTOM_KEYS = ("primary_symptoms", "associated_symptoms")


@pytest.mark.parametrize(
    ("value", "name"),
    [
        ("Sarcoma", "Liposarcoma"),  # one word inside the other
        ("Mandibular prognathia", "Autosomal dominant prognathism"),  # the same word in another form
        ("Glaucoma", "Glaucoma"),
        ("Juvenile glaucoma", "Glaucoma 1, open angle"),
        ("Intellectual disability", "Optic atrophy-intellectual disability syndrome"),
        ("Pigmentary retinopathy", "Hypogonadotropic hypogonadism-retinitis pigmentosa syndrome"),  # a blind reading
        ("Decreased circulating C1q concentration", "C1q deficiency 2"),  # a short word equal to one of the name's
    ],
)
def test_a_value_sharing_a_content_word_restates_the_name(value: str, name: str) -> None:
    assert restates_name(value, [name])


@pytest.mark.parametrize(
    ("value", "name"),
    [
        ("Arachnodactyly", "Marfan syndrome"),
        ("Short stature", "Short rib-polydactyly syndrome"),  # "short" qualifies, it names nothing
        ("Abnormal heart morphology", "Abnormal tooth development"),  # so do abnormal, morphology
        ("Hypertelorism", "Hypertrophic cardiomyopathy 1"),  # five shared letters are not one word
    ],
)
def test_generic_or_unrelated_words_do_not(value: str, name: str) -> None:
    assert not restates_name(value, [name])


def test_synonyms_count_as_names() -> None:
    assert restates_name("Dilated cardiomyopathy", ["Some syndrome", "Cardiomyopathy, dilated, 1A"])


def test_name_key() -> None:
    assert name_key("Muscular dystrophy, Becker") == name_key("Becker muscular dystrophy")


@pytest.fixture(scope="module")
def english() -> KnowledgeBase:
    return resolve_kb("builtin:en")


@pytest.fixture(scope="module")
def by_name(english: KnowledgeBase) -> dict[str, Disease]:
    return {d.name: d for d in english.diseases}


def _symptoms(disease: Disease) -> list[str]:
    return [v for key in SYMPTOM_KEYS for v in disease.values(key)]


def test_no_symptom_restates_its_disease_name(english: KnowledgeBase) -> None:
    """Before the check 16,194 phenotypes repeated a word of their disease's name."""
    offending = [(d.name, v) for d in english.diseases for v in _symptoms(d) if restates_name(v, [d.name, *d.synonyms])]
    assert offending == []


def test_clinicians_examples_are_gone(by_name: dict[str, Disease]) -> None:
    assert "Sarcoma" not in _symptoms(by_name["Liposarcoma"])
    for name in ("Autosomal dominant prognathism", "Prognathism, mandibular"):
        assert "Mandibular prognathia" not in _symptoms(by_name[name])
    # Stickler type III is the non-ocular form: its lone "Abnormality of the eye" annotation is gone
    stickler = by_name["Stickler syndrome, type III"]
    assert "Abnormality of the eye" not in _symptoms(stickler)
    assert "eye" not in stickler.values("affected_sites")
    assert "Cleft palate" in _symptoms(stickler) + stickler.values("uncommon_symptoms")


def test_no_hpo_symptom_is_a_term_the_name_spells_out(by_name: dict[str, Disease]) -> None:
    """A blind reading keyed "Sparse eyelashes", "Sparse body hair" and "Sparse axillary hair" for
    hypotrichosis and recurrent skin vesicles: the name says "Hypotrichosis" (HPO's former name of
    "Sparse hair"), and each is a kind of it."""
    symptoms = _symptoms(by_name["Hypotrichosis and recurrent skin vesicles"])
    assert "Epidermal acanthosis" in symptoms
    assert not [v for v in symptoms if v.startswith("Sparse") and "hair" in v or v == "Sparse eyelashes"]
    infantile = _symptoms(by_name["Hypotonia, infantile, with psychomotor retardation and characteristic facies 1"])
    assert not [v for v in infantile if "hypotonia" in v.casefold()]


def test_no_symptom_is_a_bare_organ_level_term(english: KnowledgeBase) -> None:
    organ_level = {"Abnormality of the eye", "Abnormality of the nervous system", "Abnormality of metabolism/homeostasis", "Neoplasm"}
    assert not [(d.name, v) for d in english.diseases for v in _symptoms(d) if v in organ_level]


def test_merged_catalogue_entries_keep_the_other_name(by_name: dict[str, Disease]) -> None:
    becker = by_name["Becker muscular dystrophy"]
    assert becker.codes == {"OMIM": ["300376"], "ORPHA": ["98895"]}
    assert becker.synonyms == ["Muscular dystrophy, Becker type"]


def test_sentence_case_keeps_acronyms_and_eponyms() -> None:
    assert sentence_case("Frequent Urination") == "Frequent urination"
    assert sentence_case("Raynaud's Phenomenon") == "Raynaud's phenomenon"
    assert sentence_case("GnRH Agonists") == "GnRH agonists"
    assert sentence_case("IV Fluids") == "IV fluids"
    assert sentence_case("C-Reactive Protein (CRP)", inline=True) == "C-reactive protein (CRP)"


def _common(english: KnowledgeBase) -> list[Disease]:
    return [d for d in english.diseases if "ICD10" in d.codes]


def test_common_diseases_are_present_with_many_aspects(english: KnowledgeBase) -> None:
    common = _common(english)
    assert len(common) == 157  # 158 catalogue entries, two of which share G40.909
    filled = {key for d in common for key in d.aspects}
    assert len(filled) >= 8 and {"medications", "departments", "affected_body_systems", "laboratory_examinations"} <= filled
    assert sum(len(d.aspects) >= 8 for d in common) >= 15  # 5 before MeSH's sites and systems and the scales
    assert sum(bool(d.values("anatomical_sites")) for d in common) >= 90
    assert all(len(d.aspects) >= 3 for d in common)


@pytest.mark.parametrize(
    ("name", "aspect", "values"),
    [
        ("Asthma", "anatomical_sites", ["bronchi", "lung"]),
        ("Colon cancer", "anatomical_sites", ["colon", "intestine"]),
        ("Asthma", "affected_body_systems", ["immune system", "respiratory system"]),
        ("Prostate cancer", "patient_population", ["male"]),
        ("Breast cancer", "affected_body_systems", []),  # MeSH files the breast under skin diseases
        ("Gestational diabetes", "affected_body_systems", ["endocrine system"]),  # pregnancy is no organ system
        ("Anemia", "anatomical_sites", []),  # no organ above it
        ("Pneumothorax", "affected_sites", ["thoracic cavity"]),  # the pleura's region
        ("Pneumonia", "affected_sites", []),  # HPO files the lung under the respiratory system, no region
        ("Tuberculosis", "anatomical_sites", []),  # MeSH files it by organism only
    ],
)
def test_mesh_aspects(name: str, aspect: str, values: list[str]) -> None:
    assert sorted(mesh_aspects([name]).get(aspect, [])) == values


def test_a_drug_is_not_named_as_an_organ(by_name: dict[str, Disease]) -> None:
    """The audit found "Thyroid" among hypothyroidism's medications and its anatomical sites."""
    hypothyroidism = by_name["Hypothyroidism"]
    assert "Desiccated thyroid" in hypothyroidism.values("medications") and "Thyroid" not in hypothyroidism.values("medications")


def test_rating_scales_are_auxiliary_findings(by_name: dict[str, Disease]) -> None:
    assert by_name["Depression"].aspects["auxiliary_examinations"] == "High PHQ-9 score; high MADRS score"
    assert by_name["Alzheimer disease"].aspects["auxiliary_examinations"] == "Low MMSE score"  # low is abnormal


def test_common_diseases_take_mesh_sites(by_name: dict[str, Disease]) -> None:
    assert by_name["Pneumonia"].values("anatomical_sites") == ["lung"]
    assert by_name["Prostate cancer"].values("anatomical_sites") == ["prostate"]
    assert not mesh_aspects(["No such disease at all"])


def test_type_2_diabetes(by_name: dict[str, Disease]) -> None:
    diabetes = by_name["Type 2 diabetes"]
    assert diabetes.id == "ICD10:E11.9"
    assert "Metformin" in diabetes.values("medications")
    assert diabetes.values("departments") == ["Endocrinology"]
    assert diabetes.values("affected_body_systems") == ["endocrine system"]
    assert diabetes.aspects["laboratory_examinations"] == "High hemoglobin A1c (HbA1c); high fasting glucose"


def test_catalogue_entries_become_clean_aspects(by_name: dict[str, Disease]) -> None:
    epilepsy = by_name["Epilepsy"]  # one ICD-10 code with "Seizure disorder"
    assert epilepsy.synonyms == ["Seizure disorder"] and "Seizures" not in epilepsy.values("primary_symptoms")
    assert by_name["Croup"].values("prevalence_ages") == ["infant", "toddler"]
    prostate = by_name["Prostate cancer"]
    assert prostate.values("patient_population") == ["male"] and prostate.values("prevalence_ages") == ["middle-aged", "elderly"]
    preeclampsia = by_name["Preeclampsia"]  # merged into Orphanet's entry
    assert preeclampsia.values("patient_population") == ["pregnant", "female"] and not preeclampsia.values("prevalence_ages")
    cataracts = by_name["Cataracts"]  # "No Medications", "Surgery" are placeholders, eyeglasses a treatment
    assert "No Medications" not in cataracts.values("medications") and "Surgery" not in str(cataracts.aspects)
    assert "Eyeglasses" in cataracts.values("treatment_principles") and cataracts.values("affected_sites") == ["eye"]
    assert by_name["Pneumothorax"].values("surgical_procedures") == ["Chest tube", "Pleurodesis"]


def test_catalogue_symptoms_name_their_site(english: KnowledgeBase, by_name: dict[str, Disease]) -> None:
    """A blind reading offered a bare "Discharge" (otitis externa's) as a wrong symptom of a short-rib
    thoracic dysplasia: without its disease it names nothing."""
    assert "Ear discharge" in by_name["Otitis externa"].values("primary_symptoms")
    assert "Fecal urgency" in by_name["Ulcerative colitis"].values("primary_symptoms")
    assert "Urinary urgency" in by_name["Overactive bladder"].values("primary_symptoms")
    bare = {"Discharge", "Urgency", "Frequency", "Leakage"}  # HPO has a term "Pain"; the catalogue's go
    assert not [(d.name, v) for d in english.diseases for v in _symptoms(d) if v in bare]


def test_common_diseases_merge_with_hpo3_by_name(by_name: dict[str, Disease]) -> None:
    hypertension = by_name["Hypertension, essential"]
    assert hypertension.id == "OMIM:145500" and hypertension.codes["ICD10"] == ["I10"]
    assert "Essential hypertension" in hypertension.synonyms and "Essential hypertension" not in by_name
    assert "Headache" in hypertension.values("primary_symptoms")  # the common symptoms are primary
    assert "Elevated systolic blood pressure" in hypertension.values("associated_symptoms")  # HPO's, associated
    assert "Lisinopril" in hypertension.values("medications")


def test_the_written_out_merged_ids_are_the_built_kbs(english: KnowledgeBase) -> None:
    """``MERGED_IDS`` tells a common disease from its id alone; it must stay the KB's own merge."""
    from medprobe.precision import cell_aspect
    from medprobe.sources.kb_common import MERGED_IDS

    merged = {d.id for d in english.diseases if "ICD10" in d.codes and not d.id.startswith("ICD10:")}
    assert merged == MERGED_IDS
    assert cell_aspect("en", "OMIM:145500", "primary_symptoms") == "primary_symptoms"  # essential hypertension
