#![no_main]
toolpack_fuzz::target!("otp_departures");
