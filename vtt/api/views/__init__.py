"""The tabletop's REST views: parse, call a service or a selector, render."""
