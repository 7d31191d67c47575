"""The engine process: the `jiangjun` command's protocol server on stdin/stdout.

`protocol.serve` reads the first command and hands the stream to a dialect (`uci.UciSession`,
`ucci.UcciSession`, both built on `session.Session`, and `cecp.CecpSession`), importing only that one;
every dialect drives the one search facade, `engine.Engine` (created on first use), with
`engine.search_types.SearchLimits` and the time manager `timeman`, and offers the options of the one table
`options`. `bench` is `jiangjun bench`. This layer uses the rules library (engine.position and friends)
and the kernel; nothing below it imports it.
"""
