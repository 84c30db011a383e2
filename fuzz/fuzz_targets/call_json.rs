#![no_main]
toolpack_fuzz::target!("call_json");
