//! Prints the whole catalog as JSON (every tool of every enabled family, whatever keys
//! are configured): what the Python and Node type generators read.
//! Run: `cargo run -q -p toolpack --example catalog`

fn main() {
    let json = toolpack::Catalog::get().to_json();
    println!(
        "{}",
        serde_json::to_string_pretty(&json).expect("the catalog is JSON")
    );
}
