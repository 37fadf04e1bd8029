"""The wording of the full-path diagnosis dialogue, written for medprobe.

Structure follows MultiCogEval (paper 002, Appendix A.3) and its reference code: five actions
(PE, LAB, MICRO, IMAGE, OUTPUT), a "Rationale: / Action:" reply format, exam lists under the
headers "Lab Tests:", "Microbiology tests:" and "Imaging scans:" (the parsers key on them), and a
final "Diagnosis: / Treatment:" answer. The sentences are ours.
"""

from __future__ import annotations

PERSONA = "You are a careful clinical decision-support assistant working alongside a physician."

HEADERS = {"LAB": "Lab Tests:", "MICRO": "Microbiology tests:", "IMAGE": "Imaging scans:"}
KIND_WORDS = {"LAB": "laboratory tests", "MICRO": "microbiology tests", "IMAGE": "imaging studies"}

INSTRUCTIONS = """You are helping a physician find out what is wrong with a patient. You start with the patient's history and may then gather more information, one kind at a time:

1. PE: examine the patient and receive the physical examination findings.
2. LAB: order laboratory tests and receive all their results at once.
3. MICRO: order microbiology tests and receive all their results at once.
4. IMAGE: order imaging studies and receive all the radiology reports at once.
5. OUTPUT: give your final diagnosis.

Order tests only when they help the diagnosis. When you are confident, choose OUTPUT and you will be asked for the diagnosis.

Always reply in this format:
Rationale: (why you choose the next step)
Action: (one of PE, LAB, IMAGE, MICRO, OUTPUT)"""

START = "\n\nA new patient arrives.\nHistory: {history}\n\n"
CHOOSE = "Choose your next action from [{actions}]."
PE_RESULT = "Physical examination findings: {findings}\n\n"
PE_NONE = "No physical examination findings are available for this patient.\n\n"
OTHER_STUDIES = "Other studies already done:\n{lines}\n\n"
PE_DONE = "The physical examination has already been done.\n\n"
ASK_LIST = (
    "You chose {kind}. List the {words} you want, in this format:\n"
    "Rationale: (why you want them)\n{header} (their names, separated by commas)"
)
NONE_OF_KIND = "No {words} are available for this patient.\n\n"
RESULTS = "Results of the requested {words}:\n{lines}\n\n"
NO_VALID = "None of the requested {words} is available for this patient (no valid tests found).\n\n"
ALREADY_USED = "The {words} have already been done.\n\n"
INVALID = (
    "That action is not available, or the reply is not in the required format. Reply in this format:\n"
    "Rationale: (why you choose the next step)\nAction: (one of [{actions}])\n\n"
)
ASK_DIAGNOSIS = (
    "You chose OUTPUT. Give your final diagnosis in this format:\n"
    "Diagnosis: (the specific disease)\nTreatment: (the treatment plan)"
)
ENFORCE_DIAGNOSIS = "All other steps are done; it is time to decide.\n" + ASK_DIAGNOSIS.removeprefix("You chose OUTPUT. ")
NO_DIAGNOSIS = "Your reply contains no diagnosis.\n" + ASK_DIAGNOSIS.removeprefix("You chose OUTPUT. ")
SUMMARIZE = (
    "Summarize our conversation as briefly as you can while keeping every fact that matters for the diagnosis "
    "(history, examination findings, test results). Reply in this format:\nSummary: (the summary)"
)
RESUME = "\n\nSummary of the consultation so far: {summary}\n\n"
