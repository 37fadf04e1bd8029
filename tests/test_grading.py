"""MedDisKEval grading, expert alignment and Welch comparison: paper 000 goldens plus a synthetic calibration."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy.stats import ttest_ind

from medprobe.errors import MedprobeError
from medprobe.methods.meddisk.alignment import (
    fit_thresholds,
    grade_sample,
    read_sheet,
    validate,
    validation_sample,
    write_sheet,
)
from medprobe.methods.meddisk.grading import (
    GRADED_TYPES,
    METRICS,
    Thresholds,
    distribution,
    format_total,
    level,
    mean_distribution,
    tier,
    total_score,
)
from medprobe.metrics.compare import format_t, welch_by_aspect, welch_table

DEFAULT = Thresholds.default()

# Paper Table 4, every row: model, type, CW / PC / BC in %, the printed total and the paper's level. The
# table prints each level once, against the middle row of its block; the text fixes the blocks: "most
# medical LLMs are placed in Level 3", so level 3 runs from DoctorGLM (2.75) down to BenTsao (2.20).
TABLE_4 = [
    ("GPT-3.5 Turbo", "General", 46.1, 27.7, 26.1, 4.00, 1),
    ("Vicuna-7B", "General", 54.2, 28.9, 17.0, 3.14, 2),
    ("Baichuan-7B", "General", 54.4, 29.3, 16.3, 3.10, 2),
    ("HuatuoGPT-7B", "Medical", 52.1, 35.5, 12.4, 3.02, 2),
    ("PULSE-7B", "Medical", 55.2, 29.8, 15.1, 3.00, 2),
    ("DoctorGLM-6B", "Medical", 60.7, 23.6, 15.7, 2.75, 3),
    ("ChatGLM-6B", "General", 58.0, 29.8, 12.1, 2.70, 3),
    ("BianQue2-6B", "Medical", 63.1, 25.6, 11.4, 2.41, 3),
    ("LLaMA-7B", "General", 67.2, 18.3, 14.4, 2.36, 3),
    ("ChatDoctor-7B", "Medical", 65.5, 23.9, 10.6, 2.26, 3),
    ("BenTsao-7B", "Medical", 68.3, 19.4, 12.2, 2.20, 3),
    ("BLOOMZ-7B", "General", 68.7, 25.9, 5.5, 1.84, 4),
]
# A printed total is its unrounded value ±0.005; recomputed from the printed percentages (±0.05 point
# each) it is known to ±0.0075 more.
TOTAL_UNCERTAINTY = 0.005 + 0.0075


def _dist(cw: float, pc: float, bc: float) -> dict[str, float]:
    return {"CW": cw / 100, "PC": pc / 100, "BC": bc / 100}


# --- tiers -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "metric", "aspect_type", "expected"),
    [
        (0.55, "rouge1", "declarative", "BC"),
        (0.0499, "rouge1", "declarative", "CW"),
        (0.05, "rouge1", "declarative", "PC"),
        (0.35, "cosine", "enumerated", "PC"),
        (0.3499, "cosine", "enumerated", "CW"),
        (-1.0, "cosine", "declarative", "CW"),
        (0.25, "bleu1", "enumerated", "BC"),
        (0.449, "bleu1", "declarative", "PC"),
        (1.0, "bleu1", "numeric", "BC"),
        (0.0, "cosine", "numeric", "CW"),
        (math.nan, "cosine", "numeric", "CW"),
        (math.nan, "rouge1", "enumerated", "CW"),
    ],
)
def test_tier_golden(score, metric, aspect_type, expected):
    assert tier(score, metric, aspect_type, DEFAULT) == expected


def test_tier_rejects_unknown_metric_and_type():
    with pytest.raises(MedprobeError, match="unknown metric 'bleu4'"):
        tier(0.5, "bleu4", "enumerated", DEFAULT)
    with pytest.raises(MedprobeError, match="unknown aspect type"):
        tier(0.5, "bleu1", "list", DEFAULT)


def test_distribution_and_mean():
    assert distribution(["CW", "PC", "BC", "BC"]) == {"CW": 0.25, "PC": 0.25, "BC": 0.5}
    assert distribution([]) == {"CW": 0.0, "PC": 0.0, "BC": 0.0}
    with pytest.raises(MedprobeError, match="unknown tier"):
        distribution(["CW", "OK"])
    mean = mean_distribution([{"CW": 1.0, "PC": 0.0, "BC": 0.0}, {"CW": 0.0, "PC": 0.5, "BC": 0.5}])
    assert mean == {"CW": 0.5, "PC": 0.25, "BC": 0.25}


# --- total score, display and levels (Table 4) -------------------------------------------------------


def test_total_gpt35_golden():
    total = total_score(_dist(46.1, 27.7, 26.1))
    assert total == pytest.approx(3.995)  # (27.7·5 + 26.1·10) / 100 = 399.5 / 100
    assert format_total(total) == "4.00"  # half up; the float 3.995 must not print as 3.99


def test_total_bloomz_golden():
    """1.845 from the printed percentages; the paper's 1.84 is within their rounding error, not a display rule."""
    total = total_score(_dist(68.7, 25.9, 5.5))
    assert total == pytest.approx(1.845)
    # Each printed percentage is within 0.05 point of the unrounded one, so the true total is 1.845 ± 0.0075.
    envelope = (5 + 10) * 0.0005
    assert abs(1.84 - total) <= envelope
    assert format_total(total) == "1.85"


