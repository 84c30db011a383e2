#![no_main]
toolpack_fuzz::target!("d2_arrows");
