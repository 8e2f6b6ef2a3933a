"""Xero Sum, the whole game: its rules (rules/, Django-free), its kit
(kit.py) and what the kit uses, and its demo campaign (demo.py). The rules
in words: docs/rules.md, "Xero Sum (`xerosum`)".

Kept empty so that importing the rules loads nothing else (see vtt.games)."""
