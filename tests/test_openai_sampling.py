"""top_k and the repetition penalty reach OpenAI-compatible servers under the names each server
family reads (vLLM's repetition_penalty, llama.cpp's repeat_penalty), only when set, and never hosted
APIs, which reject sampling parameters outside the OpenAI API; the run's notes say what was sent."""

from __future__ import annotations

import asyncio

import pytest

from medprobe.models.openai import OpenAIBackend
from medprobe.models.server_family import family_of_models
from medprobe.records import GenerationParams, Message, Request
from testing.mock_server import MockOpenAI, serve_in_thread

PAPER = GenerationParams(temperature=0.3, top_p=0.85, top_k=5, repetition_penalty=1.05)


def request(params: GenerationParams) -> Request:
    return Request(id="p#0", probe_id="p", messages=[Message(role="user", content="q")], params=params)


def body(spec: str, params: GenerationParams, options: dict[str, str] | None = None) -> dict[str, object]:
    backend = OpenAIBackend(spec, options or {})
    try:
        return backend._body(request(params))[1]
    finally:
        asyncio.run(backend.aclose())


@pytest.mark.parametrize("url", ["http://localhost:8000/v1", "https://my-vllm.example.org/v1"])
def test_open_model_servers_get_top_k_and_repetition_penalty(url: str) -> None:
    sent = body(f"m@{url}", PAPER)
    assert (sent["top_k"], sent["repetition_penalty"], sent["top_p"]) == (5, 1.05, 0.85)


def test_unset_parameters_are_not_sent() -> None:
    sent = body("m@http://localhost:8000/v1", GenerationParams(temperature=0.3))
    assert "top_k" not in sent and "repetition_penalty" not in sent


def test_api_openai_com_never_gets_them() -> None:
    sent = body("gpt-4o-mini@https://api.openai.com/v1", PAPER)
    assert "top_k" not in sent and "repetition_penalty" not in sent
    assert (sent["temperature"], sent["top_p"]) == (0.3, 0.85)


def test_the_mock_server_receives_them() -> None:
    mock = MockOpenAI(reply=lambda body: "correct", keep_bodies=True)
    with serve_in_thread(mock) as url:
        backend = OpenAIBackend(f"m@{url}", {})

        async def ask() -> None:
            try:
                await backend.complete(request(PAPER))
            finally:
                await backend.aclose()

        asyncio.run(ask())
    assert mock.bodies[0]["top_k"] == 5 and mock.bodies[0]["repetition_penalty"] == 1.05


def test_llama_cpp_servers_get_their_own_names_and_neutral_defaults() -> None:
    sent = body("m@http://localhost:8080/v1", PAPER, {"server": "llamacpp"})
    assert (sent["top_k"], sent["repeat_penalty"], sent["min_p"]) == (5, 1.05, 0.0) and "repetition_penalty" not in sent
    greedy = body("m@http://localhost:8080/v1", GenerationParams(), {"server": "llamacpp"})
    assert (greedy["top_k"], greedy["repeat_penalty"], greedy["min_p"]) == (0, 1.0, 0.0)  # as the embedded model samples


@pytest.mark.parametrize("host", ["api.mistral.ai", "api.groq.com", "myres.openai.azure.com"])
def test_hosted_apis_get_openai_parameters_only(host: str) -> None:
    sent = body(f"m@https://{host}/v1", PAPER)
    assert not {"top_k", "repetition_penalty", "repeat_penalty", "min_p"} & set(sent)


@pytest.mark.parametrize(("owned_by", "family"), [("vllm", "vllm"), ("sglang", "vllm"), ("llamacpp", "llamacpp"), ("me", "llamacpp"),
                                                  ("library", "vllm"), (None, "vllm")])
def test_the_family_is_read_from_the_model_list(owned_by: str | None, family: str) -> None:
    listing = {"data": [{"id": "m", "owned_by": owned_by}]}
    assert family_of_models(listing) == family


def test_a_backend_records_what_it_sent() -> None:
    mock = MockOpenAI(reply=lambda body: "A", keep_bodies=True)
    with serve_in_thread(mock) as url:
        backend = OpenAIBackend(f"m@{url}", {"server": "llamacpp"})

        async def ask() -> None:
            try:
                await backend.check()
                await backend.complete(request(PAPER))
            finally:
                await backend.aclose()

        asyncio.run(ask())
    assert mock.bodies[0]["repeat_penalty"] == 1.05
    assert list(backend.sent) == [f"sampling sent to {url} (server family llamacpp): temperature=0.3, top_p=0.85, top_k=5, min_p=0.0, "
                                  "repeat_penalty=1.05"]
