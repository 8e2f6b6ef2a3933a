"""Uploaded pictures: read, bounded, re-encoded and cut into thumbnails
(images). Below the table, which stores them on its rows."""