def test_format_total_snaps_float_noise():
    assert 0.293 * 5 + 0.163 * 10 < 3.095  # the float sum is 3.0949999…
    assert format_total(0.293 * 5 + 0.163 * 10) == "3.10"


@pytest.mark.parametrize(("model", "kind", "cw", "pc", "bc", "printed", "expected"), TABLE_4)
def test_levels_of_table_4(model, kind, cw, pc, bc, printed, expected):
    assert level(printed) == expected
    recomputed = total_score(_dist(cw, pc, bc))
    assert abs(recomputed - printed) <= TOTAL_UNCERTAINTY + 1e-9
    assert level(recomputed) == expected
    # The boundaries sit in the gaps between levels, so no total the printed one allows changes level.
    assert level(printed - TOTAL_UNCERTAINTY) == level(printed + TOTAL_UNCERTAINTY) == expected


def test_most_medical_models_are_level_3():
    """The paper's own reading of Table 4 (§4.2.2)."""
    medical = [row[-1] for row in TABLE_4 if row[1] == "Medical"]
    assert medical.count(3) > len(medical) / 2
    assert [level(row[-2]) for row in TABLE_4 if row[1] == "Medical"] == medical


def test_level_boundaries_are_a_parameter():
    assert level(3.0, boundaries=(3.5, 3.0, 2.0)) == 2
    assert level(2.9999999999, boundaries=(3.5, 3.0, 2.0)) == 2  # float noise does not demote
    with pytest.raises(MedprobeError, match="strictly decreasing"):
        level(3.0, boundaries=(2.0, 3.0, 1.0))


# --- thresholds files ----------------------------------------------------------------------------------


def test_thresholds_json_round_trip(tmp_path):
    path = tmp_path / "thresholds.json"
    DEFAULT.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["calibrated_for"] == "M3E (paper Table 12)"
    assert data["thresholds"]["cosine"]["declarative"] == [0.55, 0.65]
    assert Thresholds.load(path) == DEFAULT


