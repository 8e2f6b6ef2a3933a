"""A whole campaign as one archive, and back (docs/backup.md)."""

from .archive import BadArchive, max_archive_bytes
from .export import export_campaign
from .restore import import_campaign

__all__ = ["BadArchive", "export_campaign", "import_campaign", "max_archive_bytes"]
