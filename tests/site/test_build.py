"""The built site: a page for every run in both languages, a chart for every suite, redacted
by construction and checked anyway, the same bytes from the same archive."""

from __future__ import annotations

import filecmp
import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from jinja2 import Environment
from jinja2.bccache import Bucket

from generator.cli import cli
from generator.document.codec import read_run
from generator.site.templates import KeptTemplates
from tests._helpers import MARKERS
from tests.site.conftest import REPOSITORY, SCRIPT_CASE, runsite


def _runs(root: Path) -> list[tuple[str, str, str]]:
    listed = json.loads(runsite("list", "--json", "--root", str(root)))
    return [(entry["tenant"], entry["suite"], entry["key"]) for entry in listed]


def test_every_run_has_a_page_in_both_languages_at_an_address_made_of_its_names(built: Path):
    runs = _runs(built)
    demo = len(list(REPOSITORY.glob("runs/*/*/*.json")))
    assert demo == 12 and len(runs) == demo + 24 + 1  # the demo's, the corpus's, the planted
    for tenant, suite, key in runs:
        for language in ("", "it/"):
            page = built / "site" / f"{language}runs/{tenant}/{suite}/{key}/index.html"
            assert page.is_file(), page


def test_every_suite_has_a_history_chart_in_both_languages(built: Path):
    suites = {(tenant, suite) for tenant, suite, _ in _runs(built)}
    for tenant, suite in suites:
        for language in ("", "it/"):
            page = (built / "site" / f"{language}suites/{tenant}/{suite}/index.html").read_text()
            assert 'data-chart="history-1"' in page, (tenant, suite, language)


def test_no_planted_marker_is_anywhere_in_the_site_search_index_included(built: Path):
    found = {
        (path.relative_to(built / "site").as_posix(), field)
        for path in (built / "site").rglob("*")
        if path.is_file() and path.suffix in (".html", ".json", ".xml", ".js", ".css")
        for field, marker in MARKERS.items()
        if marker in path.read_text(encoding="utf-8", errors="replace")
    }
    assert found == set()
    assert (built / "site" / "search" / "search_index.json").is_file()


def test_a_case_id_with_markup_is_written_as_text(built: Path):
    page = next((built / "site" / "runs" / "acme" / "planted").glob("*/index.html")).read_text()
    assert SCRIPT_CASE not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_run_pages_stay_out_of_the_navigation(built: Path):
    home = (built / "site" / "index.html").read_text()
    navigation = home[
        home.index('<nav class="md-nav md-nav--primary"') : home.index(
            "</nav>", home.index('<nav class="md-nav md-nav--primary"')
        )
    ]
    assert "suites/" in navigation
    assert "runs/" not in navigation


def test_a_run_page_says_what_was_withheld_and_what_the_disclosure_released(built: Path):
    page = next((built / "site" / "runs" / "acme" / "refund-agent").glob("*/index.html"))
    text = page.read_text()
    assert "recorded answers: what the model said and what it was asked" in text
    assert "tool names: lookup_order, refund" in text


def test_nothing_on_any_page_is_fetched_from_outside_the_site(built: Path):
    outside = [
        path.relative_to(built / "site").as_posix()
        for path in (built / "site").rglob("*.html")
        if "fonts.googleapis" in path.read_text() or "cdn." in path.read_text()
    ]
    assert outside == []
    assert (built / "site" / "javascripts" / "plotly-basic.min.js").stat().st_size > 1_000_000


def test_two_builds_of_one_archive_are_the_same_bytes(built: Path, tmp_path: Path):
    runsite("build", "--root", str(built), "--out", str(tmp_path / "again"))
    comparison = filecmp.dircmp(built / "site", tmp_path / "again")

    def differences(c: filecmp.dircmp[str]) -> list[str]:
        _, mismatch, errors = filecmp.cmpfiles(c.left, c.right, c.common_files, shallow=False)
        found = [*mismatch, *errors, *c.left_only, *c.right_only]
        return found + [d for sub in c.subdirs.values() for d in differences(sub)]

    assert differences(comparison) == []


def test_a_payload_string_on_a_page_fails_the_build_and_the_previous_site_stays(built: Path):
    user_config = built / "mkdocs.yml"
    before = (built / "site" / "index.html").read_bytes()
    user_config.write_text(f"copyright: {MARKERS['output']} and more\n", encoding="utf-8")
    try:
        result = CliRunner().invoke(
            cli, ["build", "--root", str(built), "--out", str(built / "site")]
        )
    finally:
        user_config.unlink()
    assert result.exit_code == 64
    assert result.stderr.startswith(f"runsite: {built / 'site'}/")
    assert "carries the payload of results[0].responses[0].output" in result.stderr
    assert (built / "site" / "index.html").read_bytes() == before


