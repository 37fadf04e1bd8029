"""The embedded backend's chat template: the one named with -O chat_format, the GGUF's own, one
inferred from unambiguous GGUF metadata, or a refusal that names the ways on; never llama-cpp-python's
silent Llama 2 fallback. config.json and report.md say which template a run used."""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from medprobe.cli import app
from medprobe.errors import MedprobeError
from medprobe.models import make_backend
from medprobe.models.chat_template import GgufFacts, choose, fold_system, read_facts
from medprobe.models.llamacpp import default_model_path
from medprobe.records import GenerationParams, Message, Request, Response
from testing.fixtures import write_tiny_kb

GEMMA_MARKERS = ("<start_of_turn>", "<end_of_turn>")
CHATML_MARKERS = ("<|im_start|>", "<|im_end|>")
LLAMA3_MARKERS = ("<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>")


def write_gguf(path: Path, architecture: str, *, control: tuple[str, ...] = (), plain: tuple[str, ...] = (),
               template: str | None = None, name: str | None = None) -> Path:
    """A GGUF with metadata and a small vocabulary but no weights: enough for the template choice,
    which reads no weights. ``control`` tokens are written as control tokens, ``plain`` as ordinary ones."""
    gguf = pytest.importorskip("gguf", reason="the gguf package (dev extra) writes the GGUF fixtures")
    writer = gguf.GGUFWriter(str(path), architecture)
    tokens = ["<unk>", "<s>", "</s>", *(f"<0x{b:02X}>" for b in range(256)), *control, *plain]
    kinds = [gguf.TokenType.UNKNOWN, gguf.TokenType.CONTROL, gguf.TokenType.CONTROL, *[gguf.TokenType.BYTE] * 256,
             *[gguf.TokenType.CONTROL] * len(control), *[gguf.TokenType.NORMAL] * len(plain)]
    writer.add_tokenizer_model("llama")
    writer.add_token_list(tokens)
    writer.add_token_scores([0.0] * len(tokens))
    writer.add_token_types(kinds)
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(2)
    if template is not None:
        writer.add_chat_template(template)
    if name is not None:
        writer.add_name(name)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "1000", "NO_COLOR": "1"})


def facts(architecture: str, markers: tuple[str, ...] = (), template: str | None = None, names: tuple[str, ...] = ("Instruct",)) -> GgufFacts:
    return GgufFacts(architecture=architecture, template=template, markers=frozenset(markers), names=names)


@pytest.mark.parametrize(
    ("gguf", "expected"),
    [
        (facts("gemma3", GEMMA_MARKERS, names=("it", "Gemma 3 270m It")), "gemma"),
        (facts("gemma2", GEMMA_MARKERS, names=("gemma-2-2b-it",)), "gemma"),
        (facts("qwen2", CHATML_MARKERS, names=("Instruct", "Qwen2.5 0.5B Instruct")), "chatml"),
        (facts("qwen3moe", CHATML_MARKERS, names=("Chat",)), "chatml"),
        (facts("llama", LLAMA3_MARKERS, names=("Meta-Llama-3-8B-Instruct",)), "llama-3"),
    ],
)
def test_a_template_is_inferred_when_architecture_and_vocabulary_agree(gguf: GgufFacts, expected: str) -> None:
    chosen = choose(gguf, None, chat=True, model="m.gguf")
    assert chosen.chat_format == expected
    assert chosen.record.startswith(f"{expected} (inferred") and gguf.architecture in chosen.record


@pytest.mark.parametrize(
    "gguf",
    [
        facts("gemma3"),  # the family, but none of its turn markers
        facts("gemma3", GEMMA_MARKERS, names=("Gemma 3 270m",)),  # the family and its markers, but a base model by its name
        facts("qwen2", CHATML_MARKERS, names=()),  # nothing says it was tuned
        facts("gemma2", GEMMA_MARKERS, names=("gemma-2-2b-Italian",)),  # 'it' only inside a word
        facts("llama", CHATML_MARKERS),  # a Llama-architecture model with ChatML tokens (SmolLM2 without its template)
        facts("llama"),  # Llama 1/2 and their many fine-tunes: no telling which format
        facts("qwen2", GEMMA_MARKERS),
        facts("mamba", GEMMA_MARKERS + CHATML_MARKERS),
        facts(""),
    ],
)
def test_without_a_template_or_unambiguous_evidence_a_chat_run_is_refused(gguf: GgufFacts) -> None:
    with pytest.raises(MedprobeError) as refused:
        choose(gguf, None, chat=True, model="m.gguf")
    text = refused.value.render()
    assert "m.gguf has no chat template" in text and "-O chat_format=" in text and "--prompt-style completion" in text


