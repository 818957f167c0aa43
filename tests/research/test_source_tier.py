"""SourceTierFilter exactly as spec 004 §3.2 says, the sources file, and glob matching."""

from __future__ import annotations

import pytest

from ragix_core.config import ConfigError, RagixConfig, parse_config
from ragix_core.research import NoValidSourcesError, SourceTierFilter
from ragix_core.research.filters.source_tier import WARNING
from ragix_core.research.settings import SourceMap, glob_regex, load_settings

TIERS = {"Registry": {"tier": 1, "type": "official"}, "Gazette": {"tier": 2, "type": "news"},
         "Blog": {"tier": 3, "type": "digital"}, "Forum": {"tier": 5, "type": "social"}}


def items(*sources):
    return [{"site": s, "description": f"text from {s}", "chunk": f"c{i}"} for i, s in enumerate(sources)]


def test_filter_strict_mode_tier_filtering():
    kept = SourceTierFilter(TIERS).filter_and_enrich(items("Registry", "Gazette", "Blog", "Forum"), "strict")
    assert [k["site"] for k in kept] == ["Registry", "Gazette"]


def test_filter_strict_mode_unknown_sources():
    kept = SourceTierFilter(TIERS).filter_and_enrich(items("Registry", "Somebody"), "strict")
    assert [k["site"] for k in kept] == ["Registry"]


def test_filter_discovery_mode_keeps_all_with_a_warning_on_tiers_3_to_5():
    kept = SourceTierFilter(TIERS).filter_and_enrich(items("Registry", "Blog", "Forum", "Somebody"), "discovery")
    assert [k["site"] for k in kept] == ["Registry", "Blog", "Forum", "Somebody"]
    assert [WARNING in k["description"] for k in kept] == [False, True, True, True]


def test_filter_monitor_mode_keeps_all_for_comparison():
    kept = SourceTierFilter(TIERS).filter_and_enrich(items("Registry", "Forum"), "monitor")
    assert [k["_reasoning_metadata"]["tier"] for k in kept] == [1, 5]
    assert not any(WARNING in k["description"] for k in kept)


def test_enrichment_adds_tier_prefix():
    kept = SourceTierFilter(TIERS).filter_and_enrich(items("Gazette", "Somebody"), "discovery")
    assert kept[0]["description"] == "[Tier 2 | news] text from Gazette"
    assert kept[1]["description"].startswith("[Tier ? | unknown] ")


def test_enrichment_adds_metadata_and_leaves_the_input_alone():
    given = items("Forum")
    kept = SourceTierFilter(TIERS).filter_and_enrich(given, "discovery")
    assert kept[0]["_reasoning_metadata"] == {"tier": 5, "type": "social", "original_source": "Forum"}
    assert "_reasoning_metadata" not in given[0] and given[0]["description"] == "text from Forum"


def test_no_valid_sources_error_raised():
    with pytest.raises(NoValidSourcesError, match="tier <= 2"):
        SourceTierFilter(TIERS).filter_and_enrich(items("Blog", "Forum", "Somebody"), "strict")


def test_mode_limits_come_from_mode_configs():
    f = SourceTierFilter(TIERS, {"strict": {"max_tier": 3}, "discovery": {"max_tier": 4}})
    assert [k["site"] for k in f.filter_and_enrich(items("Blog", "Forum"), "strict")] == ["Blog"]
    assert [k["site"] for k in f.filter_and_enrich(items("Blog", "Forum"), "discovery")] == ["Blog"]
    with pytest.raises(ValueError, match="unknown research mode"):
        f.filter_and_enrich(items("Blog"), "fast")


def test_get_tier():
    f = SourceTierFilter(TIERS)
    assert f.get_tier("Forum") == 5 and f.get_tier("nobody") is None


@pytest.mark.parametrize("glob,path,matches", [
    ("docs/**", "docs/a/b.md", True), ("docs/**", "docsx/a.md", False), ("docs/*.md", "docs/a/b.md", False),
    ("docs/*.md", "docs/b.md", True), ("**/faq.html", "faq.html", True), ("**/faq.html", "a/b/faq.html", True),
    ("forum/?.txt", "forum/1.txt", True), ("a+b/*", "a+b/x", True),
])
def test_globs(glob, path, matches):
    assert bool(glob_regex(glob).match(path)) is matches


def test_first_matching_glob_names_the_source():
    cfg = parse_config({"research": {"sources": {"docs/faq/**": "FAQ", "docs/**": "Docs"},
                                     "source_tiers": {"FAQ": {"tier": 3}, "Docs": {"tier": 1, "type": "official"}}}})
    m = SourceMap(cfg.research)
    assert m.info("docs/faq/x.md").source == "FAQ" and m.info("docs/x.md").tier == 1
    assert m.info("other.md").source == "unknown" and m.info("other.md").tier is None


def test_sources_file_in_the_spec_shape(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text('sources: {"docs/**": "Vendor docs", "forum/**": "Forum"}\n'
                 'source_tiers: {"Vendor docs": {tier: 1, type: official}, "Forum": {tier: 5, type: social}}\n'
                 'mode_configs: {strict: {max_tier: 1}}\nreasoning: {max_iterations: 2}\n')
    s = load_settings(RagixConfig(), f)
    assert s.source_tiers["Forum"].tier == 5 and s.reasoning.max_iterations == 2
    assert s.mode_configs["strict"].max_tier == 1 and s.mode_configs["monitor"].compare_tiers == [1, 5]


@pytest.mark.parametrize("text,message", [
    ("sources: {a/**: X}\n", "sources without a tier"),
    ("source_tiers: {X: {tier: 9}}\n", "source_tiers.X.tier"),
    ("mode_configs: {fast: {max_tier: 2}}\n", "unknown mode"),
    ("mode_configs: {monitor: {compare_tiers: [5, 1]}}\n", "compare_tiers"),
    ("srcs: {}\n", "unknown key"),
    ("- a list\n", "mapping"),
    ("sources: {a: [\n", "not valid YAML"),
])
def test_bad_sources_files_name_what_is_wrong(tmp_path, text, message):
    f = tmp_path / "s.yaml"
    f.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_settings(RagixConfig(), f)


def test_missing_sources_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="cannot read"):
        load_settings(RagixConfig(), tmp_path / "none.yaml")


def test_research_section_of_ragix_yaml():
    with pytest.raises(ConfigError, match="research.retrieval.k"):
        parse_config({"research": {"retrieval": {"k": 0}}})
    assert parse_config({"research": {"default_mode": "strict"}}).research.default_mode == "strict"
