"""engine.match.options: the table `jiangjun match`'s command line is read by; each word checked as read."""
import pytest

from engine.match.options import (BY_FLAG, ENGINE_KEYS, TABLE, UsageError, prefixed, read_command_line,
                                  read_settings)


def test_every_option_is_a_row_with_help_and_a_default_of_its_type():
    flags = [row.flag for row in TABLE]
    assert len(flags) == len(set(flags)) and all(row.help for row in TABLE)
    for row in TABLE:
        if row.takes == "value" and row.default is not None and row.choices:
            assert row.default in row.choices
        if row.takes == "value" and row.default is not None and not row.choices:
            assert row.read(str(row.default)) == row.default, row.flag
        for key in row.keys:
            assert key.help and (key.default is None or not key.choices or key.default in key.choices)
    # cutechess's spellings, and this runner's own.
    for flag in ("-engine", "-each", "-tc", "-games", "-rounds", "-repeat", "-concurrency", "-openings", "-sprt",
                 "-pgnout", "-resume", "-cluster", "-seed", "-draw", "-resign", "-maxmoves", "-tournament",
                 "-scale", "-timemargin", "-event", "-noadjudicate", "-help", "-h", "--help"):
        assert flag in BY_FLAG


def test_values_are_read_by_type_with_defaults():
    values = read_command_line(["-games", "2", "-scale", "0.5", "-repeat", "-event", "Club", "match",
                                "-engine", "cmd=a", "option.Hash=64", "-engine", "cmd=b", "depth=3",
                                "-each", "proto=uci", "-each", "tc=1+0", "-pgnout", "x.pgn", "notation=wxf"])
    assert (values["games"], values["scale"], values["repeat"], values["event"]) == (2, 0.5, True, "Club match")
    assert (values["rounds"], values["concurrency"], values["timemargin"], values["tournament"]) == \
        (1, 1, 100, "round-robin")
    assert values["noadjudicate"] is False and values["tc"] is None and values["sprt"] is None
    assert values["engine"] == [{"cmd": "a", "option.Hash": "64"}, {"cmd": "b", "depth": 3}]
    assert values["each"] == {"proto": "uci", "tc": "1+0"}          # -each given twice adds up
    assert values["pgnout"] == {"FILE": "x.pgn", "notation": "wxf"}
    assert prefixed(values["engine"][0], "option.") == {"Hash": "64"}


def test_a_settings_option_gets_its_keys_defaults_where_used():
    values = read_command_line(["-resign", "score=500", "-draw", "movecount=4"])
    assert read_settings(BY_FLAG["-resign"], values["resign"]) == {"movecount": 1, "score": 500, "twosided": False}
    assert read_settings(BY_FLAG["-draw"], values["draw"]) == {"movenumber": 0, "movecount": 4, "score": 0}
    assert read_settings(BY_FLAG["-sprt"], None) is None
    with pytest.raises(UsageError, match="-sprt needs elo1="):
        read_settings(BY_FLAG["-sprt"], read_command_line(["-sprt", "elo0=0"])["sprt"])
    assert read_settings(BY_FLAG["-engine"], {"cmd": "x"})["proto"] == "auto"


@pytest.mark.parametrize("argv,message", [
    (["-bogus"], "unknown option -bogus"),
    (["stray", "-games", "1"], "unexpected 'stray' before the first option"),
    (["-games", "x"], "-games must be a whole number, not 'x'"),
    (["-games", "0"], "-games: must be at least 1, not '0'"),
    (["-games"], "-games takes one value"),
    (["-games", "1", "2"], "-games takes one value"),
    (["-scale", "-0.5"], "-scale"),
    (["-repeat", "2"], "-repeat takes no value"),
    (["-tournament", "swiss"], "-tournament must be one of round-robin, gauntlet, not 'swiss'"),
    (["-tc", "fast"], "-tc: "),
    (["-cluster", "nowhere"], "-cluster: cluster 'nowhere'"),
    (["-pgnout"], "-pgnout takes FILE first"),
    (["-pgnout", "x.pgn", "notation=fen"], "-pgnout notation must be one of iccs, wxf, chinese, san"),
    (["-engine", "cmd"], "-engine: expected one of cmd=CMD"),
    (["-engine", "cmd=a", "colour=red"], "got 'colour=red'"),
    (["-engine", "cmd=a", "proto=uxi"], "-engine proto must be one of uci, ucci, xboard, cecp, auto"),
    (["-engine", "cmd=a", "ranks=2"], "-engine ranks: must be 0 or 1"),
    (["-engine", "cmd=a", "tc=soon"], "-engine tc: "),
    (["-resign", "twosided=maybe"], "-resign twosided must be true or false"),
])
def test_a_bad_word_is_named(argv, message):
    with pytest.raises(UsageError) as caught:
        read_command_line(argv)
    assert message in str(caught.value)


def test_engine_keys_are_shared_by_engine_and_each():
    assert BY_FLAG["-engine"].keys is ENGINE_KEYS and BY_FLAG["-each"].keys is ENGINE_KEYS
    option = ENGINE_KEYS[-1]
    assert option.is_prefix and BY_FLAG["-engine"].key("option.Threads") is option
    assert BY_FLAG["-engine"].key("option.") is None       # a prefix needs a name after it
