"""MultiCogEval high level: the full-path diagnosis dialogue (cases, the agent state machine, exam and
diagnosis matching, episode probes and replay scoring in ``episodes``)."""
