# The live room's clients, for the templates' socket tests.
from tests.live.conftest import clients, close_live_database_threads  # noqa: F401
