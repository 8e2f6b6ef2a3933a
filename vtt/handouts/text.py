"""A handout's text: Markdown rendered on the server into HTML the browser
may insert as it is. Two locks: markdown-it renders with raw HTML off (a
<script> typed in stays text) and refuses javascript:/data: links; nh3
(Ammonia) then keeps only the tags and link schemes listed here. An image
in the text is dropped (no <img> is kept): a handout shows only its own
uploaded picture, never one fetched from elsewhere."""

import nh3
from markdown_it import MarkdownIt

MAX_TEXT = 20_000  # characters of Markdown: a long letter, not a book

TAGS = {
    "p", "br", "hr", "em", "strong", "del", "code", "pre", "blockquote",
    "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "a",
    "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip
SCHEMES = {"http", "https", "mailto"}

_markdown = MarkdownIt("commonmark", {"html": False}).enable("table")


def render(text: str) -> str:
    """The safe HTML of a handout's Markdown."""
    return nh3.clean(
        _markdown.render(text),
        tags=TAGS,
        attributes={"a": {"href", "title"}},
        url_schemes=SCHEMES,
        link_rel="noopener noreferrer nofollow",
    )
