"""What every part shares and nothing decides: the bounds a value must keep
(shapes) and the refusals a service gives (errors). It imports nothing of
vtt, so the game kits and the table can both use it."""
