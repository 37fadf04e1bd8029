"""The four built-in methods, one folder each. Their common contract lives in medprobe.contract, below the
engine and every method, so that neither depends on the other."""
