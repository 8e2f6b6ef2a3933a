"""Combat on the battle map: attacks that measure range and sight and apply
each game's wound chain, undo, turn order, movement trails and range bands."""
