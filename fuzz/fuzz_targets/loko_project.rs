#![no_main]
toolpack_fuzz::target!("loko_project");
