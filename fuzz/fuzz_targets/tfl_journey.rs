#![no_main]
toolpack_fuzz::target!("tfl_journey");
