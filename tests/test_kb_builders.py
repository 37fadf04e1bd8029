"""The built-in KB builders: the HPO builder on the real hpo3 data, and the built-in KB cache (the CMeKG
builder: tests/test_kb_cmekg.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from medprobe.errors import MedprobeError
from medprobe.sources import builtin
from medprobe.sources.kb import Disease, KnowledgeBase
from medprobe.sources.kb_hpo import build_hpo_kb


@pytest.fixture(scope="module")
def hpo() -> dict[str, Disease]:
    return {d.id: d for d in build_hpo_kb()}


def test_hpo_marfan_syndrome(hpo: dict[str, Disease]) -> None:
    marfan = hpo["ORPHA:558"]  # merged with OMIM:154700, which is therefore not a disease of its own
    assert marfan.name == "Marfan syndrome" and marfan.language == "en"
    assert marfan.codes == {"OMIM": ["154700"], "ORPHA": ["558"]} and "OMIM:154700" not in hpo
    assert "Arachnodactyly" in marfan.aspects["primary_symptoms"]  # the skeleton is the main branch
    assert {"Ectopia lentis", "Lens subluxation"} & set(marfan.aspects["associated_symptoms"])
    assert {"cardiovascular system", "musculoskeletal system"} <= set(marfan.aspects["affected_body_systems"])
    assert "eye" in marfan.aspects["affected_sites"]
    assert marfan.extra["inheritance"] == ["Autosomal dominant inheritance"]
    # seen in fewer than 30% of patients (HPO's phenotype.hpoa): true of some, never a key, never a wrong option
    assert "Astigmatism" in marfan.extra["uncommon_symptoms"] and "Astigmatism" not in marfan.aspects["associated_symptoms"]


def test_hpo_onset_labs_and_inheritance(hpo: dict[str, Disease]) -> None:
    duchenne = hpo["ORPHA:98896"]
    assert duchenne.aspects["onset_ages"] == ["toddler", "child"]  # HPO: childhood onset (1-5 years)
    assert "Elevated circulating creatine kinase concentration" in duchenne.aspects["laboratory_examinations"]
    assert duchenne.extra["inheritance"] == ["X-linked recessive inheritance"]
    pku = hpo["ORPHA:716"]
    assert "Hyperphenylalaninemia" in str(pku.aspects["laboratory_examinations"])
    assert "Hyperphenylalaninemia" not in pku.values("primary_symptoms") + pku.values("associated_symptoms")


def test_hpo_kb_invariants(hpo: dict[str, Disease]) -> None:
    assert len(hpo) > 10_000
    ids = list(hpo)
    rare, common = [i for i in ids if not i.startswith("ICD10:")], [i for i in ids if i.startswith("ICD10:")]
    assert ids == sorted(rare, key=lambda i: (i.split(":")[0], int(i.split(":")[1]))) + sorted(common)
    for disease in hpo.values():
        primary, associated = disease.values("primary_symptoms"), disease.values("associated_symptoms")
        uncommon = disease.values("uncommon_symptoms")
        assert primary or associated or uncommon or "ICD10" in disease.codes  # hyperlipidemia: no symptom of its own
        assert not set(primary) & set(associated)
        if "ICD10" not in disease.codes:  # a merged common disease keys the catalogue's symptoms whatever HPO says
            assert not set(primary + associated) & set(uncommon)
        assert disease.name.lower() not in {v.lower() for v in primary + associated}
    assert [d.id for d in build_hpo_kb(limit=3)] == ids[:3]


def test_builtin_kb_is_built_once_then_reused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEDPROBE_HOME", str(tmp_path))
    calls: list[int] = []

    def small_hpo_kb() -> list[Disease]:
        calls.append(1)
        return build_hpo_kb(limit=20)

    monkeypatch.setitem(builtin.BUILDERS, "en", small_hpo_kb)
    path = builtin.builtin_kb_path("hpo")
    assert path.parent == tmp_path / "kb" and path.name.startswith(f"en-{builtin.VERSIONS['en']}-")
    assert builtin.builtin_kb_path("en") == path and calls == [1]
    assert list(path.parent.iterdir()) == [path]  # no scratch files left behind

    kb = builtin.resolve_kb("builtin:en")
    assert isinstance(kb, KnowledgeBase) and kb.name == "builtin:en" and len(kb.diseases) == 20
    assert builtin.resolve_kb("en").diseases == kb.diseases and calls == [1]
    assert builtin.resolve_kb(str(path)).diseases == kb.diseases


def test_builtin_failed_build_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEDPROBE_HOME", str(tmp_path))

    def broken() -> list[Disease]:
        raise RuntimeError("interrupted")

    monkeypatch.setitem(builtin.BUILDERS, "zh", broken)
    with pytest.raises(RuntimeError):
        builtin.builtin_kb_path("cmekg")
    assert list((tmp_path / "kb").iterdir()) == []


def test_unknown_builtin_names_list_the_valid_ones(tmp_path: Path) -> None:
    with pytest.raises(MedprobeError) as info:
        builtin.load_builtin_kb("fr")
    assert "'fr'" in info.value.message and "builtin:en" in str(info.value) and "builtin:zh" in str(info.value)
    with pytest.raises(MedprobeError) as info:
        builtin.resolve_kb(str(tmp_path / "missing.jsonl"))
    assert "no such file" in info.value.message and "builtin:en" in str(info.value)
