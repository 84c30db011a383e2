#![no_main]
toolpack_fuzz::target!("station_data");
