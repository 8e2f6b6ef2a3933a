"""Rd6, the whole game: its rules (rules/, Django-free), its kit
(kit.py) and what the kit uses, and its demo campaign (demo.py). The rules
in words: docs/rules.md, "Rd6 (`rd6`)".

Kept empty so that importing the rules loads nothing else (see vtt.games)."""
