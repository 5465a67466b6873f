"""Lead Letter Printers' own search defaults (GAME_SEARCH_DEFAULTS in its search hooks)."""
from gutenberg_ai import games


def test_its_rollouts_stop_after_50_decisions_the_rest_shared():
    llp = games.get("lead-letter-printers").core
    assert llp.GAME_SEARCH_DEFAULTS == {"cutoff": 50}
    assert llp.SHARED_SEARCH_OPTIONS["cutoff"] == 100
    assert llp.search_config() == {**llp.SHARED_SEARCH_OPTIONS, "cutoff": 50}
    assert llp.search_config(cutoff=100) == llp.SHARED_SEARCH_OPTIONS

