//! Prints the whole contract as JSON: every tool of every enabled family (MCP fields,
//! success and error schemas, error codes) and every error kind with its name in each
//! language. `cargo xtask codegen` reads the same JSON in-process.
//! Run: `cargo run -q -p toolpack --example catalog`

fn main() {
    let json = toolpack::Catalog::get().contract_json();
    println!(
        "{}",
        serde_json::to_string_pretty(&json).expect("the catalog is JSON")
    );
}