def _write(tmp_path, data) -> str:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("edit", "field", "message"),
    [
        (
            lambda t: t.update(bleu4={"enumerated": [0.1, 0.2]}),
            "thresholds.bleu4.enumerated",
            "unknown metric",
        ),
        (
            lambda t: t["cosine"].update(numeric=[0.1, 0.2]),
            "thresholds.cosine.numeric",
            "unknown aspect type",
        ),
        (
            lambda t: t["rouge1"].update(enumerated=[0.8, 0.2]),
            "thresholds.rouge1.enumerated",
            "must not decrease",
        ),
        (lambda t: t["rouge1"].pop("declarative"), "thresholds.rouge1.declarative", "missing entry"),
        (lambda t: t["bleu1"].update(enumerated=[0.1]), "thresholds.bleu1.enumerated", "two numbers"),
        (lambda t: t["bleu1"].update(enumerated=[-0.5, 0.2]), "thresholds.bleu1.enumerated", "range"),
    ],
)
def test_thresholds_file_errors(tmp_path, edit, field, message):
    data = DEFAULT.to_json()
    edit(data["thresholds"])
    path = _write(tmp_path, data)
    with pytest.raises(MedprobeError, match=message) as info:
        Thresholds.load(path)
    assert info.value.file == path
    assert info.value.field == field


def test_thresholds_allow_cosine_below_zero_and_an_empty_pc_band(tmp_path):
    data = DEFAULT.to_json()
    data["thresholds"]["cosine"]["enumerated"] = [-0.2, -0.2]
    loaded = Thresholds.load(_write(tmp_path, data))
    assert tier(-0.2, "cosine", "enumerated", loaded) == "BC"
    assert tier(-0.21, "cosine", "enumerated", loaded) == "CW"


# --- expert alignment: sample -> sheet -> labels -> fit -> validate ------------------------------------

HIDDEN = Thresholds({(m, t): (0.1, 0.4) for m in METRICS for t in GRADED_TYPES}, calibrated_for="hidden")


def _items(n: int, *, equal_scores: bool = False, seed: int = 1) -> list[dict]:
    rng = np.random.default_rng(seed)
    items = []
    for i in range(n):
        aspect_type = GRADED_TYPES[i % 2]
        if equal_scores:
            scores = dict.fromkeys(METRICS, float(rng.uniform(0, 1)))
        else:
            scores = {"bleu1": rng.uniform(0, 1), "rouge1": rng.uniform(0, 1), "cosine": rng.uniform(-1, 1)}
        items.append(
            {
                "id": f"d{i}-a",
                "disease": f"疾病{i}",
                "aspect": "medications",
                "type": aspect_type,
                "answer": '阿司匹林, "quoted"\nsecond line',
                "reference": "阿司匹林",
                "model": "m",
                "scores": {k: float(v) for k, v in scores.items()},
            }
        )
    return items


def _label(rows, rng, noise: float) -> None:
    """Label each row by the hidden thresholds on its own metric's score; flip a few to a neighbouring tier."""
    neighbour = {"CW": "PC", "PC": "BC", "BC": "PC"}
    for row in rows:
        metric = row["metric"] or "cosine"
        label = tier(row[metric], metric, row["type"], HIDDEN)
        row["label"] = neighbour[label] if rng.random() < noise else label


def test_grade_sample_bins_and_is_deterministic():
    items = _items(800)
    rows = grade_sample(items, per_interval=10, seed=3)
    assert rows == grade_sample(list(reversed(items)), per_interval=10, seed=3)
    assert rows != grade_sample(items, per_interval=10, seed=4)
    cosine_enum = [r for r in rows if r["metric"] == "cosine" and r["type"] == "enumerated"]
    assert {r["interval"] for r in cosine_enum} >= {"[-1, -0.9)", "[0.9, 1]"}
    assert len(cosine_enum) == 200  # 20 intervals × 10; 400 enumerated items are enough to fill each
    for row in rows:
        low, high = (float(x) for x in row["interval"][1:-1].split(", "))
        assert low <= row["score"] <= high
        assert row["label"] is None
    assert [r["sheet_id"] for r in rows] == list(range(1, len(rows) + 1))


