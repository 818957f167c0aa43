"""Collective patterns (spec 002 §9): several engines or kernels behind one entry.

``router``: `ragix ask GOAL` routes a goal to the specialist engine that fits it, by general rules
first and a model label when the rules cannot tell, and says which it chose and why.
"""
