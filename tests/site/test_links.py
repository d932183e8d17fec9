"""A link between two pages runsite writes lands on the page it names, from any page to any
other: home, suite, run and comparison pages sit at different depths."""

from __future__ import annotations

from urllib.parse import quote, urljoin

from hypothesis import given
from hypothesis import strategies as st

from generator.site.writer import href, suite_path

_SEGMENT = st.text(alphabet="az09-_ %#?é✓", min_size=1, max_size=6).filter(
    lambda part: part not in (".", "..")
)
_PAGE = st.one_of(
    st.just("index.md"),
    st.lists(_SEGMENT, min_size=1, max_size=5).map(lambda parts: "/".join(parts) + ".md"),
)
SITE = "https://example.org/site/"


def _address(page: str) -> str:
    """Where the site serves ``page``: a folder of its own, the home page at the top."""
    stem = page.removesuffix(".md")
    if stem == "index":
        return SITE
    return SITE + "/".join(quote(part, safe="") for part in stem.split("/")) + "/"


@given(_PAGE, _PAGE)
def test_a_link_from_a_page_lands_on_the_page_it_names(source, target):
    assert urljoin(_address(source), href(source, target)) == _address(target)


def test_a_link_climbs_to_the_common_folder_and_down_again():
    run = "runs/acme/support/2026-12-01T10-00-01-000000-00-00-b2a55669ae7e0169.md"
    assert href("suites/acme/support.md", run) == f"../../../{run.removesuffix('.md')}/"
    assert href(run, "index.md") == "../../../../"
    assert href(run, run) == "./"
    assert href("index.md", "suites/a b/c%.md") == "suites/a%20b/c%25/"


def test_a_suite_named_as_mkdocs_names_a_folders_page_is_linked_at_its_own_folder():
    run = "runs/acme/index/2026-12-01T10-00-01-000000-00-00-b2a55669ae7e0169.md"
    for suite in ("index", "README", "Index"):
        assert href("index.md", suite_path("acme", suite)) == f"suites/acme/{suite}/"
    assert href(run, suite_path("acme", "index")) == "../../../../suites/acme/index/"
    assert href(suite_path("acme", "index"), run) == f"../../../{run.removesuffix('.md')}/"
