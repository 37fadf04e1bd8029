"""top_k and repetition_penalty reach OpenAI-compatible servers only when set, and never
api.openai.com, which rejects sampling parameters outside its API."""

from __future__ import annotations

import asyncio

import pytest

from medprobe.mock_server import MockOpenAI, serve_in_thread
from medprobe.models.openai import OpenAIBackend
from medprobe.records import GenerationParams, Message, Request

PAPER = GenerationParams(temperature=0.3, top_p=0.85, top_k=5, repetition_penalty=1.05)


def request(params: GenerationParams) -> Request:
    return Request(id="p#0", probe_id="p", messages=[Message(role="user", content="q")], params=params)


def body(spec: str, params: GenerationParams) -> dict[str, object]:
    backend = OpenAIBackend(spec, {})
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
