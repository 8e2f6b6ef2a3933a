"""The database plumbing the busiest write paths share, with no word of the
domain in it: statements written out with the instances the ORM would give
(rows) and the transactions that refuse as a whole (transactions). Django
only; it imports nothing of vtt."""
