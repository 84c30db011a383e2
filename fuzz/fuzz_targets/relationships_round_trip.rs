#![no_main]
toolpack_fuzz::target!("relationships_round_trip");
