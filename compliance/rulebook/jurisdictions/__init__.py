"""Each jurisdiction's facts, one module each: its citations, numbers and tables.

The rules that apply them are shared (procedure.py, equipment.py, approvals.py, games/); a
jurisdiction's rulebook is its facts (each module's `FACTS`) with those rules (rulebooks.py).
"""
