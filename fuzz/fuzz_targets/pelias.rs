#![no_main]
toolpack_fuzz::target!("pelias");
