#![no_main]
toolpack_fuzz::server_target!("bearer");
