#![no_main]
toolpack_fuzz::server_target!("fast_path");
