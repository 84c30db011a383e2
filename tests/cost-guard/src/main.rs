//! `toolpack-cost-guard SCENARIO --upstream URL [--calls N]`: the program the
//! instruction-count guard runs under callgrind (`cargo xtask bench`). It sets up one
//! scenario, calls it a few times to warm every cache and connection, then calls it `N`
//! times (default 10) with callgrind's instrumentation on, so the counts are of steady-state
//! calls only. `toolpack-cost-guard list` prints the scenarios' names.
//!
//! Every scenario is one tool call, made either directly on the core (`core …`) or as a
//! JSON-RPC `tools/call` POST through the MCP server's HTTP app in process (`mcp …`,
//! stateless at protocol 2025-06-18, no sockets): `stationToilets` (the bundled station
//! data), `query_architecture` (the example loko project) and `get_departures` (the fake
//! upstream at `URL`). `mcp read_view` reads a view (`resources/read`) instead. `mcp
//! 2026-07-28 …` speaks that protocol (its `Mcp-Method` and `Mcp-Name` headers, the
//! request's `_meta`); `mcp session …` calls or reads in a session opened first; `mcp stdio
//! …` sends its line to the server's stdio transport on an in-process pipe.

mod answers;
mod callgrind;
mod scenarios;
mod stdio_peer;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse(&args) {
        Ok(Some(run)) => {
            scenarios::run(&run);
            ExitCode::SUCCESS
        }
        Ok(None) => {
            for name in scenarios::NAMES {
                println!("{name}");
            }
            ExitCode::SUCCESS
        }
        Err(usage) => {
            eprintln!("toolpack-cost-guard: {usage}");
            eprintln!("usage: toolpack-cost-guard SCENARIO --upstream URL [--calls N] | list");
            ExitCode::from(2)
        }
    }
}

/// The scenario asked for, or `None` for `list`.
fn parse(args: &[String]) -> Result<Option<scenarios::Run>, String> {
    let (scenario, rest) = args.split_first().ok_or("no scenario named")?;
    if scenario == "list" {
        return Ok(None);
    }
    if !scenarios::NAMES.contains(&scenario.as_str()) {
        return Err(format!("unknown scenario {scenario:?}"));
    }
    let mut run = scenarios::Run {
        scenario: scenario.clone(),
        upstream: String::new(),
        calls: 10,
    };
    let mut rest = rest.iter();
    while let Some(flag) = rest.next() {
        let value = rest.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--upstream" => run.upstream = value.clone(),
            "--calls" => run.calls = value.parse().map_err(|_| "--calls is a number")?,
            _ => return Err(format!("unknown flag {flag:?}")),
        }
    }
    if run.upstream.is_empty() {
        return Err("--upstream is required".into());
    }
    Ok(Some(run))
}
