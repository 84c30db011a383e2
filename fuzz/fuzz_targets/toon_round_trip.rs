#![no_main]
toolpack_fuzz::target!("toon_round_trip");
