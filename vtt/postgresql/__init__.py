"""Django's PostgreSQL backend, with its batches sized for server-side
binding (base.py)."""