def test_the_ggufs_own_template_is_used_and_recorded_with_its_hash() -> None:
    template = "{% for m in messages %}{{ m.content }}{% endfor %}"
    chosen = choose(facts("gemma3", GEMMA_MARKERS, template), None, chat=True, model="m.gguf")
    assert chosen.chat_format == "chat_template.default"  # llama-cpp-python's handler for the GGUF's template
    assert chosen.record == f"from the GGUF (sha256 {hashlib.sha256(template.encode()).hexdigest()[:16]})"


def test_a_named_format_wins_over_the_ggufs_template_and_inference() -> None:
    chosen = choose(facts("gemma3", GEMMA_MARKERS, "{{ x }}"), "chatml", chat=True, model="m.gguf")
    assert (chosen.chat_format, chosen.record) == ("chatml", "chatml (-O chat_format)")


def test_plain_text_prompts_need_no_template() -> None:
    chosen = choose(facts("mamba"), None, chat=False, model="m.gguf")
    assert chosen.chat_format is None and "completion" in chosen.record
    with pytest.raises(MedprobeError, match="unknown chat format"):  # a bad name is still a bad name
        choose(facts("mamba"), "gemma-7", chat=False, model="m.gguf")


def test_the_system_text_heads_the_first_user_turn_for_a_format_without_system_turns() -> None:
    system, user = {"role": "system", "content": "Be brief."}, {"role": "user", "content": "Q?"}
    assert fold_system([system, user]) == [{"role": "user", "content": "Be brief.\n\nQ?"}]
    assert fold_system([user]) == [user]
    assert fold_system([system, {"role": "assistant", "content": "A"}]) == [{"role": "user", "content": "Be brief."},
                                                                          {"role": "assistant", "content": "A"}]


def test_gguf_metadata_and_control_tokens_are_read_without_weights(tmp_path: Path) -> None:
    long_template = "{# a template longer than the first read buffer #}" + "{{ messages }}" * 200
    # (llama.cpp itself makes end-of-turn-looking tokens such as <|im_end|> control tokens, so the plain ones are openers)
    path = write_gguf(tmp_path / "g.gguf", "gemma3", control=GEMMA_MARKERS, plain=("<|im_start|>", "<|start_header_id|>"),
                      template=long_template, name="Gemma 3 270m It")
    read = read_facts(path)
    assert read.architecture == "gemma3" and read.template == long_template and read.names == ("Gemma 3 270m It",)
    assert read.markers == set(GEMMA_MARKERS), "markers spelled as ordinary tokens are no evidence"
    assert read_facts(write_gguf(tmp_path / "bare.gguf", "gemma3")).template is None


def test_a_base_model_of_a_known_family_is_refused_with_its_familys_format_as_the_hint() -> None:
    with pytest.raises(MedprobeError) as refused:
        choose(facts("gemma3", GEMMA_MARKERS, names=("Gemma 3 270m",)), None, chat=True, model="gemma-3-270m.gguf")
    text = " ".join(refused.value.render().split())
    assert "gemma family" in text and "Gemma 3 270m" in text and "base model" in text and "e.g. gemma)" in text


def test_the_backend_records_an_inferred_template_in_its_identity(tmp_path: Path) -> None:
    path = write_gguf(tmp_path / "gemma.gguf", "gemma3", control=GEMMA_MARKERS, name="Gemma 3 270m It")
    identity = make_backend(f"llamacpp:{path}").identity()
    assert identity["chat_template"] == ("gemma (inferred: the GGUF has no template; architecture gemma3, "
                                         "control tokens <start_of_turn> <end_of_turn>, tuned: 'it' in its name)")
    completion = make_backend(f"llamacpp:{path}", prompt_style="completion").identity()
    assert completion["chat_template"] == "none: plain-text prompts (--prompt-style completion)"


def test_a_run_on_a_gguf_without_template_stops_with_the_ways_on(tmp_path: Path) -> None:
    path = write_gguf(tmp_path / "unknown.gguf", "mamba", control=GEMMA_MARKERS)
    out = tmp_path / "runs"
    result = invoke("run", "multifacet", "--data", write_tiny_kb(tmp_path / "kb.jsonl"), "--limit", "1",
                    "--model", f"llamacpp:{path}", "--out", out, "-q")
    message = " ".join(result.output.split())
    assert result.exit_code == 2 and "Traceback" not in message, message
    assert "unknown.gguf has no chat template" in message and "mamba" in message
    assert "-O chat_format=NAME" in message and "--prompt-style completion" in message
    assert not list(out.glob("*/responses.jsonl"))


def test_an_unregistered_chat_format_is_refused_with_the_list(tmp_path: Path) -> None:
    out = tmp_path / "runs"
    result = invoke("run", "multifacet", "--data", write_tiny_kb(tmp_path / "kb.jsonl"), "--limit", "1",
                    "--model", "llamacpp:default", "-O", "chat_format=gemma-7", "--out", out, "-q")
    message = " ".join(result.output.split())
    assert result.exit_code == 2 and "Traceback" not in message, message
    assert "chat_format" in message and "gemma-7" in message
    assert all(name in message for name in ("gemma", "chatml", "llama-3", "llama-2"))
    assert not list(out.glob("*/responses.jsonl"))


