"""The cross-method knowledge profile: one sample of knowledge points (disease x aspect), probed by
every method, joined point by point.

Each method alone says how often a model is right its own way. Asked on the same points, they say
more: which points a model knows whichever way it is asked, and which it answers right one way and
wrong another (an *illusion* of knowledge: right on the MCQ, wrong when the same fact is to be
recalled or verified). ``points`` draws the shared sample and the runs' plans, ``join`` reads finished
runs back point by point, ``analysis`` computes the profile, ``report`` writes it, and ``oracle``
writes the answers of a model that knows a chosen set of points (to check the profile recovers it).
"""
