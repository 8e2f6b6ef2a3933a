"""Combat's writes. Named <entity>_<action> with keyword-only arguments like
the tabletop's services; each checks who asks, writes in one transaction
and appends its one room event there."""