def ask(backend: object, request: Request) -> tuple[object, object]:
    """The response and the loaded llama.cpp model it came from."""

    async def go() -> tuple[object, object]:
        try:
            response = await backend.complete(request)  # type: ignore[attr-defined]
            return response, backend._llama.chat_format  # type: ignore[attr-defined]
        finally:
            await backend.aclose()  # type: ignore[attr-defined]

    return asyncio.run(go())


def chat_request(*messages: Message) -> Request:
    return Request(id="p#0", probe_id="p", messages=list(messages), params=GenerationParams(max_tokens=1))


def test_the_embedded_model_uses_its_ggufs_template_or_the_named_format() -> None:
    question = Message(role="user", content="Is fever a symptom?")
    _, used = ask(make_backend("llamacpp:default", {"n_ctx": "512", "threads": "1"}), chat_request(question))
    assert used == "chat_template.default"
    _, used = ask(make_backend("llamacpp:default", {"n_ctx": "512", "threads": "1", "chat_format": "llama-3"}), chat_request(question))
    assert used == "llama-3"


def test_a_system_message_is_not_dropped_by_the_gemma_format() -> None:
    """llama-cpp-python's Gemma formatter discards system messages; the backend folds them into the
    first user turn, so the prompt grows by the system text."""
    question = Message(role="user", content="Is fever a symptom?")
    system = Message(role="system", content="You answer questions about medicine in one word.")
    lengths = []
    for messages in ([question], [system, question]):
        response, used = ask(make_backend("llamacpp:default", {"n_ctx": "512", "threads": "1", "chat_format": "gemma"}), chat_request(*messages))
        assert used == "gemma" and response.error is None  # type: ignore[attr-defined]
        lengths.append(response.prompt_tokens)  # type: ignore[attr-defined]
    assert lengths[1] > lengths[0] + 5


def test_a_plain_text_backend_refuses_chat_messages_rather_than_guess_a_template() -> None:
    backend = make_backend("llamacpp:default", {"n_ctx": "512", "threads": "1"}, prompt_style="completion")
    response = backend.complete_sync(chat_request(Message(role="user", content="hi")))  # type: ignore[attr-defined]
    assert response.error and "no chat template" in response.error


def test_config_and_report_name_the_template_a_run_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a run records, not what the model says: replies are canned so the run takes seconds."""
    from medprobe.models.llamacpp import LlamaCppBackend

    monkeypatch.setattr(LlamaCppBackend, "complete_sync", lambda self, request: Response(probe_id=request.probe_id, text="A"))
    out = tmp_path / "runs"
    result = invoke("run", "multifacet", "--data", write_tiny_kb(tmp_path / "kb.jsonl"), "--limit", "1",
                    "--model", "llamacpp:default", "-O", "n_ctx=512", "--out", out, "-q")
    assert result.exit_code == 0, result.output
    (run,) = [p for p in out.iterdir() if p.is_dir()]
    template = read_facts(default_model_path()).template or ""
    expected = f"from the GGUF (sha256 {hashlib.sha256(template.encode()).hexdigest()[:16]})"
    assert json.loads((run / "config.json").read_text())["model_identity"]["chat_template"] == expected
    assert f"| chat template | {expected} |" in (run / "report.md").read_text()


def test_plain_text_runs_reach_the_backend_without_a_template(tmp_path: Path) -> None:
    """--prompt-style completion gets past the template choice (then fails where a weightless file must: loading)."""
    path = write_gguf(tmp_path / "unknown.gguf", "mamba")
    result = invoke("run", "multifacet", "--data", write_tiny_kb(tmp_path / "kb.jsonl"), "--limit", "1",
                    "--model", f"llamacpp:{path}", "--prompt-style", "completion", "--out", tmp_path / "runs", "-q")
    message = " ".join(result.output.split())
    assert result.exit_code == 2 and "cannot load GGUF model" in message and "chat template" not in message, message


def test_a_run_for_me_report_says_the_endpoint_applied_its_own_template() -> None:
    pytest.importorskip("sqlalchemy", reason="the platform extra is not installed")
    from medprobe.platform.models import Benchmark, Submission
    from medprobe.platform.scoring import ENDPOINT_TEMPLATE, run_config

    benchmark = Benchmark(method="multifacet", data="builtin:en", seed=0, size=5, samples=1, generation={}, build_info={})
    ran = run_config(benchmark, Submission(id=1, model_name="m", prompt_style="chat", source="endpoint:3"), "0" * 64, 10)
    uploaded = run_config(benchmark, Submission(id=2, model_name="m", prompt_style="chat", source="upload"), "0" * 64, 10)
    assert ran.model_identity["chat_template"] == ENDPOINT_TEMPLATE
    assert "chat_template" not in uploaded.model_identity  # the participant's own prompts: nothing medprobe knows