def test_grade_sample_bin_edges():
    items = [
        {
            "id": str(i),
            "disease": "d",
            "aspect": "a",
            "type": "declarative",
            "answer": "",
            "reference": "",
            "model": "m",
            "scores": {"bleu1": s},
        }
        for i, s in enumerate([0.3, 1.0, 0.0])
    ]
    rows = grade_sample(items)
    assert {r["score"]: r["interval"] for r in rows} == {0.0: "[0, 0.1)", 0.3: "[0.3, 0.4)", 1.0: "[0.9, 1]"}


def test_fit_recovers_hidden_thresholds(tmp_path):
    rng = np.random.default_rng(7)
    rows = grade_sample(_items(800), per_interval=10)
    _label(rows, rng, noise=0.05)
    path = tmp_path / "sheet.csv"
    write_sheet(rows, path)
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")  # BOM for Excel
    labelled = read_sheet(path)
    assert labelled == rows
    fitted, report = fit_thresholds(labelled, calibrated_for="synthetic")
    assert fitted.calibrated_for == "synthetic"
    assert report["n_labelled"] == len(rows)
    for metric in METRICS:
        for aspect_type in GRADED_TYPES:
            low, high = fitted.cut(metric, aspect_type)
            assert low == pytest.approx(0.1, abs=0.1) and high == pytest.approx(0.4, abs=0.1)
            cell = report["cells"][f"{metric}/{aspect_type}"]
            assert cell["fitted"] and cell["agreement"] >= 0.9 and cell["kappa"] > 0.8
            assert cell["agreement"] >= cell["base_agreement"]


def test_fit_keeps_base_for_unlabelled_cells_and_breaks_ties_toward_base():
    rows = [
        {"metric": "bleu1", "type": "enumerated", "score": s, "label": label}
        for s, label in [(0.0, "CW"), (0.2, "PC"), (0.6, "BC")]
    ]
    fitted, report = fit_thresholds(rows)
    # Any t1 in (0, 0.2] and t2 in (0.2, 0.6] is perfect; the candidates nearest Table 12 (0.05/0.25) win.
    assert fitted.cut("bleu1", "enumerated") == (0.1, 0.4)
    assert report["cells"]["bleu1/enumerated"]["agreement"] == 1.0
    assert fitted.cut("cosine", "declarative") == DEFAULT.cut("cosine", "declarative")
    assert report["cells"]["cosine/declarative"] == {
        "n_labelled": 0,
        "fitted": False,
        "thresholds": (0.55, 0.65),
        "base": (0.55, 0.65),
        "note": "no labelled rows; kept the base thresholds",
    }


def test_fit_tie_break_prefers_the_pair_nearest_the_base():
    rows = [
        {"metric": "bleu1", "type": "enumerated", "score": s, "label": label}
        for s, label in [(0.02, "PC"), (0.08, "CW"), (0.5, "BC")]
    ]
    # (0, 0.29) and (0.29, 0.29) both get 2 of 3 right; the first is nearer Table 12's (0.05, 0.25).
    fitted, report = fit_thresholds(rows)
    assert fitted.cut("bleu1", "enumerated") == pytest.approx((0.0, 0.29))
    assert report["cells"]["bleu1/enumerated"]["agreement"] == pytest.approx(2 / 3)
    assert report["cells"]["bleu1/enumerated"]["base_agreement"] == pytest.approx(1 / 3)


def test_validate_gives_rho_one_on_noise_free_labels():
    rows = validation_sample(_items(400, equal_scores=True), n=150)
    assert len(rows) == 150
    _label(rows, np.random.default_rng(0), noise=0.0)
    result = validate(rows, HIDDEN)
    for key in (*METRICS, "average"):
        assert result[key]["rho"] == pytest.approx(1.0)
        assert result[key]["n"] == 150 and result[key]["p"] < 1e-6


def test_validation_sample_excludes_calibration_items():
    items = _items(60)
    calibration = grade_sample(items, per_interval=1)
    taken = {r["item_id"] for r in calibration}
    rows = validation_sample(items, n=1000, exclude=calibration)
    assert rows and not taken & {r["item_id"] for r in rows}
    assert len(rows) == len(items) - len(taken)


