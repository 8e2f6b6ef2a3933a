"""The settings a site served for the tests runs with (tests/browser,
tests/served.py): the project's own, with Django's fast MD5 hasher, as the
test process itself uses (tests/conftest.py), and static files cached as
production caches them. The default hasher costs most of a second of CPU a
password by design, paid again at every user a seed makes and every log-in
a page types; no served site tests the hasher."""

from vtt.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Static files cached for a minute, as production answers them (WhiteNoise's
# default without DEBUG): under DEBUG a page's second load in one browser
# asked again for each of its ninety modules.
WHITENOISE_MAX_AGE = 60
