"""medprobe inside other tools: inspect_ai tasks, lm-evaluation-harness task folders and Hugging Face
datasets. The harness only asks the questions; reading the replies and every metric stay medprobe's own
(``medprobe.integrations.harness``), so a harness's numbers are the numbers ``medprobe run`` prints on
the same probes and replies."""
