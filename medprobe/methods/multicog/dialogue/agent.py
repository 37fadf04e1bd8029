"""The full-path diagnosis dialogue as a deterministic state machine (REFERENCE_METHODS §5.1).

An :class:`Episode` is one case in one run. ``request()`` gives the next model request (the
whole chat so far) and ``feed()`` takes the model's reply and decides the next user turn. Given
the same replies an episode always takes the same path, so scoring simply replays the recorded
responses, and a killed run resumes from the response cache turn by turn.

The protocol, as in the reference code:
* actions PE / LAB / MICRO / IMAGE / OUTPUT; each can be used once; LAB / MICRO / IMAGE first ask
  for the list of exam items, then return the results of the items the case has;
* an invalid reply gets a warning; when the next reply comes in, the invalid reply and the
  warning are removed from the chat (rolled back), so a slip costs a turn, not the context;
* a list naming none of the case's items is treated as invalid ("no valid tests found");
* once only OUTPUT is left the model is told to decide; after OUTPUT it must give a diagnosis,
  and a reply with "Diagnosis:" then finishes (before OUTPUT, as in the reference, a reply
  finishes only with both "Diagnosis:" and "Treatment:"; see ``parse_action``); each reply is read by the
  strict reader's rules (``read_action``: invisible characters and full-width forms, one action named);
* each reply may use up to ``params.max_tokens`` tokens; when the chat would leave less room than
  that in the context, the first turn is shortened, later turns are replaced by the model's own
  summary (and an episode whose summary fails is stopped); the invalid reply pending rollback at
  that moment is folded into the summary and not rolled back afterwards (§5.1 step 1).
Reasoning blocks (``<think>…</think>``) are removed from each reply before it is read and before
it joins the chat. Every model turn is read as one family (``READING_*``), which the report's
"How answers were read" shows.
Deviation (documented): the reference stops every open case together when *no* case of the
batch finished for more than 3 turns after turn 10; here each episode stops on its own — after
``max_turns`` model turns (30), or after ``MAX_INVALID_IN_A_ROW`` (5) invalid replies in a row at
any turn (each was rolled back, so the model saw the same request five times) — so a case's
result never depends on which other cases share its batch.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from medprobe.methods.multicog.dialogue import prompts
from medprobe.methods.multicog.dialogue.actions import ACTIONS, read_action
from medprobe.methods.multicog.dialogue.cases import EXAM_TYPES, Case
from medprobe.methods.multicog.dialogue.exams import orderable_names, requested_ids, results_text
from medprobe.parsing.reading import NO_REPLY, UNPARSED
from medprobe.parsing.reply_text import strip_reasoning, visible
from medprobe.records import AnswerFormat, GenerationParams, Message, Request, Response, request_id

MAX_TURNS = 30
MAX_INVALID_IN_A_ROW = 5
CHARS_PER_TOKEN = 3.5  # conservative for English clinical text; used only to foresee overflow

# How a model turn was read (the report's "How answers were read"); unreadable turns use the shared
# ``unparsed`` / ``no reply`` families so that they count as parse failures there.
READING_ACTION = "action line"
READING_LIST = "exam list"
READING_EMPTY_LIST = "exam list, none available"  # read, but naming nothing the case has
READING_DIAGNOSIS = "diagnosis"
READING_SUMMARY = "summary"


def turn_seed(seed: int, run: int, turn: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}:{run}:{turn}".encode()).digest()[:4], "big") >> 1


def estimate_tokens(messages: list[Message]) -> int:
    return int(sum(len(m.content) + 16 for m in messages) / CHARS_PER_TOKEN)


@dataclass
class Episode:
    probe_id: str
    case: Case
    run: int
    seed: int
    params: GenerationParams
    context_tokens: int
    max_turns: int = MAX_TURNS
    messages: list[Message] = field(default_factory=list)
    done_actions: list[str] = field(default_factory=list)
    requested: dict[str, list[str]] = field(default_factory=dict)
    status: str = "open"
    reason: str = ""
    final_text: str = ""
    turn: int = 0
    wrong_streak: int = 0
    rolled_back: int = 0
    summaries: int = 0
    awaiting: str = "action"  # "action" | "summary"
    expecting: str = "action"  # what the last user turn asks for: "action", an exam type's list, "diagnosis"
    diagnosis_pool: tuple[str, ...] = ()  # diagnoses a baseline doctor may name (the run's case set)
    transcript: list[dict[str, Any]] = field(default_factory=list)
    readings: list[str] = field(default_factory=list)  # one reading family per model turn

    # --- construction --------------------------------------------------------------------------------

    @classmethod
    def start(cls, probe_id: str, case: Case, run: int, seed: int, params: GenerationParams, context_tokens: int, max_turns: int = MAX_TURNS) -> Episode:
        episode = cls(probe_id, case, run, seed, params, context_tokens, max_turns)
        opening = prompts.INSTRUCTIONS + prompts.START.format(history=case.history) + episode._choose()
        episode.messages = [Message(role="system", content=prompts.PERSONA), Message(role="user", content=opening)]
        episode._fit_first_turn()
        return episode

    # --- the two calls -------------------------------------------------------------------------------

    def request(self) -> Request:
        messages = self._summary_request() if self.awaiting == "summary" else self.messages
        return Request(
            id=request_id(self.probe_id, 0, self.turn),
            probe_id=self.probe_id,
            turn=self.turn,
            messages=messages,
            params=self.params,
            seed=turn_seed(self.seed, self.run, self.turn),
            answer_format=AnswerFormat(kind="free_text") if self.awaiting == "summary" else self._answer_format(),
        )

    def _answer_format(self) -> AnswerFormat:
        """The choices the current turn offers, for the baseline doctor (``random``): the actions
        left, the case's orderable exams of the type asked for, or the diagnosis pool. The answer
        format is no part of a request's cache key, so real models are unaffected."""
        if self.expecting == "diagnosis":
            return AnswerFormat(kind="dialogue_turn", given="Diagnosis:", options=list(self.diagnosis_pool))
        if self.expecting in EXAM_TYPES:
            kind = self.expecting
            return AnswerFormat(kind="dialogue_list", given=prompts.HEADERS[kind], options=orderable_names(self.case, kind))  # type: ignore[arg-type]
        return AnswerFormat(kind="dialogue_turn", given="Action:", options=self._available())

    def feed(self, response: Response | None) -> None:
        """Take the model's reply to :meth:`request` (None: the run stopped before it came)."""
        self.turn += 1
        if response is None or response.error is not None:
            self.readings.append(NO_REPLY)
        if response is None:
            self._stop("failed", "no reply recorded (the run was interrupted)")
            return
        if response.error is not None:
            if "context" in response.error.lower() and self.awaiting == "action" and self.turn > 1:
                self.awaiting = "summary"
                self._log("error", response.error)
                return
            self._stop("failed", f"model error: {response.error}")
            return
        cleaned = strip_reasoning(response.text)
        if cleaned.reasoning:  # the transcript keeps the whole reply; the chat only its answer part
            self._log("reasoning", response.text)
        reply = cleaned.text
        if self.awaiting == "summary":
            self._take_summary(reply)
        else:
            self._take_reply(reply)
        if self.status == "open":
            if self.turn >= self.max_turns:
                self._stop("failed", f"early stop: no diagnosis after {self.max_turns} turns")
            elif self.wrong_streak >= MAX_INVALID_IN_A_ROW:
                self._stop("failed", f"early stop: {MAX_INVALID_IN_A_ROW} invalid replies in a row")
            elif self.awaiting == "action" and estimate_tokens(self.messages) > self.context_tokens - self.params.max_tokens:
                self.awaiting = "summary"

    # --- protocol ------------------------------------------------------------------------------------

    def _available(self) -> list[str]:
        return [a for a in ACTIONS if a not in self.done_actions]

    def _choose(self) -> str:
        return prompts.CHOOSE.format(actions=", ".join(self._available()))

    def _say(self, text: str, wrong: bool = False, expecting: str = "action") -> None:
        self.messages.append(Message(role="user", content=text))
        self.expecting = expecting
        self.wrong_streak = self.wrong_streak + 1 if wrong else 0
        if wrong:
            self.done_actions.append("WRONG")
        self._log("user", text)

    def _log(self, role: str, text: str) -> None:
        self.transcript.append({"turn": self.turn, "role": role, "content": text})

    def _take_reply(self, reply: str) -> None:
        if self.done_actions and self.done_actions[-1] == "WRONG":
            del self.messages[-2:]  # the invalid reply and its warning
            self.done_actions.pop()
            self.rolled_back += 1
        self.messages.append(Message(role="assistant", content=reply))
        self._log("assistant", reply)
        expecting = "OUTPUT" in self.done_actions
        action = read_action(reply, expecting_diagnosis=expecting)
        lists = {"LAB_LIST": "LAB", "MICRO_LIST": "MICRO", "IMAGE_LIST": "IMAGE"}
        self.readings.append(_reading(action.kind, expecting, lists))
        if action.kind == "FINISH":
            self.final_text = reply
            self._stop("done", "diagnosis given")
            return
        if expecting:
            self._say(prompts.NO_DIAGNOSIS, wrong=True, expecting="diagnosis")
            return
        if self._available() == ["OUTPUT"] and action.kind not in lists:
            self.done_actions.append("OUTPUT")
            self._say(prompts.ENFORCE_DIAGNOSIS, expecting="diagnosis")
        elif action.kind == "PE":
            self._do_pe()
        elif action.kind in EXAM_TYPES:
            self._ask_list(action.kind)
        elif action.kind in lists:
            self._give_results(lists[action.kind], visible(reply))
        elif action.kind == "OUTPUT":
            self.done_actions.append("OUTPUT")
            self._say(prompts.ASK_DIAGNOSIS, expecting="diagnosis")
        else:
            self._say(prompts.INVALID.format(actions=", ".join(self._available())) + self._choose(), wrong=True)

    def _do_pe(self) -> None:
        if "PE" in self.done_actions:
            self._say(prompts.PE_DONE + self._choose())
            return
        self.done_actions.append("PE")
        findings = self.case.physical_exam.strip()
        text = prompts.PE_RESULT.format(findings=findings) if findings else prompts.PE_NONE
        studies = "\n".join(f"{e.name}: {e.result}" for e in self.case.exams_of("OTHER"))
        if studies:  # ECG, EEG, endoscopy, …: no exam type of their own, so they come with the examination
            text += prompts.OTHER_STUDIES.format(lines=studies)
        self._say(text + self._choose())

    def _ask_list(self, kind: str) -> None:
        words = prompts.KIND_WORDS[kind]
        if kind in self.done_actions or kind in self.requested:
            self._say(prompts.ALREADY_USED.format(words=words) + self._choose(), wrong=True)
            return
        if not self.case.exams_of(kind):  # type: ignore[arg-type]
            self.done_actions.append(kind)
            self._say(prompts.NONE_OF_KIND.format(words=words) + self._choose())
            return
        self.done_actions.append(kind)
        self._say(prompts.ASK_LIST.format(kind=kind, words=words, header=prompts.HEADERS[kind]), expecting=kind)

    def _give_results(self, kind: str, reply: str) -> None:
        words = prompts.KIND_WORDS[kind]
        if kind in self.requested:
            self._say(prompts.ALREADY_USED.format(words=words) + self._choose(), wrong=True)
            return
        record = {e.id for e in self.case.exams_of(kind)}  # type: ignore[arg-type]
        asked = requested_ids(self.case, kind, reply, prompts.HEADERS[kind])  # type: ignore[arg-type]
        valid = asked & record
        if kind not in self.done_actions:
            self.done_actions.append(kind)
        if not valid:  # the reply is rolled back; the list request stays open, the action stays used
            self.readings[-1] = READING_EMPTY_LIST
            self._say(prompts.NO_VALID.format(words=words) + self._choose(), wrong=True)
            return
        self.requested[kind] = sorted(valid)
        lines = results_text(self.case, kind, valid)  # type: ignore[arg-type]
        self._say(prompts.RESULTS.format(words=words, lines=lines) + self._choose())

    # --- context -------------------------------------------------------------------------------------

    def _budget(self) -> int:
        return int((self.context_tokens - self.params.max_tokens) * CHARS_PER_TOKEN)

    def _fit_first_turn(self) -> None:
        """Shorten the history (never the instructions) until the first turn fits."""
        overflow = sum(len(m.content) + 16 for m in self.messages) - self._budget()
        if overflow <= 0:
            return
        history = self.case.history
        keep = max(0, len(history) - overflow - 50)
        shortened = history[:keep] + " […]"
        opening = prompts.INSTRUCTIONS + prompts.START.format(history=shortened) + self._choose()
        self.messages[-1] = Message(role="user", content=opening)
        self._log("note", f"history shortened by {len(history) - keep} characters to fit the context")

    def _summary_request(self) -> list[Message]:
        """The chat to summarize, cut to fit: the opening turn and as many recent messages as
        the context allows, then the request for a summary."""
        head, ask = self.messages[:2], Message(role="user", content=prompts.SUMMARIZE)
        room = self._budget() - sum(len(m.content) + 16 for m in [*head, ask])
        tail: list[Message] = []
        for message in reversed(self.messages[2:]):
            room -= len(message.content) + 16
            if room < 0:
                break
            tail.insert(0, message)
        return [*head, *tail, ask]

    def _take_summary(self, reply: str) -> None:
        self._log("summary", reply)
        self.awaiting = "action"
        summary = reply.split("Summary:", 1)[-1].strip()
        self.readings.append(READING_SUMMARY if summary else UNPARSED)
        if not summary:
            self._stop("failed", "failed to summarize the chat")
            return
        last_user = next(m.content for m in reversed(self.messages) if m.role == "user")
        budget = self._budget() - len(prompts.INSTRUCTIONS) - len(last_user) - 200
        if budget <= 0:
            self._stop("failed", "failed to summarize: the last message alone exceeds the context")
            return
        content = prompts.INSTRUCTIONS + prompts.RESUME.format(summary=summary[:budget]) + last_user
        self.messages = [self.messages[0], Message(role="user", content=content)]
        self.summaries += 1
        if self.done_actions and self.done_actions[-1] == "WRONG":
            # The pending warning now lives inside the resumed turn: there is no invalid reply left to
            # roll back, and rolling back would delete the system prompt and the summary (§5.1 skips
            # the rollback the turn a case is summarized).
            self.done_actions.pop()

    def _stop(self, status: str, reason: str) -> None:
        self.status, self.reason = status, reason
        self._log("end", f"{status}: {reason}")

    # --- results -------------------------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        return {
            "episode": self.probe_id,
            "case": self.case.id,
            "run": self.run,
            "status": self.status,
            "reason": self.reason,
            "turns": self.turn,
            "rolled_back": self.rolled_back,
            "summaries": self.summaries,
            "requested": self.requested,
            "final_text": self.final_text,
            "transcript": self.transcript,
        }


def _reading(kind: str, expecting_diagnosis: bool, lists: dict[str, str]) -> str:
    """The family a parsed reply belongs to; a reply the protocol cannot use at this point (no
    diagnosis after OUTPUT, or no recognisable action) is ``unparsed``."""
    if kind == "FINISH":
        return READING_DIAGNOSIS
    if expecting_diagnosis or kind == "UNPARSED":
        return UNPARSED
    return READING_LIST if kind in lists else READING_ACTION
