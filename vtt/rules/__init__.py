"""The rules of five d6 games, as pure Python. Imports nothing from Django."""

from .engine import adjudicate, encode
from .errors import RulesError
from .odds import odds

__all__ = ["RulesError", "adjudicate", "encode", "odds"]
