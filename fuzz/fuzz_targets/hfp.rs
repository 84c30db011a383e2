#![no_main]
toolpack_fuzz::target!("hfp");
