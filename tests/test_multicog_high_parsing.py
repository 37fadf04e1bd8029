"""MultiCogEval high level: reply parsing, request matching, diagnosis matching and full-path
metrics, checked against every high-level golden vector of REFERENCE_METHODS §6."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import shared

from medprobe.methods.multicog.dialogue.actions import Action, parse_action
from medprobe.methods.multicog.dialogue.diagnosis import (
    ALTERNATIVE_DIAGNOSIS,
    extract_diagnosis,
    match_diagnosis,
)
from medprobe.methods.multicog.dialogue.exam_requests import (
    STANDARDIZED_ALIASES,
    SUPPLEMENTARY_PANELS,
    Catalog,
    fuzzy_match,
    lab_items,
    parse_lab_request,
    request_segment,
)
from medprobe.methods.multicog.dialogue.fullpath import (
    CaseOutcome,
    complete_index,
    over_runs,
    run_scores,
    type_recall,
)
from medprobe.methods.multicog.dialogue.imaging import (
    ImageRequest,
    delivered_exams,
    image_hit,
    image_requests,
    record_image_recall,
)
from medprobe.methods.multicog.dialogue.radiology import broad_modality, parse_radiology

LAB, IMAGE = "Lab Tests:", "Imaging scans:"

TINY_NAMES = {
    "CHEST (PA & LAT)": {"modalities": ["Radiograph"], "regions": ["Chest"]},
    "CT ABDOMEN W/O CONTRAST": {"modalities": ["CT"], "regions": ["Abdomen"]},
}


def _meta(name: str) -> Path:
    return shared("mimic_iv_meta", name)


@pytest.fixture(scope="module")
def mimic_catalog() -> Catalog:
    return Catalog.from_mimic(_meta("meta_lab_tests_UMLS_ext.json"))


@pytest.fixture(scope="module")
def real_names() -> dict:
    return json.loads(_meta("radiology_name_dict.json").read_text(encoding="utf-8"))


# --- full path (§6 "Full path") ------------------------------------------------------------------


def _full_path_outcomes(name_dict: dict, reference_bug: bool) -> list[CaseOutcome]:
    """The three §6 cases, each run through the parsers as an episode would produce them."""
    catalog = Catalog({"Sodium": ["1"], "Potassium": ["2"], "Lactate": ["9"]})
    record_exams = ["CHEST (PA & LAT)", "CT ABDOMEN W/O CONTRAST"]

    def outcome(case_id: str, disease: str, final: str, recalls: dict[str, float | None]) -> CaseOutcome:
        finish = parse_action(final)
        assert finish.kind == "FINISH"
        correct = match_diagnosis(disease, extract_diagnosis(final)) is not None
        return CaseOutcome(case_id, disease, correct, recalls)

    labs_1 = parse_lab_request(
        "Rationale: electrolytes\nLab Tests: Sodium, Potassium and Lactate.", LAB, catalog
    )
    assert labs_1 == {"1", "2", "9"}
    images_1 = image_requests("Rationale: dyspnea\nImaging scans: Chest X-ray", IMAGE, name_dict)
    case_1 = outcome(
        "1",
        "heart failure",
        "Rationale: volume overload\nDiagnosis: CHF exacerbation\nTreatment: diuretics",
        {
            "LAB": type_recall(labs_1, {"1", "2", "3", "4"}),
            "MICRO": None,
            "IMAGE": record_image_recall(images_1, record_exams, name_dict, reference_bug=reference_bug),
        },
    )
    labs_2 = parse_lab_request("Lab Tests: sodium.", LAB, catalog)
    case_2 = outcome(
        "2",
        "heart failure",
        "Diagnosis: Pneumonia\nTreatment: antibiotics",
        {"LAB": type_recall(labs_2, {"1"}), "MICRO": type_recall(set(), {"a", "b"}), "IMAGE": None},
    )
    case_3 = outcome(
        "3",
        "appendicitis",
        "Diagnosis: Acute appendicitis\nTreatment: appendectomy",
        {"LAB": None, "MICRO": None, "IMAGE": None},
    )
    return [case_1, case_2, case_3]


def _check_full_path(outcomes: list[CaseOutcome]) -> None:
    assert [o.correct for o in outcomes] == [True, False, True]
    assert [complete_index(o.recalls) for o in outcomes] == pytest.approx([0.5, 0.5, 1.0])
    scores = run_scores(outcomes)
    assert scores["micro_full_path"] == pytest.approx(0.5)
    assert scores["macro_full_path"] == pytest.approx(0.625)
    assert scores["micro_end_point"] == pytest.approx(2 / 3)
    assert scores["macro_end_point"] == pytest.approx(0.75)
    assert scores["recall_LAB"] == pytest.approx(0.75)
    assert scores["recall_MICRO"] == pytest.approx(0.0)
    assert scores["recall_IMAGE"] == pytest.approx(0.5)
    assert scores["exam_recall"] == pytest.approx((0.75 + 0.0 + 0.5) / 3)
    summary = over_runs([scores, dict(scores)])
    assert summary["macro_full_path"]["mean"] == pytest.approx(0.625)
    assert all(entry["se"] == 0 for entry in summary.values())


@pytest.mark.parametrize("reference_bug", [False, True])
def test_full_path_golden_with_tiny_name_dict(reference_bug: bool) -> None:
    _check_full_path(_full_path_outcomes(TINY_NAMES, reference_bug))


@pytest.mark.parametrize("reference_bug", [False, True])
def test_full_path_golden_with_real_name_dict(real_names: dict, reference_bug: bool) -> None:
    _check_full_path(_full_path_outcomes(real_names, reference_bug))


def test_over_runs_single_run_has_no_se_and_skips_missing_numbers() -> None:
    summary = over_runs([{"a": 0.5, "b": None}])
    assert summary["a"] == {"mean": 0.5, "se": None, "runs": 1}
    assert summary["b"] == {"mean": None, "se": None, "runs": 0}
    two = over_runs([{"a": 0.5}, {"a": 0.7}])
    assert two["a"]["mean"] == pytest.approx(0.6)
    assert two["a"]["se"] == pytest.approx(0.1)


def test_recall_helpers() -> None:
    assert type_recall({"1"}, set()) is None
    assert type_recall(set(), {"1", "2"}) == 0.0
    assert complete_index({"LAB": None, "MICRO": None}) == 1.0
    assert complete_index({"LAB": 0.25, "MICRO": None, "IMAGE": 0.75}) == 0.5


# --- request parsing with the real metadata (§6 "Request parsing") ------------------------------


def test_catalog_adds_reference_keys(mimic_catalog: Catalog) -> None:
    assert len(SUPPLEMENTARY_PANELS) == 28
    assert len(STANDARDIZED_ALIASES) == 56
    assert len(mimic_catalog) == 5727
    assert len(mimic_catalog["CBC"]) == 28
    assert mimic_catalog["HbA1c"] == mimic_catalog["% Hemoglobin A1c"]
    assert all(isinstance(item, str) for item in mimic_catalog["CBC"])


@pytest.mark.parametrize(
    ("item", "key"),
    [
        ("CBC", "CBC"),
        ("Complete blood count", "Complete Blood Count"),
        ("troponins", "Troponin"),
        ("Blood cultures", "Blood Culture"),
        ("serum sodium", "Sodium"),
        ("Hemoglobin A1c", "% Hemoglobin A1c"),
        ("HIDA scan", None),
    ],
)
def test_fuzzy_match_golden(mimic_catalog: Catalog, item: str, key: str | None) -> None:
    assert fuzzy_match(item, mimic_catalog) == key


def test_parse_lab_request_with_real_catalog(mimic_catalog: Catalog) -> None:
    reply = "Rationale: sepsis?\nLab Tests: **CBC**, serum sodium and Blood cultures."
    expected = set(mimic_catalog["CBC"]) | set(mimic_catalog["Sodium"]) | set(mimic_catalog["Blood Culture"])
    assert parse_lab_request(reply, LAB, mimic_catalog) == expected


@pytest.mark.parametrize(
    ("text", "modalities", "regions"),
    [
        ("Chest X-ray", {"Radiograph"}, {"Chest"}),
        ("CT abdomen and pelvis with contrast", {"CT"}, {"Abdomen"}),
        ("Echocardiogram", {"ECHO"}, {"Chest"}),
        ("MRI brain", {"MRI"}, {"Head"}),
        ("HIDA scan", {"HIDA"}, {"Abdomen"}),
    ],
)
def test_parse_radiology_golden(text: str, modalities: set[str], regions: set[str]) -> None:
    assert parse_radiology(text) == (modalities, regions)


def test_parse_radiology_without_cues() -> None:
    assert parse_radiology("scan") == (set(), set())
    assert parse_radiology("MRCP") == ({"MRCP"}, {"Abdomen"})


# --- action parsing (§6, §5.1) -------------------------------------------------------------------


def test_action_parser_golden() -> None:
    assert parse_action("Rationale: a\nAction: PE\nRationale: b\nAction: IMAGE\nmore") == Action(
        "IMAGE", "IMAGE"
    )
    assert parse_action("Diagnosis: Appendicitis\nTreatment: surgery") == Action("FINISH", "Appendicitis")
    assert parse_action("I want labs").kind == "UNPARSED"


def test_action_lists_keep_the_text_from_the_last_rationale() -> None:
    reply = "Rationale: old\nAction: LAB\nRationale: need labs\nLab Tests: CBC, BMP"
    assert parse_action(reply) == Action("LAB_LIST", "Rationale: need labs\nLab Tests: CBC, BMP")
    assert parse_action("Imaging scans: CXR\nLab Tests: CBC").kind == "IMAGE_LIST"
    assert parse_action("Microbiology tests: blood culture").kind == "MICRO_LIST"
    assert parse_action("lab tests: CBC").kind == "UNPARSED"  # headers are case-sensitive


def test_action_choice_rules() -> None:
    assert parse_action("Rationale: x\nAction: LAB (blood work)") == Action("LAB", "LAB (blood work)")
    assert parse_action("Action: OUTPUT\n") == Action("OUTPUT", "OUTPUT")
    assert parse_action("Rationale: x\naction: micro\nAction: MICRO").kind == "MICRO"  # last line first
    assert parse_action("Action: lab").kind == "UNPARSED"  # actions are matched case-sensitively


def test_diagnosis_alone_finishes_only_when_expected() -> None:
    reply = "Diagnosis: acute cholecystitis"
    assert parse_action(reply).kind == "UNPARSED"
    assert parse_action(reply, expecting_diagnosis=True) == Action("FINISH", "acute cholecystitis")
    both = "Rationale: x\nDiagnosis: Sepsis\nTreatment: antibiotics"
    assert parse_action(both, expecting_diagnosis=True) == parse_action(both)


def test_empty_reply_is_unparsed() -> None:
    assert parse_action("") == Action("UNPARSED", "")


# --- diagnosis matching (§6 "Diagnosis matching") -------------------------------------------------


@pytest.mark.parametrize(
    ("label", "final_text", "rule"),
    [
        ("heart failure", "Diagnosis: HFrEF\nTreatment: GDMT", "alias:HFrEF"),
        ("heart failure", "Diagnosis: Acute on chronic CHF\nTreatment: diuresis", "alias:CHF"),
        ("atrial fibrillation", "Diagnosis: AF with RVR\nTreatment: rate control", "alias:AF"),
        ("atrial fibrillation", "Diagnosis: AFL\nTreatment: ablation", None),
        ("cholecystitis", "Diagnosis: inflammation of the gallbladder", "alias:gallbladder+inflammation"),
        ("hypertension", "Diagnosis: pulmonary hypertension\nTreatment plan: sildenafil", "name"),
        ("appendicitis", "Appendicitis, treated with surgery", None),
    ],
)
def test_diagnosis_matching_golden(label: str, final_text: str, rule: str | None) -> None:
    assert match_diagnosis(label, extract_diagnosis(final_text)) == rule


def test_alias_table_and_synonyms() -> None:
    assert len(ALTERNATIVE_DIAGNOSIS) == 52
    assert extract_diagnosis("no diagnosis here") == ""
    assert extract_diagnosis("DIAGNOSIS: Sepsis. Treatment Plan: fluids") == "Sepsis."
    assert match_diagnosis("Cardiac tamponade", "cardiac tamponade") == "name"
    assert match_diagnosis("Cardiac tamponade", "tamponade, pericardial") == "alias:pericardial+tamponade"
    synonyms = ["Mucocutaneous lymph node syndrome"]
    rule = match_diagnosis("Kawasaki disease", "mucocutaneous lymph node syndrome", synonyms)
    assert rule == "synonym:Mucocutaneous lymph node syndrome"
    assert match_diagnosis("Kawasaki disease", "lymph node", ["node syndrome", ""]) is None


# --- request segments and items (§5.3) -----------------------------------------------------------


def test_request_segment() -> None:
    assert request_segment("Rationale: x\nLab Tests: CBC, BMP. Then more.", LAB) == " CBC, BMP"
    assert request_segment("lab tests: **CBC**.", LAB) == " CBC"
    assert request_segment("Lab Tests:\n- CBC\n- BMP", LAB) == "\n- CBC\n- BMP"  # no "." on the header line
    assert request_segment("Lab Tests: a\nLab Tests: b", LAB) == " b"  # after the last header
    assert request_segment("CBC and BMP", LAB) == "CBC and BMP"  # header missing: the whole reply
    assert request_segment("", LAB) == ""


def test_lab_items_with_abbreviations_and_fillers() -> None:
    items = lab_items(
        "Order the CBC, Basic Metabolic Panel (BMP, Chem-7) and LFTs, repeat troponin levels, x"
    )
    assert items == [
        ("CBC", []),
        ("Basic Metabolic Panel", ["BMP", "Chem-7"]),
        ("LFTs", []),
        ("troponin", []),
    ]
    assert lab_items("") == []
    assert lab_items("one two three four five six seven eight nine ten eleven, CBC") == [("CBC", [])]


def test_unmatched_item_falls_back_to_its_abbreviation() -> None:
    catalog = Catalog({"BMP": [7], "Lipase": ["8"]})
    assert parse_lab_request("Lab Tests: Chem seven panel (BMP), lipase.", LAB, catalog) == {"7", "8"}
    assert parse_lab_request("Lab Tests: nothing known (zzz).", LAB, catalog) == set()


def test_fuzzy_match_thresholds_and_ties() -> None:
    catalog = Catalog({"Sodium": ["1"], "Potassium": ["3"]})
    assert fuzzy_match("sodium serum", catalog) == "Sodium"  # whole-word containment, ratio 67
    assert fuzzy_match("Potassiumm", catalog) == "Potassium"  # ratio 95 > 90
    assert fuzzy_match("Potassiun", catalog) is None  # ratio 89, no containment
    assert fuzzy_match("pHs", Catalog({"pH": ["5"]})) == "pH"  # plural rule (ratio alone is 80)
    assert fuzzy_match("PHS", Catalog({"pH": ["5"]})) is None  # the plural rule needs a lowercase "s"
    # "Sodiu" scores 91 against both keys: the earlier key wins the tie
    assert fuzzy_match("Sodiu", Catalog({"Sodiun": ["1"], "Sodium": ["2"]})) == "Sodiun"
    assert fuzzy_match("Sodiu", Catalog({"Sodium": ["2"], "Sodiun": ["1"]})) == "Sodium"


# --- imaging requests and recall (§5.3 IMAGE, §5.4) ----------------------------------------------


def test_image_requests_split_and_attach() -> None:
    reply = "Rationale: worried about the chest\nImaging scans: CT (head, neck); abdomen; echo; MRI"
    assert image_requests(reply, IMAGE, None) == [
        ImageRequest({"CT"}, {"Head", "Neck", "Abdomen"}, "CT HEAD, NECK"),
        ImageRequest({"ECHO"}, {"Chest"}, "ECHO"),
        ImageRequest({"MRI"}, {"Chest", "Head", "Neck", "Abdomen"}, "MRI"),  # regions from the whole reply
    ]
    assert image_requests("Imaging scans: abdomen, chest x-ray", IMAGE, None) == [
        ImageRequest({"Radiograph"}, {"Chest"}, "CHEST X-RAY")  # a leading region-only item is dropped
    ]
    assert image_requests("Imaging scans: chest (pa & lat)", IMAGE, TINY_NAMES) == [
        ImageRequest({"Radiograph"}, {"Chest"}, "CHEST PA & LAT")
    ]
    assert image_requests("Imaging scans: CT abdomen w/o contrast.", IMAGE, TINY_NAMES) == [
        ImageRequest({"CT"}, {"Abdomen"}, "CT ABDOMEN W/O CONTRAST")
    ]
    assert image_requests("", IMAGE, None) == []


def test_broad_modality() -> None:
    assert [broad_modality(m) for m in ("ECHO", "CTU", "MRCP", "ECG", "CT", "HIDA")] == [
        "Ultrasound",
        "CT",
        "MRI",
        "Radiograph",
        "CT",
        "HIDA",
    ]


def test_image_recall_reference_quirks() -> None:
    names = {
        **TINY_NAMES,
        "CTU (ABD/PEL) W/CONTRAST": {"modalities": ["CTU"], "regions": ["Abdomen"]},
    }
    ctu = [ImageRequest({"CTU"}, {"Abdomen"}, "CT UROGRAM")]
    assert image_hit(ctu, "CTU (ABD/PEL) W/CONTRAST", names)
    # the reference maps only the request side to broad modalities, so a CTU record exam is unhittable
    assert not image_hit(ctu, "CTU (ABD/PEL) W/CONTRAST", names, reference_bug=True)
    assert not image_hit(ctu, "UNKNOWN EXAM", names)
    chest = [ImageRequest({"Radiograph"}, {"Chest"}, "CHEST X-RAY")]
    exams = ["CHEST (PA & LAT)", "CHEST PORTABLE (NOT IN DICT)"]
    assert record_image_recall(chest, exams, names) == 0.5
    assert record_image_recall(chest, exams, names, reference_bug=True) == 1.0  # reuses the previous exam
    assert record_image_recall(chest, [], names) is None


def test_delivered_exams_uses_names_and_spec_dict() -> None:
    spec = {"Abdomen": {"CT": ["CT ABDOMEN W/O CONTRAST"], "CTU": ["CTU (ABD/PEL) W/CONTRAST"]}}
    record = ["CHEST (PA & LAT)", "CTU (ABD/PEL) W/CONTRAST", "CT ABDOMEN W/O CONTRAST"]
    ct_abdomen = [ImageRequest({"CT"}, {"Abdomen"}, "CT ABDOMEN")]
    assert delivered_exams(ct_abdomen, record, spec) == [
        "CTU (ABD/PEL) W/CONTRAST",
        "CT ABDOMEN W/O CONTRAST",
    ]
    by_name = [ImageRequest(set(), set(), "CHEST (PA & LAT)")]
    assert delivered_exams(by_name, record, spec) == ["CHEST (PA & LAT)"]
