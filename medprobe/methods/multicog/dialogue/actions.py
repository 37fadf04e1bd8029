"""What the model chose in one turn of a MultiCogEval full-path episode.

``parse_action`` reproduces the public reference's ``action_parser`` (THUMLP/MultiCogEval,
``scripts/evaluate_high_level.py``) as recorded in REFERENCE_METHODS §5.1, with one documented
deviation (§4.4 item 10). The dialogue reads a reply with ``read_action``: the same steps under the
strict reader's rules (see there). The dialogue's path depends on how each turn was read, so one
reading serves both grading modes: a replayed run must take the path its model saw.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from medprobe.parsing.reply_text import visible

ACTIONS = ("PE", "LAB", "IMAGE", "MICRO", "OUTPUT")
"""The five actions, in the order the reference tests them against the chosen text."""

LIST_HEADERS = {"IMAGE_LIST": "Imaging scans:", "LAB_LIST": "Lab Tests:", "MICRO_LIST": "Microbiology tests:"}
"""Exam-list headers the LAB/IMAGE/MICRO prompts ask for, in the order the reference checks them
(exact case)."""

_RATIONALE = "Rationale:"
_DIAGNOSIS_LINE = re.compile(r"Diagnosis:([^\n]*)", re.IGNORECASE)
_CHOICE_ON_LAST_LINE = re.compile(r"Action:(.*)\Z", re.IGNORECASE)
_CHOICE_ON_ANY_LINE = re.compile(r"Action:(.*)\n", re.IGNORECASE)
#: an action named as a word of its own ("LAB", "LABS"), not inside another word ("PERFORM" holds "PE")
_ACTION_WORD = re.compile(r"(?<![A-Za-z])(" + "|".join(ACTIONS) + r")S?(?![A-Za-z])")


@dataclass(frozen=True)
class Action:
    """One parsed reply.

    ``kind`` is an action in ``ACTIONS`` (``text`` = the chosen text after "Action:"), an exam
    list ``LAB_LIST``/``MICRO_LIST``/``IMAGE_LIST`` (``text`` = the reply from its last
    "Rationale:" on, which holds the header: the reference hands exactly this to the request
    parser, and the imaging parser reads regions from the rationale too), ``FINISH`` (``text`` =
    the diagnosis line) or ``UNPARSED`` (``text`` = the reply from its last "Rationale:" on).
    """

    kind: str
    text: str


def _chosen_text(reply: str) -> str:
    """The text after "Action:": on the last line if one holds it, else on the first line that does.

    This is what the reference's two patterns (``Action:(.*)\\Z`` tried before ``Action:(.*)\\n``,
    both ignoring case) amount to.
    """
    found = _CHOICE_ON_LAST_LINE.search(reply) or _CHOICE_ON_ANY_LINE.search(reply)
    return found.group(1).strip() if found else ""


def parse_action(reply: str, expecting_diagnosis: bool = False) -> Action:
    """Classify a reply the way the reference's ``action_parser`` and dispatcher do (§5.1).

    1. Keep the text from the last "Rationale:" on.
    2. An exam-list header ("Imaging scans:", "Lab Tests:", "Microbiology tests:"; exact case,
       in that order) makes it a list.
    3. "Diagnosis:" and "Treatment:" both present (exact case) finish the episode; the diagnosis
       is the rest of the first line holding "diagnosis:" (any case).
    4. "Action:" present: the chosen text becomes the first of PE, LAB, IMAGE, MICRO, OUTPUT it
       contains (exact case, substring — "Action: LAB (blood work)" is LAB); none → UNPARSED.
    5. Anything else is UNPARSED.

    Deviation (§4.4 item 10): the paper's OUTPUT prompt asks only for a diagnosis, while the
    reference ends an episode only when "Treatment:" is there too. With
    ``expecting_diagnosis=True`` "Diagnosis:" alone finishes. The dialogue passes it once the model
    has chosen OUTPUT (or been told to decide), so there a diagnosis without a treatment finishes;
    before that a reply needs both, as in the reference.
    """
    start = reply.rfind(_RATIONALE)
    text = reply[start:] if start >= 0 else reply
    for kind, header in LIST_HEADERS.items():
        if header in text:
            return Action(kind, text)
    if "Diagnosis:" in text and ("Treatment:" in text or expecting_diagnosis):
        line = _DIAGNOSIS_LINE.search(text)
        return Action("FINISH", line.group(1).strip() if line else "")
    if "Action:" in text:
        chosen = _chosen_text(text)
        for action in ACTIONS:
            if action in chosen:
                return Action(action, chosen)
    return Action("UNPARSED", text)


def read_action(reply: str, expecting_diagnosis: bool = False) -> Action:
    """A reply as the dialogue reads it: ``parse_action`` under the strict reader's rules.

    * Invisible characters (zero-width space, soft hyphen, byte-order mark) are removed and full-width
      forms folded first, so that "Action：LAB", "Action: ＬＡＢ" and "Diag\u200bnosis:" are read.
    * The chosen action is the one action the "Action:" line names as a word. The reference takes the
      first of PE, LAB, IMAGE, MICRO, OUTPUT found anywhere in the line, so "PERFORM LAB" read as PE and
      "LAB (PE is done)" as PE; a line naming several ("LAB or IMAGE") is a hedge, and one naming none
      ("none of the above") gives no action: both are unparsed, and the model is asked again.
    """
    action = parse_action(visible(reply), expecting_diagnosis)
    if action.kind not in ACTIONS:
        return action
    named = set(_ACTION_WORD.findall(action.text))
    return Action(named.pop(), action.text) if len(named) == 1 else Action("UNPARSED", action.text)