def test_read_sheet_reports_bad_label_with_location(tmp_path):
    rows = grade_sample(_items(40), per_interval=1)
    rows[2]["label"] = "maybe"
    path = tmp_path / "sheet.csv"
    with pytest.raises(MedprobeError, match="bad label"):
        fit_thresholds(rows)
    write_sheet(rows, path)
    with pytest.raises(MedprobeError, match="bad label 'maybe'") as info:
        read_sheet(path)
    # Header is line 1 and every answer spans two lines, so row 3 starts on line 1 + 2·2 + 1.
    assert (info.value.file, info.value.line, info.value.field) == (str(path), 6, "label")


def test_read_sheet_accepts_ordinal_labels_and_no_bom(tmp_path):
    path = tmp_path / "sheet.csv"
    rows = grade_sample(_items(20), per_interval=1)[:3]
    for row, label in zip(rows, ["0", "1", " bc "], strict=True):
        row["label"] = label
    write_sheet(rows, path)
    path.write_bytes(path.read_bytes().removeprefix(b"\xef\xbb\xbf"))
    assert [r["label"] for r in read_sheet(path)] == ["CW", "PC", "BC"]


# --- Welch's t-test (Table 5) --------------------------------------------------------------------------


def test_welch_matches_scipy():
    rng = np.random.default_rng(11)
    a = {"onset_ages": list(rng.normal(0.6, 0.2, 40)), "departments": list(rng.normal(0.5, 0.05, 25))}
    b = {"onset_ages": list(rng.normal(0.5, 0.1, 30)), "departments": list(rng.normal(0.5, 0.3, 60))}
    for result in welch_by_aspect(a, b):
        expected = ttest_ind(a[result["aspect"]], b[result["aspect"]], equal_var=False)
        assert result["t"] == pytest.approx(expected.statistic, rel=1e-12)
        assert result["p"] == pytest.approx(expected.pvalue, rel=1e-12)
        assert result["significant"] == (expected.pvalue < 0.05)
        expected_direction = (
            ("better" if expected.statistic > 0 else "worse") if expected.pvalue < 0.05 else "n.s."
        )
        assert result["direction"] == expected_direction


def test_welch_untestable_aspects():
    results = welch_by_aspect(
        {"severity_level": [1.0], "medications": [0.2, math.nan, 0.4], "onset_ages": [1.0, 1.0]},
        {
            "severity_level": [0.0, 1.0],
            "medications": [0.1, 0.3],
            "onset_ages": [0.0, 0.0],
            "extra": [0.1, 0.2],
        },
    )
    by = {r["aspect"]: r for r in results}
    assert by["severity_level"]["t"] is None and "fewer than 2" in by["severity_level"]["reason"]
    assert by["medications"]["n_a"] == 2 and by["medications"]["dropped_a"] == 1
    assert by["onset_ages"]["p"] is None and by["onset_ages"]["direction"] == "n.s."
    assert by["extra"]["n_a"] == 0 and by["extra"]["reason"]
    assert [r["aspect"] for r in results] == ["severity_level", "medications", "onset_ages", "extra"]


def test_welch_table_row_format():
    rows = {
        "BianQue-2 vs ChatGLM-6B": [
            {"aspect": "patient_population", "t": 15.04, "p": 1e-9, "significant": True},
            {"aspect": "onset_ages", "t": -0.61, "p": 0.54, "significant": False},
        ],
        "DoctorGLM vs ChatGLM-6B": [
            {"aspect": "patient_population", "t": 36.7, "p": 1e-20, "significant": True}
        ],
    }
    table = welch_table(rows).splitlines()
    assert table[0] == "| Aspect | BianQue-2 vs ChatGLM-6B | DoctorGLM vs ChatGLM-6B |"
    assert table[2] == "| Patient Population | 15.0* | 36.7* |"
    assert table[3] == "| Onset Ages | -0.6 | – |"
    assert format_t({"t": None}) == "–"
