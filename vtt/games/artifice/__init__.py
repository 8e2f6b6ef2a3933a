"""Artifice, the whole game: its rules (rules/, Django-free), its kit
(kit.py) and what the kit uses, and its demo campaign (demo.py). The rules
in words: docs/rules.md, "Artifice (`artifice`)".

Kept empty so that importing the rules loads nothing else (see vtt.games)."""
