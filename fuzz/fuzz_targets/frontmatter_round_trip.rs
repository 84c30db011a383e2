#![no_main]
toolpack_fuzz::target!("frontmatter_round_trip");
