"""Accounts: how many failed log-ins a client may make (login_limits.py)
and which address a request comes from (client_address.py). Signing up,
logging in and out are pages of vtt.web; the API trades passwords for
tokens in vtt.api."""
