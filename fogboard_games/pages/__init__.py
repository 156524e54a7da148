"""Pages: self-contained HTML views of the games (docs/pages.md).

Each page is one file with its CSS, script and SVG inline, fetching nothing
when opened, so it can be mailed or attached to a paper. Text that comes
from outside (names, a text seat's `say` and `notes`, anything read from a
file) is placed into a page as text, never as markup.
"""

from fogboard_games.pages.review import review_page, write_review_page

__all__ = ["review_page", "write_review_page"]