def test_a_folder_runsite_did_not_build_is_never_replaced(built: Path, tmp_path: Path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    result = CliRunner().invoke(
        cli, ["build", "--root", str(built), "--out", str(tmp_path / "mine")]
    )
    assert result.exit_code == 64
    assert "a folder runsite did not build" in result.stderr
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"


@pytest.mark.parametrize("language", ["", "it/"])
def test_a_run_page_has_its_reading_and_checks_in_its_language(built: Path, language: str):
    key = _runs(built)[-1]
    run_file = next((built / "runs").rglob(f"{key[2]}.json"))
    run = read_run(run_file.read_bytes()).run
    page = (
        built / "site" / f"{language}runs/{run.tenant}/{run.suite}/{run.key}/index.html"
    ).read_text()
    heading = "The run in figures" if not language else "L&#39;esecuzione in cifre"
    assert heading in page or heading.replace("&#39;", "'") in page
    assert f'lang="{language.strip("/") or "en"}"' in page


def test_each_language_searches_its_own_pages(built: Path):
    english = json.loads((built / "site" / "search" / "search_index.json").read_text())
    italian = json.loads((built / "site" / "it" / "search" / "search_index.json").read_text())
    assert english["config"]["lang"] == ["en"] and italian["config"]["lang"] == ["it"]
    assert not any(entry["location"].startswith("it/") for entry in english["docs"])
    assert "Esecuzioni delle valutazioni" in {entry["title"] for entry in italian["docs"]}
    assert "Evaluation runs" in {entry["title"] for entry in english["docs"]}
    page = (built / "site" / "it" / "suites" / "acme" / "support" / "index.html").read_text()
    assert '"base": "../../../../it/"' in page


def test_run_pages_wear_the_users_palette_logo_and_copyright(built: Path, tmp_path: Path):
    user_config = built / "mkdocs.yml"
    user_config.write_text(
        "theme:\n  palette:\n    primary: deep orange\n  icon:\n    logo: material/rocket\n"
        "copyright: Published by the evaluation team\n",
        encoding="utf-8",
    )
    try:
        runsite("build", "--root", str(built), "--out", str(tmp_path / "look"))
    finally:
        user_config.unlink()
    home = (tmp_path / "look" / "index.html").read_text()
    for page in [*(tmp_path / "look" / "runs").rglob("index.html")][:3]:
        text = page.read_text()
        assert 'data-md-color-primary="deep-orange"' in text
        assert "Published by the evaluation team" in text
        logo = home[home.index('class="md-header__button md-logo"') :][:1500]
        assert logo[logo.index("<svg") : logo.index("</svg>")] in text


def test_a_sitemap_names_pages_at_the_sites_address_and_there_is_none_without_one(
    built: Path, tmp_path: Path
):
    assert not [*(built / "site").rglob("sitemap.xml*")]
    (built / "mkdocs.yml").write_text("site_url: https://evals.example/team/\n", encoding="utf-8")
    try:
        runsite("build", "--root", str(built), "--out", str(tmp_path / "placed"))
    finally:
        (built / "mkdocs.yml").unlink()
    sitemap = (tmp_path / "placed" / "sitemap.xml").read_text(encoding="utf-8")
    places = re.findall(r"<loc>([^<]*)</loc>", sitemap)
    assert "https://evals.example/team/it/suites/acme/support/" in places
    assert all(place.startswith("https://evals.example/team/") for place in places)
    assert "runsite-shell" not in sitemap


def test_a_comparison_with_the_previous_run_never_calls_it_the_reference(built: Path):
    checked = 0
    for page in (built / "site" / "diffs").rglob("index.html"):
        text = page.read_text(encoding="utf-8")
        article = text[text.index("<article") : text.index("</article>")]
        if "against the previous run</h1>" in article:
            assert "reference" not in article.lower(), page
            italian = built / "site" / "it" / page.relative_to(built / "site")
            body = italian.read_text(encoding="utf-8")
            assert "riferimento" not in body[body.index("<article") : body.index("</article>")]
            checked += 1
    assert checked > 0


def test_a_compiled_template_whose_cache_is_gone_is_just_not_kept(tmp_path: Path):
    kept = KeptTemplates(str(tmp_path / "templates"))
    (tmp_path / "templates").mkdir()
    bucket = Bucket(Environment(), "base.html", "checksum")
    bucket.code = compile("x = 1", "base.html", "exec")
    kept.dump_bytecode(bucket)
    assert len(list((tmp_path / "templates").iterdir())) == 1
    shutil.rmtree(tmp_path / "templates")
    kept.dump_bytecode(bucket)
    assert not (tmp_path / "templates").exists()
